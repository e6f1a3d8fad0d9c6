// libFuzzer target for the core's glob compiler and matcher (fuzz/glob_property.hpp).
//   cmake -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DGATEKIT_FUZZ=ON -DBUILD_TESTING=OFF
//   cmake --build build/fuzz --target fuzz_glob
//   build/fuzz/fuzz/fuzz_glob fuzz/corpus/glob -max_total_time=60
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "glob_property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;  // long inputs only slow the search down
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto violation = gatekit::fuzzing::glob_property_violation(input);
  if (!violation.empty()) {
    std::fprintf(stderr, "glob property violated: %s\n", violation.c_str());
    std::abort();
  }
  return 0;
}
