// The doctor's verdict (decide.hpp): every required check against the workflows that should
// report it, the gate's settings against its mode, and each aggregator against its legs.
#include "decide.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "check_names.hpp"
#include "gatekit/glob.hpp"
#include "gatekit/regex.hpp"
#include "gatekit/text.hpp"

namespace gatekit::gatekit_doctor {

std::string_view to_string(Kind kind) {
  switch (kind) {
    case Kind::not_produced: return "not-produced";
    case Kind::skippable: return "skippable";
    case Kind::merge_queue: return "merge-queue";
    case Kind::check_source: return "check-source";
    case Kind::gate_source: return "gate-source";
    case Kind::gate_environment: return "gate-environment";
    case Kind::gate_app: return "gate-app";
    case Kind::gate_not_required: return "gate-not-required";
    case Kind::aggregator_needs: return "aggregator-needs";
  }
  return "finding";
}

ExitCode Report::exit_code() const {
  ExitCode code = findings.empty() ? ExitCode::pass : ExitCode::verdict_fail;
  return gaps.empty() ? code : worst(code, ExitCode::could_not_evaluate);
}

namespace {

using expr::Truth;
using expr::Value;

// Not `quoted`: where <filesystem> is included (the release preset's precompiled header), a call
// with a std::string finds std::quoted by argument-dependent lookup, a better match.
std::string in_quotes(std::string_view text) { return "\"" + std::string(text) + "\""; }

// Job ids and names as GitHub compares them: without case.
bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// A step that uses gatekit's action NAME: `./actions/NAME`, `./.gatekit/actions/NAME`,
// `owner/gatekit/actions/NAME@sha`.
bool uses_action(const Step& step, std::string_view name) {
  const auto at = step.uses.find('@');
  const std::string_view path = std::string_view(step.uses).substr(0, at);
  const std::string suffix = "actions/" + std::string(name);
  if (path.size() < suffix.size() || path.substr(path.size() - suffix.size()) != suffix) return false;
  return path.size() == suffix.size() || path[path.size() - suffix.size() - 1] == '/';
}

bool job_uses(const Job& job, std::string_view action) {
  return std::any_of(job.steps.begin(), job.steps.end(), [&](const Step& s) { return uses_action(s, action); });
}

// `create-github-app-token`, whichever owner publishes it.
bool mints_app_token(const Step& step) {
  const std::string_view path = std::string_view(step.uses).substr(0, step.uses.find('@'));
  constexpr std::string_view name = "/create-github-app-token";
  return path.size() > name.size() && path.substr(path.size() - name.size()) == name;
}

std::string file_line(const WorkflowFile& workflow, int line) {
  return workflow.path + (line > 0 ? ":" + std::to_string(line) : "");
}

std::string file_name(const WorkflowFile& workflow) {
  const auto slash = workflow.path.rfind('/');
  return slash == std::string::npos ? workflow.path : workflow.path.substr(slash + 1);
}

// ---- the events the doctor asks about ----------------------------------------------------

enum class Event { pull_request, merge_group, run_after_pull_request, run_after_merge_group };

std::string_view event_name(Event event) {
  switch (event) {
    case Event::pull_request: return "pull_request";
    case Event::merge_group: return "merge_group";
    default: return "workflow_run";
  }
}

// The contexts of a run for `event` on the checked branch: what is known, with everything
// else unknown (an open `github` object, `needs`, `inputs`, ...).
expr::Contexts contexts_for(Event event, const Setup& setup) {
  expr::Object repository{{"default_branch", Value::of(setup.default_branch)},
                          {"full_name", Value::of(setup.repository)}};
  expr::Object payload{{"repository", Value::object(repository, true)}};
  expr::Object github{{"event_name", Value::of(std::string(event_name(event)))},
                      {"repository", Value::of(setup.repository)},
                      {"repository_owner", Value::of(setup.repository.substr(0, setup.repository.find('/')))}};
  switch (event) {
    case Event::pull_request:
      github["base_ref"] = Value::of(setup.branch);
      payload["pull_request"] =
          Value::object({{"base", Value::object({{"ref", Value::of(setup.branch)}}, true)}}, true);
      break;
    case Event::merge_group:
      payload["merge_group"] = Value::object({{"base_ref", Value::of("refs/heads/" + setup.branch)}}, true);
      break;
    case Event::run_after_pull_request:
    case Event::run_after_merge_group:
      // GitHub runs workflow_run from the default branch's copy of the workflow.
      github["ref"] = Value::of("refs/heads/" + setup.default_branch);
      payload["workflow_run"] = Value::object(
          {{"event", Value::of(event == Event::run_after_pull_request ? "pull_request" : "merge_group")}}, true);
      break;
  }
  github["event"] = Value::object(std::move(payload), true);
  expr::Object vars;
  for (const auto& [name, value] : setup.variables) vars[name] = Value::of(value.value_or(""));
  return {{"github", Value::object(std::move(github), true)}, {"vars", Value::object(std::move(vars), true)}};
}

// ---- workflows and jobs ---------------------------------------------------------------

// Why a workflow does not report its checks on every pull request into the branch.
struct TriggerProblem {
  std::string problem;  // "" when it runs on every pull request
  std::string fix;
  int line = 0;
};

bool branch_listed(const std::vector<std::string>& patterns, const std::string& branch) {
  std::vector<glob::Pattern> compiled;
  for (const auto& text : patterns) {
    auto pattern = glob::Pattern::compile(text, glob::Dialect::github);
    if (auto* p = std::get_if<glob::Pattern>(&pattern)) compiled.push_back(std::move(*p));
  }
  return glob::PatternList(std::move(compiled), glob::Dialect::github).evaluate(branch).included;
}

TriggerProblem pull_request_trigger(const WorkflowFile& workflow, const Setup& setup) {
  const char* event = workflow.triggered_by("pull_request") ? "pull_request"
                      : workflow.triggered_by("pull_request_target") ? "pull_request_target" : nullptr;
  if (event == nullptr)
    return {file_name(workflow) + " does not run on pull requests (its on: has no pull_request)",
            "add pull_request: under on: in " + workflow.path, 0};
  const auto& filter = workflow.on.at(event);
  const std::string where = "on." + std::string(event);
  if (filter.branches && !branch_listed(*filter.branches, setup.branch))
    return {file_name(workflow) + " runs only for pull requests into branches its " + where +
                ".branches lists, and " + setup.branch + " is not one of them",
            "add " + setup.branch + " to " + where + ".branches in " + workflow.path, filter.line};
  if (filter.branches_ignore && branch_listed(*filter.branches_ignore, setup.branch))
    return {file_name(workflow) + "'s " + where + ".branches-ignore leaves out pull requests into " + setup.branch,
            "remove the pattern that matches " + setup.branch + " from " + where + ".branches-ignore in " +
                workflow.path,
            filter.line};
  for (const auto& [key, list] : {std::pair{"paths", &filter.paths}, std::pair{"paths-ignore", &filter.paths_ignore}}) {
    if (!*list) continue;
    return {file_name(workflow) + " has " + where + "." + key +
                ": a pull request that changes no listed path runs no job of it, and its required checks "
                "wait forever",
            "remove " + std::string(key) + ": from " + where + " in " + workflow.path +
                " and decide inside the workflow with the path-gate action and a matrix-aggregator job "
                "(docs/admin/required-checks.md)",
            filter.line};
  }
  if (filter.types) {
    const auto& types = *filter.types;
    for (const char* needed : {"opened", "synchronize"})
      if (std::find(types.begin(), types.end(), needed) == types.end())
        return {file_name(workflow) + "'s " + where + ".types leaves out " + needed +
                    (std::string(needed) == "opened" ? ": a new pull request gets none of its checks"
                                                     : ": a push to a pull request gets none of its checks"),
                "add " + std::string(needed) + " to " + where + ".types in " + workflow.path, filter.line};
  }
  return {};
}

// The jobs of a workflow that never run for `event`: a false `if:`, or a job they need
// that never runs (without a status function, a skipped dependency skips the job).
std::set<std::string> never_running(const WorkflowFile& workflow, const expr::Contexts& contexts) {
  std::set<std::string> never;
  for (const auto& job : workflow.jobs)
    if (expr::truth_of(expr::evaluate(job.condition, contexts)) == Truth::no) never.insert(job.id);
  bool grew = true;
  while (grew) {
    grew = false;
    for (const auto& job : workflow.jobs) {
      if (never.count(job.id) != 0 || job.status_function) continue;
      if (std::any_of(job.needs.begin(), job.needs.end(), [&](const std::string& n) { return never.count(n) != 0; })) {
        never.insert(job.id);
        grew = true;
      }
    }
  }
  return never;
}

// The jobs the path gate can skip: an `if:` that reads the gate job's outputs, or (without a
// status function) a job they need that the gate can skip.
std::set<std::string> gated_jobs(const WorkflowFile& workflow, const std::vector<std::string>& gates) {
  std::set<std::string> gated;
  for (const auto& job : workflow.jobs) {
    if (!job.written_condition) continue;
    for (const auto& path : expr::property_paths(job.written_condition))
      for (const auto& gate : gates) {
        const std::string prefix = "needs." + gate + ".outputs";
        if (path.size() >= prefix.size() && same_name(std::string_view(path).substr(0, prefix.size()), prefix))
          gated.insert(job.id);
      }
  }
  bool grew = true;
  while (grew) {
    grew = false;
    for (const auto& job : workflow.jobs) {
      if (gated.count(job.id) != 0 || job.status_function) continue;
      if (std::any_of(job.needs.begin(), job.needs.end(), [&](const std::string& n) { return gated.count(n) != 0; })) {
        gated.insert(job.id);
        grew = true;
      }
    }
  }
  return gated;
}

std::vector<std::string> path_gate_jobs(const WorkflowFile& workflow) {
  std::vector<std::string> out;
  for (const auto& job : workflow.jobs)
    if (job_uses(job, "path-gate")) out.push_back(job.id);
  return out;
}

const Step* step_using(const Job& job, std::string_view action) {
  for (const auto& step : job.steps)
    if (uses_action(step, action)) return &step;
  return nullptr;
}

bool is_aggregator(const Job& job) { return step_using(job, "matrix-aggregator") != nullptr; }

std::optional<std::string> literal_input(const Step& step, const std::string& name) {
  auto it = step.with.find(name);
  if (it == step.with.end() || it->second.find("${{") != std::string::npos) return std::nullopt;
  return it->second;
}

// The job ids of a matrix-aggregator step's `gated:` (JOB=OUTPUT pairs).
std::vector<std::string> gated_input(const std::string& text) {
  std::vector<std::string> out;
  static const Regex pair("([A-Za-z_][A-Za-z0-9_-]*)=");
  for (const auto& m : pair.all_matches(text)) out.push_back(m[1]);
  return out;
}

bool needs_job(const Job& job, std::string_view id) {
  return std::any_of(job.needs.begin(), job.needs.end(), [&](const std::string& n) { return same_name(n, id); });
}

// ---- the report being built -----------------------------------------------------------

class Doctor {
 public:
  explicit Doctor(const Setup& setup) : setup_(setup) {
    pr_ = contexts_for(Event::pull_request, setup);
    report_.merge_queue = !setup.merge_queue_rules.empty();
    report_.gaps = setup.gaps;
  }

