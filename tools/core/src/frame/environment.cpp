#include "gatekit/environment.hpp"

#include <array>
#include <cstdlib>

#include <unistd.h>

#include "gatekit/platform.hpp"

namespace gatekit {

std::optional<std::string> SystemEnvironment::get(std::string_view name) const {
  const char* value = std::getenv(std::string(name).c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

std::string SystemEnvironment::host_name() const {
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) != 0) return "";
  return host.data();
}

int SystemEnvironment::cpu_count() const { return platform::usable_cpus(); }

}  // namespace gatekit
