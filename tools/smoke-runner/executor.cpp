#include "executor.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <thread>

#include "gatekit/gpu.hpp"
#include "gatekit/process.hpp"
#include "gatekit/termination.hpp"
#include "gatekit/text.hpp"

namespace smoke_runner {

namespace {

using steady = std::chrono::steady_clock;

struct Event {
  std::size_t id = 0;
  bool done = false;
  std::string chunk;  // live output (streaming mode)
};

// Shared between the main loop and one smoke's worker thread.
struct Active {
  std::size_t id = 0;
  std::vector<int> devices;
  milliseconds start{0};
  milliseconds estimate{0};
  int gpus = 0;
  std::thread worker;
  // Written by the worker only until it posts `done`.
  OutputBuffer output{0, 0};
  std::size_t streamed = 0;
  std::optional<gatekit::Result<gatekit::ProcessResult>> result;
};

class EventQueue {
 public:
  void push(Event e) {
    {
      std::lock_guard lock(mutex_);
      events_.push_back(std::move(e));
    }
    cv_.notify_one();
  }
  std::deque<Event> wait(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    cv_.wait_for(lock, timeout, [&] { return !events_.empty(); });
    std::deque<Event> out;
    out.swap(events_);
    return out;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Event> events_;
};

milliseconds since(steady::time_point t0) {
  return std::chrono::duration_cast<milliseconds>(steady::now() - t0);
}

std::string gpu_label(const std::vector<int>& devices) {
  if (devices.empty()) return "";
  return std::string(devices.size() == 1 ? " [GPU " : " [GPUs ") + display_devices(devices) + "]";
}

}  // namespace

std::vector<SmokeResult> Executor::run(const Manifest& manifest, const std::vector<Decision>& decisions,
                                       const Plan& plan, const ExecOptions& options,
                                       const std::function<void(const std::vector<SmokeResult>&)>& on_change) {
  std::vector<SmokeResult> results(manifest.smokes.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    results[i].index = i;
    if (i < decisions.size() && !decisions[i].run) {
      results[i].status = Status::skipped;
      results[i].reason = decisions[i].reason;
    } else {
      results[i].reason = "pending";
    }
  }
  bool dirty = false;
  auto last_notified = steady::now();
  auto notify_now = [&] {
    dirty = false;
    last_notified = steady::now();
    if (on_change) on_change(results);
  };
  auto notify = [&] {
    dirty = true;
    if (steady::now() - last_notified >= options.progress_interval) notify_now();
  };

  std::vector<Job> queue;
  if (options.replay_plan) {
    for (const auto& run : plan.runs) {
      auto it = std::find_if(plan.order.begin(), plan.order.end(), [&](const Job& j) { return j.id == run.id; });
      if (it != plan.order.end()) queue.push_back(*it);
    }
  } else {
    for (const auto& job : plan.order) {
      if (job.gpus <= options.gpus) queue.push_back(job);
    }
  }
  std::vector<bool> busy(static_cast<std::size_t>(std::max(options.gpus, 0)), false);
  std::map<std::size_t, std::unique_ptr<Active>> running;
  EventQueue events;
  const auto t0 = steady::now();
  std::string stop_reason;
  std::optional<std::size_t> streaming;  // the smoke whose log group is open

  auto start = [&](const Job& job) {
    const Smoke& smoke = manifest.smokes[job.id];
    auto active = std::make_unique<Active>();
    active->id = job.id;
    active->gpus = job.gpus;
    active->estimate = job.estimate;
    active->output = OutputBuffer(options.keep_head, options.keep_tail);
    if (options.serial) {
      for (int d = 0; d < options.gpus; ++d) active->devices.push_back(d);
    } else {
      active->devices = choose_devices(busy, job.gpus);
    }
    for (int d : active->devices) busy[static_cast<std::size_t>(d)] = true;
    active->start = since(t0);
    SmokeResult& r = results[job.id];
    r.devices = active->devices;
    r.start = active->start;
    r.reason = "running";

    gatekit::ProcessSpec spec;
    spec.argv = smoke.command;
    spec.env_set = smoke.env;
    spec.env_set["GATEKIT_SMOKE_NAME"] = smoke.name;
    spec.env_unset.assign(kWorkflowFileVariables.begin(), kWorkflowFileVariables.end());
    // Serial runs see every device the runner sees, as the smokes would without gatekit.
    if (!options.serial) {
      for (auto& [k, v] : gatekit::child_visibility_env(env_, options.gpus, active->devices)) spec.env_set[k] = v;
    }
    spec.timeout = smoke.timeout;
    spec.kill_grace = smoke.kill_grace;
    spec.merge_stderr = true;
    spec.capture_limit = 0;  // the worker keeps its own bounded copy
    std::filesystem::path cwd;
    if (!smoke.cwd.empty()) {
      cwd = std::filesystem::path(smoke.cwd).is_absolute() ? std::filesystem::path(smoke.cwd)
                                                             : options.workdir / smoke.cwd;
    } else if (!options.workdir.empty()) {
      cwd = options.workdir;
    }
    spec.cwd = cwd;

    workflow_.log("RUN  " + smoke.name + ": " + display_command(smoke.command) + gpu_label(active->devices));
    if (options.stream) {
      workflow_.begin_group(smoke.name + " output");
      workflow_.pause_commands();  // a smoke's `::...::` lines are text, not commands
      streaming = job.id;
    }
    Active* raw = active.get();
    const bool stream = options.stream;
    const std::size_t live_limit = options.live_limit;
    std::error_code ec;
    if (!cwd.empty() && !std::filesystem::is_directory(cwd, ec)) {
      raw->result = gatekit::Result<gatekit::ProcessResult>(
          gatekit::make_error("working directory '" + cwd.string() + "' does not exist (cwd: " + smoke.cwd + ")"));
      events.push({job.id, true, {}});
    } else {
      spec.on_output = [raw, &events, stream, live_limit](gatekit::OutputStream, std::string_view chunk) {
        raw->output.append(chunk);
        if (!stream || raw->streamed >= live_limit) return;
        const auto take = std::min(chunk.size(), live_limit - raw->streamed);
        raw->streamed += take;
        events.push({raw->id, false, std::string(chunk.substr(0, take))});
      };
      raw->worker = std::thread([this, raw, spec = std::move(spec), &events] {
        raw->result = runner_.run(spec);
        events.push({raw->id, true, {}});
      });
    }
    running[job.id] = std::move(active);
  };

  bool line_open = false;  // streamed output did not end with a newline
  auto finish = [&](std::size_t id) {
    auto node = running.extract(id);
    auto& active = node.mapped();
    if (active->worker.joinable()) active->worker.join();
    for (int d : active->devices) busy[static_cast<std::size_t>(d)] = false;
    const Smoke& smoke = manifest.smokes[id];
    SmokeResult& r = results[id];
    r.output_bytes = active->output.total();
    r.output = active->output.text();
    const auto& result = *active->result;
    if (!result.ok()) {
      r.status = Status::error;
      r.reason = result.error().message;
      r.duration = since(t0) - active->start;
    } else {
      const auto& p = result.value();
      if (p.leftovers_killed) {
        workflow_.annotate({gatekit::Severity::warning,
                            smoke.name + " left processes behind that kept its output open; they were killed "
                            "with its process group (a smoke must wait for what it starts)",
                            "smoke-runner", "", 0, 0});
      }
      r.exit_code = p.exit_code;
      r.signal = p.signal;
      r.duration = p.duration;
      if (p.succeeded()) {
        r.status = Status::passed;
        r.reason.clear();
      } else if (p.timed_out) {
        r.status = Status::timed_out;
        r.reason = p.describe(smoke.timeout);
      } else if (gatekit::termination_signal() != 0) {
        r.status = Status::cancelled;
        r.reason = p.describe() + " after the runner received " + gatekit::signal_name(gatekit::termination_signal());
      } else {
        r.status = Status::failed;
        r.reason = p.describe();
      }
    }
    if (streaming == id) {
      if (line_open) out_ << '\n';
      line_open = false;
      if (active->streamed < active->output.total()) {
        out_ << "[smoke-runner: live output stopped after " << format_bytes(active->streamed) << " of "
             << format_bytes(active->output.total()) << "; the last 64 KiB follow]\n"
             << active->output.last(64u << 10);
        if (!r.output.empty() && r.output.back() != '\n') out_ << '\n';
      }
      out_.flush();
      workflow_.resume_commands();
      workflow_.end_group();
      streaming.reset();
    } else {
      workflow_.begin_group(smoke.name + " output");
      workflow_.pause_commands();
      out_ << r.output;
      if (!r.output.empty() && r.output.back() != '\n') out_ << '\n';
      out_.flush();
      workflow_.resume_commands();
      workflow_.end_group();
    }
    const std::string took = " (" + gatekit::format_duration(r.duration) + ")";
    switch (r.status) {
      case Status::passed: workflow_.log("PASS " + smoke.name + took); break;
      case Status::cancelled: workflow_.log("CANCELLED " + smoke.name + ": " + r.reason + took); break;
      case Status::error: workflow_.log("ERROR " + smoke.name + ": " + r.reason); break;
      default: workflow_.log("FAIL " + smoke.name + ": " + r.reason + took); break;
    }
    if (is_failure(r.status) && options.fail_fast && stop_reason.empty()) {
      stop_reason = "not started: --fail-fast after " + smoke.name + " failed";
    }
  };

  notify_now();
  for (;;) {
    if (dirty && steady::now() - last_notified >= options.progress_interval) notify_now();
    if (gatekit::termination_signal() != 0 && stop_reason.empty()) {
      stop_reason = "not started: the runner received " + gatekit::signal_name(gatekit::termination_signal());
    }
    if (stop_reason.empty() && !queue.empty()) {
      std::vector<RunningJob> now_running;
      for (const auto& [id, a] : running) now_running.push_back({a->gpus, a->start + a->estimate});
      int free_gpus = 0;
      for (bool b : busy) free_gpus += b ? 0 : 1;
      // A streamed log group must close before another smoke starts.
      const bool may_start = !(options.stream && !running.empty());
      std::vector<std::size_t> picks;
      if (may_start && options.replay_plan) {
        // The plan's start order, no overtaking.
        for (std::size_t i = 0; i < queue.size() && queue[i].gpus <= free_gpus; ++i) {
          picks.push_back(i);
          free_gpus -= queue[i].gpus;
        }
      } else if (may_start) {
        picks = jobs_to_start(queue, free_gpus, now_running, since(t0), options.serial, plan.reserve);
      }
      if (options.stream && picks.size() > 1) picks.resize(1);
      for (auto pos : picks) start(queue[pos]);
      for (auto it = picks.rbegin(); it != picks.rend(); ++it) queue.erase(queue.begin() + static_cast<long>(*it));
      if (!picks.empty()) notify();
    }
    if (running.empty()) break;
    for (auto& e : events.wait(std::chrono::milliseconds(50))) {
      if (!e.done) {
        if (streaming == e.id) {
          out_ << e.chunk;
          line_open = !e.chunk.empty() && e.chunk.back() != '\n';
        }
        continue;
      }
      finish(e.id);
      notify();
    }
    out_.flush();
  }
  for (const auto& job : queue) {
    results[job.id].status = Status::not_run;
    results[job.id].reason = stop_reason.empty() ? "not started" : stop_reason;
  }
  for (const auto& job : queue) workflow_.log("NOT RUN " + manifest.smokes[job.id].name + ": " + results[job.id].reason);
  notify_now();
  return results;
}

}  // namespace smoke_runner
