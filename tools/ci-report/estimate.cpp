#include "estimate.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <set>
#include <tuple>

#include "gatekit/text.hpp"

namespace gatekit::ci_report {
namespace {

constexpr std::int64_t kWeek = 7 * 86400;

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string label_key(std::vector<std::string> labels) {
  std::sort(labels.begin(), labels.end());
  return join(labels, ",");
}

double minutes_of(const Job& j) { return static_cast<double>(j.completed - j.started) / 60.0; }
bool ran(const Job& j) { return j.started > 0 && j.completed >= j.started; }
// A run to a verdict: the cost a skip avoided (cancelled runs stopped early).
bool costs(const Job& j) { return ran(j) && (j.conclusion == "success" || j.conclusion == "failure"); }

double nearest_rank(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

using LegKey = std::tuple<std::string, std::string, std::string>;  // workflow, leg, labels

// "pytest (CPU, py${{ matrix.python }})" -> the names that expanded from it in `names`.
std::vector<std::string> family(const std::string& name, const std::set<std::string>& names) {
  const auto open = name.find("${{");
  if (open == std::string::npos) return {name};
  const auto close = name.rfind("}}");
  const std::string prefix = name.substr(0, open);
  const std::string suffix = close == std::string::npos || close < open ? "" : name.substr(close + 2);
  std::vector<std::string> out;
  for (const auto& n : names)
    if (n.find("${{") == std::string::npos && n.size() >= prefix.size() + suffix.size() &&
        n.compare(0, prefix.size(), prefix) == 0 && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(n);
  return out;
}

bool in_window(std::int64_t created, const EstimateOptions& o) { return created >= o.since && created < o.until; }

// What a flake rate needs of the runs: each run's creation and workflow by id, and per
// workflow the runs in the window that ran its suite (a leg, not the path gate or a required
// check, ran to a success or failure).
struct RunIndex {
  struct Facts {
    std::int64_t created = 0;
    const std::string* workflow = nullptr;
  };
  std::map<std::int64_t, Facts> by_id;
  std::map<std::string, std::size_t> suite_runs;
};

RunIndex index_runs(const History& h, const EstimateOptions& o) {
  std::set<std::string> not_legs(o.required_jobs.begin(), o.required_jobs.end());
  not_legs.insert(o.gate_job);
  RunIndex index;
  for (const auto& run : h.runs) {
    index.by_id[run.id] = {run.created, &run.workflow};
    if (!in_window(run.created, o)) continue;
    const bool leg_ran = std::any_of(run.jobs.begin(), run.jobs.end(),
                                     [&](const Job& j) { return not_legs.count(j.name) == 0 && costs(j); });
    if (leg_ran) ++index.suite_runs[run.workflow];
  }
  return index;
}

// One issue's rate (FlakeRate); nullopt when it names no flaky run in the window.
std::optional<FlakeRate> rate_of(const FlakyIssue& issue, const RunIndex& index, const EstimateOptions& o) {
  if (issue.test.empty()) return std::nullopt;
  FlakeRate rate{issue.number, issue.test, issue.state, "", 0, 0, 0, false};
  std::set<std::string> workflows;
  std::set<std::int64_t> counted;
  for (const auto id : issue.flake_runs) {
    const auto found = index.by_id.find(id);
    if (found == index.by_id.end()) continue;
    workflows.insert(*found->second.workflow);
    if (in_window(found->second.created, o) && counted.insert(id).second) ++rate.flakes;
  }
  if (rate.flakes == 0) return std::nullopt;
  for (const auto& w : workflows) {
    const auto runs = index.suite_runs.find(w);
    rate.runs += runs == index.suite_runs.end() ? 0 : runs->second;
  }
  rate.workflows = join(std::vector<std::string>(workflows.begin(), workflows.end()), ",");
  rate.rate = rate.runs == 0 ? 0 : static_cast<double>(rate.flakes) / static_cast<double>(rate.runs);
  if (issue.runs_cut) {
    const auto oldest = index.by_id.find(issue.oldest_run);
    rate.at_least = oldest == index.by_id.end() || oldest->second.created >= o.since;
  }
  return rate;
}

// The flake rate of each test whose issue's state names flaky runs in the window, worst first.
std::vector<FlakeRate> flake_rates(const History& h, const EstimateOptions& o) {
  const RunIndex index = index_runs(h, o);
  std::vector<FlakeRate> out;
  for (const auto& issue : h.flaky) {
    if (auto rate = rate_of(issue, index, o)) out.push_back(std::move(*rate));
  }
  std::sort(out.begin(), out.end(), [](const FlakeRate& a, const FlakeRate& b) {
    return std::tie(b.rate, b.flakes, a.test, a.number) < std::tie(a.rate, a.flakes, b.test, b.number);
  });
  return out;
}

struct Samples {
  // Per leg and labels: (completed, minutes) of the runs that cost; the last N make the median.
  std::map<LegKey, std::vector<std::pair<std::int64_t, double>>> durations;
  std::map<std::pair<std::string, std::string>, std::pair<std::int64_t, std::string>> last_labels;  // newest
  std::map<std::string, std::set<std::string>> names;  // per workflow: the leg names that ran
};

Samples collect(const History& h, const EstimateOptions& o) {
  Samples s;
  for (const auto& run : h.runs) {
    if (run.created >= o.until) continue;
    for (const auto& j : run.jobs) {
      if (j.name == o.gate_job || !costs(j)) continue;
      const auto labels = label_key(j.labels);
      s.durations[{run.workflow, j.name, labels}].emplace_back(j.completed, minutes_of(j));
      auto& last = s.last_labels[{run.workflow, j.name}];
      if (j.completed >= last.first) last = {j.completed, labels};
      s.names[run.workflow].insert(j.name);
    }
  }
  return s;
}

std::map<LegKey, Spread> medians(Samples& s, std::size_t samples) {
  std::map<LegKey, Spread> out;
  for (auto& [key, list] : s.durations) {
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<double> recent;
    for (std::size_t i = 0; i < list.size() && i < samples; ++i) recent.push_back(list[i].second);
    out[key] = spread_of(std::move(recent));
  }
  return out;
}

std::vector<std::string> split_labels(const std::string& key) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (!key.empty()) {
    const auto comma = key.find(',', from);
    out.push_back(key.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return out;
}

template <class T, class F>
void sort_by(std::vector<T>& v, F key) {
  std::stable_sort(v.begin(), v.end(), [&](const T& a, const T& b) { return key(a) > key(b); });
}

// What a skip is costed with: the samples of every leg and the spread of its recent runs.
struct Costs {
  Samples samples;
  std::map<LegKey, Spread> spread;
};

Costs costs_of(const History& h, const EstimateOptions& o) {
  Costs c{collect(h, o), {}};
  c.spread = medians(c.samples, std::max<std::size_t>(1, o.samples));
  return c;
}

// What one skipped leg would have cost: the sum over the legs that expanded from its name
// (one, unless GitHub left a matrix's name unexpanded), each at its labels (the skipped job's,
// else the newest run's of that leg); the labels shown are the first costed leg's.
struct SkipCost {
  bool estimated = false;
  Spread each;
  std::string labels;
};

SkipCost skip_cost(const Job& j, const std::string& workflow, const Costs& c) {
  static const std::set<std::string> none;
  const auto found_names = c.samples.names.find(workflow);
  const auto& names = found_names == c.samples.names.end() ? none : found_names->second;
  SkipCost out;
  for (const auto& member : family(j.name, names)) {
    std::string labels = label_key(j.labels);
    if (labels.empty()) {
      const auto last = c.samples.last_labels.find({workflow, member});
      if (last != c.samples.last_labels.end()) labels = last->second.second;
    }
    const auto found = c.spread.find({workflow, member, labels});
    if (found == c.spread.end()) continue;
    out.estimated = true;
    out.each.median += found->second.median;
    out.each.low += found->second.low;
    out.each.high += found->second.high;
    out.each.samples += found->second.samples;
    if (out.labels.empty()) out.labels = labels;
  }
  return out;
}

// The legs as they add up over the window, before they become the report's sorted lists.
struct Tally {
  std::map<LegKey, LegSaved> saved;
  std::map<LegKey, LegSpent> spent;
  std::map<std::string, std::vector<double>> queues;  // labels -> seconds queued
};

// What the runs are counted with and into.
struct Counting {
  const EstimateOptions& o;
  const Costs& costs;
  std::set<std::string> required;  // the required checks' job names
  Report& r;
  Tally tally;
};

Report report_frame(const History& h, const EstimateOptions& o) {
  Report r;
  r.since = o.since;
  r.until = o.until;
  r.gaps = h.gaps;
  r.requests = h.requests;
  r.requests_not_modified = h.not_modified;
  const auto weeks = std::max<std::int64_t>(1, (o.until - o.since + kWeek - 1) / kWeek);
  for (std::int64_t w = 0; w < weeks; ++w) r.weeks.push_back({o.since + w * kWeek});
  return r;
}

std::size_t week_of(const Run& run, const EstimateOptions& o) {
  return static_cast<std::size_t>((run.created - o.since) / kWeek);
}

void count_required(Report& r, const Job& j, const std::set<std::string>& required) {
  if (required.count(j.name) == 0) return;
  ++r.required_checks;
  if (j.conclusion == "failure") ++r.required_failed;
  if (j.could_not_evaluate) ++r.could_not_evaluate;
}

void add_saved(Counting& c, const Run& run, const Job& j, const SkipCost& cost, std::size_t w) {
  Report& r = c.r;
  const Spread& each = cost.each;
  auto& leg = c.tally.saved[{run.workflow, j.name, cost.labels}];
  if (leg.skips == 0) {
    leg = {run.workflow, j.name, cost.labels, runner_kind(split_labels(cost.labels)), 0, each, 0, 0, 0, {}};
    leg.per_week.assign(r.weeks.size(), 0);
  }
  ++leg.skips;
  leg.minutes += each.median;
  leg.low += each.low;
  leg.high += each.high;
  leg.per_week[w] += each.median;
  auto& week = r.weeks[w];
  week.saved += each.median;
  week.saved_low += each.low;
  week.saved_high += each.high;
  auto& kind = r.kinds[leg.kind];
  kind.saved += each.median;
  kind.saved_low += each.low;
  kind.saved_high += each.high;
}

// A job that ran: its minutes on its leg, its week and its runner kind, its queue time on its
// labels. The leg, for what the caller adds.
LegSpent& add_spent(Counting& c, const Run& run, const Job& j, std::size_t w) {
  Report& r = c.r;
  const auto labels = label_key(j.labels);
  auto& leg = c.tally.spent[{run.workflow, j.name, labels}];
  if (leg.jobs == 0) leg = {run.workflow, j.name, labels, runner_kind(j.labels), 0, 0, 0, 0};
  ++leg.jobs;
  const double m = minutes_of(j);
  leg.minutes += m;
  r.weeks[w].spent += m;
  r.kinds[leg.kind].spent += m;
  if (j.created > 0 && j.started >= j.created)
    c.tally.queues[labels].push_back(static_cast<double>(j.started - j.created));
  return leg;
}

// A skip the gate caused: saved at its cost, or counted as having none.
void count_gate_skip(Counting& c, const Run& run, const Job& j, std::size_t w) {
  ++c.r.skipped_by_gate;
  const auto cost = skip_cost(j, run.workflow, c.costs);
  if (!cost.estimated) {
    ++c.r.skipped_unestimated;
    return;
  }
  add_saved(c, run, j, cost, w);
}

// A leg that ran: spent, and cancelled or fail-open minutes where the run says so.
void count_spent(Counting& c, const Run& run, const Job& j, const RunGate& gate, std::size_t w) {
  auto& leg = add_spent(c, run, j, w);
  const double m = minutes_of(j);
  if (j.conclusion == "cancelled") {
    ++leg.cancelled;
    leg.cancelled_minutes += m;
    c.r.weeks[w].cancelled += m;
  }
  if (gate.fail_open) c.r.fail_open_minutes += m;
}

// Every job of a run in the window but the path gate's (count_gate_jobs).
void count_run(Counting& c, const Run& run) {
  Report& r = c.r;
  ++r.runs;
  const auto w = week_of(run, c.o);
  const RunGate gate = run_gate(run, c.o);
  if (gate.found) ++r.gated_runs;
  if (gate.fail_open) ++r.fail_open_runs;
  for (const auto& j : run.jobs) {
    ++r.jobs;
    count_required(r, j, c.required);
    switch (job_fate(j, run, gate, c.o)) {
      case JobFate::gate:
      case JobFate::not_run: break;
      case JobFate::skipped_fork: ++r.skipped_fork; break;
      case JobFate::skipped_other: ++r.skipped_other; break;
      case JobFate::skipped_by_gate: count_gate_skip(c, run, j, w); break;
      case JobFate::spent: count_spent(c, run, j, gate, w); break;
    }
  }
}

// The gate's own job is spent time too: it is what the savings cost.
void count_gate_jobs(Counting& c, const Run& run) {
  const auto w = week_of(run, c.o);
  for (const auto& j : run.jobs) {
    if (j.name == c.o.gate_job && ran(j)) add_spent(c, run, j, w);
  }
}

// The tallies as the report's lists, most minutes (longest median queue) first, and the totals.
void finish_legs(Report& r, Tally& t) {
  for (auto& [key, leg] : t.saved) r.saved.push_back(std::move(leg));
  for (auto& [key, leg] : t.spent) r.spent.push_back(std::move(leg));
  sort_by(r.saved, [](const LegSaved& l) { return l.minutes; });
  sort_by(r.spent, [](const LegSpent& l) { return l.minutes; });
  for (auto& [labels, seconds] : t.queues) {
    std::sort(seconds.begin(), seconds.end());
    r.queues.push_back({labels, runner_kind(split_labels(labels)), seconds.size(), nearest_rank(seconds, 0.5),
                        nearest_rank(seconds, 0.9), seconds.back()});
  }
  sort_by(r.queues, [](const QueueStat& q) { return q.median_s; });
  for (const auto& wk : r.weeks) {
    r.saved_minutes += wk.saved;
    r.saved_low += wk.saved_low;
    r.saved_high += wk.saved_high;
    r.spent_minutes += wk.spent;
    r.cancelled_minutes += wk.cancelled;
  }
}

void count_flaky(Report& r, const History& h, const EstimateOptions& o) {
  for (const auto& issue : h.flaky) {
    if (in_window(issue.created, o)) ++r.flaky_opened;
    if (issue.state == "closed" && in_window(issue.closed, o)) ++r.flaky_closed;
    if (issue.state == "open") {
      ++r.flaky_open;
      r.flaky_longest_open.push_back(issue);
    }
  }
  std::stable_sort(r.flaky_longest_open.begin(), r.flaky_longest_open.end(),
                   [](const FlakyIssue& a, const FlakyIssue& b) { return a.created < b.created; });
  if (r.flaky_longest_open.size() > 10) r.flaky_longest_open.resize(10);
  r.flake_rates = flake_rates(h, o);
  r.flaky_tests_flaked = r.flake_rates.size();
  if (r.flake_rates.size() > 10) r.flake_rates.resize(10);
}

void count_gpu_gate(Report& r, const History& h, const EstimateOptions& o) {
  std::vector<double> latency;
  for (const auto& s : h.gpu_gate) {
    if (!in_window(s.pushed, o)) continue;
    ++r.gpu_gate_samples;
    if (s.success == 0 || s.success < s.pushed) {
      ++r.gpu_gate_pending;
      continue;
    }
    latency.push_back(static_cast<double>(s.success - s.pushed) / 60.0);
  }
  r.gpu_gate_latency = spread_of(latency);
  if (!latency.empty()) {
    std::sort(latency.begin(), latency.end());
    r.gpu_gate_p90 = nearest_rank(latency, 0.9);
    r.gpu_gate_max = latency.back();
  }
}

}  // namespace

std::string runner_kind(const std::vector<std::string>& labels) {
  if (labels.empty()) return "unknown";
  bool self_hosted = false, gpu = false;
  for (const auto& l : labels) {
    const auto low = lower(l);
    self_hosted = self_hosted || low == "self-hosted";
    gpu = gpu || low.find("gpu") != std::string::npos;
  }
  return std::string(self_hosted ? "self-hosted" : "hosted") + (gpu ? " GPU" : " CPU");
}

Spread spread_of(std::vector<double> values) {
  Spread s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.samples = values.size();
  s.median = nearest_rank(values, 0.5);
  s.low = nearest_rank(values, 0.25);
  s.high = nearest_rank(values, 0.75);
  return s;
}

RunGate run_gate(const Run& run, const EstimateOptions& o) {
  const Job* gate = nullptr;
  for (const auto& j : run.jobs)
    if (j.name == o.gate_job) gate = &j;
  RunGate g;
  g.found = gate != nullptr;
  g.ok = g.found && gate->conclusion == "success";
  g.fail_open = g.ok && run.gate_failed_open;
  return g;
}

JobFate job_fate(const Job& j, const Run& run, const RunGate& gate, const EstimateOptions& o) {
  if (j.name == o.gate_job) return JobFate::gate;
  if (j.conclusion == "skipped") {
    if (run.from_fork) return JobFate::skipped_fork;  // whatever the gate said: no saving of the gate's
    if (!gate.ok || gate.fail_open) return JobFate::skipped_other;
    return JobFate::skipped_by_gate;
  }
  return ran(j) ? JobFate::spent : JobFate::not_run;
}

Report estimate(const History& h, const EstimateOptions& o) {
  Report r = report_frame(h, o);
  const Costs costs = costs_of(h, o);
  Counting c{o, costs, {o.required_jobs.begin(), o.required_jobs.end()}, r, {}};
  for (const auto& run : h.runs) {
    if (in_window(run.created, o)) count_run(c, run);
    else if (run.created < o.since) ++r.lookback_runs;
  }
  for (const auto& run : h.runs) {
    if (in_window(run.created, o)) count_gate_jobs(c, run);
  }
  finish_legs(r, c.tally);
  count_flaky(r, h, o);
  count_gpu_gate(r, h, o);
  return r;
}

}  // namespace gatekit::ci_report
