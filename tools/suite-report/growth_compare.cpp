#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>

#include "gatekit/sha256.hpp"
#include "gatekit/text.hpp"
#include "gatekit/utf8.hpp"
#include "common.hpp"
#include "growth.hpp"

namespace gatekit::suite_report {

namespace {

std::string slug(std::string_view text, std::size_t limit) {
  std::string out;
  for (char c : text) {
    if (out.size() == limit) break;
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    out += ok ? c : '_';
  }
  return out;
}

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

bool hex(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::optional<std::uint64_t> hex_word(std::string_view text) {
  std::uint64_t value = 0;
  for (char c : text) {
    const int digit = c >= '0' && c <= '9' ? c - '0' : (c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1);
    if (digit < 0) return std::nullopt;
    value = (value << 4) | static_cast<std::uint64_t>(digit);
  }
  return value;
}

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

}  // namespace

std::string ConfigKey::text() const {
  return "workflow=" + workflow + " job=" + job + " python=" + python + " selection=" + selection;
}

std::string ConfigKey::artifact_name() const {
  std::string_view stem = workflow;
  for (std::string_view ext : {".yml", ".yaml"})
    if (stem.size() > ext.size() && stem.ends_with(ext)) stem.remove_suffix(ext.size());
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a(text())));
  return "suite-baseline-" + slug(stem, 40) + "-" + slug(job, 40) + "-py" + slug(python, 16) + "-" +
         std::string(hash, 10);
}

TestIdentity TestIdentity::of(std::string_view id) {
  const Sha256Digest digest = sha256(id);  // 32 bytes: the first 24 are used, as three big-endian words
  const auto word = [&](std::size_t at) {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < 8; ++i) value = (value << 8) | digest[at + i];
    return value;
  };
  return {word(0), word(8), word(16)};
}

TestIdentity TestIdentity::unnamed(std::size_t k) {
  // A JUnit id comes from XML attributes, which cannot hold U+0000: no id hashes the same.
  return of(std::string("\0unnamed test\0", 14) + std::to_string(k));
}

std::string TestIdentity::hex() const {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text(48, '0');
  std::size_t at = 0;
  for (const std::uint64_t word : {hi, lo, check})
    for (int shift = 60; shift >= 0; shift -= 4) text[at++] = kHex[(word >> shift) & 0xF];
  return text;
}

std::optional<TestIdentity> TestIdentity::from_hex(std::string_view text) {
  if (text.size() != 48) return std::nullopt;
  auto hi = hex_word(text.substr(0, 16)), lo = hex_word(text.substr(16, 16)), check = hex_word(text.substr(32, 16));
  if (!hi || !lo || !check) return std::nullopt;
  return TestIdentity{*hi, *lo, *check};
}

std::string display_id(std::string_view id) {
  if (id.size() <= kDisplayBytes) return to_valid_utf8(id);
  // The head, and the tail where parametrised ids differ, each cut at a character boundary.
  std::size_t head = 0;
  while (head < id.size()) {
    const auto c = decode_utf8(id, head);
    if (head + c.length > kDisplayHeadBytes) break;
    head += c.length;
  }
  std::size_t tail = id.size() - (kDisplayBytes - kDisplayHeadBytes);
  while (tail < id.size() && (static_cast<unsigned char>(id[tail]) & 0xC0) == 0x80) ++tail;
  return to_valid_utf8(id.substr(0, head)) + "…(" + std::to_string(tail - head) + " bytes)…" +
         to_valid_utf8(id.substr(tail));
}

std::string_view ReportCase::display(std::string& made) const {
  if (unnamed == 0 && id.size() <= kDisplayBytes && is_valid_utf8(id)) return id;
  return made = display();
}

std::string unnamed_display(std::size_t k) { return "(test " + std::to_string(k) + " without name or classname)"; }

Snapshot::Snapshot(std::initializer_list<std::pair<std::string, double>> tests) {
  for (const auto& [id, seconds] : tests) throw_if_error(add(id, seconds));
}

Status Snapshot::add(const TestIdentity& id, double seconds) {
  auto [it, inserted] = tests_.try_emplace(id, SnapshotEntry{id.check, 0, tests_.size()});
  if (!inserted && it->second.check != id.check)
    return could_not_evaluate("two different tests share the 128-bit identity " + id.hex().substr(0, 32) +
                              ": growth cannot tell them apart");
  it->second.seconds += seconds;
  return {};
}

const SnapshotEntry* Snapshot::find(const TestIdentity& id) const {
  const auto it = tests_.find(id);
  return it == tests_.end() ? nullptr : &it->second;
}

double Snapshot::seconds_of(std::string_view id) const {
  const auto* entry = find(TestIdentity::of(id));
  return entry == nullptr ? 0 : entry->seconds;
}

