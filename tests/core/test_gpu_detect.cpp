// GPU discovery (core gpu_detect.cpp) through dlopen, against the stub runtimes in
// tests/smoke-runner/stub/ (no GPU needed).
#include <signal.h>

#include <cstdlib>
#include <fstream>
#include <thread>

#include "catch.hpp"
#include "gatekit/gpu.hpp"
#include "gatekit/gpu_backends.hpp"
#include "gatekit/process.hpp"
#include "gatekit/termination.hpp"
#include "temp_dir.hpp"

using namespace gatekit;
using namespace std::chrono_literals;

namespace {
// The stubs read their device counts from the real environment of the probing process.
struct ScopedEnv {
  std::string name;
  ScopedEnv(std::string n, const std::string& value) : name(std::move(n)) { ::setenv(name.c_str(), value.c_str(), 1); }
  ~ScopedEnv() { ::unsetenv(name.c_str()); }
};

// Alive and not a zombie (a killed process may wait a moment for its reaper).
bool running(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}

bool gone(int pid) {
  for (int i = 0; i < 200 && running(pid); ++i) std::this_thread::sleep_for(10ms);
  return !running(pid);
}

const GpuBackend& backend(std::string_view name) {
  const GpuBackend* found = find_gpu_backend(name);
  REQUIRE(found != nullptr);
  return *found;
}

MapEnvironment stub_env(bool cuda, bool hip) {
  MapEnvironment env;
  env.set("GATEKIT_CUDA_LIBRARY", cuda ? GATEKIT_FAKE_cuda_LIBRARY : "none");
  env.set("GATEKIT_HIP_LIBRARY", hip ? GATEKIT_FAKE_hip_LIBRARY : "none");
  return env;
}
}  // namespace

TEST_CASE("the CUDA driver stub is found through GATEKIT_CUDA_LIBRARY and counted") {
  ScopedEnv devices("FAKE_CUDA_DEVICES", "3");
  auto inv = detect_gpus(stub_env(true, false));
  REQUIRE(inv.ok());
  CHECK(inv->count == 3);
  CHECK(inv->backend == "cuda");
  REQUIRE(inv->devices.size() == 3);
  CHECK(inv->devices[2].name == "Fake CUDA GPU 2");
  CHECK(inv->driver_version == "12.4");
  CHECK(inv->describe() == "3 GPUs (cuda: Fake CUDA GPU 0, Fake CUDA GPU 1, Fake CUDA GPU 2, driver 12.4)");
}

TEST_CASE("no device: CUDA_ERROR_NO_DEVICE is a count of 0, not an error") {
  ScopedEnv devices("FAKE_CUDA_DEVICES", "0");
  auto inv = detect_gpus(stub_env(true, false));
  REQUIRE(inv.ok());
  CHECK(inv->count == 0);
  CHECK(inv->backend == "none");
  REQUIRE(inv->probes.size() == 2);
  CHECK(inv->probes[1].loaded);
  CHECK(inv->probes[1].error.empty());
}

TEST_CASE("a failing cuInit is recorded and counts as no GPU") {
  ScopedEnv devices("FAKE_CUDA_DEVICES", "2");
  ScopedEnv error("FAKE_CUDA_INIT_ERROR", "999");
  auto inv = detect_gpus(stub_env(true, false));
  REQUIRE(inv.ok());
  CHECK(inv->count == 0);
  CHECK(inv->probes[1].error == "cuInit failed with error 999");
}

TEST_CASE("the HIP stub: names and the decoded runtime version; HIP wins a tie") {
  ScopedEnv hip("FAKE_HIP_DEVICES", "2");
  ScopedEnv cuda("FAKE_CUDA_DEVICES", "2");
  auto inv = detect_gpus(stub_env(true, true));
  REQUIRE(inv.ok());
  CHECK(inv->count == 2);
  CHECK(inv->backend == "hip");
  CHECK(inv->devices[1].name == "Fake Instinct 1");
  CHECK(inv->runtime_version == "6.2.41133");
}

