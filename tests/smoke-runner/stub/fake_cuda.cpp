// A stand-in for libcuda.so.1 exporting the driver entry points gatekit's GPU discovery
// uses, so the dlopen path is tested without a GPU. Driven by environment variables:
//   FAKE_CUDA_DEVICES     device count (default 0; CUDA_ERROR_NO_DEVICE from cuInit when 0)
//   FAKE_CUDA_INIT_ERROR  a non-zero CUresult for cuInit to return
//   FAKE_CUDA_HANG        cuInit sleeps forever (a wedged driver)
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atoi(v) : fallback;
}
}  // namespace

extern "C" {

__attribute__((visibility("default"))) int cuInit(unsigned int) {
  if (std::getenv("FAKE_CUDA_HANG") != nullptr) {
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
  std::snprintf(name, static_cast<std::size_t>(len), "Fake CUDA GPU %d", device);
  return 0;
}

__attribute__((visibility("default"))) int cuDriverGetVersion(int* version) {
  *version = 12040;
  return 0;
}
}
