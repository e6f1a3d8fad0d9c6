#include "gatekit/junit_writer.hpp"

#include <cstdio>

#include "gatekit/utf8.hpp"

namespace gatekit {

namespace {

std::string format_time(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", seconds);
  return buffer;
}

std::string attempt_elements(const JunitCase& c) {
  std::string out;
  for (const auto& a : c.attempts) out += "      " + write_attempt(a, c.outcome == JunitOutcome::passed) + "\n";
  return out;
}

}  // namespace

std::string write_attempt(const JunitAttempt& attempt, bool passed) {
  const std::string element = std::string(passed ? "flaky" : "rerun") + (attempt.error ? "Error" : "Failure");
  std::string out = "<" + element + " message=\"" + xml_escape(attempt.message, true) + "\"";
  if (!attempt.type.empty()) out += " type=\"" + xml_escape(attempt.type, true) + "\"";
  if (attempt.detail.empty()) return out + "/>";
  return out + "><stackTrace>" + xml_escape(attempt.detail, false) + "</stackTrace></" + element + ">";
}

std::string xml_escape(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const Utf8Char c = decode_utf8(text, i);
    const std::string_view bytes = text.substr(i, c.length);
    i += c.length;
    if (!c.valid) {
      out += kReplacementCharacter;
      continue;
    }
    // What XML 1.0 cannot carry at all (NUL, ESC, other C0 controls, U+FFFE, U+FFFF) is
    // dropped: no escape can represent it.
    if (!is_xml_char(c.code_point)) continue;
    switch (c.code_point) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;  // also keeps "]]>" out of the text
      case '"': out += attribute ? "&quot;" : "\""; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      case '\r': out += "&#13;"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      default: out += bytes;
    }
  }
  return out;
}

std::string write_junit(const std::vector<JunitSuite>& suites) {
  auto attr = [](std::string_view name, std::string_view value) {
    return " " + std::string(name) + "=\"" + xml_escape(value, true) + "\"";
  };
  std::size_t all_tests = 0, all_failures = 0, all_errors = 0, all_skipped = 0;
  double all_time = 0;
  std::string body;
  for (const auto& suite : suites) {
    std::size_t failures = 0, errors = 0, skipped = 0;
    for (const auto& c : suite.cases) {
      failures += c.outcome == JunitOutcome::failure;
      errors += c.outcome == JunitOutcome::error;
      skipped += c.outcome == JunitOutcome::skipped;
    }
    all_tests += suite.cases.size();
    all_failures += failures;
    all_errors += errors;
    all_skipped += skipped;
    all_time += suite.time_s;
    body += "  <testsuite" + attr("name", suite.name) + attr("tests", std::to_string(suite.cases.size())) +
            attr("failures", std::to_string(failures)) + attr("errors", std::to_string(errors)) +
            attr("skipped", std::to_string(skipped)) + attr("time", format_time(suite.time_s));
    if (!suite.timestamp.empty()) body += attr("timestamp", suite.timestamp);
    body += ">\n";
    if (!suite.properties.empty()) {
      body += "    <properties>\n";
      for (const auto& [k, v] : suite.properties) body += "      <property" + attr("name", k) + attr("value", v) + "/>\n";
      body += "    </properties>\n";
    }
    for (const auto& c : suite.cases) {
      body += "    <testcase" + attr("classname", c.classname) + attr("name", c.name) + attr("time", format_time(c.time_s));
      if (!c.file.empty()) body += attr("file", c.file) + (c.line > 0 ? attr("line", std::to_string(c.line)) : "");
      if (c.outcome == JunitOutcome::passed && c.system_out.empty() && c.attempts.empty()) {
        body += "/>\n";
        continue;
      }
      body += ">\n";
      if (c.outcome != JunitOutcome::passed) {
        const char* element = c.outcome == JunitOutcome::failure ? "failure"
                              : c.outcome == JunitOutcome::error  ? "error"
                                                                  : "skipped";
        body += std::string("      <") + element + attr("message", c.message);
        if (!c.type.empty()) body += attr("type", c.type);
        if (c.detail.empty()) body += "/>\n";
        else body += ">" + xml_escape(c.detail, false) + "</" + element + ">\n";
      }
      body += attempt_elements(c);
      if (!c.system_out.empty()) body += "      <system-out>" + xml_escape(c.system_out, false) + "</system-out>\n";
      body += "    </testcase>\n";
    }
    body += "  </testsuite>\n";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" + attr("tests", std::to_string(all_tests)) +
         attr("failures", std::to_string(all_failures)) + attr("errors", std::to_string(all_errors)) +
         attr("skipped", std::to_string(all_skipped)) + attr("time", format_time(all_time)) + ">\n" + body +
         "</testsuites>\n";
}

}  // namespace gatekit
