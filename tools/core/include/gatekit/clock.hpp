#pragma once
// Time behind an interface: retries, backoff and timeouts are tested without real sleeps.
// Two clocks: now() is the wall clock (what a record, an issue or a report stores, as
// epoch_seconds()); monotonic() measures durations and deadlines, and never goes back when
// the wall clock is set. Only this header and src/frame/clock.cpp read the standard clocks or
// time_since_epoch: tests/core/test_clock_calls.py names the file and line of any other.
#include <chrono>
#include <cstdint>

namespace gatekit {

class Clock {
 public:
  using duration = std::chrono::milliseconds;
  using time_point = std::chrono::time_point<std::chrono::system_clock, duration>;
  virtual ~Clock() = default;
  // The wall clock (UTC).
  virtual time_point now() const = 0;
  virtual void sleep_for(duration d) = 0;
  // Time since a fixed, unspecified instant, never set back (std::chrono::steady_clock in
  // SystemClock): durations and deadlines are measured with it, so a change of the wall clock
  // cannot stretch or shrink them. Comparable only with another reading of the same clock.
  virtual duration monotonic() const = 0;
  // Now as whole seconds since the Unix epoch (UTC).
  std::int64_t epoch_seconds() const;
};

// Whole seconds since the Unix epoch of a wall-clock instant, and of 00:00 UTC of a date (a
// timestamp read from a record or an API answer).
std::int64_t epoch_seconds_of(Clock::time_point t);
std::int64_t epoch_seconds_of(std::chrono::year_month_day date);

class SystemClock final : public Clock {
 public:
  time_point now() const override;
  void sleep_for(duration d) override;
  duration monotonic() const override;
};

// Starts at a fixed instant; sleep_for and advance move both clocks at once and sleep_for
// records the total; set_wall_clock moves the wall clock alone, as a person or NTP setting
// the time would. The monotonic clock starts at its own, unrelated origin, so code that mixes
// the two clocks shows in tests.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(time_point start = time_point(duration(1'700'000'000'000))) : now_(start) {}
  time_point now() const override { return now_; }
  duration monotonic() const override { return monotonic_; }
  void sleep_for(duration d) override {
    now_ += d;
    monotonic_ += d;
    slept_ += d;
  }
  void advance(duration d) {
    now_ += d;
    monotonic_ += d;
  }
  void set_wall_clock(time_point t) { now_ = t; }
  duration total_slept() const { return slept_; }

 private:
  time_point now_;
  duration monotonic_{3'600'000};
  duration slept_{0};
};

}  // namespace gatekit