  Report run() {
    const auto gate_context = gate_status_context();
    std::map<std::string, std::vector<const Requirement*>> by_context;
    std::vector<std::string> order;
    for (const auto& r : setup_.required) {
      if (by_context[r.context].empty()) order.push_back(r.context);
      by_context[r.context].push_back(&r);
    }
    for (const auto& context : order) {
      if (context == gate_context) gate_check(by_context[context]);
      else workflow_check(by_context[context]);
    }
    if (!posters().empty() && by_context.count(gate_context) == 0) gate_not_required(gate_context);
    aggregators();
    return std::move(report_);
  }

 private:
  void add(Kind kind, std::string check, std::string where, std::string problem, std::string fix) {
    report_.findings.push_back({kind, std::move(check), std::move(where), std::move(problem), std::move(fix)});
  }

  static std::string rules_of(const std::vector<const Requirement*>& rules) {
    std::string out;
    for (const auto* r : rules) out += (out.empty() ? "" : ", ") + r->rule;
    return out;
  }

  static std::string where_to_edit(const std::vector<const Requirement*>& rules) {
    std::string out;
    for (const auto* r : rules) out += (out.empty() ? "" : " and ") + r->rule + " (" + r->settings_url + ")";
    return out;
  }

  static std::string source_text(const std::optional<std::int64_t>& app) {
    if (!app) return "any source";
    if (*app == kGitHubActionsApp) return "GitHub Actions";
    return "app " + std::to_string(*app);
  }

