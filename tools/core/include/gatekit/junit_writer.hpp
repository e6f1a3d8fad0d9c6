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

struct JunitCase {
  std::string classname;
  std::string name;
  double time_s = 0;
  JunitOutcome outcome = JunitOutcome::passed;
  std::string message;     // failure/error/skipped message attribute
  std::string type;        // failure/error type attribute (optional)
  std::string detail;      // element text of failure/error (optional)
  std::string system_out;  // optional
};

struct JunitSuite {
  std::string name;
  std::string timestamp;  // ISO 8601, optional
  double time_s = 0;
  std::map<std::string, std::string> properties;
  std::vector<JunitCase> cases;
};

// The whole document, UTF-8, counts computed from the cases.
std::string write_junit(const std::vector<JunitSuite>& suites);

// Escapes for XML 1.0 text and attributes: invalid UTF-8 becomes U+FFFD (utf8.hpp) and
// characters XML cannot carry at all (C0 controls other than tab/LF/CR, U+FFFE, U+FFFF)
// are dropped.
std::string xml_escape(std::string_view text, bool attribute);

}  // namespace gatekit
