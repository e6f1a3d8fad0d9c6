#pragma once
// The test map: which files each test executed, from the coverage of `run --full`'s GPU pass;
// `gpu-gate affected` reads it. One JSON file (where: test_map_place.hpp), documented in
// docs/gpu-gate.md:
//   {"format": "gatekit-test-map", "version": 1,
//    "created": 1764583200,                      // seconds since the epoch, UTC
//    "commit": "<the tested commit>",
//    "files": ["src/pkg/gpu.py", ...],           // every file coverage measured
//    "tests": {"tests/test_a.py::test_x": [0, 3], ...}}  // indices into "files"
// The file may come from anyone who can commit: the reader is strict (known keys, types,
// indices in range, bounded size) and every error names the file and the field.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/clock.hpp"
#include "gatekit/files.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gpu_gate {

inline constexpr std::string_view kTestMapFormat = "gatekit-test-map";
inline constexpr int kTestMapVersion = 1;
inline constexpr std::size_t kMaxTestMapBytes = std::size_t{256} << 20;
// Older than this, `affected` warns: code and tests have moved on since it was written.
inline constexpr std::chrono::hours kTestMapMaxAge{24 * 28};

struct TestMap {
  std::int64_t created = 0;  // seconds since the epoch
  std::string commit;
  std::vector<std::string> files;  // sorted, unique
  std::map<std::string, std::vector<std::size_t>> tests;  // node id -> indices into files

  // Adds (or extends) a test's files, keeping `files` sorted and unique.
  static TestMap from(std::int64_t created, std::string commit,
                      const std::map<std::string, std::vector<std::string>>& files_by_test);
};

std::string format_test_map(const TestMap& map);
Result<TestMap> parse_test_map(std::string_view json, const std::string& origin);
// A missing file is could_not_evaluate ("cannot read PATH: ..."); callers check exists().
Result<TestMap> read_test_map(const Files& files, const std::filesystem::path& path);

// Age in whole days at `now`, and whether it is past kTestMapMaxAge.
std::int64_t age_in_days(const TestMap& map, Clock::time_point now);
bool is_stale(const TestMap& map, Clock::time_point now);

}  // namespace gatekit::gpu_gate
