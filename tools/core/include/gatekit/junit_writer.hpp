#pragma once
// Writing JUnit XML in the shape the common consumers read (the Ant/Surefire schema that
// GitHub test reporters, GitLab and Jenkins accept): <testsuites> with one <testsuite> per
// suite, <failure>/<error>/<skipped> with a message, <system-out> per test case. This is the
// one JUnit writer: every text passes xml_escape, so the document is well-formed XML 1.0
// whatever bytes a test or child process printed.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gatekit {

enum class JunitOutcome { passed, failure, error, skipped };

// An earlier run of a test that was rerun, written the way Surefire records reruns: as
// <flakyFailure>/<flakyError> in a case that passed in the end, as <rerunFailure>/<rerunError>
// after the <failure>/<error> of a case that kept failing. `detail` becomes <stackTrace>.
struct JunitAttempt {
  bool error = false;  // the attempt erred (flakyError/rerunError) rather than failed
  std::string message;
  std::string type;
  std::string detail;
};

struct JunitCase {
  std::string classname;
  std::string name;
  double time_s = 0;
  JunitOutcome outcome = JunitOutcome::passed;
  std::string message;     // failure/error/skipped message attribute
  std::string type;        // failure/error type attribute (optional)
  std::string detail;      // element text of failure/error (optional)
  std::string system_out;  // optional
  std::string file;        // optional `file` attribute (pytest xunit1)
  int line = 0;            // optional `line` attribute, written when file is set
  std::vector<JunitAttempt> attempts;  // earlier runs of a rerun test (see JunitAttempt)
};

struct JunitSuite {
  std::string name;
  std::string timestamp;  // ISO 8601, optional
  double time_s = 0;
  std::map<std::string, std::string> properties;
  std::vector<JunitCase> cases;
};

// One earlier run as Surefire writes it, on one line: <flakyFailure>/<flakyError> for a test
// that passed in the end (`passed`), <rerunFailure>/<rerunError> for one that did not.
std::string write_attempt(const JunitAttempt& attempt, bool passed);

// The whole document, UTF-8, counts computed from the cases.
std::string write_junit(const std::vector<JunitSuite>& suites);

// Escapes for XML 1.0 text and attributes: invalid UTF-8 becomes U+FFFD (utf8.hpp) and
// characters XML cannot carry at all (C0 controls other than tab/LF/CR, U+FFFE, U+FFFF)
// are dropped.
std::string xml_escape(std::string_view text, bool attribute);

}  // namespace gatekit
