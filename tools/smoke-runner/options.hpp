#pragma once
// The strict reading of counts on the command line (cli.cpp's --gpus validator).
#include <string_view>

#include "gatekit/result.hpp"

namespace gatekit::smoke_runner {

inline constexpr int kMaxGpuCount = 1024;  // --gpus, as min_gpus in the manifest

// A count on the command line (--gpus): decimal digits only, 0..max. "0x2", "1e1", " 3",
// "+3" and "3.0" are refused rather than read as some other number.
gatekit::Result<int> parse_count(std::string_view text, int max);

}  // namespace gatekit::smoke_runner
