#pragma once
// Fakes for the executor's concurrency: smokes run on worker threads, so a clock they move
// and a runner several of them call at once must be thread-safe. (gatekit::FakeClock and
// gatekit::FakeProcessRunner are not: use them where one smoke runs at a time and the
// handler leaves the clock alone, or through SharedFakeClock.)
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "gatekit/clock.hpp"
#include "gatekit/process.hpp"

namespace gatekit::smoke_runner::testing {

// A FakeClock behind a lock: workers advance it while the executor reads it.
class SharedFakeClock final : public Clock {
 public:
  time_point now() const override {
    std::lock_guard lock(mutex_);
    return fake_.now();
  }
  duration monotonic() const override {
    std::lock_guard lock(mutex_);
    return fake_.monotonic();
  }
  void sleep_for(duration d) override {
    std::lock_guard lock(mutex_);
    fake_.sleep_for(d);
  }
  void advance(duration d) {
    std::lock_guard lock(mutex_);
    fake_.advance(d);
  }

 private:
  mutable std::mutex mutex_;
  FakeClock fake_;
};

// Smokes that run until the test releases them by name (GATEKIT_SMOKE_NAME), so a test
// decides which one ends when, and the executor's reaction is deterministic.
class GatedRunner final : public ProcessRunner {
 public:
  Result<ProcessResult> run(const ProcessSpec& spec) override {
    std::unique_lock lock(mutex_);
    const std::string name = spec.env_set.at("GATEKIT_SMOKE_NAME");
    started_.push_back(name);
    specs_.push_back(spec);
    changed_.notify_all();
    changed_.wait(lock, [&] { return released_.count(name) > 0 || release_all_; });
    ProcessResult result;
    result.exit_code = 0;
    if (auto it = released_.find(name); it != released_.end()) result.duration = it->second;
    return result;
  }

  // True once `count` smokes have started; false after 10 s of real time (a hang fails the
  // test instead of blocking it).
  bool wait_started(std::size_t count) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return started_.size() >= count; });
  }
  // Ends the smoke `name`, exit 0 after `took`.
  void release(const std::string& name, std::chrono::milliseconds took) {
    std::lock_guard lock(mutex_);
    released_[name] = took;
    changed_.notify_all();
  }
  // Ends every smoke, now and later (a failing test must not leave workers blocked).
  void release_all() {
    std::lock_guard lock(mutex_);
    release_all_ = true;
    changed_.notify_all();
  }
  std::vector<std::string> started() const {
    std::lock_guard lock(mutex_);
    return started_;
  }
  std::vector<ProcessSpec> specs() const {
    std::lock_guard lock(mutex_);
    return specs_;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> started_;
  std::vector<ProcessSpec> specs_;
  std::map<std::string, std::chrono::milliseconds> released_;
  bool release_all_ = false;
};

}  // namespace gatekit::smoke_runner::testing
