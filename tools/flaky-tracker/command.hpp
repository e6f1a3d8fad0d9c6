#pragma once
// The command that reruns tests (or runs a stress copy): a template of words, never a shell
// line, in the core's template language (gatekit/test_run.hpp). Placeholders:
//   {tests}   a word of its own: replaced by one word per pytest node id
//   {names}   inside a word: a regular expression matching exactly the tests' names, ^(a|b)$
//             (for `ctest -R`)
//   {junit}   inside a word: the path the command must write its JUnit report to (old
//             spelling: {report}, read with a deprecation warning)
//   {copy}    inside a word: the number of the stress copy (1..N)
// The checked template is expanded with test_run::expand (test_run::names_regex for {names}).
// Test names come from outside; they reach the child only as whole arguments in a place the
// template chose, and node ids that could read as options or leave the project are refused
// before (see decide_rerun).
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/result.hpp"
#include "gatekit/test_run.hpp"

namespace gatekit::flaky_tracker {

// The default rerun: the failed tests alone, without pytest-rerunfailures (gatekit counts the
// attempts itself), node ids after `--`.
std::vector<std::string> default_rerun_command();

// "python3 -m pytest -x" -> words, split at spaces and tabs (no quoting: a word with a space
// goes after `--` on the command line instead).
std::vector<std::string> split_words(std::string_view text);

// The command given as --command TEXT (split_words) or as words after `--`; both given is a
// usage error. Neither: an empty list.
Result<std::vector<std::string>> command_words(const std::string& text, const std::vector<std::string>& words);

enum class TargetForm { node_ids, names };

struct RerunTemplate {
  test_run::CommandTemplate command;  // in the current spelling
  TargetForm form;
};

// Checks a template: known placeholders only, {junit} present, and for a rerun exactly one
// of {tests} / {names}. Errors are bad_input and name the option. The old spellings found are
// in command.old_spellings (test_run::warn_old_spellings warns of them).
Result<RerunTemplate> check_rerun_template(std::vector<std::string> words);
Result<test_run::CommandTemplate> check_stress_template(std::vector<std::string> words);

}  // namespace gatekit::flaky_tracker
