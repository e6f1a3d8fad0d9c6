// libFuzzer target for smoke-runner's manifest loader (fuzz/smoke_manifest_property.hpp).
//   cmake -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DGATEKIT_FUZZ=ON -DBUILD_TESTING=OFF
//   cmake --build build/fuzz --target fuzz_smoke_manifest
//   build/fuzz/fuzz/fuzz_smoke_manifest fuzz/corpus/smoke-manifest -max_total_time=60
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "smoke_manifest_property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto violation = gatekit::fuzzing::smoke_manifest_property_violation(input);
  if (!violation.empty()) {
    std::fprintf(stderr, "smoke manifest property violated: %s\n", violation.c_str());
    std::abort();
  }
  return 0;
}
