// libFuzzer target for matrix-aggregator's needs reader (fuzz/needs_property.hpp).
//   cmake -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DGATEKIT_FUZZ=ON -DBUILD_TESTING=OFF
//   cmake --build build/fuzz --target fuzz_matrix_aggregator_needs
//   build/fuzz/fuzz/fuzz_matrix_aggregator_needs fuzz/corpus/needs -max_total_time=60
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "needs_property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto violation = gatekit::fuzzing::needs_property_violation(input);
  if (!violation.empty()) {
    std::fprintf(stderr, "needs property violated: %s\n", violation.c_str());
    std::abort();
  }
  return 0;
}
