#include "gatekit/junit_writer.hpp"

#include <cstdio>

namespace gatekit {

namespace {

// Length of the valid UTF-8 sequence at `i`, or 0.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t n = 0;
  unsigned min = 0;
  unsigned cp = 0;
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) { n = 2; cp = c & 0x1Fu; min = 0x80; }
  else if ((c & 0xF0) == 0xE0) { n = 3; cp = c & 0x0Fu; min = 0x800; }
  else if ((c & 0xF8) == 0xF0) { n = 4; cp = c & 0x07u; min = 0x10000; }
  else return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF) return 0;
  return n;
}

std::string format_time(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", seconds);
  return buffer;
}

}  // namespace

std::string xml_escape(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    if (n > 1) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    ++i;
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += attribute ? "&quot;" : "\""; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      case '\r': out += "&#13;"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7F) out += c;
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
      if (c.outcome == JunitOutcome::passed && c.system_out.empty()) {
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