TEST_CASE("missing libraries are no GPU, with the loader's reason kept") {
  MapEnvironment env;
  env.set("GATEKIT_CUDA_LIBRARY", "/nonexistent/libcuda.so.1");
  env.set("GATEKIT_HIP_LIBRARY", "none");
  auto inv = detect_gpus(env);
  REQUIRE(inv.ok());
  CHECK(inv->count == 0);
  CHECK_FALSE(inv->probes[1].loaded);
  CHECK(inv->probes[1].error.find("/nonexistent/libcuda.so.1") != std::string::npos);
  CHECK(inv->probes[0].error == "disabled");
}

TEST_CASE("a wedged driver costs the probe timeout, not the job") {
  gatekit::testing::TempDir tmp;
  ScopedEnv devices("FAKE_CUDA_DEVICES", "1");
  ScopedEnv hang("FAKE_CUDA_HANG", "1");
  ScopedEnv pid_file("FAKE_CUDA_PID_FILE", (tmp / "pids").string());
  const auto start = std::chrono::steady_clock::now();
  auto inv = detect_gpus(stub_env(true, false), 300ms);
  REQUIRE_FALSE(inv.ok());
  CHECK(inv.error().message == "GPU probe did not finish within 300ms (a wedged GPU driver?)");
  CHECK(std::chrono::steady_clock::now() - start < 5s);
  // The probe ignored SIGTERM, as did the helper it started: both are gone all the same.
  int probe = 0, helper = 0;
  std::ifstream(tmp / "pids") >> probe >> helper;
  REQUIRE(probe > 0);
  CHECK(gone(probe));
  CHECK(gone(helper));
}

TEST_CASE("a termination signal ends a hung probe at once, with what it started") {
  reset_termination_for_testing();
  gatekit::testing::TempDir tmp;
  ScopedEnv devices("FAKE_CUDA_DEVICES", "1");
  ScopedEnv hang("FAKE_CUDA_HANG", "1");
  ScopedEnv pid_file("FAKE_CUDA_PID_FILE", (tmp / "pids").string());
  std::thread cancel([&] {
    for (int i = 0; i < 1000 && !std::filesystem::exists(tmp / "pids"); ++i) std::this_thread::sleep_for(10ms);
    request_termination(SIGINT);
  });
  const auto start = std::chrono::steady_clock::now();
  auto inv = detect_gpus(stub_env(true, false), 120s);
  const auto took = std::chrono::steady_clock::now() - start;
  cancel.join();
  reset_termination_for_testing();
  REQUIRE_FALSE(inv.ok());
  CHECK(inv.error().message == "GPU probe stopped: the runner received SIGINT");
  CHECK(took < 10s);
  int probe = 0, helper = 0;
  std::ifstream(tmp / "pids") >> probe >> helper;
  REQUIRE(probe > 0);
  CHECK(gone(probe));
  CHECK(gone(helper));
}

TEST_CASE("device names that are not UTF-8 still make a readable inventory") {
  ScopedEnv devices("FAKE_CUDA_DEVICES", "1");
  ScopedEnv name("FAKE_CUDA_NAME", "Bad\xff\xfe GPU");
  auto inv = detect_gpus(stub_env(true, false));
  REQUIRE(inv.ok());
  REQUIRE(inv->devices.size() == 1);
  CHECK(inv->devices[0].name == "Bad\xEF\xBF\xBD\xEF\xBF\xBD GPU");
}

TEST_CASE("default library names, overrides and 'none'") {
  MapEnvironment env;
  CHECK(library_candidates(backend("cuda"), env).front() == "libcuda.so.1");
  CHECK(library_candidates(backend("hip"), env).front() == "libamdhip64.so");
  CHECK(library_candidates(backend("metal"), env).empty());  // found by system_profiler, not dlopen
  env.set("GATEKIT_CUDA_LIBRARY", "/opt/x/libcuda.so");
  CHECK(library_candidates(backend("cuda"), env) == std::vector<std::string>{"/opt/x/libcuda.so"});
  env.set("GATEKIT_HIP_LIBRARY", "none");
  CHECK(library_candidates(backend("hip"), env).empty());
}

