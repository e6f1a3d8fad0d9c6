// GPU discovery through the vendor runtimes, loaded with dlopen (see gpu.hpp).
#include <dlfcn.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <utility>

#include "gatekit/clock.hpp"
#include "gatekit/json.hpp"
#include "gatekit/gpu.hpp"
#include "gatekit/metal.hpp"
#include "gatekit/platform.hpp"
#include "gatekit/process.hpp"
#include "gatekit/termination.hpp"
#include "gatekit/text.hpp"
#include "gatekit/utf8.hpp"

namespace gatekit {

namespace {

// The C entry points, declared by hand: enums and device handles are ints in both ABIs.
using IntOut = int (*)(int*);
using InitFn = int (*)(unsigned int);
using DeviceGetFn = int (*)(int*, int);
using DeviceNameFn = int (*)(char*, int, int);

constexpr int kNoDevice = 100;  // CUDA_ERROR_NO_DEVICE and hipErrorNoDevice

// nullptr for a name the backend does not have (nullptr) or the library lacks.
template <class Fn>
Fn symbol(void* handle, const char* name) {
  return name == nullptr ? nullptr : reinterpret_cast<Fn>(::dlsym(handle, name));
}

// The runtime stays loaded: unloading a GPU runtime mid-process is not safe for all of them.
void* open_first(const std::vector<std::string>& candidates, std::string& used, std::string& error) {
  for (const auto& name : candidates) {
    if (void* handle = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      used = name;
      return handle;
    }
    const char* why = ::dlerror();
    error = why != nullptr ? why : ("cannot load " + name);
  }
  if (candidates.empty()) error = "disabled";
  return nullptr;
}

std::vector<std::string> candidates_from(const Environment& env, std::string_view variable,
                                         std::vector<std::string> defaults) {
  if (auto v = env.get_nonempty(variable)) {
    if (*v == "none") return {};
    return {*v};
  }
  return defaults;
}

// The count entry point, once init (when the backend has one) and count are both there;
// nullopt with p.error naming the missing ones ("cuInit/cuDeviceGetCount not found in ...").
std::optional<IntOut> found_symbols(void* handle, const GpuRuntimeCalls& calls, GpuBackendProbe& p) {
  auto count = symbol<IntOut>(handle, calls.count);
  const bool init_missing = calls.init != nullptr && symbol<InitFn>(handle, calls.init) == nullptr;
  if (count != nullptr && !init_missing) return count;
  p.error = (calls.init != nullptr ? std::string(calls.init) + "/" : std::string()) + calls.count +
            " not found in " + p.library;
  return std::nullopt;
}

// The device count: init (when there is one) with 0, then count. "No device" (kNoDevice) from
// the first of them is 0 devices; any other failure sets `error`.
std::optional<int> device_count(void* handle, const GpuRuntimeCalls& calls, IntOut count, std::string& error) {
  if (calls.init != nullptr) {
    const int rc = symbol<InitFn>(handle, calls.init)(0);
    if (rc == kNoDevice) return 0;
    if (rc != 0) {
      error = std::string(calls.init) + " failed with error " + std::to_string(rc);
      return std::nullopt;
    }
  }
  int n = 0;
  const int rc = count(&n);
  if (rc == kNoDevice && calls.init == nullptr) return 0;
  if (rc != 0) {
    error = std::string(calls.count) + " failed with error " + std::to_string(rc);
    return std::nullopt;
  }
  return n;
}

// A version entry point's answer as the backend shows it; "" when it has none or it fails.
std::string version_text(void* handle, const char* name, std::string (*text)(int)) {
  int version = 0;
  auto get = symbol<IntOut>(handle, name);
  if (get == nullptr || text == nullptr || get(&version) != 0) return {};
  return text(version);
}

std::string device_name(DeviceNameFn fn, int device) {
  std::array<char, 256> buffer{};
  if (fn == nullptr || fn(buffer.data(), static_cast<int>(buffer.size()) - 1, device) != 0) return {};
  return std::string(buffer.data());
}

void fill_devices(GpuBackendProbe& probe, DeviceGetFn get, DeviceNameFn name) {
  for (int i = 0; i < probe.count; ++i) {
    int device = i;
    if (get != nullptr && get(&device, i) != 0) device = i;
    auto text = device_name(name, device);
    probe.devices.push_back({i, text.empty() ? "GPU " + std::to_string(i) : text});
  }
}

boost::json::object to_json(const GpuBackendProbe& p) {
  boost::json::array devices;
  for (const auto& d : p.devices) devices.push_back(boost::json::object{{"index", d.index}, {"name", d.name}});
  return {{"backend", p.backend}, {"library", p.library}, {"loaded", p.loaded}, {"count", p.count},
          {"devices", devices}, {"driver_version", p.driver_version},
          {"runtime_version", p.runtime_version}, {"error", p.error}};
}

GpuBackendProbe probe_from_json(const boost::json::object& o) {
  GpuBackendProbe p;
  p.backend = json_string_at(o, "backend").value_or("");
  p.library = json_string_at(o, "library").value_or("");
  if (const auto* v = json_find(o, "loaded"); v != nullptr && v->is_bool()) p.loaded = v->get_bool();
  p.count = static_cast<int>(json_int_at(o, "count").value_or(0));
  if (const auto* v = json_find(o, "devices"); v != nullptr && v->is_array()) {
    for (const auto& d : v->get_array()) {
      if (!d.is_object()) continue;
      p.devices.push_back({static_cast<int>(json_int_at(d.get_object(), "index").value_or(0)),
                           json_string_at(d.get_object(), "name").value_or("")});
    }
  }
  p.driver_version = json_string_at(o, "driver_version").value_or("");
  p.runtime_version = json_string_at(o, "runtime_version").value_or("");
  p.error = json_string_at(o, "error").value_or("");
  return p;
}

GpuInventory merge(std::vector<GpuBackendProbe> probes, const Environment& env) {
  GpuInventory inv;
  inv.backend = std::string(kGpuNone);
  inv.visibility = visibility_variables(env);
  const GpuBackendProbe* best = nullptr;
  for (const auto& p : probes) {
    if (p.count > 0 && (best == nullptr || p.count > best->count)) best = &p;
  }
  if (best != nullptr) {
    inv.count = best->count;
    inv.backend = best->backend;
    inv.devices = best->devices;
    inv.driver_version = best->driver_version;
    inv.runtime_version = best->runtime_version;
  }
  inv.probes = std::move(probes);
  return inv;
}

}  // namespace

std::vector<std::string> library_candidates(const GpuBackend& backend, const Environment& env) {
  if (backend.discovery != GpuDiscovery::runtime || backend.library_names == nullptr) return {};
  return candidates_from(env, backend.library_variable, backend.library_names(platform::host_os()));
}

GpuBackendProbe probe_runtime(const GpuBackend& backend, const std::vector<std::string>& candidates) {
  const GpuRuntimeCalls& calls = backend.calls;
  GpuBackendProbe p;
  p.backend = std::string(backend.name);
  void* handle = open_first(candidates, p.library, p.error);
  if (handle == nullptr) return p;
  p.loaded = true;
  auto count = found_symbols(handle, calls, p);
  if (!count) return p;
  auto n = device_count(handle, calls, *count, p.error);
  if (!n) return p;
  p.count = *n;
  p.driver_version = version_text(handle, calls.driver_version, calls.driver_text);
  p.runtime_version = version_text(handle, calls.runtime_version, calls.runtime_text);
  fill_devices(p, symbol<DeviceGetFn>(handle, calls.device_get), symbol<DeviceNameFn>(handle, calls.device_name));
  return p;
}

namespace {

enum class ProbeEnd { finished, timed_out, cancelled };

// Waits until `pid` has exited, without reaping it (WNOWAIT): while it is a zombie its
// process group id cannot be reused, so ending the group afterwards cannot hit a stranger.
bool wait_exited(pid_t pid, std::chrono::milliseconds limit) {
  const auto deadline = SystemClock().monotonic() + limit;
  for (;;) {
    siginfo_t info{};
    const int rc = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT | WNOHANG);
    if (rc == 0 && info.si_pid == pid) return true;
    if (rc < 0 && errno != EINTR) return false;
    if (SystemClock().monotonic() >= deadline) return false;
    ::usleep(5000);
  }
}

// Each runtime backend (table order) with the libraries to try for it.
using RuntimeCandidates = std::vector<std::pair<const GpuBackend*, std::vector<std::string>>>;

[[noreturn]] void run_probe(pid_t parent, int fd, const RuntimeCandidates& runtimes) {
  // The caller's termination handlers would keep the probe alive on SIGINT/SIGTERM; the probe
  // acts on them as any program does. It leads a process group of its own (the caller ends
  // the whole group, helpers a runtime may start included) and dies with the caller should
  // that be killed outright.
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
  ::setpgid(0, 0);
  platform::die_with_parent(parent);
  boost::json::array probes;
  for (const auto& [backend, candidates] : runtimes) probes.push_back(to_json(probe_runtime(*backend, candidates)));
  // Device names come from the runtime: whatever bytes they hold, the parent must be able
  // to parse the result.
  const std::string text = to_valid_utf8(boost::json::serialize(probes));
  std::size_t off = 0;
  while (off < text.size()) {
    auto n = ::write(fd, text.data() + off, text.size() - off);
    if (n <= 0) break;
    off += static_cast<std::size_t>(n);
  }
  ::_exit(0);
}

}  // namespace