  CheckRow& row(const std::vector<const Requirement*>& rules) {
    report_.checks.push_back({rules.front()->context, rules_of(rules), source_text(rules.front()->app_id), "", true});
    return report_.checks.back();
  }

  // ---- a check a workflow's job reports -------------------------------------------------

  struct Candidate {
    const WorkflowFile* workflow;
    const Job* job;
    std::string name;  // the pattern that matched, as text
  };

  std::vector<Candidate> candidates(const std::string& context) const {
    std::vector<Candidate> out;
    for (const auto& workflow : setup_.workflows)
      for (const auto& job : workflow.jobs)
        for (const auto& name : check_names(job, pr_, setup_.workflows))
          if (name.matches(context)) {
            out.push_back({&workflow, &job, name.text()});
            break;
          }
    return out;
  }

  std::vector<std::string> names_on_pull_requests() const {
    std::vector<std::string> out;
    for (const auto& workflow : setup_.workflows) {
      if (!pull_request_trigger(workflow, setup_).problem.empty()) continue;
      for (const auto& job : workflow.jobs)
        for (const auto& name : check_names(job, pr_, setup_.workflows)) out.push_back(name.text());
    }
    return out;
  }

  // Why this candidate does not report on a pull request; "" when it does.
  std::pair<std::string, std::string> blocked(const Candidate& c) const {
    auto trigger = pull_request_trigger(*c.workflow, setup_);
    if (!trigger.problem.empty()) return {trigger.problem, trigger.fix};
    const auto never = never_running(*c.workflow, pr_);
    if (never.count(c.job->id) != 0) {
      const bool own = expr::truth_of(expr::evaluate(c.job->condition, pr_)) == Truth::no;
      if (own)
        return {"job " + c.job->id + "'s if: (" + file_line(*c.workflow, c.job->if_line) +
                    ") is false on every pull request: " + c.job->if_text.value_or(""),
                "let job " + c.job->id + " in " + c.workflow->path + " run on pull_request, or stop requiring " +
                    in_quotes(c.name)};
      return {"job " + c.job->id + " needs a job that never runs on a pull request, so it is skipped",
              "make every job that " + c.job->id + " needs in " + c.workflow->path + " run on pull_request"};
    }
    return {"", ""};
  }

