#include "plan.hpp"

#include <algorithm>
#include <array>

#include "gatekit/environment.hpp"

namespace gatekit::smoke_runner {

std::string_view to_string(Tier tier) { return tier == Tier::pr ? "pr" : "full"; }

std::optional<Tier> parse_tier(std::string_view text) {
  if (text == "pr") return Tier::pr;
  if (text == "full") return Tier::full;
  return std::nullopt;
}

std::vector<Decision> select_smokes(const Manifest& manifest, Tier tier, int gpus) {
  std::vector<Decision> out;
  for (const auto& smoke : manifest.smokes) {
    Decision d;
    if (tier == Tier::pr && !smoke.pr) {
      d.reason = "not in the pr tier (pr: false)";
    } else if (smoke.min_gpus > gpus) {
      d.reason = "needs " + std::to_string(smoke.min_gpus) + (smoke.min_gpus == 1 ? " GPU" : " GPUs") +
                 ", runner has " + std::to_string(gpus);
    } else {
      d.run = true;
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<Job> priority_order(std::vector<Job> jobs) {
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) {
    if (a.gpus != b.gpus) return a.gpus > b.gpus;
    if (a.estimate != b.estimate) return a.estimate > b.estimate;
    return a.id < b.id;
  });
  return jobs;
}

std::vector<std::size_t> jobs_to_start(const std::vector<Job>& queue, int free_gpus,
                                       const std::vector<RunningJob>& running, milliseconds now,
                                       bool serial, bool reserve) {
  std::vector<std::size_t> picks;
  if (serial) {
    if (running.empty() && !queue.empty() && queue.front().gpus <= free_gpus) picks.push_back(0);
    return picks;
  }
  std::vector<RunningJob> ends = running;
  bool reserved = false;
  milliseconds shadow{0};
  int extra = 0;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const Job& job = queue[i];
    if (!reserved) {
      if (job.gpus <= free_gpus) {
        picks.push_back(i);
        free_gpus -= job.gpus;
        ends.push_back({job.gpus, now + job.estimate});
        continue;
      }
      if (!reserve) continue;
      // The first job that does not fit: reserve the earliest time it will.
      std::sort(ends.begin(), ends.end(),
                [](const RunningJob& a, const RunningJob& b) { return a.expected_end < b.expected_end; });
      int available = free_gpus;
      shadow = now;
      for (const auto& r : ends) {
        available += r.gpus;
        shadow = std::max(now, r.expected_end);
        if (available >= job.gpus) break;
      }
      if (available < job.gpus) continue;  // never fits; the caller filters these out
      extra = available - job.gpus;
      reserved = true;
      continue;
    }
    if (job.gpus > free_gpus) continue;
    if (now + job.estimate <= shadow) {
      picks.push_back(i);
      free_gpus -= job.gpus;
    } else if (job.gpus <= extra) {
      picks.push_back(i);
      free_gpus -= job.gpus;
      extra -= job.gpus;
    }
  }
  return picks;
}

std::vector<int> choose_devices(const std::vector<bool>& busy, int count) {
  const int n = static_cast<int>(busy.size());
  if (count <= 0) return {};
  for (int start = 0; start + count <= n; ++start) {
    bool all_free = true;
    for (int k = start; k < start + count && all_free; ++k) all_free = !busy[static_cast<std::size_t>(k)];
    if (all_free) {
      std::vector<int> out;
      for (int k = start; k < start + count; ++k) out.push_back(k);
      return out;
    }
  }
  std::vector<int> out;
  for (int k = 0; k < n && static_cast<int>(out.size()) < count; ++k) {
    if (!busy[static_cast<std::size_t>(k)]) out.push_back(k);
  }
  if (static_cast<int>(out.size()) < count) return {};
  return out;
}

Plan plan_runs(const std::vector<Job>& jobs, int gpus, bool serial) {
  std::vector<Job> fitting;
  for (const auto& job : jobs) {
    if (job.gpus <= gpus && gpus > 0) fitting.push_back(job);
  }
  const auto by_priority = priority_order(fitting);
  Plan best = simulate(by_priority, gpus, serial, true);
  if (serial) return best;
  auto longest = fitting;
  std::stable_sort(longest.begin(), longest.end(), [](const Job& a, const Job& b) {
    if (a.estimate != b.estimate) return a.estimate > b.estimate;
    return a.gpus > b.gpus;
  });
  auto largest = fitting;
  std::stable_sort(largest.begin(), largest.end(), [](const Job& a, const Job& b) {
    return a.gpus * a.estimate.count() > b.gpus * b.estimate.count();
  });
  for (const std::vector<Job>* order : std::array<const std::vector<Job>*, 3>{&by_priority, &longest, &largest}) {
    for (bool reserve : {true, false}) {
      Plan candidate = simulate(*order, gpus, serial, reserve);
      if (candidate.makespan < best.makespan) best = std::move(candidate);
    }
  }
  return best;
}

Plan simulate(const std::vector<Job>& order, int gpus, bool serial, bool reserve) {
  Plan plan;
  plan.order = order;
  plan.reserve = reserve;
  std::vector<Job> queue;
  double area = 0;
  for (const auto& job : order) {
    if (job.gpus > gpus || gpus <= 0) continue;
    queue.push_back(job);
    plan.serial_time += job.estimate;
    plan.lower_bound = std::max(plan.lower_bound, job.estimate);
    area += static_cast<double>(job.gpus) * static_cast<double>(job.estimate.count());
  }
  if (gpus > 0) {
    plan.lower_bound = std::max(plan.lower_bound, milliseconds(static_cast<long long>(area / gpus + 0.5)));
  }
  std::vector<bool> busy(static_cast<std::size_t>(std::max(gpus, 0)), false);
  struct Active {
    std::size_t run;  // index into plan.runs
    int gpus;
  };
  std::vector<Active> active;
  milliseconds now{0};
  while (!queue.empty() || !active.empty()) {
    std::vector<RunningJob> running;
    int free_gpus = 0;
    for (bool b : busy) free_gpus += b ? 0 : 1;
    for (const auto& a : active) running.push_back({a.gpus, plan.runs[a.run].end});
    auto picks = jobs_to_start(queue, free_gpus, running, now, serial, reserve);
    for (auto pos : picks) {
      const Job& job = queue[pos];
      PlannedRun run{job.id, {}, now, now + job.estimate};
      if (serial) {
        for (int d = 0; d < gpus; ++d) run.devices.push_back(d);
      } else {
        run.devices = choose_devices(busy, job.gpus);
      }
      for (int d : run.devices) busy[static_cast<std::size_t>(d)] = true;
      active.push_back({plan.runs.size(), serial ? gpus : job.gpus});
      plan.runs.push_back(std::move(run));
    }
    for (auto it = picks.rbegin(); it != picks.rend(); ++it) queue.erase(queue.begin() + static_cast<long>(*it));
    if (active.empty()) break;  // nothing can ever start (cannot happen after the filter)
    milliseconds next = plan.runs[active.front().run].end;
    for (const auto& a : active) next = std::min(next, plan.runs[a.run].end);
    now = next;
    for (auto it = active.begin(); it != active.end();) {
      if (plan.runs[it->run].end <= now) {
        for (int d : plan.runs[it->run].devices) busy[static_cast<std::size_t>(d)] = false;
        it = active.erase(it);
      } else {
        ++it;
      }
    }
    plan.makespan = std::max(plan.makespan, now);
  }
  return plan;
}

bool all_estimates_known(const Manifest& manifest, const std::vector<Decision>& decisions,
                         const std::map<std::string, milliseconds>& previous) {
  for (std::size_t i = 0; i < manifest.smokes.size() && i < decisions.size(); ++i) {
    if (decisions[i].run && previous.count(manifest.smokes[i].name) == 0) return false;
  }
  return true;
}

std::vector<Job> make_jobs(const Manifest& manifest, const std::vector<Decision>& decisions,
                           const std::map<std::string, milliseconds>& previous) {
  std::vector<Job> jobs;
  for (std::size_t i = 0; i < manifest.smokes.size() && i < decisions.size(); ++i) {
    if (!decisions[i].run) continue;
    const auto& smoke = manifest.smokes[i];
    auto it = previous.find(smoke.name);
    jobs.push_back({i, smoke.min_gpus, it != previous.end() ? it->second : smoke.timeout});
  }
  return jobs;
}


gatekit::Result<Tier> resolve_tier(const std::string& option, const std::string& env_name, bool env_name_given,
                                   const gatekit::Environment& env) {
  if (!option.empty()) {
    if (auto t = parse_tier(option)) return *t;
    return gatekit::bad_input("--tier must be 'pr' or 'full', got '" + option + "'");
  }
  std::string name = env_name;
  auto value = env.get_nonempty(name);
  if (!value && !env_name_given) {
    name = kCompatTierEnv;
    value = env.get_nonempty(name);
  }
  if (!value) {
    return gatekit::bad_input("no tier given: pass --tier pr|full or set " + env_name +
                                   (env_name_given ? std::string() : std::string(" (or ") + kCompatTierEnv + ")"));
  }
  if (auto t = parse_tier(*value)) return *t;
  return gatekit::bad_input(name + " must be 'pr' or 'full', got '" + *value + "'");
}

}  // namespace gatekit::smoke_runner
