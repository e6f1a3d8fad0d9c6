#pragma once
// The device facts a record holds, from the core's GPU discovery (gatekit/gpu.hpp) and, on a
// Mac, Metal's and MLX's facts (gatekit/metal.hpp).
#include <optional>
#include <string>

#include "config.hpp"
#include "gatekit/context.hpp"
#include "gatekit/gpu.hpp"
#include "gatekit/metal.hpp"
#include "record/record.hpp"

namespace gatekit::gpu_gate {

// Pure: names, versions and visibility variables made record values (clean_fact), at most
// 64 GPU names; a backend a record cannot name (is_recorded_gpu_backend) is recorded as
// none. With MLX's facts the runtime reads "Metal 3; MLX 0.29.1 applegpu_g13s".
DeviceFacts device_facts_of(const GpuInventory& inventory, const std::optional<MlxFacts>& mlx = std::nullopt);

// Pure: the interpreter of the test command (its argv[0] when that is a python), else nullopt.
std::optional<std::string> test_interpreter(const Config& config);

// MLX's own device facts when the devices are a backend's that MLX runs on (GpuBackend::mlx:
// Metal's): the test interpreter asked through context.processes (read_mlx_facts). MLX not
// installed, no python test command, or an interpreter that fails: nullopt, with a log line
// saying why (the facts describe the run; they never decide it).
std::optional<MlxFacts> mlx_facts_for(const GpuInventory& inventory, const Config& config, Context& context);

// The devices through the host's GPU discovery (detect_host_gpus: Metal on macOS, HIP/CUDA
// elsewhere) plus MLX's facts; none visible is a could_not_evaluate Failure unless
// allow_no_gpu (a gate result must come from a GPU machine).
DeviceFacts probe_device_facts(Context& context, const Config& config, bool allow_no_gpu);

}  // namespace gatekit::gpu_gate
