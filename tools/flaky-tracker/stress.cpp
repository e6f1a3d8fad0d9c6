// flaky-tracker stress: the suite N times under load; what flaked goes into one report
// (for `issues --kind stress`). The step never fails on the tests' results.
#include <atomic>
#include <filesystem>
#include <mutex>
#include <thread>

#include "command.hpp"
#include "flaky-tracker.hpp"
#include "gatekit/files.hpp"
#include "gatekit/junit_writer.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "report.hpp"
#include "stress_merge.hpp"
#include "summary.hpp"
#include "test_pass.hpp"

namespace gatekit::flaky_tracker {

namespace {

namespace fs = std::filesystem;

// Busy threads that compete with the copies for the CPU while they run.
class CpuHog {
 public:
  explicit CpuHog(int threads) {
    for (int i = 0; i < threads; ++i)
      threads_.emplace_back([this] {
        volatile unsigned long sink = 0;
        while (!stop_.load(std::memory_order_relaxed)) sink = sink + 1;
      });
  }
  ~CpuHog() {
    stop_ = true;
    for (auto& t : threads_) t.join();
  }
  CpuHog(const CpuHog&) = delete;
  CpuHog& operator=(const CpuHog&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

// How a copy ended; its cases went into the fold as it ended.
struct Copy {
  std::string how;        // "exit code 1", or why it did not start
  std::string no_report;  // why it left no report it could read; empty: it did
};

// What the copies share: their reports are read and folded one at a time, so that memory
// holds the fold and one copy's cases, whatever the number of copies.
struct Copies {
  std::mutex reading;
  StressFold fold;
  std::size_t read = 0;  // copies whose report was read
};

// One copy, through the core's test pass. The copies run side by side on threads, which
// share no log: the pass writes nothing to the workflow and its output is dropped; the
// caller logs how each copy ended.
Copy run_copy(int n, const StressOptions& o, const fs::path& dir, Context& ctx, Copies& shared) {
  test_run::TestPass pass;
  pass.name = "stress copy " + std::to_string(n);
  pass.junit = (dir / ("stress-" + std::to_string(n) + ".xml")).string();
  test_run::CommandValues values;
  values.junit = pass.junit;
  values.copy = std::to_string(n);
  pass.argv = test_run::expand(o.command, values);
  pass.cwd = o.cwd;
  pass.timeout = std::chrono::seconds(o.timeout_s);
  pass.read_options.junit_prefix = o.junit_prefix;
  pass.log_output = false;
  std::unique_lock<std::mutex> reading(shared.reading, std::defer_lock);
  auto ran = run_pass(ctx, std::move(pass), &reading);
  if (!ran) return {ran.error().message, ran.error().message};
  if (!ran->report) return {ran->how, ran->report_error + " (" + ran->how + ")"};
  if (!reading.owns_lock()) reading.lock();
  shared.fold.add(ran->report->cases);
  ++shared.read;
  ran->report.reset();  // its cases go before the next copy's are read
  return {ran->how, ""};
}

std::vector<Copy> run_copies(const StressOptions& o, const fs::path& dir, Context& ctx, Copies& shared) {
  std::vector<Copy> copies(static_cast<std::size_t>(o.times));
  std::mutex log;
  auto one = [&](int n) {
    copies[static_cast<std::size_t>(n - 1)] = run_copy(n, o, dir, ctx, shared);
    std::lock_guard lock(log);
    ctx.workflow.log("copy " + std::to_string(n) + " of " + std::to_string(o.times) + ": " +
                     copies[static_cast<std::size_t>(n - 1)].how);
  };
  for (int first = 1; first <= o.times; first += o.parallel) {
    const int last = std::min(o.times, first + o.parallel - 1);
    if (first == last) {
      one(first);
      continue;
    }
    std::vector<std::thread> running;
    for (int n = first; n <= last; ++n) running.emplace_back(one, n);
    for (auto& t : running) t.join();
  }
  return copies;
}

std::string stress_summary(const StressResult& r, const StressOptions& o, std::size_t read) {
  std::string md = "## flaky-tracker: stress\n\n" + std::to_string(read) + " of " + std::to_string(o.times) +
                   " copies left a report (" + std::to_string(o.parallel) + " at a time, " + std::to_string(o.hog) +
                   " busy threads besides).\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& t : r.flaky)
    rows.push_back({markdown_code(shorten(t.id, 300)), "flaky", std::to_string(t.failed) + " of " + std::to_string(t.ran)});
  for (const auto& t : r.broken)
    rows.push_back({markdown_code(shorten(t.id, 300)), "failed every time", std::to_string(t.failed) + " of " + std::to_string(t.ran)});
  if (rows.size() > 100) rows.resize(100);
  md += rows.empty() ? "No test failed in any copy.\n" : markdown_table({"Test", "Verdict", "Failed in"}, rows);
  if (!r.broken.empty())
    md += "\nUnder load, a test that fails in every copy is usually a stall or a timeout: `issues --kind stress` "
          "opens or reopens its flaky-test issue like a flaky one's.\n";
  return md;
}

}  // namespace

ExitCode run_stress(const StressOptions& given, Context& ctx) {
  StressOptions o = given;
  o.command = value_or_throw(command_words(given.command_text, given.command));
  if (o.command.empty()) fail_bad_input("stress: --command is required");
  const auto command = value_or_throw(check_stress_template(o.command));
  test_run::warn_old_spellings(ctx.workflow, command, "--command");
  o.command = command.words;  // in the current spelling
  const fs::path output(o.output);
  const fs::path dir = value_or_throw(
      ctx.files.absolute(!o.work_dir.empty() ? fs::path(o.work_dir) : output.has_parent_path() ? output.parent_path() : fs::path(".")));
  Copies shared;
  std::vector<Copy> copies;
  {
    CpuHog hog(o.hog);
    ctx.workflow.begin_group("stress: " + std::to_string(o.times) + " copies, " + std::to_string(o.parallel) + " at a time");
    copies = run_copies(o, dir, ctx, shared);
    ctx.workflow.end_group();
  }
  for (const auto& copy : copies)
    if (!copy.no_report.empty()) ctx.workflow.annotate({Severity::warning, copy.no_report, "Stress copy without a report"});
  const StressResult result = shared.fold.finish();
  if (auto written = ctx.files.replace(o.output, write_junit(stress_report(result.cases))); !written)
    ctx.workflow.annotate({Severity::warning, written.error().message, "Stress report not written"});
  for (const auto& t : result.flaky)
    ctx.workflow.log("flaky: " + t.id + " failed in " + std::to_string(t.failed) + " of " + std::to_string(t.ran) + " copies");
  ctx.workflow.set_output("flaky", std::to_string(result.flaky.size()));
  ctx.workflow.set_output("report", o.output);
  ctx.workflow.append_summary(stress_summary(result, o, shared.read));
  return ExitCode::pass;
}

}  // namespace gatekit::flaky_tracker
