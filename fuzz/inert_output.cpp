// libFuzzer target for "nothing gatekit prints from outside data starts a workflow command"
// (fuzz/inert_property.hpp): arbitrary bytes through every Workflow sink, read back the way
// the GitHub Actions runner reads them (fuzz/runner_commands.hpp).
//   cmake --preset fuzz && cmake --build --preset fuzz --target fuzz_inert_output
//   build/fuzz/fuzz/fuzz_inert_output -max_total_time=60 fuzz/corpus/inert
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "inert_property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gatekit::fuzzing::InertScratch scratch;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto violation = gatekit::fuzzing::inert_property_violation(input, scratch);
  if (!violation.empty()) {
    std::fprintf(stderr, "inert output property violated: %s\n", violation.c_str());
    std::abort();
  }
  return 0;
}
