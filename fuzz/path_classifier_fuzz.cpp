// libFuzzer target for the glob compiler and matcher (fuzz/path_classifier_property.hpp).
//   cmake -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DGATEKIT_FUZZ=ON -DBUILD_TESTING=OFF
//   cmake --build build/fuzz --target fuzz_path_classifier
//   build/fuzz/fuzz/fuzz_path_classifier fuzz/corpus/path_classifier -max_total_time=60
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "path_classifier_property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;  // long inputs only slow the search down
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto violation = gatekit::fuzzing::path_classifier_property_violation(input);
  if (!violation.empty()) {
    std::fprintf(stderr, "path-classifier property violated: %s\n", violation.c_str());
    std::abort();
  }
  return 0;
}