  void workflow_check(const std::vector<const Requirement*>& rules) {
    const auto& context = rules.front()->context;
    auto& r = row(rules);
    const auto found = candidates(context);
    if (found.empty()) {
      const auto app = rules.front()->app_id;
      if (app && *app != kGitHubActionsApp) {
        report_.notes.push_back(in_quotes(context) + " is required from app " + std::to_string(*app) +
                                ", not from a workflow: not checked");
        r.produced_by = "app " + std::to_string(*app);
        r.ok = false;  // not judged, so never shown as passed
        return;
      }
      r.ok = false;
      const auto names = names_on_pull_requests();
      std::vector<std::string_view> views(names.begin(), names.end());
      const auto suggestion = closest_match(context, views);
      std::string problem = "no job of a workflow that runs on pull requests reports " + in_quotes(context) +
                            ": every pull request waits for it (\"Expected - waiting for status to be reported\")";
      std::string fix;
      if (suggestion) {
        problem += "; a job reports " + in_quotes(*suggestion);
        fix = "rename the required check " + in_quotes(context) + " to " + in_quotes(*suggestion) + " in " +
              where_to_edit(rules);
      } else {
        fix = "remove " + in_quotes(context) + " from " + where_to_edit(rules) +
              ", or add a job named so to a workflow that runs on pull_request";
        if (!app) problem += " (a service outside GitHub Actions that posts it should be its pinned source)";
      }
      add(Kind::not_produced, context, rules_of(rules), problem, fix);
      return;
    }
    const Candidate* producer = nullptr;
    std::pair<std::string, std::string> first_block;
    for (const auto& c : found) {
      auto why = blocked(c);
      if (why.first.empty()) {
        producer = &c;
        break;
      }
      if (first_block.first.empty()) first_block = why;
    }
    if (producer == nullptr) {
      r.ok = false;
      r.produced_by = file_name(*found.front().workflow) + ": " + found.front().job->id;
      add(Kind::not_produced, context, rules_of(rules), in_quotes(context) + " is never reported on a pull request: " +
              first_block.first, first_block.second);
      return;
    }
    r.produced_by = file_name(*producer->workflow) + ": " + producer->job->id;
    const auto app = rules.front()->app_id;
    if (app && *app != kGitHubActionsApp) {
      r.ok = false;
      add(Kind::check_source, context, rules_of(rules),
          in_quotes(context) + " is required from app " + std::to_string(*app) + ", but job " + producer->job->id +
              " of " + file_name(*producer->workflow) + " reports it as GitHub Actions (app 15368): it never counts",
          "choose GitHub Actions as the source of " + in_quotes(context) + " in " + where_to_edit(rules));
    }
    skippable(rules, *producer, r);
    merge_queue(rules, found, r);
  }

  const Job* aggregator_for(const WorkflowFile& workflow, const std::string& job) const {
    for (const auto& j : workflow.jobs)
      if (is_aggregator(j) && needs_job(j, job)) return &j;
    return nullptr;
  }

  void skippable(const std::vector<const Requirement*>& rules, const Candidate& c, CheckRow& r) {
    const auto& context = rules.front()->context;
    const auto& job = *c.job;
    if (is_aggregator(job)) return;
    const auto gated = gated_jobs(*c.workflow, path_gate_jobs(*c.workflow));
    const bool matrix = job.matrix.has_value();
    std::string cause;
    if (gated.count(job.id) != 0) {
      cause = matrix ? "its job " + job.id + " is a matrix the path gate can skip, and a skipped matrix never "
                                             "reports its legs: pull requests wait for it forever"
                     : "the path gate can skip job " + job.id +
                           ", and a skipped job counts as passed: the check passes without running";
    } else if (matrix && job.written_condition &&
               expr::truth_of(expr::evaluate(job.written_condition, pr_)) != Truth::yes) {
      cause = "job " + job.id + "'s if: (" + file_line(*c.workflow, job.if_line) +
              ") can skip the whole matrix, and a skipped matrix never reports its legs (actions/runner#952)";
    }
    if (cause.empty()) return;
    r.ok = false;
    std::string fix;
    if (const auto* aggregator = aggregator_for(*c.workflow, job.id))
      fix = "require " + in_quotes(aggregator->display_name()) + " (job " + aggregator->id + " of " +
            file_name(*c.workflow) + ", which needs " + job.id + ") instead of " + in_quotes(context) + " in " +
            where_to_edit(rules);
    else
      fix = "add a matrix-aggregator job (if: always(), needs: the gate and " + job.id + ") to " + c.workflow->path +
            " and require it instead of " + in_quotes(context) + " (docs/actions/matrix-aggregator.md)";
    add(Kind::skippable, context, rules_of(rules), in_quotes(context) + ": " + cause, fix);
  }

