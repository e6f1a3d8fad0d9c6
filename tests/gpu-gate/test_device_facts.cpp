// The device facts a record holds (run/device_facts.hpp): from an inventory, with MLX's facts
// on a Mac, and MLX asked of the test interpreter through the process seam.
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "run/device_facts.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

namespace {

GpuInventory metal_m1() {
  GpuInventory inventory;
  inventory.backend = "metal";
  inventory.count = 1;
  inventory.devices = {{0, "Apple M1 Max (32-core GPU)"}};
  inventory.driver_version = "macOS 15.1 (24B83)";
  inventory.runtime_version = "Metal 3";
  return inventory;
}

Config python_config(std::string python) {
  Config config = default_config();
  config.command = {std::move(python), "-m", "pytest", "{paths}"};
  return config;
}

ProcessResult printed(std::string out) {
  ProcessResult r;
  r.exit_code = 0;
  r.out_bytes = out.size();
  r.out = std::move(out);
  return r;
}

}  // namespace

TEST_CASE("device facts: Metal's inventory, with and without MLX's facts") {
  const auto plain = device_facts_of(metal_m1());
  CHECK(plain.backend == "metal");
  CHECK(plain.count == 1);
  CHECK(plain.gpus == std::vector<std::string>{"Apple M1 Max (32-core GPU)"});
  CHECK(plain.driver_version == "macOS 15.1 (24B83)");
  CHECK(plain.runtime_version == "Metal 3");

  MlxFacts mlx;
  mlx.info = {{"architecture", "applegpu_g13s"}, {"memory_size", "68719476736"}, {"mlx_version", "0.29.1"}};
  CHECK(device_facts_of(metal_m1(), mlx).runtime_version == "Metal 3; MLX 0.29.1 applegpu_g13s");
  mlx.info = {{"architecture", std::string(100, 'a')}, {"mlx_version", "0.29.1"}};
  CHECK(device_facts_of(metal_m1(), mlx).runtime_version.size() == 64);  // a record value's bound

  GpuInventory other = metal_m1();
  other.backend = "vulkan";
  CHECK(device_facts_of(other).backend == "none");
}

TEST_CASE("device facts: the test interpreter is the test command's python") {
  CHECK(test_interpreter(python_config("python")) == "python");
  CHECK(test_interpreter(python_config("/opt/venv/bin/python3.12")) == "/opt/venv/bin/python3.12");
  CHECK_FALSE(test_interpreter(python_config("uv")));
  Config empty = default_config();
  empty.command.clear();
  CHECK_FALSE(test_interpreter(empty));
}

TEST_CASE("device facts: MLX is asked only for Metal devices, and its absence is no error") {
  FakeSeams seams;
  seams.processes = FakeProcessRunner([](const ProcessSpec&) -> Result<ProcessResult> {
    return printed("{\"architecture\": \"applegpu_g13s\", \"mlx_version\": \"0.29.1\"}\n");
  });
  auto context = seams.context();
  const auto facts = mlx_facts_for(metal_m1(), python_config("/opt/venv/bin/python"), context);
  REQUIRE(facts);
  CHECK(facts->info.at("architecture") == "applegpu_g13s");
  REQUIRE(seams.processes.calls.size() == 1);
  CHECK(seams.processes.calls[0].argv.at(0) == "/opt/venv/bin/python");
  CHECK(seams.workflow.lines.back() == "MLX device facts: architecture=applegpu_g13s, mlx_version=0.29.1");

  GpuInventory cuda;
  cuda.backend = "cuda";
  cuda.count = 1;
  CHECK_FALSE(mlx_facts_for(cuda, python_config("python"), context));
  CHECK(seams.processes.calls.size() == 1);  // not asked

  CHECK_FALSE(mlx_facts_for(metal_m1(), python_config("uv"), context));
  CHECK(seams.workflow.lines.back() == "MLX device facts: not asked (the test command does not start with a python)");

  seams.processes = FakeProcessRunner([](const ProcessSpec&) -> Result<ProcessResult> { return printed("null\n"); });
  CHECK_FALSE(mlx_facts_for(metal_m1(), python_config("python3"), context));
  CHECK(seams.workflow.lines.back() == "MLX device facts: MLX is not installed for python3");

  seams.processes = FakeProcessRunner([](const ProcessSpec&) -> Result<ProcessResult> { return printed("[]"); });
  CHECK_FALSE(mlx_facts_for(metal_m1(), python_config("python3"), context));
  CHECK(seams.workflow.lines.back() ==
        "MLX device facts left out: MLX device_info: expected a JSON object, got an array");
}
