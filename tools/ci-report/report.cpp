// run_report: the window from the options, the history from the API (or --history), the
// figures from estimate(), and the summary, step outputs and files from render.
#include <chrono>
#include <optional>

#include "ci-report.hpp"
#include "estimate.hpp"
#include "gather.hpp"
#include "gatekit/files.hpp"
#include "gatekit/github.hpp"
#include "gatekit/github_cache.hpp"
#include "gatekit/run_info.hpp"
#include "gatekit/text.hpp"
#include "history_json.hpp"
#include "render.hpp"

namespace gatekit::ci_report {
namespace {

constexpr std::int64_t kDay = 86400;

// "2026-11-01" (midnight UTC) or "2026-11-01T10:00:00Z".
std::int64_t read_time_option(const std::string& name, const std::string& value) {
  if (value.size() == 10)
    if (auto t = parse_utc(value + "T00:00:00Z")) return *t;
  if (auto t = parse_utc(value)) return *t;
  fail_bad_input(name + ": '" + visible_controls(value) +
                 "' is not a day like 2026-11-01 or a UTC time like 2026-11-01T10:00:00Z");
}

struct Window {
  std::int64_t since = 0, until = 0;
};

Window window_of(const Options& o, Context& ctx) {
  Window w;
  w.until = o.until.empty() ? ctx.clock.epoch_seconds() : read_time_option("--until", o.until);
  w.since = o.since.empty() ? w.until - 7 * kDay : read_time_option("--since", o.since);
  if (w.since >= w.until)
    fail_bad_input("--since (" + format_utc(w.since) + ") must be before --until (" + format_utc(w.until) + ")");
  if (w.until - w.since > 366 * kDay) fail_bad_input("the window is longer than a year: give a shorter --since");
  return w;
}

std::vector<std::string> or_default(const std::vector<std::string>& given, std::vector<std::string> fallback) {
  return given.empty() ? fallback : given;
}

// The answers kept by the last run. A missing file is a first run; an unreadable or damaged
// one (the cache is ci-report's own file, not the user's input) is left aside with a warning:
// the report is the same without it, only dearer.
github::ResponseCache read_cache(const std::string& path, Context& ctx) {
  github::ResponseCache cache;
  if (!ctx.files.exists(path)) {
    ctx.workflow.log("ci-report: no API cache at " + path + " yet: every request counts against the rate limit");
    return cache;
  }
  std::size_t line = 0;
  const auto read = ctx.files.for_each_line(path, [&](std::string_view text) {
    return cache.add_line(text, path + ":" + std::to_string(++line) + ": ");
  });
  if (read) return cache;
  // The annotation's title names the tool; the frame prints it before the message.
  ctx.workflow.annotate({Severity::warning, "the API cache is left aside: " + read.error().message,
                         "ci-report", "", 0, 0});
  return github::ResponseCache{};
}

History read_history(const Options& o, const Window& w, Context& ctx) {
  if (!o.history_file.empty()) {
    HistoryLines lines(o.history_file);
    // An unreadable file is the user's own input, like a bad line: exit 2.
    throw_if_error(as_bad_input(
        ctx.files.for_each_line(o.history_file, [&](std::string_view line) { return lines.add(line); })));
    return value_or_throw(lines.finish());
  }
  const std::string repo = ctx.run.repository_or(o.repo);
  if (repo.empty()) fail_bad_input("no repository: give --repo OWNER/NAME or set GITHUB_REPOSITORY");
  auto options = github::options_for(ctx);
  options.total_budget = std::chrono::milliseconds(std::int64_t{o.api_budget_s} * 1000);
  auto client = value_or_throw(github::connect(ctx, options));
  GatherPlan plan{repo,
                  or_default(o.workflows, {"cpu-tests.yml", "gpu-tests.yml"}),
                  w.since - std::int64_t{o.lookback_days} * kDay,
                  w.since,
                  w.until,
                  o.gate_job,
                  or_default(o.required_jobs, {"CPU tests", "GPU tests"}),
                  o.gpu_context,
                  o.flaky_label,
                  or_default(o.flaky_creators, {"github-actions[bot]"})};
  std::optional<github::ResponseCache> cache;
  if (!o.cache_file.empty()) {
    cache = read_cache(o.cache_file, ctx);
    github::use_cache(client, &*cache);
  }
  auto history = gather(client, plan, ctx.workflow);
  if (cache) {
    history.not_modified = static_cast<std::int64_t>(cache->not_modified());
    // The cache only saves requests: one that cannot be kept costs the next run, never this
    // report. Replaced whole, so a full disk leaves the last one as it was.
    // A partial history (its budget ran out) keeps every answer, those of earlier runs it did
    // not reach included: the next run goes through them with free 304s and gets further.
    if (auto kept = ctx.files.replace(o.cache_file, cache->to_lines(!history.gaps.empty())); !kept)
      ctx.workflow.annotate({Severity::warning,
                             "ci-report: the API cache was not kept (the next run asks again): " + kept.error().message,
                             "ci-report", "", 0, 0});
  }
  return history;
}

void write_file(const std::string& path, const std::string& content, Context& ctx) {
  if (!path.empty()) throw_if_error(ctx.files.replace(path, content));
}

}  // namespace

ExitCode run_report(const Options& o, Context& ctx) {
  if (o.lookback_days < 0 || o.lookback_days > 90) fail_bad_input("--lookback-days must be from 0 to 90");
  if (o.samples < 1 || o.samples > 1000) fail_bad_input("--samples must be from 1 to 1000");
  if (o.api_budget_s < 1) fail_bad_input("--api-budget must be at least 1 second");
  const auto w = window_of(o, ctx);
  const auto history = read_history(o, w, ctx);
  if (!o.save_history.empty()) write_file(o.save_history, history_to_json(history), ctx);
  EstimateOptions eo;
  eo.since = w.since;
  eo.until = w.until;
  eo.samples = static_cast<std::size_t>(o.samples);
  eo.gate_job = o.gate_job;
  eo.required_jobs = or_default(o.required_jobs, {"CPU tests", "GPU tests"});
  const auto report = estimate(history, eo);
  const auto markdown = summary_markdown(report);
  write_file(o.json_file, report_json(report), ctx);
  write_file(o.csv_file, report_csv(report), ctx);
  write_file(o.markdown_file, markdown, ctx);
  ctx.workflow.append_summary(markdown);
  char saved[32], spent[32];
  std::snprintf(saved, sizeof saved, "%.1f", report.saved_minutes);
  std::snprintf(spent, sizeof spent, "%.1f", report.spent_minutes);
  ctx.workflow.set_output("saved-minutes", saved);
  ctx.workflow.set_output("spent-minutes", spent);
  ctx.workflow.set_output("complete", report.gaps.empty() ? "true" : "false");
  ctx.workflow.log("ci-report: saved " + std::string(saved) + " min, spent " + spent + " min over " +
                   std::to_string(report.runs) + " runs from " + format_utc(w.since) + " to " + format_utc(w.until));
  if (report.gaps.empty()) return ExitCode::pass;
  for (const auto& g : report.gaps)
    ctx.workflow.annotate({Severity::warning, "partial report: " + g, "ci-report", "", 0, 0});
  return ExitCode::could_not_evaluate;
}

}  // namespace gatekit::ci_report
