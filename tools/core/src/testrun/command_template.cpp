// The test command's template language (test_run.hpp): parse, warn, expand. Pure but for
// warn_old_spellings, which writes through the workflow it is given.
#include <algorithm>
#include <utility>

#include "gatekit/test_run.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::test_run {
namespace {

// Each `{name}` (one or more letters and '_' between braces) in the word, in order: `{}` and
// `{1}` are text (Python's, a shell's), not placeholders.
std::vector<std::string_view> placeholders_in(std::string_view word) {
  std::vector<std::string_view> found;
  for (auto open = word.find('{'); open != std::string_view::npos; open = word.find('{', open + 1)) {
    auto end = open + 1;
    while (end < word.size() && (word[end] == '_' || (word[end] >= 'a' && word[end] <= 'z') ||
                                 (word[end] >= 'A' && word[end] <= 'Z')))
      ++end;
    if (end > open + 1 && end < word.size() && word[end] == '}') found.push_back(word.substr(open, end - open + 1));
  }
  return found;
}

std::string known_list(const std::vector<std::string_view>& known) {
  std::string all;
  for (const auto& k : known) (all += all.empty() ? "" : " ") += k;
  return all;
}

// One pass over the word: a value is never read again for placeholders, so outside data in
// one (a marker expression, a test name) cannot expand into another.
std::string expand_word(std::string_view word, const CommandValues& values) {
  const std::string workers = values.workers ? std::to_string(*values.workers) : std::string();
  const std::pair<std::string_view, const std::string*> table[] = {
      {kJunit, values.junit ? &*values.junit : nullptr},
      {kMarkers, values.markers ? &*values.markers : nullptr},
      {kWorkers, values.workers ? &workers : nullptr},
      {kNames, values.names ? &*values.names : nullptr},
      {kCopy, values.copy ? &*values.copy : nullptr}};
  std::string out;
  std::size_t at = 0;
  while (at < word.size()) {
    const auto open = word.find('{', at);
    if (open == std::string_view::npos) break;
    out += word.substr(at, open - at);
    at = open + 1;
    out += '{';
    for (const auto& [name, value] : table) {
      if (value == nullptr || word.substr(open, name.size()) != name) continue;
      out.pop_back();  // the '{' just copied
      out += *value;
      at = open + name.size();
      break;
    }
  }
  out += word.substr(std::min(at, word.size()));
  return out;
}

}  // namespace

Result<CommandTemplate> parse_template(std::vector<std::string> words, const std::vector<std::string_view>& known) {
  CommandTemplate command;
  for (auto& word : words) {
    for (const auto& [old_name, name] : kOldSpellings) {
      if (word.find(old_name) == std::string::npos) continue;
      if (std::find(command.old_spellings.begin(), command.old_spellings.end(), old_name) == command.old_spellings.end())
        command.old_spellings.emplace_back(old_name);
      word = replace_all(std::move(word), old_name, name);
    }
    for (const auto found : placeholders_in(word)) {
      if (std::find(known.begin(), known.end(), found) == known.end())
        return bad_input("unknown placeholder " + std::string(found) + " (known: " + known_list(known) + ")");
    }
    if (word != kTests && word.find(kTests) != std::string::npos)
      return bad_input(std::string(kTests) + " must be a word of its own (it becomes one word per test)");
  }
  command.words = std::move(words);
  return command;
}

void warn_old_spellings(Workflow& workflow, const CommandTemplate& command, std::string_view where) {
  for (const auto& old_name : command.old_spellings) {
    for (const auto& spelling : kOldSpellings) {
      if (spelling.old_name != old_name) continue;
      const std::string name(spelling.name);
      workflow.annotate({Severity::warning,
                         std::string(where) + ": " + old_name + " is the old spelling of " + name + ": write " + name +
                             " (the old one will be removed)",
                         "gatekit: deprecated placeholder"});
    }
  }
}

bool holds(const std::vector<std::string>& words, std::string_view placeholder, bool whole_word) {
  return std::any_of(words.begin(), words.end(), [&](const std::string& word) {
    return whole_word ? word == placeholder : word.find(placeholder) != std::string::npos;
  });
}

std::vector<std::string> expand(const std::vector<std::string>& words, const CommandValues& values) {
  std::vector<std::string> argv;
  for (const auto& word : words) {
    if (word == kTests) {
      // Tests come from outside data: one beginning with '-' must not read as an option.
      for (const auto& test : values.tests) argv.push_back(test.starts_with('-') ? "./" + test : test);
      continue;
    }
    argv.push_back(expand_word(word, values));
    continue;
  }
  return argv;
}

std::string names_regex(const std::vector<std::string>& names) {
  static constexpr std::string_view kSpecial = R"(\^$.|?*+()[]{})";
  std::string out = "^(";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += '|';
    for (char c : names[i]) {
      if (kSpecial.find(c) != std::string_view::npos) out += '\\';
      out += c;
    }
  }
  return out + ")$";
}

}  // namespace gatekit::test_run