  void merge_queue(const std::vector<const Requirement*>& rules, const std::vector<Candidate>& found, CheckRow& r) {
    if (!report_.merge_queue) return;
    const auto contexts = contexts_for(Event::merge_group, setup_);
    for (const auto& c : found) {
      if (!c.workflow->triggered_by("merge_group")) continue;
      if (never_running(*c.workflow, contexts).count(c.job->id) == 0) return;
    }
    r.ok = false;
    const auto& c = found.front();
    const auto& context = rules.front()->context;
    if (!c.workflow->triggered_by("merge_group"))
      add(Kind::merge_queue, context, rules_of(rules),
          "a merge queue is on (" + join(setup_.merge_queue_rules, ", ") + ") and " + in_quotes(context) +
              " is required, but " + file_name(*c.workflow) +
              " does not run on merge_group: the queue waits for the check until it times out",
          "add merge_group: under on: in " + c.workflow->path);
    else
      add(Kind::merge_queue, context, rules_of(rules),
          "a merge queue is on (" + join(setup_.merge_queue_rules, ", ") + ") and job " + c.job->id + " of " +
              file_name(*c.workflow) + " never runs on merge_group: the queue waits for " + in_quotes(context) +
              " until it times out",
          "let job " + c.job->id + " in " + c.workflow->path + " run on merge_group");
  }

  // ---- gate/gpu -----------------------------------------------------------------------

  struct Poster {
    const WorkflowFile* workflow;
    const Job* job;
    const Step* step;
  };

  std::vector<Poster> posters() const {
    std::vector<Poster> out;
    for (const auto& workflow : setup_.workflows)
      for (const auto& job : workflow.jobs)
        for (const auto& step : job.steps)
          if (uses_action(step, "gpu-gate-status") && literal_input(step, "post").value_or("true") != "false")
            out.push_back({&workflow, &job, &step});
    return out;
  }

  // The status the gate posts: gpu-gate-status's `context:`, gate/gpu when nothing posts it (a
  // required gate/gpu is then the gate's, missing).
  std::string gate_status_context() const {
    for (const auto& p : posters()) return literal_input(*p.step, "context").value_or("gate/gpu");
    return "gate/gpu";
  }

  // The workflows a workflow_run trigger names, that run on pull requests into the branch.
  std::vector<const WorkflowFile*> run_sources(const WorkflowFile& workflow, Event after) const {
    std::vector<const WorkflowFile*> out;
    auto it = workflow.on.find("workflow_run");
    if (it == workflow.on.end()) return out;
    for (const auto& name : it->second.workflows)
      for (const auto& w : setup_.workflows)
        if (w.name == name) {
          const bool runs = after == Event::run_after_pull_request ? pull_request_trigger(w, setup_).problem.empty()
                                                                  : w.triggered_by("merge_group");
          if (runs) out.push_back(&w);
        }
    return out;
  }

  // The posters that run for `event` in the known mode.
  std::vector<Poster> active_posters(Event event) const {
    std::vector<Poster> out;
    const auto contexts = contexts_for(event, setup_);
    for (const auto& p : posters()) {
      if (event == Event::pull_request && !pull_request_trigger(*p.workflow, setup_).problem.empty()) continue;
      if (event == Event::merge_group && !p.workflow->triggered_by("merge_group")) continue;
      if ((event == Event::run_after_pull_request || event == Event::run_after_merge_group) &&
          run_sources(*p.workflow, event).empty())
        continue;
      if (never_running(*p.workflow, contexts).count(p.job->id) != 0) continue;
      out.push_back(p);
    }
    return out;
  }

  void gate_not_required(const std::string& context) {
    const auto all = posters();
    add(Kind::gate_not_required, context, file_line(*all.front().workflow, all.front().job->line),
        file_name(*all.front().workflow) + " posts " + in_quotes(context) + " but no rule of " + setup_.branch +
            " requires it: the GPU gate blocks nothing",
        "require " + in_quotes(context) + " in the ruleset or branch protection of " + setup_.branch + " (" +
            setup_.server_url + "/" + setup_.repository + "/settings/rules), with " +
            (setup_.gate_mode == std::optional<std::string>("pull-request") ? std::string("GitHub Actions")
                                                                           : std::string("the gate's App")) +
            " as its source");
  }

  void gate_check(const std::vector<const Requirement*>& rules) {
    const auto& context = rules.front()->context;
    auto& r = row(rules);
    if (!setup_.gate_mode) {  // not judged: a gap says why, and the row is no pass
      r.ok = false;
      return;
    }
    const bool strict = *setup_.gate_mode != "pull-request";
    const auto on_pr = active_posters(strict ? Event::run_after_pull_request : Event::pull_request);
    if (on_pr.empty()) {
      r.ok = false;
      gate_not_posted(rules, strict);
      return;
    }
    const auto& poster = on_pr.front();
    r.produced_by = file_name(*poster.workflow) + ": " + poster.job->id;
    gate_source(rules, strict, r);
    if (strict) {
      gate_environment(rules, poster, r);
      gate_app(rules, poster, r);
    }
    if (report_.merge_queue &&
        active_posters(strict ? Event::run_after_merge_group : Event::merge_group).empty()) {
      r.ok = false;
      add(Kind::merge_queue, context, rules_of(rules),
          "a merge queue is on (" + join(setup_.merge_queue_rules, ", ") + ") and " + in_quotes(context) +
              " is required, but nothing posts it on the queue's group commit" +
              (strict ? ": no workflow that " + file_name(*poster.workflow) + "'s workflow_run names runs on merge_group"
                      : ": " + file_name(*poster.workflow) + " does not run on merge_group"),
          strict ? "add merge_group: under on: in the workflows " + poster.workflow->path + "'s workflow_run names"
                 : "add merge_group: under on: in " + poster.workflow->path);
    }
  }

