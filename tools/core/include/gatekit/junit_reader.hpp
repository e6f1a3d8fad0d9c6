#pragma once
// Reading JUnit XML as the common test runners write it: pytest (xunit1 and xunit2, with or
// without --junit-prefix), CTest, Surefire/Failsafe (flakyFailure, rerunFailure), Go's
// gotestsum, nested <testsuite>, a missing <testsuites> root.
//
// The reader streams: it hands each <testcase> to a callback as soon as the element closes
// and keeps nothing else, so memory does not grow with the report. Text (failure detail,
// system-out, system-err, CDATA of any size) is kept as a bounded excerpt: the first and the
// last bytes up to a limit, with the number of bytes left out. Attribute values are the one
// exception expat holds whole; the reader cuts them to the same limit, except the ones a
// test's identity is made of (suite, classname, name, file), kept whole up to a hard limit
// (ReadOptions::max_identity_bytes): a report with a longer one is refused, never cut, so
// that two names that differ late never become one test.
//
// Each case carries the family of the runner that wrote it, as far as the report says
// (Family: pytest, gotestsum, CTest, every other). Test identity (TestCase::id) follows
// pytest's node-id rules for pytest reports, keeps classname and name for gotestsum and CTest,
// and adds the suite for the others where it tells cases apart (jest-junit writes one test
// name in several suites); docs/junit.md, "Families" and "Test identity". The same id twice in
// one report is one test's attempts only in the families that write attempts that way (pytest,
// gotestsum); elsewhere the cases are distinct tests, numbered by Occurrences. A consumer that
// keys on ids still checks for collisions (hostile input).
//
// Each <testsuites>/<testsuite> may declare `failures` and `errors`; the reader compares them
// with the <failure>/<error> elements of the cases inside it (nested suites included) and
// lists the suites that declare more than they show (check_declared_counts decides).
//
// Input is taken as UTF-8 whatever the XML declaration says: invalid byte sequences and
// characters XML 1.0 forbids (raw control characters, which some runners copy from a test's
// output) become U+FFFD and are counted, instead of failing the whole report. A document that
// is not XML, is cut short, or is not a JUnit report is an Error naming the file, line and
// column. Entity declarations (a DTD) are refused: a report never needs them, and they are
// the classic way to make an XML reader expand a small file into gigabytes.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gatekit/junit_writer.hpp"
#include "gatekit/result.hpp"

namespace gatekit {
class Files;
}

namespace gatekit::junit {

namespace detail {
class Tap;  // junit_tap.hpp, private to the core
}

// Which runner wrote a case, as far as the report says (docs/junit.md, "Families"). It
// decides the case's id and what the same id twice in one report means.
enum class Family {
  other,      // Surefire/Failsafe (JUnit, TestNG), jest-junit, and every writer not named below
  pytest,     // a <testsuites name="pytest tests"> or <testsuite name="pytest">, a `file`
              // attribute ending in .py, or NodeIds::pytest
  gotestsum,  // inside a <testsuite> whose <properties> hold go.version (gotestsum writes it
              // into every package's suite)
  ctest,      // a `status` attribute of run, fail, notrun or disabled on the <testcase>
};

// Whether cases of the family that share an id are one test's attempts (pytest-rerunfailures'
// reruns, gotestsum --rerun-fails): pytest and gotestsum. Elsewhere they are distinct tests.
bool repeats_are_attempts(Family family);

struct TestCase {
  std::string suite;      // name of the innermost enclosing <testsuite>
  std::string classname;  // as written (pytest: the --junit-prefix included)
  std::string name;
  std::string file;       // the `file` attribute (pytest xunit1: the file that *defines* the
                          // test function, e.g. a mixin's), else the file of the node id
  int line = 0;           // the `line` attribute (pytest xunit1), 0 when absent
  std::string node_id;    // pytest node id (tests/test_a.py::TestX::test_y[1]) when derivable
  JunitOutcome outcome = JunitOutcome::passed;
  double time_s = 0;      // 0 when absent or unreadable
  std::string type;       // type attribute of the deciding failure/error/skipped element
  std::string message;    // its message attribute (excerpt)
  std::string detail;     // its text (excerpt), e.g. the traceback or pytest's skip location
                          // (a case that passed after Surefire flaky attempts: those of its
                          // first <flakyFailure>/<flakyError>, the trace from its <stackTrace>)
  std::string system_out;  // excerpts of the test's own <system-out> / <system-err>
  std::string system_err;
  int flaky_attempts = 0;  // Surefire <flakyFailure>/<flakyError>: failed, then passed on rerun
  int rerun_failures = 0;  // Surefire <rerunFailure>/<rerunError>: failed again on rerun
  int report_line = 0;     // line of the <testcase> element in the report
  Family family = Family::other;
  // The k-th case of its report with this id, in a family whose repeats are distinct tests
  // (Occurrences sets it; the reader leaves 1): the id then ends in " #k".
  std::size_t occurrence = 1;
  // Where its <testcase> start tag begins, in bytes from the start of the report as the
  // reader reads it (after its UTF-8 repairs, which change no byte of valid UTF-8): the case
  // is found again by it when the report is written again (junit::rewrite).
  std::uint64_t byte_offset = 0;

