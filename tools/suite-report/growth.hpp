#pragma once
// Suite growth: this run's tests against the last main run's, for the same configuration.
//
// A baseline is keyed by configuration (workflow file, job, Python version, the leg's
// selection expression): comparing a 3.12 job with a 3.11 baseline, or a daily selection with
// a pull request's, is how suite-size checks raise false alarms. Main runs store the baseline
// as a workflow artifact named after the key; the JSON inside also carries the key (checked
// on load) and the counts of recent main runs, for the chart.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gatekit/result.hpp"

namespace gatekit {
class Files;
}

namespace gatekit::suite_report {

struct ConfigKey {
  std::string workflow;   // file name, e.g. cpu-tests.yml
  std::string job;        // job id
  std::string python;     // e.g. 3.12
  std::string selection;  // the leg's -m expression in this context
  bool operator==(const ConfigKey&) const = default;
  // "workflow=cpu-tests.yml job=tests python=3.12 selection=(not gpu) and not nightly"
  std::string text() const;
  // A workflow artifact name: readable parts and a hash of the whole key, e.g.
  // suite-baseline-cpu-tests-tests-py3.12-5f0c2a9b13
  std::string artifact_name() const;
};

struct HistoryPoint {
  std::string sha;
  std::string run_id;
  std::string date;  // ISO 8601 UTC
  std::size_t tests = 0;
  double seconds = 0;
};

// A test's identity: the first 128 bits of SHA-256 of its whole id (never cut: two
// parametrised ids that differ only after byte 4000 are two tests), plus the next 64 bits,
// which tell a collision of the 128 (refused) from the same id seen again. Only identities are
// kept in memory, never the ids themselves, so a report of a million tests stays small.
struct TestIdentity {
  std::uint64_t hi = 0, lo = 0;  // the identity
  std::uint64_t check = 0;       // the collision check
  // The identity of a test id (pytest node id, else classname::name).
  static TestIdentity of(std::string_view id);
  // The identity of the k-th case (1-based) of a report with neither name nor classname:
  // each such case is one test, never merged with the others.
  static TestIdentity unnamed(std::size_t k);
  // 48 lower-case hex digits (identity, then check), as baselines store it; parsed back by
  // from_hex (nullopt when not 48 hex digits).
  std::string hex() const;
  static std::optional<TestIdentity> from_hex(std::string_view text);
  bool same_key(const TestIdentity& other) const { return hi == other.hi && lo == other.lo; }
  bool operator==(const TestIdentity&) const = default;
};

struct TestIdentityHash {
  std::size_t operator()(const TestIdentity& id) const noexcept { return static_cast<std::size_t>(id.hi ^ (id.lo >> 1)); }
};
struct TestIdentityKeyEqual {
  bool operator()(const TestIdentity& a, const TestIdentity& b) const noexcept { return a.same_key(b); }
};

// How a test shows in summaries and baselines: the whole id up to kDisplayBytes, else its
// first kDisplayHeadBytes and its last bytes (where parametrised ids differ) around the
// number of bytes left out, cut at character boundaries. Display only: the identity is
// always the whole id's.
inline constexpr std::size_t kDisplayBytes = 200;
inline constexpr std::size_t kDisplayHeadBytes = 140;
std::string display_id(std::string_view id);
// The display of the k-th case without name or classname.
std::string unnamed_display(std::size_t k);

struct SnapshotEntry {
  std::uint64_t check = 0;
  double seconds = 0;
  std::size_t order = 0;  // where the test first appeared (0-based), for report order
};

// The tests of one run (or a baseline): identity -> seconds (a test reported twice adds up).
class Snapshot {
 public:
  using Map = std::unordered_map<TestIdentity, SnapshotEntry, TestIdentityHash, TestIdentityKeyEqual>;
  Snapshot() = default;
  // Convenience for tables: whole ids and seconds, in this order.
  Snapshot(std::initializer_list<std::pair<std::string, double>> tests);

  // Adds `seconds` to the test (a new test when unseen). An Error (could_not_evaluate) when a
  // different test has the same 128-bit identity: the two cannot be told apart.
  Status add(const TestIdentity& id, double seconds);
  Status add(std::string_view id, double seconds) { return add(TestIdentity::of(id), seconds); }
  const SnapshotEntry* find(const TestIdentity& id) const;
  bool contains(std::string_view id) const { return find(TestIdentity::of(id)) != nullptr; }
  double seconds_of(std::string_view id) const;  // 0 when absent
  // The recorded seconds of those of `ids` the snapshot has (a split's durations).
  std::unordered_map<std::string, double> seconds_of(const std::vector<std::string>& ids) const;
  std::size_t size() const { return tests_.size(); }
  void reserve(std::size_t n) { tests_.reserve(n); }
  Map::const_iterator begin() const { return tests_.begin(); }
  Map::const_iterator end() const { return tests_.end(); }
  // The same tests with the same seconds (order aside).
  bool operator==(const Snapshot& other) const;

