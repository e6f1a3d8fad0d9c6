#include "gatekit/clock.hpp"

#include <thread>

namespace gatekit {

std::int64_t Clock::epoch_seconds() const { return epoch_seconds_of(now()); }

std::int64_t epoch_seconds_of(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

std::int64_t epoch_seconds_of(std::chrono::year_month_day date) {
  return std::int64_t{std::chrono::sys_days(date).time_since_epoch().count()} * 86400;
}

Clock::time_point SystemClock::now() const {
  return std::chrono::time_point_cast<duration>(std::chrono::system_clock::now());
}

Clock::duration SystemClock::monotonic() const {
  return std::chrono::duration_cast<duration>(std::chrono::steady_clock::now().time_since_epoch());
}

void SystemClock::sleep_for(duration d) { std::this_thread::sleep_for(d); }

}  // namespace gatekit
