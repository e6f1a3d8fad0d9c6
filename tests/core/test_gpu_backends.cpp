// The GPU backend table (gatekit/gpu_backends.hpp) and what is read from it: the values a
// record's gpu-backend takes, the visibility variables, the no-GPU advice. That no other file
// names a backend is tests/core/test_gpu_backends.py's part.
#include <set>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/gpu.hpp"
#include "gatekit/gpu_backends.hpp"

using namespace gatekit;

TEST_CASE("backend table: one entry per name, each complete for the way its devices are found") {
  std::set<std::string_view> names;
  for (const auto& backend : gpu_backends()) {
    INFO(backend.name);
    CHECK(names.insert(backend.name).second);
    CHECK_FALSE(find_gpu_backend(backend.name) == nullptr);
    CHECK(backend.name != kGpuOverride);
    CHECK(backend.name != kGpuNone);
    CHECK(backend.name != kGpuFake);
    if (backend.discovery == GpuDiscovery::runtime) {
      CHECK_FALSE(backend.library_variable.empty());
      CHECK(backend.library_names != nullptr);
      CHECK(backend.calls.count != nullptr);
      CHECK((backend.calls.driver_version == nullptr) == (backend.calls.driver_text == nullptr));
      CHECK((backend.calls.runtime_version == nullptr) == (backend.calls.runtime_text == nullptr));
    }
    // A variable a runtime falls back on or applies first is of no use without its own.
    if (backend.visibility.empty()) {
      CHECK(backend.visibility_fallback.empty());
      CHECK(backend.visibility_outer.empty());
    }
  }
  CHECK(find_gpu_backend(kGpuOverride) == nullptr);
  CHECK(find_gpu_backend("") == nullptr);
  // The probe order decides a tie: HIP before CUDA.
  REQUIRE(gpu_backends().size() == 3);
  CHECK(gpu_backends()[0].name == "hip");
  CHECK(gpu_backends()[1].name == "cuda");
  CHECK(gpu_backends()[2].discovery == GpuDiscovery::system_profiler);
}

TEST_CASE("backend table: what a record's gpu-backend may say") {
  const std::vector<std::pair<std::string, bool>> cases{
      {"cuda", true}, {"hip", true},   {"metal", true}, {"override", true}, {"none", true},
      {"fake", false}, {"vulkan", false}, {"CUDA", false}, {"", false},     {"cuda ", false},
  };
  for (const auto& [name, recorded] : cases) {
    INFO(name);
    CHECK(is_recorded_gpu_backend(name) == recorded);
  }
  CHECK(recorded_gpu_backends_text() == "cuda, hip, metal, override or none");
}

TEST_CASE("backend table: the visibility variables, outer before own, in table order") {
  CHECK(gpu_visibility_variables() ==
        std::vector<std::string>{"ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"});
  // Reports show those and the variables that order or pick devices, set ones only.
  const MapEnvironment env{{"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}, {"GPU_DEVICE_ORDINAL", "1"},
                           {"ROCR_VISIBLE_DEVICES", "0,1"}, {"PATH", "/bin"}};
  CHECK(visibility_variables(env) == std::map<std::string, std::string>{
                                         {"CUDA_DEVICE_ORDER", "PCI_BUS_ID"},
                                         {"GPU_DEVICE_ORDINAL", "1"},
                                         {"ROCR_VISIBLE_DEVICES", "0,1"}});
  // A child is handed every backend's own variable, never an outer one.
  const auto child = child_visibility_env(env, 2, {1});
  CHECK(child == std::map<std::string, std::string>{{"CUDA_VISIBLE_DEVICES", "1"}, {"HIP_VISIBLE_DEVICES", "1"}});
}

TEST_CASE("backend table: the container advice of every backend that has one") {
  CHECK(gpu_passthrough_advice() ==
        "a ROCm container needs --device /dev/kfd --device /dev/dri (and the video/render groups), "
        "an NVIDIA container needs the NVIDIA container runtime (--gpus all)");
}