TEST_CASE("a backend is one entry: a vendor the table does not hold, probed through its entry points") {
  // An entry written here, over the CUDA stub's library: the probe knows no vendor but by its entry.
  ScopedEnv devices("FAKE_CUDA_DEVICES", "2");
  GpuBackend vendor = backend("cuda");
  vendor.name = "vendor";
  vendor.calls.driver_version = nullptr;
  auto probe = probe_runtime(vendor, {GATEKIT_FAKE_cuda_LIBRARY});
  CHECK(probe.backend == "vendor");
  CHECK(probe.loaded);
  CHECK(probe.error.empty());
  CHECK(probe.count == 2);
  CHECK(probe.driver_version.empty());
  REQUIRE(probe.devices.size() == 2);
  CHECK(probe.devices[1].name == "Fake CUDA GPU 1");

  // Without a name call, devices are numbered; without the count call, the probe says which.
  vendor.calls.device_name = nullptr;
  CHECK(probe_runtime(vendor, {GATEKIT_FAKE_cuda_LIBRARY}).devices[0].name == "GPU 0");
  vendor.calls.count = "vendorGetDeviceCount";
  CHECK(probe_runtime(vendor, {GATEKIT_FAKE_cuda_LIBRARY}).error ==
        std::string("cuInit/vendorGetDeviceCount not found in ") + GATEKIT_FAKE_cuda_LIBRARY);
  vendor.calls.init = nullptr;
  CHECK(probe_runtime(vendor, {GATEKIT_FAKE_cuda_LIBRARY}).error ==
        std::string("vendorGetDeviceCount not found in ") + GATEKIT_FAKE_cuda_LIBRARY);
}

TEST_CASE("no device: the first call that can say so decides (init, else count)") {
  // The CUDA stub's cuInit answers CUDA_ERROR_NO_DEVICE (100) with no devices. Without an init
  // call, the count call is the first: the HIP stub's hipGetDeviceCount answers 100 too.
  ScopedEnv cuda("FAKE_CUDA_DEVICES", "0");
  ScopedEnv hip("FAKE_HIP_DEVICES", "0");
  const auto from_init = probe_runtime(backend("cuda"), {GATEKIT_FAKE_cuda_LIBRARY});
  CHECK(from_init.error.empty());
  CHECK(from_init.count == 0);
  const auto from_count = probe_runtime(backend("hip"), {GATEKIT_FAKE_hip_LIBRARY});
  CHECK(from_count.error.empty());
  CHECK(from_count.count == 0);
}

TEST_CASE("the GPU probe seam: the system probe is detect_gpus, the fake answers what a test gives") {
  ScopedEnv devices("FAKE_CUDA_DEVICES", "2");
  SystemProcessRunner processes;
  SystemGpuProbe system(processes);
  auto found = system.detect(stub_env(true, false));
  REQUIRE(found.ok());
  CHECK(found->describe() == "2 GPUs (cuda: Fake CUDA GPU 0, Fake CUDA GPU 1, driver 12.4)");

  FakeGpuProbe none;
  MapEnvironment env{{"CUDA_VISIBLE_DEVICES", "1"}};
  CHECK(none.detect(env)->count == 0);
  FakeGpuProbe fake({"NVIDIA H100", "NVIDIA H100"});
  auto given = fake.detect(env);
  REQUIRE(given.ok());
  CHECK(given->count == 2);
  CHECK(given->describe() == "2 GPUs (fake: NVIDIA H100 x2, driver fake, CUDA_VISIBLE_DEVICES=1)");
  CHECK(fake.calls == 1);
  fake.answer = could_not_evaluate("probe timed out");
  CHECK(fake.detect(env).error().message == "probe timed out");
}
