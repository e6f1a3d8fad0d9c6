// A stand-in for libamdhip64.so (see fake_cuda.cpp). FAKE_HIP_DEVICES sets the count.
#include <cstdio>
#include <cstdlib>

namespace {
int devices() {
  const char* v = std::getenv("FAKE_HIP_DEVICES");
  return v != nullptr && *v != '\0' ? std::atoi(v) : 0;
}
}  // namespace

extern "C" {

__attribute__((visibility("default"))) int hipGetDeviceCount(int* count) {
  *count = devices();
  return *count > 0 ? 0 : 100;  // hipErrorNoDevice
}

__attribute__((visibility("default"))) int hipDeviceGet(int* device, int ordinal) {
  *device = ordinal;
  return 0;
}

__attribute__((visibility("default"))) int hipDeviceGetName(char* name, int len, int device) {
  std::snprintf(name, static_cast<std::size_t>(len), "Fake Instinct %d", device);
  return 0;
}

__attribute__((visibility("default"))) int hipDriverGetVersion(int* version) {
  *version = 60241133;
  return 0;
}

__attribute__((visibility("default"))) int hipRuntimeGetVersion(int* version) {
  *version = 60241133;
  return 0;
}
}
