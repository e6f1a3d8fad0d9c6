#include "report.hpp"

#include <functional>
#include <limits>
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
  std::size_t occurrence = 1;
  junit::Family family = junit::Family::other;
  JunitOutcome outcome = JunitOutcome::passed;
  bool teardown_error = false;  // the case pytest writes for a teardown error after a failed call
  bool recorded_attempts = false;  // Surefire's flaky or rerun elements
  int report_line = 0;
};

Seen seen(const junit::TestCase& c) {
  return {c.suite, c.classname, c.name, c.file, c.occurrence, c.family, c.outcome,
          c.outcome == JunitOutcome::error && c.message.starts_with("failed on teardown with"),
          c.flaky_attempts > 0 || c.rerun_failures > 0, c.report_line};
}

// An earlier attempt as pytest-rerunfailures writes it: no failure or error of its own.
bool attempt_shaped(const Seen& c) {
  return (c.outcome == JunitOutcome::passed || c.outcome == JunitOutcome::skipped) && !c.recorded_attempts;
}

bool same_test(const Seen& a, const Seen& b) {
  return a.suite == b.suite && a.classname == b.classname && a.name == b.name && a.file == b.file &&
         a.occurrence == b.occurrence && a.family == b.family;
}

bool failed_outcome(JunitOutcome outcome) { return outcome == JunitOutcome::failure || outcome == JunitOutcome::error; }

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
  if (c.occurrence > 1) out += ", case " + std::to_string(c.occurrence) + " of that name";
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
  std::vector<junit::TestCase> cases;
  junit::ReadOptions options;
  options.junit_prefix = junit_prefix;
  // Streamed: the report's text is never held whole, only its cases.
  junit::Reader reader(path, [&](const junit::TestCase& c) { cases.push_back(c); }, options);
  bool reader_failed = false;
  auto read = files.read_pieces(path, [&](std::string_view piece) -> Status {
    auto fed = reader.feed(piece);
    reader_failed = !fed;
    return fed;
  }, std::numeric_limits<std::size_t>::max());
  if (!read) return reader_failed ? read.error() : could_not_evaluate(read.error().message + " (the JUnit report)");
  auto stats = reader.finish();
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

namespace {

// `c` after `kept` as one more attempt of the test: the earlier ones count as failed
// attempts (flaky_attempts when `c` passed, rerun_failures when not).
void add_attempt(junit::TestCase& c, const junit::TestCase& kept, std::string_view passed_message) {
  const int earlier = 1 + kept.flaky_attempts + kept.rerun_failures;
  c.flaky_attempts += c.outcome == JunitOutcome::passed ? earlier : 0;
  c.rerun_failures += c.outcome == JunitOutcome::passed ? 0 : earlier;
  if (c.outcome == JunitOutcome::passed && c.message.empty()) c.message = passed_message;
}

enum class Fold { attempt, same_run, ran_again, refuse };

// pytest: pytest-rerunfailures' attempts (the earlier ones without a failure or error of
// their own), or a failed call followed by its teardown error (one attempt, which erred).
Fold pytest_fold(const Seen& last, const Seen& now) {
  if (now.teardown_error && last.outcome == JunitOutcome::failure) return Fold::same_run;
  return attempt_shaped(last) ? Fold::attempt : Fold::refuse;
}

// gotestsum: a package's failed runs come first, each a case (--rerun-fails reruns only what
// failed); `go test -count=N` writes a test's runs with one result as N cases.
Fold gotestsum_fold(const Seen& last, const Seen& now) {
  if (failed_outcome(last.outcome) && !last.recorded_attempts) return Fold::attempt;
  if (last.outcome == now.outcome && !now.recorded_attempts) return Fold::ran_again;
  return Fold::refuse;
}

std::string refusal(const Seen& last) {
  if (last.family == junit::Family::gotestsum)
    return "the earlier one has " + std::string(outcome_word(last.outcome)) +
           " and the later one another result, which is not how gotestsum records a test's runs (its failed "
           "attempts come first)";
  if (last.family != junit::Family::pytest)
    return "their runner does not write one test's attempts as repeated cases";
  return last.recorded_attempts
             ? "the earlier one records reruns of its own, which is not how pytest-rerunfailures records an attempt"
             : "the earlier one has " + std::string(outcome_word(last.outcome)) +
                   " of its own, which is not how pytest-rerunfailures records an attempt";
}

}  // namespace

Result<std::vector<junit::TestCase>> fold_in_process_reruns(std::vector<junit::TestCase> cases,
                                                            const std::string& origin) {
  std::unordered_map<std::string, Group> groups;  // by id
  std::vector<junit::TestCase> out;
  out.reserve(cases.size());
  junit::Occurrences occurrences;  // distinct tests of one name, in families that write no attempts
  for (auto& c : cases) {
    occurrences.number(c);
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
    const Fold fold = c.family == junit::Family::pytest      ? pytest_fold(group.last, now)
                      : c.family == junit::Family::gotestsum ? gotestsum_fold(group.last, now)
                                                             : Fold::refuse;
    switch (fold) {
      case Fold::refuse: return collision(origin, id, group.last, now, refusal(group.last));
      case Fold::same_run:  // one attempt: its call failed, then its teardown erred
        c.flaky_attempts = kept.flaky_attempts;
        c.rerun_failures = kept.rerun_failures;
        break;
      case Fold::attempt:
        add_attempt(c, kept, c.family == junit::Family::pytest
                                 ? "failed, then passed when rerun inside pytest (pytest-rerunfailures)"
                                 : "failed, then passed when rerun by gotestsum (--rerun-fails)");
        break;
      case Fold::ran_again:  // the same result again: the case as first written stands
        group.last = std::move(now);
        continue;
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
