#pragma once
// yaml-cpp for the files that read YAML trees, and nothing else: include this header, never
// <yaml-cpp/yaml.h>, and only where YAML is used. yaml-cpp 0.7 (Debian 12) and 0.8 agree on
// what is used here.
#include <yaml-cpp/yaml.h>

namespace gatekit::yaml {

// yaml-cpp counts lines and columns from 0; gatekit's messages count from 1.
struct Position {
  int line = 0;    // 1-based; 0 when unknown
  int column = 0;  // 1-based; 0 when unknown
};
inline Position position_of(const YAML::Mark& mark) {
  if (mark.is_null()) return {};
  return {mark.line + 1, mark.column + 1};
}

}  // namespace gatekit::yaml
