#include "report.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "gatekit/text.hpp"
#include "summary.hpp"

namespace gatekit::flaky_tracker {

namespace {

constexpr std::size_t kShownBytes = 300;  // of an id or name in a message

// What folding needs of a case as the report wrote it (not the text: memory stays near the
// cases' own).
struct Seen {
  std::string suite, classname, name, file;
  JunitOutcome outcome = JunitOutcome::passed;
  bool teardown_error = false;  // the case pytest writes for a teardown error after a failed call
  bool recorded_attempts = false;  // Surefire's flaky or rerun elements
  int report_line = 0;
};

Seen seen(const junit::TestCase& c) {
  return {c.suite, c.classname, c.name, c.file, c.outcome,
          c.outcome == JunitOutcome::error && c.message.starts_with("failed on teardown with"),
          c.flaky_attempts > 0 || c.rerun_failures > 0, c.report_line};
}

// An earlier attempt as pytest-rerunfailures writes it: no failure or error of its own.
bool attempt_shaped(const Seen& c) {
  return (c.outcome == JunitOutcome::passed || c.outcome == JunitOutcome::skipped) && !c.recorded_attempts;
}

bool same_test(const Seen& a, const Seen& b) {
  return a.suite == b.suite && a.classname == b.classname && a.name == b.name && a.file == b.file;
}

std::string_view outcome_word(JunitOutcome outcome) {
  switch (outcome) {
    case JunitOutcome::passed: return "no failure";
    case JunitOutcome::failure: return "a failure";
    case JunitOutcome::error: return "an error";
    case JunitOutcome::skipped: return "skipped";
  }
  return "";
}

std::string shown(std::string_view text) { return "\"" + visible_controls(shorten(text, kShownBytes)) + "\""; }

std::string describe(const Seen& c) {
  std::string out = "line " + std::to_string(c.report_line) + ": suite " + shown(c.suite) + ", classname " +
                    shown(c.classname) + ", name " + shown(c.name);
  if (!c.file.empty()) out += ", file " + shown(c.file);
  return out + ", " + std::string(outcome_word(c.outcome));
}

Error collision(const std::string& origin, const std::string& id, const Seen& earlier, const Seen& later,
                std::string_view why) {
  return could_not_evaluate(origin + ": two test cases share the id " + shown(id) + " (" + describe(earlier) + "; " +
                            describe(later) + "): " + std::string(why) +
                            "; their results cannot be told apart, so they are not merged");
}

// One test's cases folded so far.
struct Group {
  std::size_t index = 0;  // in the output
  Seen last;              // its last case as the report wrote it
};

}  // namespace

Result<Report> finish_report(std::vector<junit::TestCase> cases, const junit::ReadStats& stats, const std::string& path) {
  if (auto declared = junit::check_declared_counts(stats, path); !declared) return declared.error();
  auto folded = fold_in_process_reruns(std::move(cases), path);
  if (!folded) return folded.error();
  return Report{std::move(*folded), stats};
}

namespace {

// Roughly what a case holds in memory.
std::size_t case_bytes(const junit::TestCase& c) {
  return sizeof(junit::TestCase) + c.suite.size() + c.classname.size() + c.name.size() + c.file.size() +
         c.node_id.size() + c.message.size() + c.type.size() + c.detail.size() + c.system_out.size() +
         c.system_err.size();
}

}  // namespace

Result<Report> load_report(const Files& files, const std::string& path, const std::string& junit_prefix) {
  auto text = files.read(path);
  if (!text) return could_not_evaluate(text.error().message + " (the JUnit report)");
  std::vector<junit::TestCase> cases;
  junit::ReadOptions options;
  options.junit_prefix = junit_prefix;
  auto stats = junit::read_text(*text, path, [&](const junit::TestCase& c) { cases.push_back(c); }, options);
  if (!stats) return stats.error();
  return finish_report(std::move(cases), *stats, path);
}

Result<Scan> scan_report(const Files& files, const std::string& path, const std::string& junit_prefix,
                         std::size_t keep_bytes) {
  Scan scan;
  // The hashes of the ids of the last kScanWindow to 2 * kScanWindow cases, in two
  // generations: memory stays fixed whatever the report's size. A hash met again sends the
  // report to the merge, which compares the cases themselves (a hash collision only costs
  // that). The cases themselves are kept while they fit in `keep_bytes`.
  std::unordered_set<std::size_t> current, previous;
  std::vector<junit::TestCase> kept;
  std::size_t kept_bytes = 0;
  bool keeping = true;
  std::string built;  // an id that is not held whole by the case (junit::TestCase::id)
  junit::ReadOptions options;
  options.junit_prefix = junit_prefix;
  auto stats = junit::read_file(files, path, [&](const junit::TestCase& c) {
    scan.failed += failed(c);
    const std::size_t id = std::hash<std::string_view>{}(c.id(built));
    const bool repeated = previous.count(id) > 0 || !current.insert(id).second;
    scan.needs_merge = scan.needs_merge || failed(c) || c.flaky_attempts > 0 || c.rerun_failures > 0 || repeated;
    if (current.size() >= kScanWindow) {
      previous = std::move(current);
      current = {};
    }
    if (!keeping) return;
    kept_bytes += case_bytes(c);
    keeping = kept_bytes <= keep_bytes;
    if (keeping) kept.push_back(c);
    else kept = {};
  }, options);
  if (!stats) return stats.error();
  if (auto declared = junit::check_declared_counts(*stats, path); !declared) return declared.error();
  scan.stats = *stats;
  if (keeping) scan.cases = std::move(kept);
  return scan;
}

Result<std::vector<junit::TestCase>> fold_in_process_reruns(std::vector<junit::TestCase> cases,
                                                            const std::string& origin) {
  std::unordered_map<std::string, Group> groups;  // by id
  std::vector<junit::TestCase> out;
  out.reserve(cases.size());
  for (auto& c : cases) {
    std::string id = c.id();
    auto found = groups.find(id);
    if (found == groups.end()) {
      groups.emplace(std::move(id), Group{out.size(), seen(c)});
      out.push_back(std::move(c));
      continue;
    }
    Group& group = found->second;
    Seen now = seen(c);
    if (!same_test(group.last, now))
      return collision(origin, id, group.last, now, "they are different tests (suite, classname, name or file differ)");
    junit::TestCase& kept = out[group.index];
    if (now.teardown_error && group.last.outcome == JunitOutcome::failure) {
      // One attempt: its call failed, then its teardown erred.
      c.flaky_attempts = kept.flaky_attempts;
      c.rerun_failures = kept.rerun_failures;
    } else if (attempt_shaped(group.last)) {
      const int earlier = 1 + kept.flaky_attempts + kept.rerun_failures;
      c.flaky_attempts += c.outcome == JunitOutcome::passed ? earlier : 0;
      c.rerun_failures += c.outcome == JunitOutcome::passed ? 0 : earlier;
      if (c.outcome == JunitOutcome::passed && c.message.empty())
        c.message = "failed, then passed when rerun inside pytest (pytest-rerunfailures)";
    } else {
      return collision(origin, id, group.last, now,
                       group.last.recorded_attempts
                           ? "the earlier one records reruns of its own, which is not how pytest-rerunfailures records an attempt"
                           : "the earlier one has " + std::string(outcome_word(group.last.outcome)) +
                                 " of its own, which is not how pytest-rerunfailures records an attempt");
    }
    kept = std::move(c);
    group.last = std::move(now);
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
