// The gate: load the rules, find the change's files, decide, report.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "changes.hpp"
#include "classify.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/files.hpp"
#include "gatekit/run_info.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "list_files.hpp"
#include "listing.hpp"
#include "path-classifier.hpp"
#include "report.hpp"
#include "rules.hpp"

namespace gatekit::path_classifier {

// The rules from --rules FILE (the user's own file: unreadable is bad input) or --rules-text.
Rules load_rules(const Options& o, Context& ctx) {
  std::optional<glob::Dialect> dialect;
  if (!o.dialect.empty()) dialect = glob::parse_dialect(o.dialect);
  std::optional<Quantifier> quantifier;
  if (!o.predicate_quantifier.empty()) quantifier = parse_quantifier(o.predicate_quantifier);
  if (!o.rules_file.empty()) {
    const auto text = value_or_throw(as_bad_input(ctx.files.read(o.rules_file)));
    return value_or_throw(load_rules_text(text, o.rules_file, dialect, quantifier));
  }
  if (!o.rules_text.empty()) return value_or_throw(load_rules_text(o.rules_text, "filters input", dialect, quantifier));
  fail_bad_input("no rules: give --rules FILE or --rules-text YAML");
}

namespace {

using Outputs = std::vector<std::pair<std::string, std::string>>;

// Valid but suspicious patterns: annotations on the rules file, and lines for the summary.
std::vector<std::string> report_rule_warnings(const Rules& rules, Workflow& workflow) {
  std::vector<std::string> lines;
  for (const auto& w : rules.warnings) {
    workflow.annotate({Severity::warning, w.message, "path-gate rules", w.file == "filters input" ? "" : w.file,
                       w.line, w.column});
    lines.push_back(format_issue(w));
  }
  return lines;
}

// The workflow event from --event/--event-path, else the run's (RunInfo). An
// unreadable payload is a fail-open cause (EventInfo::problem) naming the file and the reason.
EventInfo read_event(const Options& o, Context& ctx) {
  const auto path = !o.event_path.empty() ? o.event_path : ctx.run.event_path;
  Result<std::string> payload = path.empty() ? Result<std::string>(std::string()) : ctx.files.read(path);
  const auto name = !o.event.empty() ? o.event : ctx.run.event_name;
  const auto repo = ctx.run.repository_or(o.repo);
  auto event = parse_event(name, payload ? *payload : std::string(), repo);
  if (!payload && !event.problem.empty())
    event.problem = "the " + event.name + " event payload cannot be read: " + payload.error().message;
  if (o.pr > 0 && event.kind == EventKind::pull_request && !event.pr_number) {
    event.pr_number = o.pr;
    event.problem.clear();
  }
  return event;
}

// The files whose change makes every filter relevant (classify.hpp, GuardedFile): the rules
// file, when it lies inside the repository (--repo-dir), and the running workflow.
std::vector<GuardedFile> guarded_files(const Options& o, const RunInfo& run, const Files& files) {
  std::vector<GuardedFile> out;
  if (!o.rules_file.empty()) {
    const auto file = files.absolute(o.rules_file);
    const auto root = files.absolute(o.repo_dir);
    if (file && root)
      if (auto inside = path_inside(file->string(), root->string())) out.push_back({*inside, "the gate's rules file"});
  }
  if (auto workflow = workflow_path_from_ref(run.workflow_ref)) out.push_back({*workflow, "the workflow running the gate"});
  return out;
}

// `RUNNER_TEMP/path-gate-files-<hash>.json`: named by a hash of its content, so two gate
// steps of one job never overwrite each other's lists (equal lists share one file).
std::filesystem::path lists_file_name(const std::string& dir, const std::string& content) {
  // The standard library's string hash: 64 bits, eight bytes a step (the lists run to megabytes).
  const std::uint64_t hash = std::hash<std::string_view>{}(content);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return std::filesystem::path(dir) / ("path-gate-files-" + std::string(hex) + ".json");
}

// The `list-files` outputs (list_files.hpp); every list also goes to a JSON file in
// RUNNER_TEMP, whose path is the `list-files-path` output, so that a list too long for an
// output is never lost. Returns the summary section.
std::string add_lists(const Options& o, const Decision& decision, bool evaluated, Outputs& outputs, Context& ctx) {
  const auto format = parse_list_format(o.list_files).value_or(ListFormat::none);
  const auto plan = plan_lists(decision, format, evaluated);
  outputs = with_lists(std::move(outputs), plan);
  std::string path;
  if (format != ListFormat::none)
    if (auto temp = ctx.env.get_nonempty("RUNNER_TEMP")) {
      const auto content = lists_json(decision, plan);
      const auto file = lists_file_name(*temp, content);
      if (auto written = ctx.files.replace(file, content)) {
        path = file.string();
        outputs.emplace_back("list-files-path", path);
      } else {
        ctx.workflow.annotate({Severity::warning, written.error().message, "path gate", "", 0, 0});
      }
    }
  for (const auto& w : list_warnings(plan, path)) ctx.workflow.annotate({Severity::warning, w, "path gate", "", 0, 0});
  return lists_summary_markdown(decision, plan);
}

void report(const Options& o, const Decision& decision, bool evaluated, const std::vector<std::string>& warnings,
            Context& ctx) {
  if (decision.fail_open)
    ctx.workflow.annotate({Severity::warning, "fail-open: " + *decision.fail_open + "; every filter is relevant",
                           "path gate", "", 0, 0});
  ctx.workflow.begin_group("Path gate decision");
  for (const auto& line : log_lines(decision)) ctx.workflow.log(line);
  ctx.workflow.end_group();
  auto outputs = step_outputs(decision);
  std::string lists_summary;
  if (!o.list_files.empty()) lists_summary = add_lists(o, decision, evaluated, outputs, ctx);
  ctx.workflow.set_outputs(outputs);
  ctx.workflow.append_summary(summary_markdown(decision, warnings));
  if (!lists_summary.empty()) ctx.workflow.append_summary(lists_summary);
}

}  // namespace

ExitCode run_gate(const Options& o, Context& ctx) {
  const Rules rules = load_rules(o, ctx);
  const auto warnings = report_rule_warnings(rules, ctx.workflow);
  if (!o.explain.empty()) {
    ctx.out << inert_lines(explain(rules, o.explain, guarded_files(o, ctx.run, ctx.files)));
    return ExitCode::pass;
  }
  const auto event = read_event(o, ctx);
  const auto plan = gather(o, rules.evaluate_non_pr, event, ctx);
  for (const auto& note : plan.listing.notes) ctx.workflow.log(note);
  const auto decision = decide(rules, plan.listing, event.name, plan.evaluate, guarded_files(o, ctx.run, ctx.files));
  report(o, decision, plan.evaluate, warnings, ctx);
  return ExitCode::pass;
}

}  // namespace gatekit::path_classifier
