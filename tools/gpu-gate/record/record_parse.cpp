// The strict reader of record messages: refs from other machines are hostile input.
#include <charconv>
#include <chrono>
#include <map>
#include <optional>

#include "gatekit/clock.hpp"
#include "gatekit/gpu_backends.hpp"
#include "gatekit/text.hpp"
#include "record/record.hpp"

namespace gatekit::gpu_gate {
namespace {

constexpr std::size_t kMaxGpus = 64;

struct Line {
  int number = 0;
  std::string key;
  std::string value;
};

Error at(int line, std::string_view key, std::string_view problem) {
  return bad_input("line " + std::to_string(line) + ": " + std::string(key) + ": " + std::string(problem));
}

bool printable(std::string_view text) {
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) return false;
  }
  return true;
}

Result<std::int64_t> read_count(const Line& l, std::int64_t max) {
  std::int64_t n = 0;
  const auto* end = l.value.data() + l.value.size();
  auto [ptr, ec] = std::from_chars(l.value.data(), end, n);
  if (l.value.empty() || ec != std::errc() || ptr != end || n < 0 || n > max ||
      (l.value.size() > 1 && l.value.front() == '0'))
    return at(l.number, l.key, "not a count from 0 to " + std::to_string(max));
  return n;
}

Result<std::int64_t> read_time(const Line& l) {
  if (auto t = parse_utc(l.value)) return *t;
  return at(l.number, l.key, "not a UTC time like 2026-12-01T10:00:00Z");
}

Result<std::string> read_object(const Line& l) {
  if (!is_object_name(l.value)) return at(l.number, l.key, "not a full object name");
  for (char c : l.value)
    if (c >= 'A' && c <= 'F') return at(l.number, l.key, "not a full object name");
  return l.value;
}

Result<std::string> read_text(const Line& l, std::size_t max) {
  if (l.value.empty() || l.value.size() > max || !printable(l.value) || trim(l.value) != l.value)
    return at(l.number, l.key, "must be 1 to " + std::to_string(max) + " printable ASCII characters");
  return l.value;
}

Result<std::vector<Line>> split_body(std::string_view message) {
  if (message.size() > kMaxRecordBytes)
    return bad_input("the record is larger than " + std::to_string(kMaxRecordBytes) + " bytes");
  if (!message.ends_with('\n')) return bad_input("the record does not end with a line break");
  const auto body = message.find("\n\n");
  if (body == std::string_view::npos) return bad_input("the record has no body after its subject line");
  std::vector<Line> lines;
  int number = 2;
  for (std::size_t pos = body + 2; pos < message.size();) {
    const auto end = message.find('\n', pos);
    const std::string_view text = message.substr(pos, end - pos);
    ++number;
    const auto colon = text.find(": ");
    if (colon == std::string_view::npos) return at(number, "", "expected 'key: value'");
    lines.push_back({number, std::string(text.substr(0, colon)), std::string(text.substr(colon + 2))});
    pos = end + 1;
  }
  return lines;
}

Status set_count(const Line& l, std::int64_t& into, std::int64_t max) {
  auto n = read_count(l, max);
  if (!n) return n.error();
  into = *n;
  return {};
}

Status set_text(const Line& l, std::string& into, std::size_t max) {
  auto t = read_text(l, max);
  if (!t) return t.error();
  into = *t;
  return {};
}

