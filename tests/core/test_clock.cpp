// The Clock seam (gatekit/clock.hpp): the wall clock as epoch seconds, and the monotonic clock
// that durations and deadlines are measured on; FakeClock moves them as the system would.
#include <chrono>
#include <cstdint>

#include "catch.hpp"
#include "gatekit/clock.hpp"

using namespace gatekit;
using namespace std::chrono_literals;

TEST_CASE("clock: now as whole epoch seconds, rounded down") {
  FakeClock clock(FakeClock::time_point(1'700'000'000'999ms));
  CHECK(clock.epoch_seconds() == 1'700'000'000);
  clock.advance(1ms);
  CHECK(clock.epoch_seconds() == 1'700'000'001);
  CHECK(epoch_seconds_of(FakeClock::time_point(0ms)) == 0);
  CHECK(epoch_seconds_of(FakeClock::time_point(86'400'500ms)) == 86'400);
}

TEST_CASE("clock: the epoch seconds of a date are those of its midnight, UTC") {
  using namespace std::chrono;
  CHECK(epoch_seconds_of(year_month_day{year{1970}, January, day{1}}) == 0);
  CHECK(epoch_seconds_of(year_month_day{year{2000}, March, day{1}}) == 951'868'800);
  CHECK(epoch_seconds_of(year_month_day{year{2038}, January, day{20}}) == 2'147'558'400);  // past 32 bits
  CHECK(epoch_seconds_of(year_month_day{year{1969}, December, day{31}}) == -86'400);
}

TEST_CASE("clock: the fake's sleep and advance move both clocks; setting the wall clock moves it alone") {
  FakeClock clock;
  const auto wall = clock.now();
  const auto mono = clock.monotonic();
  clock.sleep_for(3s);
  clock.advance(2s);
  CHECK(clock.now() - wall == 5s);
  CHECK(clock.monotonic() - mono == 5s);
  CHECK(clock.total_slept() == 3s);

  clock.set_wall_clock(wall - 1h);  // the time set back, as NTP or a person would
  CHECK(clock.now() == wall - 1h);
  CHECK(clock.monotonic() - mono == 5s);
  clock.advance(1s);
  CHECK(clock.monotonic() - mono == 6s);
}

TEST_CASE("clock: the fake's monotonic clock has an origin of its own, so mixing the clocks shows") {
  FakeClock clock;
  CHECK(clock.monotonic() != clock.now().time_since_epoch());
}

TEST_CASE("clock: the system's monotonic clock never goes back, and its wall clock is near the epoch's now") {
  SystemClock clock;
  auto last = clock.monotonic();
  for (int i = 0; i < 1000; ++i) {
    const auto next = clock.monotonic();
    CHECK(next >= last);
    last = next;
  }
  const auto before = clock.monotonic();
  clock.sleep_for(20ms);
  CHECK(clock.monotonic() - before >= 20ms);
  CHECK(clock.epoch_seconds() > 1'700'000'000);  // after November 2023
}
