#include "executor.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <thread>

#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/files.hpp"
#include "gatekit/gpu.hpp"
#include "gatekit/termination.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::smoke_runner {

namespace {

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
  std::optional<Result<ProcessResult>> result;
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
  // Waits for events at most `timeout` (real time: the workers post them).
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

std::string gpu_label(const std::vector<int>& devices) {
  if (devices.empty()) return "";
  return std::string(devices.size() == 1 ? " [GPU " : " [GPUs ") + display_devices(devices) + "]";
}

// One call of Executor::run: the queue, the GPUs in use, the running smokes and the log
// group that is open. Only the main loop (this object) touches it; workers post events.
class Execution {
 public:
  using OnChange = std::function<void(const std::vector<SmokeResult>&)>;
  Execution(Context& context, const Manifest& manifest, const Plan& plan, const ExecOptions& options,
            const OnChange& on_change)
      : context_(context), manifest_(manifest), plan_(plan), options_(options), on_change_(on_change),
        busy_(static_cast<std::size_t>(std::max(options.gpus, 0)), false), t0_(context.clock.monotonic()) {}

  std::vector<SmokeResult> run(const std::vector<Decision>& decisions) {
    init_results(decisions);
    build_queue();
    notify_now();
    for (;;) {
      if (dirty_ && since_start() - last_notified_ >= options_.progress_interval) notify_now();
      note_termination();
      start_ready();
      if (running_.empty()) break;
      handle_events();
    }
    mark_not_run();
    notify_now();
    return std::move(results_);
  }

 private:
  milliseconds since_start() const { return context_.clock.monotonic() - t0_; }

  void init_results(const std::vector<Decision>& decisions) {
    results_.resize(manifest_.smokes.size());
    for (std::size_t i = 0; i < results_.size(); ++i) {
      results_[i].index = i;
      if (i < decisions.size() && !decisions[i].run) {
        results_[i].status = Status::skipped;
        results_[i].reason = decisions[i].reason;
      } else {
        results_[i].reason = "pending";
      }
    }
  }

  // The plan's start order when replaying it, else its queue order (jobs that fit at all).
  void build_queue() {
    if (options_.replay_plan) {
      for (const auto& run : plan_.runs) {
        auto it = std::find_if(plan_.order.begin(), plan_.order.end(), [&](const Job& j) { return j.id == run.id; });
        if (it != plan_.order.end()) queue_.push_back(*it);
      }
      return;
    }
    for (const auto& job : plan_.order) {
      if (job.gpus <= options_.gpus) queue_.push_back(job);
    }
  }

  // Progress for the caller: now, or (notify) once progress_interval has passed since the last.
  void notify_now() {
    dirty_ = false;
    last_notified_ = since_start();
    if (on_change_) on_change_(results_);
  }
  void notify() {
    dirty_ = true;
    if (since_start() - last_notified_ >= options_.progress_interval) notify_now();
  }

  void note_termination() {
    const int signal = termination_signal();
    if (signal != 0 && stop_reason_.empty()) stop_reason_ = "not started: the runner received " + signal_name(signal);
  }

  // Positions in the queue of the smokes to start now.
  std::vector<std::size_t> picks() const {
    // A streamed log group must close before another smoke starts.
    if (!stop_reason_.empty() || queue_.empty() || (options_.stream && !running_.empty())) return {};
    int free_gpus = 0;
    for (bool b : busy_) free_gpus += b ? 0 : 1;
    std::vector<std::size_t> chosen;
    if (options_.replay_plan) {
      // The plan's start order, no overtaking.
      for (std::size_t i = 0; i < queue_.size() && queue_[i].gpus <= free_gpus; ++i) {
        chosen.push_back(i);
        free_gpus -= queue_[i].gpus;
      }
    } else {
      std::vector<RunningJob> now_running;
      for (const auto& [id, a] : running_) now_running.push_back({a->gpus, a->start + a->estimate});
      chosen = jobs_to_start(queue_, free_gpus, now_running, since_start(), options_.serial, plan_.reserve);
    }
    if (options_.stream && chosen.size() > 1) chosen.resize(1);
    return chosen;
  }

  void start_ready() {
    const auto chosen = picks();
    for (auto pos : chosen) start(queue_[pos]);
    for (auto it = chosen.rbegin(); it != chosen.rend(); ++it) queue_.erase(queue_.begin() + static_cast<long>(*it));
    if (!chosen.empty()) notify();
  }

  // The smoke's working directory: its cwd (relative to options.workdir), else the workdir.
  std::filesystem::path working_dir(const Smoke& smoke) const {
    if (smoke.cwd.empty()) return options_.workdir;
    const std::filesystem::path cwd(smoke.cwd);
    return cwd.is_absolute() ? cwd : options_.workdir / cwd;
  }

