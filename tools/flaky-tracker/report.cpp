#include "report.hpp"

#include <unordered_map>

namespace gatekit::flaky_tracker {

Result<Report> load_report(const Files& files, const std::string& path, const std::string& junit_prefix) {
  auto text = files.read(path);
  if (!text) return could_not_evaluate(text.error().message + " (the JUnit report)");
  Report report;
  junit::ReadOptions options;
  options.junit_prefix = junit_prefix;
  auto stats = junit::read_text(*text, path, [&](const junit::TestCase& c) { report.cases.push_back(c); }, options);
  if (!stats) return stats.error();
  report.stats = *stats;
  report.cases = fold_in_process_reruns(std::move(report.cases));
  return report;
}

Result<Scan> scan_report(const std::string& path, const std::string& junit_prefix) {
  Scan scan;
  // pytest-rerunfailures writes a test's attempts one after another: comparing each case with
  // the one before finds them without keeping the ids (node ids are not derived here).
  std::string previous_class, previous_name;
  junit::ReadOptions options;
  options.junit_prefix = junit_prefix;
  options.excerpt_bytes = 256;
  options.node_ids = junit::NodeIds::none;
  auto stats = junit::read_file(path, [&](const junit::TestCase& c) {
    scan.failed += failed(c);
    const bool repeated = c.name == previous_name && c.classname == previous_class;
    scan.needs_merge = scan.needs_merge || failed(c) || c.flaky_attempts > 0 || c.rerun_failures > 0 || repeated;
    previous_class.assign(c.classname);
    previous_name.assign(c.name);
  }, options);
  if (!stats) return stats.error();
  scan.stats = *stats;
  return scan;
}

std::vector<junit::TestCase> fold_in_process_reruns(std::vector<junit::TestCase> cases) {
  std::unordered_map<std::string, std::size_t> first;  // node id -> index in `out`
  std::vector<junit::TestCase> out;
  out.reserve(cases.size());
  for (auto& c : cases) {
    if (c.node_id.empty()) {
      out.push_back(std::move(c));
      continue;
    }
    auto [it, inserted] = first.emplace(c.node_id, out.size());
    if (inserted) {
      out.push_back(std::move(c));
      continue;
    }
    junit::TestCase& kept = out[it->second];
    const int earlier = 1 + kept.flaky_attempts + kept.rerun_failures;
    c.flaky_attempts += c.outcome == JunitOutcome::passed ? earlier : 0;
    c.rerun_failures += c.outcome == JunitOutcome::passed ? 0 : earlier;
    if (c.outcome == JunitOutcome::passed && c.message.empty())
      c.message = "failed, then passed when rerun inside pytest (pytest-rerunfailures)";
    kept = std::move(c);
  }
  return out;
}

bool failed(const junit::TestCase& test) {
  return test.outcome == JunitOutcome::failure || test.outcome == JunitOutcome::error;
}

Observation observe(const junit::TestCase& test) {
  if (failed(test)) return Observation::failed;
  if (test.outcome == JunitOutcome::skipped) return Observation::skipped;
  return test.flaky_attempts > 0 ? Observation::flaky : Observation::passed;
}

}  // namespace gatekit::flaky_tracker
