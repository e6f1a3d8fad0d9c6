// A stand-in for libcuda.so.1 exporting the driver entry points gatekit's GPU discovery
// uses, so the dlopen path is tested without a GPU. Driven by environment variables:
//   FAKE_CUDA_DEVICES     device count (default 0; CUDA_ERROR_NO_DEVICE from cuInit when 0)
//   FAKE_CUDA_INIT_ERROR  a non-zero CUresult for cuInit to return
//   FAKE_CUDA_HANG        cuInit never returns and ignores SIGINT and SIGTERM (a wedged
//                         driver); it first starts a helper process that does the same
//   FAKE_CUDA_PID_FILE    with FAKE_CUDA_HANG: where cuInit writes "<its pid> <helper pid>"
//   FAKE_CUDA_NAME        the name of every device, as raw bytes (default "Fake CUDA GPU N")
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atoi(v) : fallback;
}
}  // namespace

extern "C" {

__attribute__((visibility("default"))) int cuInit(unsigned int) {
  if (std::getenv("FAKE_CUDA_HANG") != nullptr) {
    ::signal(SIGINT, SIG_IGN);
    ::signal(SIGTERM, SIG_IGN);
    const pid_t helper = ::fork();  // inherits the ignored signals and the process group
    if (helper == 0) {
      for (;;) ::pause();
    }
    if (const char* path = std::getenv("FAKE_CUDA_PID_FILE")) {
      const std::string tmp = std::string(path) + ".tmp";
      if (FILE* f = std::fopen(tmp.c_str(), "w")) {
        std::fprintf(f, "%d %d\n", static_cast<int>(::getpid()), static_cast<int>(helper));
        std::fclose(f);
        std::rename(tmp.c_str(), path);
      }
    }
    for (;;) ::pause();
  }
  if (int e = env_int("FAKE_CUDA_INIT_ERROR", 0); e != 0) return e;
  return env_int("FAKE_CUDA_DEVICES", 0) > 0 ? 0 : 100;
}

__attribute__((visibility("default"))) int cuDeviceGetCount(int* count) {
  *count = env_int("FAKE_CUDA_DEVICES", 0);
  return 0;
}

__attribute__((visibility("default"))) int cuDeviceGet(int* device, int ordinal) {
  if (ordinal < 0 || ordinal >= env_int("FAKE_CUDA_DEVICES", 0)) return 101;  // CUDA_ERROR_INVALID_DEVICE
  *device = ordinal;
  return 0;
}

__attribute__((visibility("default"))) int cuDeviceGetName(char* name, int len, int device) {
  if (const char* fixed = std::getenv("FAKE_CUDA_NAME")) {
    std::snprintf(name, static_cast<std::size_t>(len), "%s", fixed);
    return 0;
  }
  std::snprintf(name, static_cast<std::size_t>(len), "Fake CUDA GPU %d", device);
  return 0;
}

__attribute__((visibility("default"))) int cuDriverGetVersion(int* version) {
  *version = 12040;
  return 0;
}
}
