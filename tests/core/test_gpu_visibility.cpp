#include <optional>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/gpu.hpp"

using namespace gatekit;
using V = std::vector<std::string>;

TEST_CASE("CUDA_VISIBLE_DEVICES rules: unset all, empty none, invalid index truncates") {
  struct Case {
    std::optional<std::string> value;
    int available;
    V expected;
  };
  const Case cases[] = {
      {std::nullopt, 3, {"0", "1", "2"}},
      {"", 4, {}},
      {"1,0", 4, {"1", "0"}},
      {" 2 , 3 ", 4, {"2", "3"}},
      {"0,7,1", 4, {"0"}},          // 7 does not exist: the list ends there
      {"-1", 4, {}},                // the usual way to hide every device
      {"1,-1,2", 4, {"1"}},
      {"0,0,1", 4, {"0"}},          // a repeat ends the list
      {"0,,1", 4, {"0"}},           // so does an empty entry
      {"GPU-8f6a,1", 4, {"GPU-8f6a", "1"}},  // UUIDs are taken as valid
      {"MIG-4d2c", 4, {"MIG-4d2c"}},
      {"x,1", 4, {}},
      {"0,1,2,3", 2, {"0", "1"}},
      {"0", 0, {}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.value.value_or("<unset>"), c.available);
    CHECK(visible_entries(c.value, c.available) == c.expected);
  }
}

TEST_CASE("visible count: CUDA rule, or the ROCm chain when a ROCm variable is set") {
  MapEnvironment env;
  CHECK(visible_gpu_count(8, env) == 8);
  env.set("CUDA_VISIBLE_DEVICES", "4,5");
  CHECK(visible_gpu_count(8, env) == 2);
  env.set("CUDA_VISIBLE_DEVICES", "");
  CHECK(visible_gpu_count(8, env) == 0);
  env.unset("CUDA_VISIBLE_DEVICES");
  env.set("ROCR_VISIBLE_DEVICES", "0,1,2");
  CHECK(visible_gpu_count(8, env) == 3);
  env.set("HIP_VISIBLE_DEVICES", "2,3");  // indexes into what ROCR left: 3 is out of range
  CHECK(visible_gpu_count(8, env) == 1);
  env.unset("HIP_VISIBLE_DEVICES");
  env.set("CUDA_VISIBLE_DEVICES", "0,1");  // HIP reads CUDA_VISIBLE_DEVICES when HIP_ is unset
  CHECK(visible_gpu_count(8, env) == 2);
}

TEST_CASE("child device variables are composed with the runner's own") {
  MapEnvironment env;
  auto plain = child_visibility_env(env, 4, {2, 3});
  CHECK(plain.at("CUDA_VISIBLE_DEVICES") == "2,3");
  CHECK(plain.at("HIP_VISIBLE_DEVICES") == "2,3");
  env.set("CUDA_VISIBLE_DEVICES", "4,5,6,7");
  auto narrowed = child_visibility_env(env, 4, {2});
  CHECK(narrowed.at("CUDA_VISIBLE_DEVICES") == "6");
  CHECK(narrowed.at("HIP_VISIBLE_DEVICES") == "6");
  env.set("HIP_VISIBLE_DEVICES", "1,0");
  auto hip = child_visibility_env(env, 2, {0});
  CHECK(hip.at("HIP_VISIBLE_DEVICES") == "1");
  CHECK(hip.at("CUDA_VISIBLE_DEVICES") == "4");
  env.unset("HIP_VISIBLE_DEVICES");
  env.set("CUDA_VISIBLE_DEVICES", "GPU-aa,GPU-bb");
  CHECK(child_visibility_env(env, 2, {1}).at("CUDA_VISIBLE_DEVICES") == "GPU-bb");
}

TEST_CASE("an explicit GPU count is narrowed by the visibility variables") {
  MapEnvironment env;
  env.set("CUDA_VISIBLE_DEVICES", "0,1,9");
  auto inv = override_inventory(4, env);
  CHECK(inv.count == 2);
  CHECK(inv.backend == "override");
  CHECK(inv.visibility.at("CUDA_VISIBLE_DEVICES") == "0,1,9");
  CHECK(inv.describe() == "2 GPUs (--gpus override, CUDA_VISIBLE_DEVICES=0,1,9)");
}

TEST_CASE("driver versions are decoded") {
  CHECK(format_cuda_version(12040) == "12.4");
  CHECK(format_cuda_version(11080) == "11.8");
  CHECK(format_hip_version(60241133) == "6.2.41133");
  CHECK(format_cuda_version(0).empty());
}
