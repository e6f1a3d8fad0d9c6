#include "estimate.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
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

// The flake rate of each test whose issue's state names flaky runs in the window (FlakeRate).
std::vector<FlakeRate> flake_rates(const History& h, const EstimateOptions& o) {
  const std::set<std::string> not_legs = [&] {
    std::set<std::string> names(o.required_jobs.begin(), o.required_jobs.end());
    names.insert(o.gate_job);
    return names;
  }();
  struct RunFacts {
    std::int64_t created = 0;
    const std::string* workflow = nullptr;
  };
  std::map<std::int64_t, RunFacts> by_id;
  std::map<std::string, std::size_t> suite_runs;  // per workflow: window runs in which a leg ran
  for (const auto& run : h.runs) {
    by_id[run.id] = {run.created, &run.workflow};
    if (run.created < o.since || run.created >= o.until) continue;
    const bool leg_ran = std::any_of(run.jobs.begin(), run.jobs.end(),
                                     [&](const Job& j) { return not_legs.count(j.name) == 0 && costs(j); });
    if (leg_ran) ++suite_runs[run.workflow];
  }
  const auto in_window = [&](std::int64_t created) { return created >= o.since && created < o.until; };
  std::vector<FlakeRate> out;
  for (const auto& issue : h.flaky) {
    if (issue.test.empty()) continue;
    FlakeRate rate{issue.number, issue.test, issue.state, "", 0, 0, 0, false};
    std::set<std::string> workflows;
    std::set<std::int64_t> counted;
    for (const auto id : issue.flake_runs) {
      const auto found = by_id.find(id);
      if (found == by_id.end()) continue;
      workflows.insert(*found->second.workflow);
      if (in_window(found->second.created) && counted.insert(id).second) ++rate.flakes;
    }
    if (rate.flakes == 0) continue;
    for (const auto& w : workflows) rate.runs += suite_runs[w];
    rate.workflows = join(std::vector<std::string>(workflows.begin(), workflows.end()), ",");
    rate.rate = rate.runs == 0 ? 0 : static_cast<double>(rate.flakes) / static_cast<double>(rate.runs);
    if (issue.runs_cut) {
      const auto oldest = by_id.find(issue.oldest_run);
      rate.at_least = oldest == by_id.end() || oldest->second.created >= o.since;
    }
    out.push_back(std::move(rate));
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

Report estimate(const History& h, const EstimateOptions& o) {
  Report r;
  r.since = o.since;
  r.until = o.until;
  r.gaps = h.gaps;
  r.requests = h.requests;
  r.requests_not_modified = h.not_modified;
  const auto week_count = static_cast<std::size_t>(std::max<std::int64_t>(1, (o.until - o.since + kWeek - 1) / kWeek));
  for (std::size_t w = 0; w < week_count; ++w) r.weeks.push_back({o.since + static_cast<std::int64_t>(w) * kWeek});

  auto samples = collect(h, o);
  const auto cost = medians(samples, std::max<std::size_t>(1, o.samples));
  std::map<LegKey, LegSaved> saved;
  std::map<LegKey, LegSpent> spent;
  std::map<std::string, std::vector<double>> queues;  // labels -> seconds
  const std::set<std::string> required(o.required_jobs.begin(), o.required_jobs.end());

  for (const auto& run : h.runs) {
    if (run.created < o.since || run.created >= o.until) {
      if (run.created < o.since) ++r.lookback_runs;
      continue;
    }
    ++r.runs;
    auto& week = r.weeks[static_cast<std::size_t>((run.created - o.since) / kWeek)];
    const auto w = static_cast<std::size_t>(&week - r.weeks.data());
    const Job* gate = nullptr;
    for (const auto& j : run.jobs)
      if (j.name == o.gate_job) gate = &j;
    const bool gate_ok = gate != nullptr && gate->conclusion == "success";
    if (gate != nullptr) ++r.gated_runs;
    const bool fail_open = gate_ok && run.gate_failed_open;
    if (fail_open) ++r.fail_open_runs;
    for (const auto& j : run.jobs) {
      ++r.jobs;
      if (required.count(j.name) != 0) {
        ++r.required_checks;
        if (j.conclusion == "failure") ++r.required_failed;
        if (j.could_not_evaluate) ++r.could_not_evaluate;
      }
      if (j.name == o.gate_job) continue;
      if (j.conclusion == "skipped") {
        if (run.from_fork) {  // skipped for a fork, whatever the gate said: no saving of the gate's
          ++r.skipped_fork;
          continue;
        }
        if (!gate_ok || fail_open) {
          ++r.skipped_other;
          continue;
        }
        ++r.skipped_by_gate;
        Spread each;
        bool estimated = false;
        std::string labels_shown;
        static const std::set<std::string> none;
        const auto found_names = samples.names.find(run.workflow);
        const auto& names = found_names == samples.names.end() ? none : found_names->second;
        for (const auto& member : family(j.name, names)) {
          std::string labels = label_key(j.labels);
          if (labels.empty()) {
            const auto last = samples.last_labels.find({run.workflow, member});
            if (last != samples.last_labels.end()) labels = last->second.second;
          }
          const auto found = cost.find({run.workflow, member, labels});
          if (found == cost.end()) continue;
          estimated = true;
          each.median += found->second.median;
          each.low += found->second.low;
          each.high += found->second.high;
          each.samples += found->second.samples;
          if (labels_shown.empty()) labels_shown = labels;
        }
        if (!estimated) {
          ++r.skipped_unestimated;
          continue;
        }
        auto& leg = saved[{run.workflow, j.name, labels_shown}];
        if (leg.skips == 0) {
          leg = {run.workflow, j.name, labels_shown, runner_kind(split_labels(labels_shown)), 0, each, 0, 0, 0, {}};
          leg.per_week.assign(week_count, 0);
        }
        ++leg.skips;
        leg.minutes += each.median;
        leg.low += each.low;
        leg.high += each.high;
        leg.per_week[w] += each.median;
        week.saved += each.median;
        week.saved_low += each.low;
        week.saved_high += each.high;
        auto& kind = r.kinds[leg.kind];
        kind.saved += each.median;
        kind.saved_low += each.low;
        kind.saved_high += each.high;
        continue;
      }
      if (!ran(j)) continue;
      const auto labels = label_key(j.labels);
      auto& leg = spent[{run.workflow, j.name, labels}];
      if (leg.jobs == 0) leg = {run.workflow, j.name, labels, runner_kind(j.labels), 0, 0, 0, 0};
      ++leg.jobs;
      const double m = minutes_of(j);
      leg.minutes += m;
      week.spent += m;
      r.kinds[leg.kind].spent += m;
      if (j.conclusion == "cancelled") {
        ++leg.cancelled;
        leg.cancelled_minutes += m;
        week.cancelled += m;
      }
      if (fail_open) r.fail_open_minutes += m;
      if (j.created > 0 && j.started >= j.created) queues[labels].push_back(static_cast<double>(j.started - j.created));
    }
  }
  // The gate's own job is spent time too: it is what the savings cost.
  for (const auto& run : h.runs) {
    if (run.created < o.since || run.created >= o.until) continue;
    const auto w = static_cast<std::size_t>((run.created - o.since) / kWeek);
    for (const auto& j : run.jobs) {
      if (j.name != o.gate_job || !ran(j)) continue;
      const auto labels = label_key(j.labels);
      auto& leg = spent[{run.workflow, j.name, labels}];
      if (leg.jobs == 0) leg = {run.workflow, j.name, labels, runner_kind(j.labels), 0, 0, 0, 0};
      ++leg.jobs;
      leg.minutes += minutes_of(j);
      r.weeks[w].spent += minutes_of(j);
      r.kinds[leg.kind].spent += minutes_of(j);
      if (j.created > 0 && j.started >= j.created) queues[labels].push_back(static_cast<double>(j.started - j.created));
    }
  }

  for (auto& [key, leg] : saved) r.saved.push_back(std::move(leg));
  for (auto& [key, leg] : spent) r.spent.push_back(std::move(leg));
  sort_by(r.saved, [](const LegSaved& l) { return l.minutes; });
  sort_by(r.spent, [](const LegSpent& l) { return l.minutes; });
  for (auto& [labels, seconds] : queues) {
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

  for (const auto& issue : h.flaky) {
    if (issue.created >= o.since && issue.created < o.until) ++r.flaky_opened;
    if (issue.state == "closed" && issue.closed >= o.since && issue.closed < o.until) ++r.flaky_closed;
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

  std::vector<double> latency;
  for (const auto& s : h.gpu_gate) {
    if (s.pushed < o.since || s.pushed >= o.until) continue;
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
  return r;
}

}  // namespace gatekit::ci_report