 private:
  Map tests_;
};

// Display names of some tests, by identity (a bounded few: those a summary shows).
using Names = std::unordered_map<TestIdentity, std::string, TestIdentityHash, TestIdentityKeyEqual>;

struct Baseline {
  std::optional<ConfigKey> key;  // absent for a plain JUnit report
  std::vector<HistoryPoint> history;
  Snapshot tests;
  Names names;         // display names of the tests read_baseline was asked to keep
  std::string source;  // the file, for messages
  // Written before ids by family (versions 1 and 2): its identities agree with this run's only
  // for cases whose id gatekit makes as it did then (ReportCase::legacy_differs false).
  bool legacy_ids = false;
};

struct Thresholds {
  long tests = 100;   // new tests, or removed tests
  double seconds = 60;  // of new test time
};

struct NewTest {
  TestIdentity id;
  double seconds = 0;
  std::size_t order = 0;  // in this run's report
};

// Which thresholds a change reached; the notice names each.
enum class Reached { added_tests, removed_tests, added_seconds };

struct GrowthResult {
  std::size_t base_tests = 0, tests = 0;
  double base_seconds = 0, seconds = 0;
  std::vector<NewTest> added;         // slowest first, then in report order
  std::vector<TestIdentity> removed;  // in the baseline's order
  double added_seconds = 0;
  std::vector<Reached> reached;       // in the order of the enum
  bool notice = false;                // some threshold was reached
};

double total_seconds(const Snapshot& snapshot);
// An Error (could_not_evaluate) when a test of `now` has the 128-bit identity of a different
// test of `base`.
Result<GrowthResult> compare(const Snapshot& base, const Snapshot& now, const Thresholds& thresholds);

// "adds 120 tests (1m 30s of test time): at or over the notice threshold of 100 new tests";
// "removes 150 tests: at or over the notice threshold of 100 removed tests"; the notice's
// sentence, naming each threshold reached.
std::string describe_growth(const GrowthResult& growth, const Thresholds& thresholds);
// "100 new tests", "100 removed tests", "1m 00s of new test time".
std::string threshold_text(Reached reached, const Thresholds& thresholds);

// ---- baselines on disk ---------------------------------------------------------------
//
// suite-baseline.json, as main runs store it (version 3), is JSON Lines: a header object,
// then one line per test, in the order of the report it was made from:
//   {"format": "gatekit-suite-baseline", "version": 3, "identity": "sha256-128+64",
//    "key": {"workflow": ..., "job": ..., "python": ..., "selection": ...},
//    "history": [{"sha": ..., "run": ..., "date": ..., "tests": N, "seconds": S}, ...],
//    "tests": <number of test lines>}
//   ["<TestIdentity::hex()>", <seconds>, "<display id>"]
// Version 3 is version 2 with ids by family (docs/junit.md): the suite joins the id where the
// family needs it, and a name's distinct cases are numbered. Version 2 (the same lines, ids as
// gatekit made them before) and version 1 (one JSON object whose `tests` maps whole ids to
// seconds; its ids are hashed as they are read) are still read, as Baseline::legacy_ids. A
// version 1 that holds an id an older gatekit cut short, or merged cases without a name, is
// refused with a message saying what to do.

// Which display names read_baseline keeps, asked in the baseline's order; none when empty.
using KeepName = std::function<bool(const TestIdentity&)>;

// How visit_baseline hands a baseline's tests on, one at a time, as it reads them.
struct BaselineVisit {
  // Takes a test (its identity and seconds): true when it is new, false when seen before (a
  // JUnit report's repeat; a suite baseline's repeat is refused), or an Error that stops the
  // reading (a different test with the same identity).
  std::function<Result<bool>(const TestIdentity&, double)> add;
  KeepName keep_name;            // which display names to keep, of the new tests
  std::function<bool()> enough;  // optional: stop reading once true (no error: what was read stands)
};

// A JUnit report or a suite baseline (told apart by the first character), read in pieces
// through `files` (at most 1 GiB): a report case by case, a version 2 baseline line by line,
// neither held whole (a version 1 baseline is, as it always was); each test goes to
// `visit.add`, and the result holds the key, the history and the kept names, never the tests.
// An Error when it cannot be read, or not as either.
Result<Baseline> visit_baseline(const Files& files, const std::string& path, const BaselineVisit& visit);
// The same, into `tests`, for those that need every test at hand (shard durations, tests).
Result<Baseline> read_baseline(const Files& files, const std::string& path, const KeepName& keep_name = {});

// One <testcase> of a report as growth sees it; `id` lives for the call only.
struct ReportCase {
  TestIdentity identity;     // when visit_report is asked for identities
  std::string_view id;       // the whole id; empty for a case without name or classname
  std::size_t unnamed = 0;   // k for the k-th case without name or classname, else 0
  double seconds = 0;
  std::size_t ordinal = 0;   // 0-based, in report order
  int line = 0;              // of the <testcase> element
  bool legacy_differs = false;  // its id is not the one gatekit made before ids by family
  // display_id(id), or unnamed_display(k): made when asked, since most cases never show.
  std::string display() const { return unnamed > 0 ? unnamed_display(unnamed) : display_id(id); }
  // The same, as a view of `id` when it shows as it is (valid UTF-8 of at most kDisplayBytes:
  // nearly every case), else made into `made`.
  std::string_view display(std::string& made) const;
};
using ReportVisitor = std::function<Status(const ReportCase&)>;
// This run's JUnit report, streamed case by case (the core reader keeps memory bounded); the
// first Error a visit returns stops the reading and is returned. Without `identities` the
// cases' identities are left unset (a pass that knows them already skips the hashing).
Status visit_report(const Files& files, const std::string& path, const std::string& junit_prefix,
                    const ReportVisitor& visit, bool identities = true);
// This run's report as a snapshot: one pass of visit_report.
Result<Snapshot> read_report_snapshot(const Files& files, const std::string& path, const std::string& junit_prefix);

inline constexpr std::size_t kHistoryLimit = 30;

// A test's line of a baseline, but its display name.
struct TestLine {
  TestIdentity id;
  double seconds = 0;
};
// The k-th test's identity and seconds (0-based, in the order of the names added), asked once
// each, in order, when the file is put together.
using TestAt = std::function<TestLine(std::size_t k)>;

// Writes a version 2 baseline through `files`, atomically, while this run's report is read
// once. add() takes each test's display name as its first case is read (JSON-escaped, 1 MiB
// at a time to the sibling PATH.tests.tmp); the identities and seconds, which the caller keeps
// anyway (and whose seconds are whole only at the end when a test repeats), are asked for at
// finish(). finish() writes the header (which counts the tests and ends the history with this
// run, both known only at the end) to the sibling PATH.tmp, then each test's line, the names
// read back from PATH.tests.tmp, and renames it over PATH. A reader never sees half a
// baseline: until the rename PATH is as it was, and a writer that fails, or goes unfinished,
// removes both siblings.
class BaselineWriter {
 public:
  BaselineWriter(Files& files, std::string path);
  ~BaselineWriter();
  BaselineWriter(const BaselineWriter&) = delete;
  BaselineWriter& operator=(const BaselineWriter&) = delete;
  // The next test's display name.
  Status add(std::string_view display);
  // The header (the last kHistoryLimit points of `history`; `tests`, which must be the number
  // of names added), then the tests' lines, into PATH.
  Status finish(const ConfigKey& key, const std::vector<HistoryPoint>& history, std::size_t tests,
                const TestAt& test_at);

 private:
  Status flush();
  // The lines of the names in `names` (whole lines, each '\n'-terminated) onto `out`.
  Status lines_of(std::string_view names, const TestAt& test_at, std::string& out);
  Status copy_lines(const TestAt& test_at);  // the lines of PATH.tests.tmp behind the header
  Status fail(Status failed);                // removes the siblings, keeps and returns the error
  Status fresh(const std::string& path, std::string_view content);  // a scratch file, new
  Files& files_;
  std::string path_, names_path_, whole_path_;
  std::string pending_;
  std::size_t added_ = 0, lines_ = 0;
  bool started_ = false;   // PATH.tests.tmp holds names
  bool finished_ = false;  // PATH is written: nothing left to remove
  Status status_;
};

// The mermaid charts of the history (tests and minutes per main run, this run last).
std::string history_charts(const std::vector<HistoryPoint>& history, const HistoryPoint& now);

}  // namespace gatekit::suite_report
