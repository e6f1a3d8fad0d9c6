#pragma once
// Reading JUnit XML as the common test runners write it: pytest (xunit1 and xunit2, with or
// without --junit-prefix), CTest, Surefire/Failsafe (flakyFailure, rerunFailure), Go's
// gotestsum, nested <testsuite>, a missing <testsuites> root.
//
// The reader streams: it hands each <testcase> to a callback as soon as the element closes
// and keeps nothing else, so memory does not grow with the report. Text (failure detail,
// system-out, system-err, CDATA of any size) is kept as a bounded excerpt: the first and the
// last bytes up to a limit, with the number of bytes left out. Attribute values are the one
// exception expat holds whole; the reader cuts them to the same limit.
//
// Input is taken as UTF-8 whatever the XML declaration says: invalid byte sequences and
// characters XML 1.0 forbids (raw control characters, which some runners copy from a test's
// output) become U+FFFD and are counted, instead of failing the whole report. A document that
// is not XML, is cut short, or is not a JUnit report is an Error naming the file, line and
// column. Entity declarations (a DTD) are refused: a report never needs them, and they are
// the classic way to make an XML reader expand a small file into gigabytes.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "gatekit/junit_writer.hpp"
#include "gatekit/result.hpp"

namespace gatekit::junit {

struct TestCase {
  std::string suite;      // name of the innermost enclosing <testsuite>
  std::string classname;  // as written (pytest: the --junit-prefix included)
  std::string name;
  std::string file;       // the `file` attribute, else the file of the derived pytest node id
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

  // The identity other tools key on: the node id when there is one, else `classname::name`
  // (or the name alone when there is no classname).
  std::string id() const;
  bool ran() const { return outcome != JunitOutcome::skipped; }
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
};

struct ReadStats {
  std::size_t cases = 0;
  std::size_t suites = 0;
  std::size_t passed = 0, failures = 0, errors = 0, skipped = 0;
  std::size_t bytes = 0;           // of the report
  std::size_t replaced_chars = 0;  // invalid UTF-8 / XML-illegal characters replaced by U+FFFD
  std::size_t flaky = 0;           // cases with Surefire flaky attempts
};

using CaseHandler = std::function<void(const TestCase&)>;

// Incremental reading, for input that arrives in pieces (a pipe, a fuzzer). `origin` names
// the report in errors. After an error every later call returns the same error.
class Reader {
 public:
  Reader(std::string origin, CaseHandler on_case, ReadOptions options = {});
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  Status feed(std::string_view bytes);
  Result<ReadStats> finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The whole file, read in 64 KiB pieces. A missing or unreadable file is an Error too.
Result<ReadStats> read_file(const std::string& path, const CaseHandler& on_case, const ReadOptions& options = {});
Result<ReadStats> read_text(std::string_view text, const std::string& origin, const CaseHandler& on_case,
                            const ReadOptions& options = {});

// pytest's node id from its JUnit classname and name (pure; exposed for tests). `file` is the
// xunit1 `file` attribute when there is one; `prefix` is --junit-prefix. Empty when the
// classname cannot be taken apart (no module segment named test_*/ *_test and no class).
std::string pytest_node_id(std::string_view classname, std::string_view name, std::string_view file,
                           std::string_view prefix);

}  // namespace gatekit::junit
