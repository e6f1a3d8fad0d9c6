#include <algorithm>
#include <chrono>
#include <cstdio>

#include "gatekit/text.hpp"
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
  std::string stem = workflow;
  for (std::string_view ext : {".yml", ".yaml"})
    if (stem.size() > ext.size() && stem.ends_with(ext)) stem.resize(stem.size() - ext.size());
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a(text())));
  return "suite-baseline-" + slug(stem, 40) + "-" + slug(job, 40) + "-py" + slug(python, 16) + "-" +
         std::string(hash, 10);
}

double total_seconds(const Snapshot& snapshot) {
  double total = 0;
  for (const auto& [id, seconds] : snapshot) total += seconds;
  return total;
}

GrowthResult compare(const Snapshot& base, const Snapshot& now, const Thresholds& thresholds) {
  GrowthResult result;
  result.base_tests = base.size();
  result.tests = now.size();
  result.base_seconds = total_seconds(base);
  result.seconds = total_seconds(now);
  for (const auto& [id, seconds] : now) {
    if (base.find(id) != base.end()) continue;
    result.added.push_back({id, seconds});
    result.added_seconds += seconds;
  }
  for (const auto& [id, seconds] : base)
    if (now.find(id) == now.end()) result.removed.push_back(id);
  std::sort(result.added.begin(), result.added.end(), [](const NewTest& a, const NewTest& b) {
    return a.seconds != b.seconds ? a.seconds > b.seconds : a.id < b.id;
  });
  std::sort(result.removed.begin(), result.removed.end());
  result.notice = static_cast<long>(result.added.size()) >= thresholds.tests || result.added_seconds >= thresholds.seconds;
  return result;
}

std::string describe_growth(const GrowthResult& growth, const Thresholds& thresholds) {
  std::string text = "adds " + std::to_string(growth.added.size()) + " test" + (growth.added.size() == 1 ? "" : "s") +
                     " (" + duration(growth.added_seconds) + " of test time)";
  if (!growth.removed.empty()) text += " and removes " + std::to_string(growth.removed.size());
  if (growth.notice)
    text += ": at or over the notice threshold of " + std::to_string(thresholds.tests) + " tests or " +
            duration(thresholds.seconds);
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