// The keys whose values are counts; nullopt when `l` is not one of them.
std::optional<Status> apply_count(const Line& l, GateRecord& r) {
  constexpr std::int64_t kMaxCount = 1'000'000'000;
  if (l.key == "passed") return set_count(l, r.counts.passed, kMaxCount);
  if (l.key == "failed") return set_count(l, r.counts.failed, kMaxCount);
  if (l.key == "skipped") return set_count(l, r.counts.skipped, kMaxCount);
  if (l.key == "errors") return set_count(l, r.counts.errors, kMaxCount);
  std::int64_t n = 0;
  if (l.key == "duration-ms") {
    auto ok = set_count(l, n, 100'000'000'000);
    r.duration = std::chrono::milliseconds(n);
    return ok;
  }
  if (l.key == "gpu-count") {
    auto ok = set_count(l, n, 1024);
    r.device.count = static_cast<int>(n);
    return ok;
  }
  return std::nullopt;
}

// The keys whose values are free text.
std::optional<Status> apply_text(const Line& l, GateRecord& r) {
  if (l.key == "gatekit") return set_text(l, r.gatekit_version, 32);
  if (l.key == "driver") return set_text(l, r.device.driver_version, 64);
  if (l.key == "runtime") return set_text(l, r.device.runtime_version, 64);
  if (l.key == "visible-devices") return set_text(l, r.device.visible_devices, kMaxFactBytes);
  if (l.key == "scope") return set_text(l, r.scope, kMaxFactBytes);
  if (l.key == "stress") return set_text(l, r.stress, kMaxFactBytes);
  if (l.key == "gpu") {
    if (r.device.gpus.size() >= kMaxGpus) return at(l.number, l.key, "more than " + std::to_string(kMaxGpus) + " GPUs");
    std::string name;
    auto ok = set_text(l, name, kMaxFactBytes);
    if (ok) r.device.gpus.push_back(std::move(name));
    return ok;
  }
  return std::nullopt;
}

// The keys with a fixed vocabulary or syntax.
std::optional<Status> apply_fixed(const Line& l, GateRecord& r) {
  if (l.key == "format") {
    if (l.value == kRecordFormat) r.format = 2;
    else if (l.value == kRecordFormatV1) r.format = 1;
    else
      return at(l.number, l.key, "unknown format (this gatekit reads " + std::string(kRecordFormat) + " and " +
                                     std::string(kRecordFormatV1) + ")");
    return Status{};
  }
  if (l.key == "config") {
    const std::string_view hex = std::string_view(l.value).substr(std::min<std::size_t>(7, l.value.size()));
    bool ok = l.value.starts_with("sha256:") && hex.size() == 64;
    for (char c : hex) ok = ok && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    if (!ok) return at(l.number, l.key, "not a configuration digest like sha256:<64 hex digits>");
    r.config = l.value;
    return Status{};
  }
  if (l.key == "verdict") {
    if (l.value != "pass" && l.value != "fail") return at(l.number, l.key, "must be pass or fail");
    r.verdict = l.value == "pass" ? Verdict::pass : Verdict::fail;
    return Status{};
  }
  if (l.key == "commit" || l.key == "tree") {
    auto id = read_object(l);
    if (!id) return id.error();
    (l.key == "commit" ? r.commit : r.tree) = *id;
    return Status{};
  }
  if (l.key == "time") {
    auto t = read_time(l);
    if (!t) return t.error();
    r.time = *t;
    return Status{};
  }
  if (l.key == "machine") {
    if (auto ok = valid_machine(l.value); !ok) return at(l.number, l.key, ok.error().message);
    r.machine = l.value;
    return Status{};
  }
  if (l.key == "gpu-backend") {
    if (!is_recorded_gpu_backend(l.value)) return at(l.number, l.key, "must be " + recorded_gpu_backends_text());
    r.device.backend = l.value;
    return Status{};
  }
  return std::nullopt;
}

// Applies one line to the record; `seen` enforces "each key once" (gpu may repeat).
Status apply(const Line& l, GateRecord& r, std::map<std::string, int>& seen) {
  if (l.key != "gpu" && seen[l.key]++ > 0) return at(l.number, l.key, "given twice");
  if (auto done = apply_count(l, r)) return *done;
  if (auto done = apply_text(l, r)) return *done;
  if (auto done = apply_fixed(l, r)) return *done;
  return at(l.number, quote_for_message(l.key, 40), "unknown key");
}

constexpr std::array<std::string_view, 15> kRequired{
    "format", "verdict", "duration-ms", "passed", "failed", "skipped", "errors", "commit",
    "tree",   "gatekit", "time",        "machine", "gpu-backend", "gpu-count", "scope"};

}  // namespace

std::optional<std::int64_t> epoch_of(int year, int month, int day, int hour, int minute, int second) {
  if (year < 1970 || year > 9999 || month < 1 || month > 12 || day < 1 || day > 31) return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(static_cast<unsigned>(month)),
                                         std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok() || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return std::nullopt;
  return epoch_seconds_of(date) + hour * 3600 + minute * 60 + second;
}

std::optional<std::int64_t> parse_utc(std::string_view v) {
  auto digits = [&v](std::size_t from, std::size_t count) {
    int n = 0;
    for (std::size_t i = from; i < from + count; ++i) {
      if (v[i] < '0' || v[i] > '9') return -1;
      n = n * 10 + (v[i] - '0');
    }
    return n;
  };
  if (v.size() != 20 || v[4] != '-' || v[7] != '-' || v[10] != 'T' || v[13] != ':' || v[16] != ':' || v[19] != 'Z')
    return std::nullopt;
  return epoch_of(digits(0, 4), digits(5, 2), digits(8, 2), digits(11, 2), digits(14, 2), digits(17, 2));
}

Result<GateRecord> parse_record(std::string_view message) {
  auto lines = split_body(message);
  if (!lines) return lines.error();
  GateRecord record;
  std::map<std::string, int> seen;
  for (const auto& line : *lines)
    if (auto ok = apply(line, record, seen); !ok) return ok.error();
  for (auto key : kRequired)
    if (seen[std::string(key)] == 0) return bad_input("the record has no " + std::string(key) + " line");
  if (seen["stress"] == 0) return bad_input("the record has no stress line");
  if (record.format == 2 && seen["config"] == 0) return bad_input("the record has no config line");
  if (record.format == 1 && seen["config"] != 0)
    return bad_input("the record has a config line, which format " + std::string(kRecordFormatV1) + " does not have");
  if (record.device.gpus.size() > static_cast<std::size_t>(record.device.count))
    return bad_input("the record names more GPUs than its gpu-count");
  // Anything else (order, subject line, spacing) must be exactly as format_record writes it:
  // a record that parses means one thing only.
  if (format_record(record) != message) return bad_input("the record is not in the form gpu-gate writes (subject line or order of keys)");
  return record;
}

}  // namespace gatekit::gpu_gate
