#pragma once
// Time behind an interface: retries, backoff and timeouts are tested without real sleeps.
#include <chrono>

namespace gatekit {

class Clock {
 public:
  using duration = std::chrono::milliseconds;
  using time_point = std::chrono::time_point<std::chrono::system_clock, duration>;
  virtual ~Clock() = default;
  virtual time_point now() const = 0;
  virtual void sleep_for(duration d) = 0;
  // Time since a fixed, unspecified instant, never set back (std::chrono::steady_clock in
  // SystemClock): durations are measured with it, so a change of the wall clock cannot
  // stretch or shrink them. A fake moves it together with now().
  virtual duration monotonic() const { return now().time_since_epoch(); }
};

class SystemClock final : public Clock {
 public:
  time_point now() const override;
  void sleep_for(duration d) override;
  duration monotonic() const override;
};

// Starts at a fixed instant; sleep_for advances time instantly and records the total.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(time_point start = time_point(duration(1'700'000'000'000))) : now_(start) {}
  time_point now() const override { return now_; }
  void sleep_for(duration d) override { now_ += d; slept_ += d; }
  void advance(duration d) { now_ += d; }
  duration total_slept() const { return slept_; }

 private:
  time_point now_;
  duration slept_{0};
};

}  // namespace gatekit