  void gate_not_posted(const std::vector<const Requirement*>& rules, bool strict) {
    const auto& context = rules.front()->context;
    const auto all = posters();
    const std::string mode = strict ? "strict mode" : "pull-request mode";
    if (all.empty()) {
      add(Kind::not_produced, context, rules_of(rules),
          "no workflow posts " + in_quotes(context) + ": every pull request waits for it",
          "copy workflows/gate.yml to .github/workflows/gate.yml (docs/gpu-gate.md, \"CI side\"), or remove " +
              in_quotes(context) + " from " + where_to_edit(rules));
      return;
    }
    const auto& p = all.front();
    if (strict) {
      auto it = p.workflow->on.find("workflow_run");
      if (it == p.workflow->on.end()) {
        add(Kind::not_produced, context, rules_of(rules),
            "in " + mode + " " + in_quotes(context) + " is posted after the CPU or GPU workflow finished, but " +
                file_name(*p.workflow) + " has no workflow_run trigger: every pull request waits for it",
            "add the workflow_run trigger of workflows/gate.yml to " + p.workflow->path);
        return;
      }
      if (run_sources(*p.workflow, Event::run_after_pull_request).empty()) {
        std::vector<std::string> names;
        for (const auto& w : setup_.workflows)
          if (pull_request_trigger(w, setup_).problem.empty() && &w != p.workflow) names.push_back(in_quotes(w.name));
        add(Kind::not_produced, context, file_line(*p.workflow, it->second.line),
            "in " + mode + " " + in_quotes(context) + " is posted after a workflow that on.workflow_run.workflows names (" +
                join(it->second.workflows, ", ") + ") ran for a pull request, and none of them is the name: of a " +
                "workflow that runs on pull requests into " + setup_.branch + ": every pull request waits for it",
            "set on.workflow_run.workflows in " + p.workflow->path + " to the names of your CPU and GPU workflows" +
                (names.empty() ? std::string() : " (" + join(names, ", ") + ")"));
        return;
      }
    }
    add(Kind::not_produced, context, file_line(*p.workflow, p.job->line),
        "in " + mode + " no job that posts " + in_quotes(context) + " runs for a pull request into " + setup_.branch +
            " (job " + p.job->id + "'s if:, or " + file_name(*p.workflow) + "'s triggers): every pull request waits for it",
        strict ? "let job " + p.job->id + " in " + p.workflow->path + " run on workflow_run from " +
                     setup_.default_branch + " (as workflows/gate.yml's post job does), or check GATEKIT_GATE_MODE"
               : "let job " + p.job->id + " in " + p.workflow->path + " run on pull_request (as workflows/gate.yml's gate job does)");
  }

  void gate_source(const std::vector<const Requirement*>& rules, bool strict, CheckRow& r) {
    const auto& context = rules.front()->context;
    for (const auto* rule : rules) {
      const auto& app = rule->app_id;
      std::string problem;
      std::string want;
      if (strict) {
        want = setup_.app_id ? "the gate's App (app " + std::to_string(*setup_.app_id) + ")" : "the gate's App";
        if (!app)
          problem = "accepts any source: a commit status posted with any token that may write statuses (a "
                    "personal token) satisfies it";
        else if (*app == kGitHubActionsApp)
          problem = "is pinned to GitHub Actions: in strict mode a pull request that edits the workflow posts "
                    "success from its own run";
        else if (setup_.app_id && *app != *setup_.app_id)
          problem = "is pinned to app " + std::to_string(*app) + ", not to the gate's App (app " +
                    std::to_string(*setup_.app_id) + "): the status the gate posts never counts";
      } else {
        want = "GitHub Actions (app 15368)";
        if (!app)
          problem = "accepts any source: a commit status posted with a personal token satisfies it";
        else if (*app != kGitHubActionsApp)
          problem = "is pinned to app " + std::to_string(*app) +
                    ", but in pull-request mode gate.yml posts it with github.token (GitHub Actions): it never counts";
      }
      if (problem.empty()) continue;
      r.ok = false;
      add(Kind::gate_source, context, rule->rule,
          in_quotes(context) + " in " + rule->rule + " " + problem + " (" + (strict ? "strict" : "pull-request") +
              " mode, " + setup_.gate_mode_from + ")",
          "choose " + want + " as the source of " + in_quotes(context) + " in " + rule->rule + " (" +
              rule->settings_url + ")");
    }
  }