std::unordered_map<std::string, double> Snapshot::seconds_of(const std::vector<std::string>& ids) const {
  std::unordered_map<std::string, double> out;
  for (const auto& id : ids)
    if (const auto* entry = find(TestIdentity::of(id)); entry != nullptr) out.emplace(id, entry->seconds);
  return out;
}

bool Snapshot::operator==(const Snapshot& other) const {
  if (size() != other.size()) return false;
  for (const auto& [id, entry] : tests_) {
    const auto* theirs = other.find(id);
    if (theirs == nullptr || theirs->check != entry.check || theirs->seconds != entry.seconds) return false;
  }
  return true;
}

double total_seconds(const Snapshot& snapshot) {
  double total = 0;
  for (const auto& [id, entry] : snapshot) total += entry.seconds;
  return total;
}

Result<GrowthResult> compare(const Snapshot& base, const Snapshot& now, const Thresholds& thresholds) {
  GrowthResult result;
  result.base_tests = base.size();
  result.tests = now.size();
  result.base_seconds = total_seconds(base);
  result.seconds = total_seconds(now);
  for (const auto& [id, entry] : now) {
    const auto* old = base.find(id);
    if (old != nullptr && old->check != entry.check)
      return could_not_evaluate("a test of this run and a different test of the baseline share the 128-bit identity " +
                                id.hex().substr(0, 32) + ": growth cannot tell them apart");
    if (old != nullptr) continue;
    result.added.push_back({TestIdentity{id.hi, id.lo, entry.check}, entry.seconds, entry.order});
    result.added_seconds += entry.seconds;
  }
  std::vector<std::pair<std::size_t, TestIdentity>> removed;
  for (const auto& [id, entry] : base)
    if (now.find(id) == nullptr) removed.emplace_back(entry.order, TestIdentity{id.hi, id.lo, entry.check});
  std::sort(result.added.begin(), result.added.end(), [](const NewTest& a, const NewTest& b) {
    return a.seconds != b.seconds ? a.seconds > b.seconds : a.order < b.order;
  });
  std::sort(removed.begin(), removed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [order, id] : removed) result.removed.push_back(id);
  if (static_cast<long>(result.added.size()) >= thresholds.tests) result.reached.push_back(Reached::added_tests);
  if (static_cast<long>(result.removed.size()) >= thresholds.tests) result.reached.push_back(Reached::removed_tests);
  if (result.added_seconds >= thresholds.seconds) result.reached.push_back(Reached::added_seconds);
  result.notice = !result.reached.empty();
  return result;
}

std::string threshold_text(Reached reached, const Thresholds& thresholds) {
  switch (reached) {
    case Reached::added_tests: return std::to_string(thresholds.tests) + " new tests";
    case Reached::removed_tests: return std::to_string(thresholds.tests) + " removed tests";
    case Reached::added_seconds: return duration(thresholds.seconds) + " of new test time";
  }
  return "";
}

std::string describe_growth(const GrowthResult& growth, const Thresholds& thresholds) {
  auto tests = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " test" : " tests"); };
  std::string text;
  if (!growth.added.empty() || growth.removed.empty())
    text = "adds " + tests(growth.added.size()) + " (" + duration(growth.added_seconds) + " of test time)";
  if (!growth.removed.empty()) text += (text.empty() ? "removes " : " and removes ") + tests(growth.removed.size());
  if (growth.notice) {
    std::vector<std::string> reached;
    for (const auto r : growth.reached) reached.push_back(threshold_text(r, thresholds));
    std::string list = reached.size() == 1 ? reached[0] : join({reached.begin(), reached.end() - 1}, ", ") + " and " + reached.back();
    text += std::string(": at or over the notice threshold") + (reached.size() == 1 ? "" : "s") + " of " + list;
  }
  return text;
}

std::string history_charts(const std::vector<HistoryPoint>& history, const HistoryPoint& now) {
  std::vector<std::string> labels, tests, minutes;
  for (std::size_t i = 0; i < history.size(); ++i) {
    const auto& point = history[i];
    labels.push_back("\"" + (hex(point.sha) ? point.sha.substr(0, 7) : "run " + std::to_string(i + 1)) + "\"");
    tests.push_back(std::to_string(point.tests));
    minutes.push_back(number(point.seconds / 60));
  }
  labels.emplace_back("\"this run\"");
  tests.push_back(std::to_string(now.tests));
  minutes.push_back(number(now.seconds / 60));
  auto chart = [&](const std::string& title, const std::string& axis, const std::string& kind,
                   const std::vector<std::string>& values) {
    return "```mermaid\nxychart-beta\n  title \"" + title + "\"\n  x-axis [" + join(labels, ", ") + "]\n  y-axis \"" +
           axis + "\"\n  " + kind + " [" + join(values, ", ") + "]\n```\n";
  };
  return chart("Tests per main run", "tests", "bar", tests) + "\n" +
         chart("Test time per main run (minutes)", "minutes", "line", minutes);
}

}  // namespace gatekit::suite_report