  // The identity other tools key on: the node id when there is one; else `classname::name`
  // (or the name alone when there is no classname), preceded by `suite::` where suite_in_id();
  // then " #k" for the k-th case (k > 1) of a report with that id (occurrence). A case with
  // neither name nor classname is one test of its own: "(unnamed test case, report line N)".
  std::string id() const;
  // The same identity without a copy where the case holds it whole (its node id, or a name
  // with no classname nor suite); else built into `scratch`, whose storage a reader's handler
  // reuses from case to case. The view lives as long as the case and `scratch` are unchanged.
  std::string_view id(std::string& scratch) const;
  // The id without the occurrence number (what Occurrences counts).
  std::string_view base_id(std::string& scratch) const;
  // Whether the id names the suite: family other, a suite that is neither empty nor the
  // classname (Surefire and gotestsum name the suite after the class or package), no node id.
  bool suite_in_id() const;
  bool ran() const { return outcome != JunitOutcome::skipped; }
};

// The cases of one report that share an id but are not one test's attempts (two jest tests of
// one name in one file, a TestNG data provider's invocations): the k-th is numbered k, in
// report order, so that each stays a test of its own. A report is numbered by one Occurrences
// from its first case on; every tool that keys on ids numbers it the same way. Cases whose
// family writes attempts (repeats_are_attempts) and unnamed cases always get 1. Memory: one
// entry per distinct id numbered (a 64-bit hash of it and a count), none for pytest's cases.
class Occurrences {
 public:
  // The occurrence of `test` among the cases seen so far: 1 for the first with its id.
  std::size_t next(const TestCase& test);
  void number(TestCase& test) { test.occurrence = next(test); }
  // The numbered id of `test` (its next occurrence, also put in `occurrence` when given), as
  // TestCase::id(scratch) gives it.
  std::string_view id(const TestCase& test, std::string& scratch, std::size_t* occurrence = nullptr);

 private:
  std::unordered_map<std::uint64_t, std::uint32_t> seen_;
  std::string scratch_;
};

enum class NodeIds {
  detect,  // derive pytest node ids when the report looks like pytest's (a <testsuite
           // name="pytest">, or a `file` attribute ending in .py)
  pytest,  // always derive (pytest run with a custom junit_suite_name)
  none,    // never
};

struct ReadOptions {
  std::size_t excerpt_bytes = 4096;  // per text field: head and tail halves of this many bytes
  std::string junit_prefix;          // pytest --junit-prefix, stripped before deriving node ids
  NodeIds node_ids = NodeIds::detect;
  std::size_t max_depth = 256;       // deeper element nesting is an error (hostile input)
  // Longest suite name, classname, name or file a report may have: identity is never cut,
  // so a longer one is an error (could not evaluate) rather than unbounded memory.
  std::size_t max_identity_bytes = 64 * 1024;
};

// A <testsuites> or <testsuite> that declares more failures and errors than its cases show.
struct SuiteCount {
  std::string element;  // "testsuites" or "testsuite"
  std::string name;     // its name attribute (excerpt)
  int report_line = 0;  // line of its start tag
  std::size_t declared = 0;  // failures + errors it declares
  std::size_t seen = 0;      // <failure> and <error> elements of the cases inside it
};

struct ReadStats {
  std::size_t cases = 0;
  std::size_t suites = 0;
  std::size_t passed = 0, failures = 0, errors = 0, skipped = 0;
  std::size_t bytes = 0;           // of the report
  std::size_t replaced_chars = 0;  // invalid UTF-8 / XML-illegal characters replaced by U+FFFD
  std::size_t flaky = 0;           // cases with Surefire flaky attempts
  // Suites whose declared `failures` + `errors` exceed the <failure>/<error> elements of the
  // cases inside them (nested suites included): the first kMaxUndercounted, and how many in
  // all. A suite with neither attribute declares nothing. Surefire's flakyFailure/flakyError
  // and pytest-rerunfailures' earlier attempts are not failures, and no writer counts them.
  static constexpr std::size_t kMaxUndercounted = 10;
  std::vector<SuiteCount> undercounted;
  std::size_t undercounted_suites = 0;
};

// Could not evaluate when a suite declares failures or errors that its cases do not show (a
// runner that crashed outside any test, a writer cut short): the report would read as fewer
// failures than the run had. Names the report, the suite and its line. Pure.
Status check_declared_counts(const ReadStats& stats, std::string_view origin);

using CaseHandler = std::function<void(const TestCase&)>;

// Incremental reading, for input that arrives in pieces (a pipe, a fuzzer). `origin` names
// the report in errors. After an error every later call returns the same error.
class Reader {
 public:
  Reader(std::string origin, CaseHandler on_case, ReadOptions options = {});
  // The same, also telling `tap` what it reads (the core's pass-through writer, rewrite()).
  Reader(std::string origin, CaseHandler on_case, ReadOptions options, detail::Tap* tap);
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  Status feed(std::string_view bytes);
  Result<ReadStats> finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The whole file, read through `files` in pieces of at most 64 KiB (Files::read_pieces), so
// memory stays bounded whatever the report's size. A missing or unreadable file is an Error
// too: "PATH: cannot read the report (missing or unreadable)".
Result<ReadStats> read_file(const Files& files, const std::string& path, const CaseHandler& on_case,
                            const ReadOptions& options = {});
Result<ReadStats> read_text(std::string_view text, const std::string& origin, const CaseHandler& on_case,
                            const ReadOptions& options = {});

// pytest's node id from its JUnit classname and name (pure; exposed for tests). `file` is the
// xunit1 `file` attribute when there is one; `prefix` is --junit-prefix, stripped where the
// classname starts with it. The module path comes from the classname and classes are kept:
// `file` names the file that defines the test function (a mixin's, for an inherited method),
// so it is used only where its module path starts the classname, and then it also says where
// the module ends. Empty when the classname cannot be taken apart as pytest writes it (no
// module segment named test_*/ *_test and no class, an empty segment, a '/', ':' or '[' in a
// segment, a "::" in the name outside its parameters): the caller then keeps classname and
// name. Distinct (classname, name) pairs never share a node id under one prefix.
std::string pytest_node_id(std::string_view classname, std::string_view name, std::string_view file,
                           std::string_view prefix);

}  // namespace gatekit::junit