  void gate_environment(const std::vector<const Requirement*>& rules, const Poster& poster, CheckRow& r) {
    const auto& context = rules.front()->context;
    const std::string where = file_line(*poster.workflow, poster.job->line);
    const std::string settings = setup_.server_url + "/" + setup_.repository + "/settings/environments";
    if (poster.job->environment.empty()) {
      r.ok = false;
      add(Kind::gate_environment, context, where,
          "job " + poster.job->id + ", which posts " + in_quotes(context) +
              " in strict mode, names no environment: the App's key is then a repository or organization secret "
              "that a run of any branch can read",
          "add environment: gatekit-gate to job " + poster.job->id + " in " + poster.workflow->path +
              ", and keep the App's key in that environment only (docs/gpu-gate.md, \"Setting up strict mode\")");
      return;
    }
    const auto& name = poster.job->environment;
    auto it = setup_.environments.find(name);
    if (it == setup_.environments.end()) return;  // not read: a gap says why
    const auto& env = it->second;
    const std::string limit = "Settings → Environments → " + name +
                              " → Deployment branches and tags: choose \"Selected branches and tags\" and add " +
                              setup_.default_branch + " only (" + settings + ")";
    if (!env.exists) {
      r.ok = false;
      add(Kind::gate_environment, context, where,
          "job " + poster.job->id + " posts " + in_quotes(context) + " from the environment " + in_quotes(name) +
              ", which does not exist: GitHub creates it on the first run with no limit on branches",
          "create the environment " + in_quotes(name) + " and limit it to " + setup_.default_branch + ": " + limit);
      return;
    }
    std::string problem;
    if (env.branches == github::DeploymentBranches::all) {
      problem = "lets every branch deploy, so a run of any branch (a pull request's own) can read the App's key";
    } else if (env.branches == github::DeploymentBranches::protected_branches) {
      problem = "lets every protected branch deploy, not only " + setup_.default_branch;
    } else {
      std::vector<std::string> others;
      bool default_listed = false;
      for (const auto& policy : env.policies) {
        const bool branch = policy.type.empty() || policy.type == "branch";
        if (branch && policy.name == setup_.default_branch) default_listed = true;
        else others.push_back(in_quotes(policy.name) + (branch ? "" : " (" + policy.type + ")"));
      }
      if (!others.empty())
        problem = "lets " + join(others, ", ") + " deploy besides " + setup_.default_branch +
                  ": a run of such a ref can read the App's key";
      else if (!default_listed)
        problem = "lets no branch deploy, not even " + setup_.default_branch + ": the post job cannot read the App's key";
    }
    if (problem.empty()) return;
    r.ok = false;
    add(Kind::gate_environment, context, "environment " + name,
        "the environment " + in_quotes(name) + " (strict mode's key) " + problem, limit);
  }

  void gate_app(const std::vector<const Requirement*>& rules, const Poster& poster, CheckRow& r) {
    const auto& context = rules.front()->context;
    const std::string where = file_line(*poster.workflow, poster.job->line);
    const Step* mint = nullptr;
    for (const auto& step : poster.job->steps)
      if (mints_app_token(step)) mint = &step;
    if (mint == nullptr) {
      r.ok = false;
      add(Kind::gate_app, context, where,
          "job " + poster.job->id + " posts " + in_quotes(context) +
              " in strict mode without a GitHub App's token (no actions/create-github-app-token step): it posts "
              "as GitHub Actions, which strict mode's rule must not accept",
          "mint the App's token in job " + poster.job->id + " of " + poster.workflow->path +
              " and pass it as the token: input, as workflows/gate.yml's post job does");
      return;
    }
    const auto reads = gate_reads(setup_.workflows, setup_.gate_mode);
    const auto env_it = setup_.environments.find(poster.job->environment);
    const EnvironmentFacts* env = env_it == setup_.environments.end() ? nullptr : &env_it->second;
    for (const auto& name : reads.variables) {
      const bool in_env = env != nullptr && env->variables && env->variables->count(name) != 0;
      auto repo = setup_.variables.find(name);
      const bool in_repo = repo != setup_.variables.end() && repo->second.has_value();
      const bool unknown = (env == nullptr || !env->variables) && repo == setup_.variables.end();
      if (in_env || in_repo || unknown) continue;
      r.ok = false;
      add(Kind::gate_app, context, "environment " + poster.job->environment,
          "the App is missing: job " + poster.job->id + " reads vars." + name + " (the App's client ID), which "
              "is set neither in the environment " + in_quotes(poster.job->environment) + " nor in the repository",
          "add the variable " + name + " (the App's client ID) to the environment " +
              in_quotes(poster.job->environment) + " (" + setup_.server_url + "/" + setup_.repository +
              "/settings/environments)");
    }
    for (const auto& name : reads.secrets) {
      if (env == nullptr || !env->secrets || env->secrets->count(name) != 0) continue;
      r.ok = false;
      add(Kind::gate_app, context, "environment " + poster.job->environment,
          "the App is missing: job " + poster.job->id + " reads secrets." + name + " (the App's private key), "
              "which is no secret of the environment " + in_quotes(poster.job->environment) +
              ": the job cannot mint the App's token, or (a repository secret) any branch's run can read the key",
          "add the App's private key as the secret " + name + " of the environment " +
              in_quotes(poster.job->environment) + " (" + setup_.server_url + "/" + setup_.repository +
              "/settings/environments), and delete any repository or organization secret of that name");
    }
  }

