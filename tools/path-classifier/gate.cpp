// The gate: load rules, find the change's files, decide, report.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "changes.hpp"
#include "list_files.hpp"
#include "classify.hpp"
#include "gatekit/cli.hpp"
#include "gatekit/text.hpp"
#include "path-classifier.hpp"
#include "report.hpp"
#include "rules.hpp"

namespace gatekit::path_classifier {
namespace {

Rules load(const Options& o) {
  std::optional<glob::Dialect> dialect;
  if (!o.dialect.empty()) dialect = glob::parse_dialect(o.dialect);
  std::optional<Quantifier> quantifier;
  if (!o.predicate_quantifier.empty()) quantifier = parse_quantifier(o.predicate_quantifier);
  Result<Rules> rules = [&]() -> Result<Rules> {
    if (!o.rules_file.empty()) return load_rules_file(o.rules_file, dialect, quantifier);
    if (!o.rules_text.empty()) return load_rules_text(o.rules_text, "filters input", dialect, quantifier);
    return make_error("no rules: give --rules FILE or --rules-text YAML", ExitCode::usage_error);
  }();
  if (!rules) throw ToolError{ExitCode::usage_error, rules.error().message};
  return std::move(*rules);
}

std::string read_text(const std::string& path, std::istream& in, std::string& problem) {
  std::ostringstream text;
  if (path == "-") {
    text << in.rdbuf();
    return text.str();
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    problem = "cannot read the file list " + path;
    return "";
  }
  text << file.rdbuf();
  return text.str();
}

ChangeListing failed(std::string source, std::string cause) {
  ChangeListing l;
  l.source = std::move(source);
  l.fail_open = std::move(cause);
  return l;
}

struct Plan {
  bool evaluate = true;  // false: a non-PR event, every filter relevant
  ChangeListing listing;
};

// Whether `base` names the branch the push event is for (GITHUB_REF_NAME / GITHUB_REF).
bool names_pushed_branch(const std::string& base, const Environment& env) {
  const auto ref = env.get("GITHUB_REF").value_or("");
  const std::string prefix = "refs/heads/";
  if (ref.rfind(prefix, 0) != 0) return false;
  const auto name = ref.substr(prefix.size());
  return !name.empty() && (base == name || base == ref);
}

Plan gather(const Options& o, const Rules& rules, const EventInfo& event, Context& ctx) {
  Plan plan;
  if (!o.files.empty()) {
    std::string problem;
    auto text = read_text(o.files, ctx.in, problem);
    if (!problem.empty()) throw ToolError{ExitCode::usage_error, problem};
    plan.listing = make_list_source(text, o.files == "-" ? "the list on stdin" : "the list in " + o.files)->list();
    return plan;
  }
  Git git(ctx.runner, o.repo_dir);
  auto diff = [&](std::string base, std::string head, bool three_dot) {
    GitDiffSpec spec{std::move(base), std::move(head), three_dot, !o.no_fetch, o.remote};
    spec.initial_depth = o.initial_fetch_depth;
    return make_git_source(git, spec)->list();
  };
  // The payload's SHAs are outside data on their way to git: anything but full object names
  // fails open.
  auto event_diff = [&](bool three_dot) {
    if (auto problem = event_revisions_problem(event); !problem.empty()) return failed(event.name + " event", problem);
    return diff(event.base_sha, event.head_sha, three_dot);
  };
  if (!o.base.empty() && event.kind == EventKind::push && names_pushed_branch(o.base, ctx.env)) {
    // As dorny/paths-filter: `base` naming the branch that was pushed means the previous commit.
    if (!event.problem.empty()) plan.listing = failed(event.name + " event", event.problem);
    else if (is_null_sha(event.base_sha))
      plan.listing = failed(event.name + " event",
                            "the push created the branch, so there is no previous commit to compare with");
    else plan.listing = event_diff(false);
    return plan;
  }
  if (!o.base.empty()) {
    plan.listing = diff(o.base, o.head.empty() ? (event.head_sha.empty() ? "HEAD" : event.head_sha) : o.head, true);
    return plan;
  }
  const std::string source = event.name + " event";
  switch (event.kind) {
    case EventKind::local:
      throw ToolError{ExitCode::usage_error,
                      "nothing to compare: give --base REV (and --head REV), --files FILE, or run in GitHub Actions"};
    case EventKind::pull_request: {
      if (!event.problem.empty()) {
        plan.listing = failed(source, event.problem);
        return plan;
      }
      const auto number = o.pr > 0 ? o.pr : *event.pr_number;
      auto options = github::options_from_environment(ctx.env);
      options.budget = std::chrono::seconds(o.api_budget_s);
      options.total_budget = options.budget;  // the pull request and every page of files together
      if (!options.token.empty() && !event.repo.empty()) {
        // The client masks the token through the workflow.
        auto transport = ctx.make_transport();
        github::Client client(options, *transport, ctx.clock, &ctx.workflow);
        plan.listing = make_api_source(client, event.repo, number)->list();
        return plan;
      }
      if (!event.base_sha.empty() && !event.head_sha.empty()) {
        plan.listing = event_diff(true);
        plan.listing.notes.push_back("no token (or no repository) for the API: listed the files with git");
        return plan;
      }
      plan.listing = failed(source, "no token for the GitHub API and no base/head in the event");
      return plan;
    }
    case EventKind::merge_group:
      if (!event.problem.empty()) plan.listing = failed(source, event.problem);
      else plan.listing = event_diff(false);
      return plan;
    case EventKind::push:
      if (!rules.evaluate_non_pr) break;
      if (!event.problem.empty()) plan.listing = failed(source, event.problem);
      else if (is_null_sha(event.base_sha))
        plan.listing = failed(source, "the push created a branch, so there is no previous commit to compare with");
      else if (is_null_sha(event.head_sha))
        plan.listing = failed(source, "the push deleted the branch");
      else plan.listing = event_diff(false);
      return plan;
    case EventKind::other: break;
  }
  plan.evaluate = false;
  plan.listing.source = "no listing (" + event.name + " event)";
  return plan;
}

// The files whose change makes every filter relevant (classify.hpp, GuardedFile): the rules
// file, when it lies inside the repository (--repo-dir), and the running workflow.
std::vector<GuardedFile> guarded_files(const Options& o, Context& ctx) {
  std::vector<GuardedFile> out;
  if (!o.rules_file.empty()) {
    std::error_code file_error, root_error;
    const auto file = std::filesystem::absolute(o.rules_file, file_error);
    const auto root = std::filesystem::absolute(o.repo_dir, root_error);
    if (!file_error && !root_error)
      if (auto inside = path_inside(file.string(), root.string()))
        out.push_back({*inside, "the gate's rules file"});
  }
  if (auto ref = ctx.env.get("GITHUB_WORKFLOW_REF"))
    if (auto workflow = workflow_path_from_ref(*ref)) out.push_back({*workflow, "the workflow running the gate"});
  return out;
}

// A new file `dir/<prefix>XXXXXX<suffix>` holding `content`; its path.
Result<std::string> write_temp_file(const std::string& dir, const std::string& prefix, const std::string& suffix,
                                    const std::string& content) {
  std::string name = (std::filesystem::path(dir) / (prefix + "XXXXXX" + suffix)).string();
  const int fd = ::mkstemps(name.data(), static_cast<int>(suffix.size()));
  if (fd < 0) return make_error("cannot create the file list in RUNNER_TEMP: " + std::string(std::strerror(errno)));
  std::size_t done = 0;
  while (done < content.size()) {
    const auto n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      return make_error("cannot write the file list " + name + ": " + why);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) return make_error("cannot write the file list " + name + ": " + std::strerror(errno));
  return name;
}

// The `list-files` outputs (list_files.hpp); every list also goes to a JSON file in
// RUNNER_TEMP, whose path is the `list-files-path` output, so that a list too long for an
// output is never lost.
std::vector<std::pair<std::string, std::string>> write_lists(const Options& o, const Decision& decision, bool evaluated,
                                                             std::vector<std::pair<std::string, std::string>> outputs,
                                                             Context& ctx, std::string& summary) {
  const auto format = parse_list_format(o.list_files).value_or(ListFormat::none);
  const auto plan = plan_lists(decision, format, evaluated);
  outputs = with_lists(std::move(outputs), plan);
  std::string path;
  if (format != ListFormat::none)
    if (auto temp = ctx.env.get_nonempty("RUNNER_TEMP")) {
      auto written = write_temp_file(*temp, "path-gate-files-", ".json", lists_json(decision));
      if (written) {
        path = *written;
        outputs.emplace_back("list-files-path", path);
      } else {
        ctx.workflow.annotate({Severity::warning, written.error().message, "path gate", "", 0, 0});
      }
    }
  for (const auto& w : list_warnings(plan, path)) ctx.workflow.annotate({Severity::warning, w, "path gate", "", 0, 0});
  summary = lists_summary_markdown(decision, plan);
  return outputs;
}

}  // namespace

ExitCode run_gate(const Options& o, Context& ctx) {
  const Rules rules = load(o);
  std::vector<std::string> warnings;
  for (const auto& w : rules.warnings) {
    ctx.workflow.annotate({Severity::warning, w.message, "path-gate rules", w.file == "filters input" ? "" : w.file,
                           w.line, w.column});
    warnings.push_back(format_issue(w));
  }
  if (!o.explain.empty()) {
    ctx.out << inert_lines(explain(rules, o.explain));
    return ExitCode::pass;
  }

  auto payload_path = !o.event_path.empty() ? o.event_path : ctx.env.get("GITHUB_EVENT_PATH").value_or("");
  std::string payload;
  if (!payload_path.empty()) {
    std::ifstream file(payload_path, std::ios::binary);
    std::ostringstream text;
    if (file) text << file.rdbuf();
    payload = text.str();
  }
  const auto name = !o.event.empty() ? o.event : ctx.env.get("GITHUB_EVENT_NAME").value_or("");
  const auto repo = !o.repo.empty() ? o.repo : ctx.env.get("GITHUB_REPOSITORY").value_or("");
  auto event = parse_event(name, payload, repo);
  if (o.pr > 0 && event.kind == EventKind::pull_request && !event.pr_number) {
    event.pr_number = o.pr;
    event.problem.clear();
  }

  auto plan = gather(o, rules, event, ctx);
  for (const auto& note : plan.listing.notes) ctx.workflow.log(note);
  const auto decision = decide(rules, plan.listing, event.name, plan.evaluate, guarded_files(o, ctx));
  if (decision.fail_open)
    ctx.workflow.annotate({Severity::warning,
                           "fail-open: " + *decision.fail_open + "; every filter is relevant",
                           "path gate", "", 0, 0});

  ctx.workflow.begin_group("Path gate decision");
  for (const auto& line : log_lines(decision)) ctx.workflow.log(line);
  ctx.workflow.end_group();
  auto outputs = step_outputs(decision);
  std::string lists_summary;
  if (!o.list_files.empty())
    outputs = write_lists(o, decision, plan.evaluate, std::move(outputs), ctx, lists_summary);
  for (const auto& [key, value] : outputs) ctx.workflow.set_output(key, value);
  ctx.workflow.append_summary(summary_markdown(decision, warnings));
  if (!lists_summary.empty()) ctx.workflow.append_summary(lists_summary);
  return ExitCode::pass;
}

ExitCode run_match_batch(const Options& o, std::istream& in, std::ostream& out) {
  const auto dialect = o.dialect.empty() ? glob::Dialect::github : *glob::parse_dialect(o.dialect);
  std::map<std::string, std::variant<glob::Pattern, glob::PatternError>> cache;
  // Records are lines, or NUL-terminated when the input holds a NUL (paths with newlines).
  std::ostringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  std::istringstream records(text);
  const char separator = text.find('\0') != std::string::npos ? '\0' : '\n';
  std::string line;
  while (std::getline(records, line, separator)) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) {
      out << "E no tab\n";
      continue;
    }
    const auto pattern = line.substr(0, tab);
    const auto path = line.substr(tab + 1);
    auto it = cache.find(pattern);
    if (it == cache.end()) it = cache.emplace(pattern, glob::Pattern::compile(pattern, dialect)).first;
    if (const auto* e = std::get_if<glob::PatternError>(&it->second)) out << "E " << inert_line(e->message) << "\n";
    else out << (std::get<glob::Pattern>(it->second).matches(path) ? "1" : "0") << "\n";
  }
  return ExitCode::pass;
}

}  // namespace gatekit::path_classifier