  ProcessSpec spec_for(const Smoke& smoke, const std::vector<int>& devices) const {
    ProcessSpec spec;
    spec.argv = smoke.command;
    spec.env_set = smoke.env;
    spec.env_set["GATEKIT_SMOKE_NAME"] = smoke.name;
    spec.env_unset.assign(step_file_variables().begin(), step_file_variables().end());
    // Serial runs see every device the runner sees, as the smokes would without gatekit.
    if (!options_.serial) {
      for (auto& [k, v] : child_visibility_env(context_.env, options_.gpus, devices)) spec.env_set[k] = v;
    }
    spec.timeout = smoke.timeout;
    spec.kill_grace = smoke.kill_grace;
    spec.merge_stderr = true;
    spec.capture_limit = 0;  // the worker keeps its own bounded copy
    spec.cwd = working_dir(smoke);
    return spec;
  }

  std::vector<int> take_devices(int gpus) {
    std::vector<int> devices;
    if (options_.serial) {
      for (int d = 0; d < options_.gpus; ++d) devices.push_back(d);
    } else {
      devices = choose_devices(busy_, gpus);
    }
    for (int d : devices) busy_[static_cast<std::size_t>(d)] = true;
    return devices;
  }

  void start(const Job& job) {
    const Smoke& smoke = manifest_.smokes[job.id];
    auto active = std::make_unique<Active>();
    active->id = job.id;
    active->gpus = job.gpus;
    active->estimate = job.estimate;
    active->output = OutputBuffer(options_.keep_head, options_.keep_tail);
    active->devices = take_devices(job.gpus);
    active->start = since_start();
    SmokeResult& r = results_[job.id];
    r.devices = active->devices;
    r.start = active->start;
    r.reason = "running";

    context_.workflow.log("RUN  " + smoke.name + ": " + display_command(smoke.command) + gpu_label(active->devices));
    if (options_.stream) {
      context_.workflow.begin_group(smoke.name + " output");
      context_.workflow.pause_commands();  // a smoke's `::...::` lines are text, not commands
      streaming_ = job.id;
    }
    launch(*active, spec_for(smoke, active->devices), smoke.cwd);
    running_[job.id] = std::move(active);
  }

  // Runs the process on a worker thread that posts its output (when streamed) and its end.
  // Not the core's ChildLog (gatekit/test_run.hpp, docs/architecture.md "Child output"): a
  // smoke's output is shown as it wrote it (partial lines, a leading `::`) under the
  // workflow's stop-commands, which ChildLog's inert lines would rewrite; and it is kept as a
  // head and a tail for the reports (OutputBuffer), streamed up to live_limit, then its tail.
  void launch(Active& active, ProcessSpec spec, const std::string& cwd_field) {
    const auto cwd = spec.cwd.empty() ? Result<FileStatus>(FileStatus{}) : context_.files.stat(spec.cwd);
    if (!spec.cwd.empty() && (!cwd || !cwd->is_directory())) {
      active.result = Result<ProcessResult>(could_not_evaluate("working directory '" + spec.cwd.string() +
                                                               "' does not exist (cwd: " + cwd_field + ")"));
      events_.push({active.id, true, {}});
      return;
    }
    Active* raw = &active;
    const bool stream = options_.stream;
    const std::size_t live_limit = options_.live_limit;
    EventQueue& events = events_;
    spec.on_output = [raw, &events, stream, live_limit](OutputStream, std::string_view chunk) {
      raw->output.append(chunk);
      if (!stream || raw->streamed >= live_limit) return;
      const auto take = std::min(chunk.size(), live_limit - raw->streamed);
      raw->streamed += take;
      events.push({raw->id, false, std::string(chunk.substr(0, take))});
    };
    ProcessRunner& runner = context_.processes;
    raw->worker = std::thread([&runner, raw, spec = std::move(spec), &events] {
      raw->result = runner.run(spec);
      events.push({raw->id, true, {}});
    });
  }

  void handle_events() {
    for (auto& e : events_.wait(std::chrono::milliseconds(50))) {
      if (!e.done) {
        if (streaming_ == e.id) {
          context_.out << e.chunk;
          line_open_ = !e.chunk.empty() && e.chunk.back() != '\n';
        }
        continue;
      }
      finish(e.id);
      notify();
    }
    context_.out.flush();
  }

  void finish(std::size_t id) {
    auto node = running_.extract(id);
    Active& active = *node.mapped();
    if (active.worker.joinable()) active.worker.join();
    for (int d : active.devices) busy_[static_cast<std::size_t>(d)] = false;
    const Smoke& smoke = manifest_.smokes[id];
    SmokeResult& r = results_[id];
    r.output_bytes = active.output.total();
    r.output = active.output.text();
    record(smoke, active, r);
    if (streaming_ == id) {
      close_stream(active, r);
    } else {
      print_output(smoke, r);
    }
    log_end(smoke, r);
    if (is_failure(r.status) && options_.fail_fast && stop_reason_.empty()) {
      stop_reason_ = "not started: --fail-fast after " + smoke.name + " failed";
    }
  }

