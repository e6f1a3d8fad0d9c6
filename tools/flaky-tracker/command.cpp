#include "command.hpp"

#include <regex>

namespace gatekit::flaky_tracker {

namespace {

const std::regex kPlaceholder(R"(\{[A-Za-z_]*\})");

Status check_placeholders(const std::vector<std::string>& words, const std::vector<std::string>& known,
                          const std::string& option) {
  for (const auto& word : words) {
    for (std::sregex_iterator it(word.begin(), word.end(), kPlaceholder), end; it != end; ++it) {
      const std::string found = it->str();
      bool ok = false;
      for (const auto& k : known) ok = ok || k == found;
      if (!ok) return bad_input(option + ": unknown placeholder " + found + " (known: " + [&] {
                                  std::string all;
                                  for (const auto& k : known) all += (all.empty() ? "" : " ") + k;
                                  return all;
                                }() + ")");
    }
  }
  return {};
}

bool has(const std::vector<std::string>& words, std::string_view placeholder, bool whole_word) {
  for (const auto& w : words)
    if (whole_word ? w == placeholder : w.find(placeholder) != std::string::npos) return true;
  return false;
}

std::string replace_all(std::string word, std::string_view from, const std::string& to) {
  for (std::size_t at = word.find(from); at != std::string::npos; at = word.find(from, at + to.size()))
    word.replace(at, from.size(), to);
  return word;
}

}  // namespace

std::vector<std::string> default_rerun_command() {
  return {"python3", "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:rerunfailures", "--junitxml={report}",
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

Result<TargetForm> check_rerun_template(const std::vector<std::string>& words) {
  if (words.empty()) return bad_input("--command: the rerun command is empty");
  if (auto s = check_placeholders(words, {"{tests}", "{names}", "{report}"}, "--command"); !s) return s.error();
  if (!has(words, "{report}", false))
    return bad_input("--command: the command must write its JUnit report to {report}");
  if (has(words, "{tests}", false) && !has(words, "{tests}", true))
    return bad_input("--command: {tests} must be a word of its own (it becomes one word per test)");
  const bool tests = has(words, "{tests}", true), names = has(words, "{names}", false);
  if (tests == names) return bad_input("--command: name the tests with exactly one of {tests} or {names}");
  return tests ? TargetForm::node_ids : TargetForm::names;
}

Status check_stress_template(const std::vector<std::string>& words) {
  if (words.empty()) return bad_input("--command: the stress command is empty");
  if (auto s = check_placeholders(words, {"{report}", "{copy}"}, "--command"); !s) return s;
  if (!has(words, "{report}", false))
    return bad_input("--command: the command must write its JUnit report to {report}");
  return {};
}

std::vector<std::string> expand_command(const std::vector<std::string>& words, const Placeholders& values) {
  std::vector<std::string> argv;
  for (const auto& word : words) {
    if (word == "{tests}") {
      argv.insert(argv.end(), values.tests.begin(), values.tests.end());
      continue;
    }
    std::string w = replace_all(word, "{report}", values.report);
    w = replace_all(std::move(w), "{copy}", values.copy);
    if (w.find("{names}") != std::string::npos) w = replace_all(std::move(w), "{names}", names_regex(values.names));
    argv.push_back(std::move(w));
  }
  return argv;
}

std::string names_regex(const std::vector<std::string>& names) {
  static const std::string kSpecial = R"(\^$.|?*+()[]{})";
  std::string out = "^(";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += '|';
    for (char c : names[i]) {
      if (kSpecial.find(c) != std::string::npos) out += '\\';
      out += c;
    }
  }
  return out + ")$";
}

Result<std::vector<std::string>> command_words(const std::string& text, const std::vector<std::string>& words) {
  if (!text.empty() && !words.empty())
    return bad_input("--command and a command after -- are both given; use one");
  return words.empty() ? split_words(text) : words;
}

}  // namespace gatekit::flaky_tracker
