#include "gatekit/clock.hpp"

#include <thread>

namespace gatekit {

Clock::time_point SystemClock::now() const {
  return std::chrono::time_point_cast<duration>(std::chrono::system_clock::now());
}

Clock::duration SystemClock::monotonic() const {
  return std::chrono::duration_cast<duration>(std::chrono::steady_clock::now().time_since_epoch());
}

void SystemClock::sleep_for(duration d) { std::this_thread::sleep_for(d); }

}  // namespace gatekit
