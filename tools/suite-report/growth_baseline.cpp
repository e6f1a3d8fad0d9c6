// Baselines on disk: a JUnit report (any run), or suite-baseline.json as main runs store it:
//   {"format": "gatekit-suite-baseline", "version": 1,
//    "key": {"workflow": ..., "job": ..., "python": ..., "selection": ...},
//    "history": [{"sha": ..., "run": ..., "date": ..., "tests": N, "seconds": S}, ...],
//    "tests": {"<test id>": seconds, ...}}
#include <algorithm>
#include <string_view>

#include "gatekit/files.hpp"
#include "gatekit/json.hpp"
#include "gatekit/junit_reader.hpp"
#include "growth.hpp"

namespace gatekit::suite_report {

namespace json = boost::json;

namespace {

constexpr std::size_t kMaxBaselineBytes = std::size_t{1} << 30;

// The first character that is not whitespace or a byte order mark: '<' (JUnit XML) or '{'.
char first_char(std::string_view text) {
  for (char c : text)
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t' && c != '\xEF' && c != '\xBB' && c != '\xBF') return c;
  return 0;
}

Result<Snapshot> snapshot_of(std::string_view text, const std::string& origin, const std::string& junit_prefix) {
  Snapshot snapshot;
  junit::ReadOptions options;
  options.junit_prefix = junit_prefix;
  options.excerpt_bytes = 256;  // only identity and time matter here
  auto stats = junit::read_text(text, origin, [&](const junit::TestCase& test) { snapshot[test.id()] += test.time_s; },
                                options);
  if (!stats) return stats.error();
  return snapshot;
}

std::optional<std::string> string_field(const json::object& object, std::string_view name) {
  return json_string_at(object, name);
}

Result<ConfigKey> parse_key(const json::value* value, const std::string& where) {
  if (value == nullptr || !value->is_object()) return could_not_evaluate(where + ": `key` is missing or not an object");
  const auto& object = value->get_object();
  ConfigKey key;
  for (auto [name, field] : {std::pair{"workflow", &key.workflow}, std::pair{"job", &key.job},
                             std::pair{"python", &key.python}, std::pair{"selection", &key.selection}}) {
    auto text = string_field(object, name);
    if (!text) return could_not_evaluate(where + ": `key." + name + "` is missing or not a string");
    *field = *text;
  }
  return key;
}

Result<std::vector<HistoryPoint>> parse_history(const json::value* value, const std::string& where) {
  std::vector<HistoryPoint> history;
  if (value == nullptr) return history;
  if (!value->is_array()) return could_not_evaluate(where + ": `history` is not a list");
  for (const auto& item : value->get_array()) {
    if (!item.is_object()) return could_not_evaluate(where + ": a `history` entry is not an object");
    const auto& object = item.get_object();
    HistoryPoint point;
    point.sha = string_field(object, "sha").value_or("");
    point.run_id = string_field(object, "run").value_or("");
    point.date = string_field(object, "date").value_or("");
    const auto* tests = json_find(object, "tests");
    const auto* seconds = json_find(object, "seconds");
    if (tests == nullptr || !tests->is_number() || seconds == nullptr || !seconds->is_number())
      return could_not_evaluate(where + ": a `history` entry lacks numeric `tests` and `seconds`");
    point.tests = static_cast<std::size_t>(std::max(0.0, tests->to_number<double>()));
    point.seconds = std::max(0.0, seconds->to_number<double>());
    history.push_back(std::move(point));
  }
  return history;
}

Result<Baseline> parse_baseline_json(const std::string& text, const std::string& path) {
  boost::system::error_code ec;
  json::value doc = json::parse(text, ec);
  if (ec) return could_not_evaluate(path + ": not a suite baseline: invalid JSON (" + ec.message() + ")");
  if (!doc.is_object()) return could_not_evaluate(path + ": not a suite baseline: not a JSON object");
  const auto& root = doc.get_object();
  if (string_field(root, "format").value_or("") != "gatekit-suite-baseline")
    return could_not_evaluate(path + ": not a suite baseline: `format` is not \"gatekit-suite-baseline\"");
  if (json_int_at(root, "version").value_or(0) != 1)
    return could_not_evaluate(path + ": unsupported suite baseline version (this gatekit reads version 1)");
  Baseline baseline;
  baseline.source = path;
  auto key = parse_key(json_find(root, "key"), path);
  if (!key) return key.error();
  baseline.key = *key;
  auto history = parse_history(json_find(root, "history"), path);
  if (!history) return history.error();
  baseline.history = std::move(*history);
  const auto* tests = json_find(root, "tests");
  if (tests == nullptr || !tests->is_object()) return could_not_evaluate(path + ": `tests` is missing or not an object");
  baseline.tests.reserve(tests->get_object().size());
  for (const auto& entry : tests->get_object()) {
    if (!entry.value().is_number()) return could_not_evaluate(path + ": `tests` values must be seconds (numbers)");
    baseline.tests.emplace(std::string(entry.key()), std::max(0.0, entry.value().to_number<double>()));
  }
  return baseline;
}

}  // namespace

Result<Snapshot> read_report_snapshot(const std::string& path, const std::string& junit_prefix) {
  Snapshot snapshot;
  junit::ReadOptions options;
  options.junit_prefix = junit_prefix;
  options.excerpt_bytes = 256;  // only identity and time matter here
  auto stats = junit::read_file(path, [&](const junit::TestCase& test) { snapshot[test.id()] += test.time_s; }, options);
  if (!stats) return stats.error();
  return snapshot;
}

Result<Baseline> read_baseline(const Files& files, const std::string& path) {
  auto text = files.read(path, kMaxBaselineBytes);
  if (!text) return text.error();
  const char first = first_char(*text);
  if (first == '<') {
    auto tests = snapshot_of(*text, path, "");
    if (!tests) return tests.error();
    return Baseline{std::nullopt, {}, std::move(*tests), path};
  }
  if (first != '{') return could_not_evaluate(path + ": neither a JUnit report nor a suite baseline");
  return parse_baseline_json(*text, path);
}

std::string baseline_json(const ConfigKey& key, const std::vector<HistoryPoint>& history, const Snapshot& tests) {
  json::object root;
  root["format"] = "gatekit-suite-baseline";
  root["version"] = 1;
  root["key"] = json::object{{"workflow", key.workflow}, {"job", key.job}, {"python", key.python}, {"selection", key.selection}};
  json::array points;
  const std::size_t skip = history.size() > kHistoryLimit ? history.size() - kHistoryLimit : 0;
  for (std::size_t i = skip; i < history.size(); ++i) {
    const auto& p = history[i];
    points.push_back(json::object{{"sha", p.sha}, {"run", p.run_id}, {"date", p.date}, {"tests", p.tests}, {"seconds", p.seconds}});
  }
  root["history"] = std::move(points);
  std::vector<const std::pair<const std::string, double>*> sorted;
  sorted.reserve(tests.size());
  for (const auto& entry : tests) sorted.push_back(&entry);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->first < b->first; });
  json::object by_id;
  by_id.reserve(sorted.size());
  for (const auto* entry : sorted) by_id[entry->first] = entry->second;
  root["tests"] = std::move(by_id);
  return json::serialize(root) + "\n";
}

}  // namespace gatekit::suite_report
