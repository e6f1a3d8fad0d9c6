#pragma once
// Running a test command: one template language for the command, one runner for a test pass
// (the command, then the JUnit report it leaves), one logger for a child's output.
//
// The template is a list of words, never a shell line. Placeholders:
//   {tests}    a word of its own: one word per test (file path or node id)
//   {junit}    inside a word: the path the command writes its JUnit report to
//   {markers}  inside a word: the pass's marker expression (gpu-gate)
//   {workers}  inside a word: the number of workers (gpu-gate)
//   {names}    inside a word: ^(a|b)$ matching exactly the tests' names (flaky-tracker)
//   {copy}     inside a word: the number of the stress copy (flaky-tracker)
// Old spellings still read, with a deprecation warning: {paths} (gpu-gate) for {tests},
// {report} (flaky-tracker) for {junit}.
// A test from outside data reaches the child only as a whole word where the template put
// {tests}, and one that begins with '-' is given as ./NAME: it never reads as an option.
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/context.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/process.hpp"
#include "gatekit/result.hpp"

namespace gatekit {
class Workflow;
}

namespace gatekit::test_run {

inline constexpr std::string_view kTests = "{tests}";
inline constexpr std::string_view kJunit = "{junit}";
inline constexpr std::string_view kMarkers = "{markers}";
inline constexpr std::string_view kWorkers = "{workers}";
inline constexpr std::string_view kNames = "{names}";
inline constexpr std::string_view kCopy = "{copy}";

// An old spelling and the placeholder it stands for.
struct OldSpelling {
  std::string_view old_name;
  std::string_view name;
};
inline constexpr OldSpelling kOldSpellings[] = {{"{paths}", kTests}, {"{report}", kJunit}};

// A template in the current spelling, and the old spellings it was written with.
struct CommandTemplate {
  std::vector<std::string> words;
  std::vector<std::string> old_spellings;  // e.g. "{paths}", each once, in order of first use
};

// Pure. Rewrites the old spellings to the current ones; then each placeholder must be one of
// `known` (current spellings), and {tests} a word of its own. The error message names the
// problem only ("unknown placeholder {x} (known: {tests} {junit})", "{tests} must be a word of
// its own (it becomes one word per test)"): the caller adds the file, line or option.
Result<CommandTemplate> parse_template(std::vector<std::string> words, const std::vector<std::string_view>& known);

// One deprecation warning per old spelling, through the workflow: "WHERE: {paths} is the old
// spelling of {tests}: write {tests} (the old one will be removed)".
void warn_old_spellings(Workflow& workflow, const CommandTemplate& command, std::string_view where);

// Whether a word of the template holds the placeholder (whole_word: is it).
bool holds(const std::vector<std::string>& words, std::string_view placeholder, bool whole_word = false);

struct CommandValues {
  std::vector<std::string> tests;        // {tests}: one word each (none: the word is dropped)
  std::optional<std::string> junit;      // the others: replaced where a value is given,
  std::optional<std::string> markers;    // left as written where not
  std::optional<int> workers;
  std::optional<std::string> names;      // already a regular expression (names_regex)
  std::optional<std::string> copy;
};

// Pure. The argv: each placeholder replaced by its value; a test beginning with '-' as ./TEST.
std::vector<std::string> expand(const std::vector<std::string>& words, const CommandValues& values);

// ^(a|b)$ with every regular-expression character of the names escaped.
std::string names_regex(const std::vector<std::string>& names);

// A child's output, line by line, into the workflow log (Workflow::log keeps each line inert),
// so that a long test pass shows progress and its output cannot act as a workflow command. A
// line longer than kMaxLine is logged in pieces: no unbounded buffer.
class ChildLog {
 public:
  static constexpr std::size_t kMaxLine = 64 * 1024;
  explicit ChildLog(Workflow& workflow) : workflow_(workflow) {}
  void feed(std::string_view chunk);
  void flush();

 private:
  Workflow& workflow_;
  std::string pending_;
};

struct TestPass {
  std::string name;                          // "gate pass", "GPU pass", "rerun 2": for the log and errors
  std::vector<std::string> argv;             // expanded
  std::filesystem::path cwd;                 // empty: the caller's
  std::map<std::string, std::string> env;    // added to the command's environment
  std::chrono::milliseconds timeout{0};      // 0: none
  std::string junit;                         // the report the command writes
  std::string group;                         // the log group around the output (empty: the name)
  junit::ReadOptions read_options;
  junit::CaseHandler on_case;                // each test case of the report (may be empty)
  // false: the output is dropped and the pass writes nothing to the workflow (no group, no
  // lines), for passes that run side by side on threads (flaky-tracker stress): the workflow
  // is not shared between threads, so the caller says how each one ended.
  bool log_output = true;
};

struct TestPassResult {
  ProcessResult process;                     // exit status and timing (output not kept)
  std::optional<junit::ReadStats> report;    // absent when the report could not be read
  std::string report_error;                  // then why, as the reader says it ("PATH: ...")
  // Why the pass gives no verdict: it ended other than with 0 or 1 (pytest: 2 interrupted,
  // 3 internal error, 4 usage error, 5 no tests collected; a signal; a timeout), or left no
  // readable report. Empty: the pass has a verdict.
  std::vector<std::string> could_not_evaluate;
  bool evaluated() const { return could_not_evaluate.empty(); }
};

// Clears the report's path first: a report an earlier run left there is removed (it would
// read as this pass's), and the path is proven writable (a report that cannot be written
// gives no verdict, so the command does not start). Then runs the pass through
// context.processes (stderr merged into stdout, streamed to the log through ChildLog, inside
// a log group), then reads its JUnit report through context.files (in pieces: bounded
// memory). An Error (could_not_evaluate) only when the command did not start: "the NAME did
// not start: cannot write PATH: REASON" (or "cannot remove PATH: REASON"), "the NAME could
// not start PROGRAM: REASON".
Result<TestPassResult> run_test_pass(Context& context, const TestPass& pass);

}  // namespace gatekit::test_run
