#pragma once
// The property both the libFuzzer target (fuzz/junit_reader.cpp) and the deterministic CTest
// (tests/core/test_junit_fuzz.cpp) check for the core's streaming JUnit reader: for any bytes,
// - reading them whole and feeding them in pieces of any size give the same cases, stats and
//   errors (a report arrives in 64 KiB pieces, so a piece boundary may fall anywhere; only
//   expat's own syntax errors may be placed differently);
// - an error names the report and is not empty;
// - the counts add up: every case is passed, failed, an error or skipped, and the callback
//   saw each case the stats count;
// - every text field stays within its bound (excerpt or cut attribute plus the marker saying
//   how much was left out), whatever the input's size; the fields a test's identity is made
//   of (suite, classname, name, file) are never cut, and a longer one is refused;
// - the suites declaring more failures than their cases show are counted the same way.
// The first byte chooses the piece size (1..64); the rest is the report.
#include <string>
#include <string_view>
#include <vector>

#include "entry.hpp"
#include "gatekit/junit_reader.hpp"

namespace gatekit::fuzzing {

struct JunitRun {
  bool ok = false;
  std::string error;
  junit::ReadStats stats;
  std::vector<junit::TestCase> cases;
};

// The longest identity field (suite, classname, name, file) the fuzz runs accept.
inline constexpr std::size_t kJunitIdentityBound = 256;

inline junit::ReadOptions junit_fuzz_options() {
  junit::ReadOptions options;
  options.excerpt_bytes = 64;
  options.max_depth = 32;
  options.max_identity_bytes = kJunitIdentityBound;
  return options;
}

inline JunitRun junit_read_whole(std::string_view text) {
  JunitRun run;
  auto result = junit::read_text(text, "fuzz.xml", [&](const junit::TestCase& c) { run.cases.push_back(c); },
                                 junit_fuzz_options());
  run.ok = result.ok();
  if (result) run.stats = *result;
  else run.error = result.error().message;
  return run;
}

inline JunitRun junit_read_pieces(std::string_view text, std::size_t piece) {
  JunitRun run;
  junit::Reader reader("fuzz.xml", [&](const junit::TestCase& c) { run.cases.push_back(c); }, junit_fuzz_options());
  for (std::size_t at = 0; at < text.size(); at += piece) {
    if (!reader.feed(text.substr(at, piece))) break;  // finish() repeats the error
  }
  auto result = reader.finish();
  run.ok = result.ok();
  if (result) run.stats = *result;
  else run.error = result.error().message;
  return run;
}

// The longest a bounded field may be: the limit, plus the " [... N bytes left out]" marker.
inline constexpr std::size_t kJunitFieldBound = 64 + 48;

inline std::string junit_case_violation(const junit::TestCase& c) {
  const std::pair<const char*, const std::string*> fields[] = {
      {"type", &c.type},     {"message", &c.message},       {"detail", &c.detail},
      {"system_out", &c.system_out}, {"system_err", &c.system_err}};
  for (const auto& [name, value] : fields) {
    if (value->size() > kJunitFieldBound)
      return std::string("field ") + name + " holds " + std::to_string(value->size()) + " bytes";
  }
  const std::pair<const char*, const std::string*> identity[] = {
      {"suite", &c.suite}, {"classname", &c.classname}, {"name", &c.name}};
  for (const auto& [name, value] : identity) {
    if (value->size() > kJunitIdentityBound)
      return std::string("identity field ") + name + " holds " + std::to_string(value->size()) + " bytes";
  }
  if (c.report_line < 1) return "a case without its line in the report";
  return "";
}

// A case as the violation message shows it (bytes outside printable ASCII as \xNN).
inline std::string junit_show(const junit::TestCase& c) {
  std::string out;
  for (const auto* field : {&c.name, &c.message, &c.detail, &c.system_out}) {
    out += out.empty() ? "[" : "|";
    for (char ch : *field) {
      const auto u = static_cast<unsigned char>(ch);
      static constexpr char hex[] = "0123456789abcdef";
      if (u >= 0x20 && u < 0x7f) out += ch;
      else out += std::string("\\x") + hex[u >> 4] + hex[u & 15];
    }
  }
  return out + "]";
}

inline std::string junit_property_violation(std::string_view input) {
  const std::size_t piece = 1 + selector(input) % 64;
  const auto text = after_selector(input);
  const auto whole = junit_read_whole(text);
  const auto pieces = junit_read_pieces(text, piece);
  if (whole.ok != pieces.ok) return "whole and in pieces of " + std::to_string(piece) + " disagree on success";
  if (!whole.ok) {
    if (whole.error.rfind("fuzz.xml", 0) != 0) return "an error that does not name the report: " + whole.error;
    // expat itself may place (and name) a syntax error differently when the bytes arrive in
    // pieces ("junk after document element" one byte in, "invalid token" further on); every
    // other refusal is the reader's own and must be the same.
    const auto syntax = [](const std::string& e) { return e.find(": not well-formed XML: ") != std::string::npos; };
    if (whole.error != pieces.error && !(syntax(whole.error) && syntax(pieces.error)))
      return "errors differ: '" + whole.error + "' vs '" + pieces.error + "'";
    return "";
  }
  const auto& s = whole.stats;
  if (s.cases != whole.cases.size()) return "stats count a different number of cases than were handed over";
  if (s.passed + s.failures + s.errors + s.skipped != s.cases) return "the outcome counts do not add up";
  if (s.undercounted.size() > junit::ReadStats::kMaxUndercounted || s.undercounted.size() > s.undercounted_suites)
    return "more suites listed as undercounted than the bound or the count";
  if (pieces.stats.undercounted_suites != s.undercounted_suites)
    return "reading in pieces of " + std::to_string(piece) + " changed the undercounted suites";
  if (pieces.cases.size() != whole.cases.size() || pieces.stats.replaced_chars != s.replaced_chars)
    return "reading in pieces of " + std::to_string(piece) + " changed the cases";
  for (std::size_t i = 0; i < whole.cases.size(); ++i) {
    const auto& a = whole.cases[i];
    const auto& b = pieces.cases[i];
    if (a.id() != b.id() || a.classname != b.classname || a.name != b.name || a.file != b.file || a.outcome != b.outcome || a.message != b.message || a.detail != b.detail ||
        a.system_out != b.system_out || a.report_line != b.report_line)
      return "reading in pieces of " + std::to_string(piece) + " changed case " + std::to_string(i) + ": " +
             junit_show(a) + " vs " + junit_show(b);
    if (auto v = junit_case_violation(a); !v.empty()) return v;
  }
  return "";
}

}  // namespace gatekit::fuzzing
