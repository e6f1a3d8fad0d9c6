#include "gatekit/environment.hpp"

#include <cstdlib>

namespace gatekit {

std::optional<std::string> SystemEnvironment::get(std::string_view name) const {
  const char* value = std::getenv(std::string(name).c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

}  // namespace gatekit
