#include "command.hpp"

namespace gatekit::flaky_tracker {

namespace {

Result<test_run::CommandTemplate> parse(std::vector<std::string> words, const std::vector<std::string_view>& known) {
  auto parsed = test_run::parse_template(std::move(words), known);
  if (!parsed) return bad_input("--command: " + parsed.error().message);
  if (!test_run::holds(parsed->words, test_run::kJunit))
    return bad_input("--command: the command must write its JUnit report to {junit}");
  return parsed;
}

}  // namespace

std::vector<std::string> default_rerun_command() {
  return {"python3", "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:rerunfailures", "--junitxml={junit}",
          "--", "{tests}"};
}

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text) {
    if (c == ' ' || c == '\t') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

Result<RerunTemplate> check_rerun_template(std::vector<std::string> words) {
  if (words.empty()) return bad_input("--command: the rerun command is empty");
  auto command = parse(std::move(words), {test_run::kTests, test_run::kNames, test_run::kJunit});
  if (!command) return command.error();
  const bool tests = test_run::holds(command->words, test_run::kTests, true);
  const bool names = test_run::holds(command->words, test_run::kNames);
  if (tests == names) return bad_input("--command: name the tests with exactly one of {tests} or {names}");
  return RerunTemplate{std::move(*command), tests ? TargetForm::node_ids : TargetForm::names};
}

Result<test_run::CommandTemplate> check_stress_template(std::vector<std::string> words) {
  if (words.empty()) return bad_input("--command: the stress command is empty");
  return parse(std::move(words), {test_run::kJunit, test_run::kCopy});
}

Result<std::vector<std::string>> command_words(const std::string& text, const std::vector<std::string>& words) {
  if (!text.empty() && !words.empty())
    return bad_input("--command and a command after -- are both given; use one");
  return words.empty() ? split_words(text) : words;
}

}  // namespace gatekit::flaky_tracker