// The probe runs in a forked child: the runtimes are then never initialised in the caller
// (no driver threads, no device files held open while smokes run) and a wedged driver costs
// a timeout instead of the job. A termination signal (termination.hpp) ends the probe at
// once. Call it before starting threads.
Result<GpuInventory> detect_gpus(const Environment& env, std::chrono::milliseconds timeout) {
  RuntimeCandidates runtimes;
  for (const auto& backend : gpu_backends()) {
    if (backend.discovery == GpuDiscovery::runtime) runtimes.emplace_back(&backend, library_candidates(backend, env));
  }
  int fds[2];
  if (::pipe(fds) != 0) return could_not_evaluate(std::string("GPU probe: pipe failed: ") + std::strerror(errno));
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return could_not_evaluate(std::string("GPU probe: fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fds[0]);
    run_probe(parent, fds[1], runtimes);
  }
  ::close(fds[1]);
  ::setpgid(pid, pid);  // in both processes, so that neither order of the two calls matters
  // A signal received from here on is forwarded to the probe's group at once.
  const ScopedProcessGroup forwarded(pid);
  std::string text;
  const auto deadline = SystemClock().monotonic() + timeout;
  ProbeEnd end = ProbeEnd::finished;
  for (;;) {
    if (termination_signal() != 0) {
      end = ProbeEnd::cancelled;
      break;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SystemClock().monotonic());
    if (left.count() <= 0) {
      end = ProbeEnd::timed_out;
      break;
    }
    // A signal interrupts poll (EINTR); the short slice covers one that lands just before it.
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 100)));
    if (ready <= 0) continue;
    char buffer[4096];
    auto n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  // A wedged driver may ignore SIGTERM: SIGKILL, to the whole group.
  if (end != ProbeEnd::finished) ::killpg(pid, SIGKILL);
  const bool exited = wait_exited(pid, end == ProbeEnd::finished ? timeout : std::chrono::milliseconds(1000));
  if (exited) ::killpg(pid, SIGKILL);  // what the probe left behind in its group
  int status = 0;
  // A probe stuck in the kernel (uninterruptible) cannot be reaped: it is not waited for.
  if (exited) {
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  }
  if (end == ProbeEnd::cancelled)
    return could_not_evaluate("GPU probe stopped: the runner received " + signal_name(termination_signal()));
  if (end == ProbeEnd::timed_out || !exited)
    return could_not_evaluate("GPU probe did not finish within " + format_duration(timeout) + " (a wedged GPU driver?)");
  if (WIFSIGNALED(status))
    return could_not_evaluate("GPU probe crashed inside the GPU runtime (signal " + std::to_string(WTERMSIG(status)) + ")");
  boost::system::error_code ec;
  auto parsed = boost::json::parse(text, ec);
  if (ec || !parsed.is_array()) return could_not_evaluate("GPU probe returned no result");
  std::vector<GpuBackendProbe> probes;
  for (const auto& item : parsed.get_array()) {
    if (item.is_object()) probes.push_back(probe_from_json(item.get_object()));
  }
  return merge(std::move(probes), env);
}

Result<GpuInventory> SystemGpuProbe::detect(const Environment& env) {
  return detect_host_gpus(platform::host_os(), env, processes_);
}

}  // namespace gatekit