  // ---- aggregators ----------------------------------------------------------------------

  void aggregators() {
    for (const auto& workflow : setup_.workflows) {
      std::vector<const Job*> found;
      for (const auto& job : workflow.jobs)
        if (is_aggregator(job)) found.push_back(&job);
      for (const auto* aggregator : found) {
        const Step& step = *step_using(*aggregator, "matrix-aggregator");
        const auto gate = literal_input(step, "gate-job");
        if (!gate || gate->empty()) continue;
        const std::string where = file_line(workflow, aggregator->line);
        const std::string name = in_quotes(aggregator->display_name());
        if (!needs_job(*aggregator, *gate))
          add(Kind::aggregator_needs, aggregator->display_name(), where,
              name + " (job " + aggregator->id + ") names the gate job " + *gate +
                  " but does not need it: matrix-aggregator cannot read the gate's outputs and fails every run",
              "add " + *gate + " to needs: of job " + aggregator->id + " in " + workflow.path);
        const auto legs = gated_jobs(workflow, {*gate});
        const auto gated_text = literal_input(step, "gated");
        const auto gated = gated_text ? gated_input(*gated_text) : std::vector<std::string>{};
        for (const auto& job : workflow.jobs) {
          if (legs.count(job.id) == 0 || is_aggregator(job) || job.id == *gate) continue;
          const bool covered = std::any_of(found.begin(), found.end(), [&](const Job* a) { return needs_job(*a, job.id); });
          if (!covered) {
            add(Kind::aggregator_needs, aggregator->display_name(), where,
                name + " (job " + aggregator->id + ") does not need " + job.id +
                    ", which the path gate can skip: a failure of " + job.id + " never fails a required check",
                "add " + job.id + " to needs: and gated: (" + job.id + "=OUTPUT, the gate output its if: reads) of job " +
                    aggregator->id + " in " + workflow.path);
            continue;
          }
          if (needs_job(*aggregator, job.id) && gated_text &&
              std::none_of(gated.begin(), gated.end(), [&](const std::string& g) { return same_name(g, job.id); }))
            add(Kind::aggregator_needs, aggregator->display_name(), where,
                name + " (job " + aggregator->id + ") needs " + job.id + " but its gated: does not name it: " + job.id +
                    " skipped although the gate asked for it would pass",
                "add " + job.id + "=OUTPUT (the gate output " + job.id + "'s if: reads) to gated: of job " +
                    aggregator->id + " in " + workflow.path);
        }
      }
    }
  }

  const Setup& setup_;
  expr::Contexts pr_;
  Report report_;
};

// `${{ vars.NAME }}` / `${{ secrets.NAME }}` in a step's inputs.
void names_in(const Step& step, const char* context, std::vector<std::string>& out) {
  const Regex reference(std::string("\\b") + context + "\\.([A-Za-z_][A-Za-z0-9_]*)");
  for (const auto& [input, value] : step.with)
    for (const auto& m : reference.all_matches(value))
      if (std::find(out.begin(), out.end(), m[1]) == out.end()) out.push_back(m[1]);
}

}  // namespace

GateReads gate_reads(const std::vector<WorkflowFile>& workflows, const std::optional<std::string>& mode) {
  GateReads out;
  const bool strict = !mode || *mode != "pull-request";
  for (const auto& workflow : workflows)
    for (const auto& job : workflow.jobs) {
      const bool posts = std::any_of(job.steps.begin(), job.steps.end(), [](const Step& s) {
        return uses_action(s, "gpu-gate-status") && literal_input(s, "post").value_or("true") != "false";
      });
      if (!posts) continue;
      if (!out.gate_workflow)
        for (const auto& step : job.steps)
          if (uses_action(step, "gpu-gate-status")) out.context = literal_input(step, "context").value_or("gate/gpu");
      out.gate_workflow = true;
      // Strict mode's poster holds the App's key: its environment and the names its steps read.
      if (!strict || job.environment.empty() || !workflow.triggered_by("workflow_run")) continue;
      if (std::find(out.environments.begin(), out.environments.end(), job.environment) == out.environments.end())
        out.environments.push_back(job.environment);
      for (const auto& step : job.steps) {
        if (!mints_app_token(step)) continue;
        names_in(step, "vars", out.variables);
        names_in(step, "secrets", out.secrets);
      }
    }
  return out;
}

Report decide(const Setup& setup) { return Doctor(setup).run(); }

}  // namespace gatekit::gatekit_doctor
