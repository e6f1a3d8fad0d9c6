#pragma once
// Tests of a CPU leg that were skipped for want of a device: a GPU test without its marker
// lands in the CPU leg and skips there silently. Pure: the report's skipped cases in, the
// tests to mark out.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/junit_reader.hpp"
#include "selection.hpp"

namespace gatekit::suite_report {

// The first device-skip whose reason occurs (ignoring ASCII case) in the message or the
// detail of a skip; xfails are never device skips.
std::optional<DeviceSkip> match_device_skip(const std::vector<DeviceSkip>& skips, const junit::TestCase& test);

struct UnmarkedTest {
  std::string id;
  std::string file;
  int line = 0;        // 1-based where the report says (pytest xunit1), else 0
  std::string reason;  // the skip message
  std::string marker;  // the marker to add
};

}  // namespace gatekit::suite_report
