// libFuzzer target for the core's git syntax helpers: revisions, C-style quoted paths and
// `git diff --name-status -z` output (fuzz/git_refs_property.hpp).
//   scripts/fuzz.sh git_refs 60
#include "entry.hpp"
#include "git_refs_property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gatekit::fuzzing::run_property(data, size, 4096, "git syntax", gatekit::fuzzing::git_refs_property_violation);
}