  void record(const Smoke& smoke, const Active& active, SmokeResult& r) {
    const auto& result = *active.result;
    if (!result.ok()) {
      r.status = Status::error;
      r.reason = result.error().message;
      r.duration = since_start() - active.start;
      return;
    }
    const auto& p = result.value();
    if (p.leftovers_killed) {
      context_.workflow.annotate({Severity::warning,
                                  smoke.name + " left processes behind that kept its output open; they were killed "
                                  "with its process group (a smoke must wait for what it starts)",
                                  "smoke-runner", "", 0, 0});
    }
    r.exit_code = p.exit_code;
    r.signal = p.signal;
    r.duration = p.duration;
    auto outcome = classify(p, smoke.timeout, termination_signal());
    r.status = outcome.status;
    r.reason = std::move(outcome.reason);
  }

  // The end of a streamed group: what the live limit held back, as a tail.
  void close_stream(const Active& active, const SmokeResult& r) {
    std::ostream& out = context_.out;
    if (line_open_) out << '\n';
    line_open_ = false;
    if (active.streamed < active.output.total()) {
      out << "[smoke-runner: live output stopped after " << format_bytes(active.streamed) << " of "
          << format_bytes(active.output.total()) << "; the last 64 KiB follow]\n"
          << active.output.last(64u << 10);
      if (!r.output.empty() && r.output.back() != '\n') out << '\n';
    }
    out.flush();
    context_.workflow.resume_commands();
    context_.workflow.end_group();
    streaming_.reset();
  }

  // A buffered smoke's output, as one group.
  void print_output(const Smoke& smoke, const SmokeResult& r) {
    context_.workflow.begin_group(smoke.name + " output");
    context_.workflow.pause_commands();
    context_.out << r.output;
    if (!r.output.empty() && r.output.back() != '\n') context_.out << '\n';
    context_.out.flush();
    context_.workflow.resume_commands();
    context_.workflow.end_group();
  }

  void log_end(const Smoke& smoke, const SmokeResult& r) {
    const std::string took = " (" + format_duration(r.duration) + ")";
    switch (r.status) {
      case Status::passed: context_.workflow.log("PASS " + smoke.name + took); break;
      case Status::cancelled: context_.workflow.log("CANCELLED " + smoke.name + ": " + r.reason + took); break;
      case Status::error: context_.workflow.log("ERROR " + smoke.name + ": " + r.reason); break;
      default: context_.workflow.log("FAIL " + smoke.name + ": " + r.reason + took); break;
    }
  }

  void mark_not_run() {
    for (const auto& job : queue_) {
      results_[job.id].status = Status::not_run;
      results_[job.id].reason = stop_reason_.empty() ? "not started" : stop_reason_;
    }
    for (const auto& job : queue_) {
      context_.workflow.log("NOT RUN " + manifest_.smokes[job.id].name + ": " + results_[job.id].reason);
    }
  }

  Context& context_;
  const Manifest& manifest_;
  const Plan& plan_;
  const ExecOptions& options_;
  const OnChange& on_change_;

  std::vector<SmokeResult> results_;
  std::vector<Job> queue_;  // not started yet, in start order
  std::vector<bool> busy_;  // per device
  std::map<std::size_t, std::unique_ptr<Active>> running_;
  EventQueue events_;
  const milliseconds t0_;  // the clock's monotonic reading at the start
  std::string stop_reason_;  // set once nothing new may start
  std::optional<std::size_t> streaming_;  // the smoke whose log group is open
  bool line_open_ = false;  // streamed output did not end with a newline
  bool dirty_ = false;      // results changed since the last on_change
  milliseconds last_notified_{0};
};

}  // namespace

Outcome classify(const ProcessResult& result, milliseconds timeout, int termination_signal) {
  if (result.succeeded()) return {Status::passed, ""};
  if (result.timed_out) return {Status::timed_out, result.describe(timeout)};
  if (termination_signal != 0) {
    return {Status::cancelled, result.describe() + " after the runner received " + signal_name(termination_signal)};
  }
  return {Status::failed, result.describe()};
}

std::vector<SmokeResult> Executor::run(const Manifest& manifest, const std::vector<Decision>& decisions,
                                       const Plan& plan, const ExecOptions& options,
                                       const std::function<void(const std::vector<SmokeResult>&)>& on_change) {
  Execution execution(context_, manifest, plan, options, on_change);
  return execution.run(decisions);
}

}  // namespace gatekit::smoke_runner
