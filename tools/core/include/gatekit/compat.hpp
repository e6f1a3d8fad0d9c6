#pragma once
// The one place where differences between the supported library versions are absorbed:
// Debian 12 (Boost 1.81, yaml-cpp 0.7) and Ubuntu 24.04 (Boost 1.83, yaml-cpp 0.8).
// Code includes these libraries through this header, never directly.

// Boost.Process v1 uses Boost.Filesystem unless told to use std::filesystem (1.77+).
#ifndef BOOST_PROCESS_USE_STD_FS
#define BOOST_PROCESS_USE_STD_FS 1
#endif

#include <boost/json.hpp>
#include <boost/version.hpp>
#include <yaml-cpp/eventhandler.h>  // the event pass of config.cpp (not in yaml.h)
#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>

namespace gatekit::compat {

// Boost.JSON gained try_as_* and if_contains changes across 1.81..1.83; these helpers are
// the small, stable subset gatekit uses.
inline const boost::json::value* find(const boost::json::object& object, std::string_view key) {
  auto it = object.find(key);
  return it == object.end() ? nullptr : &it->value();
}

inline std::optional<std::string> string_at(const boost::json::object& object, std::string_view key) {
  const auto* v = find(object, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

inline std::optional<std::int64_t> int_at(const boost::json::object& object, std::string_view key) {
  const auto* v = find(object, key);
  if (v == nullptr) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64()) return static_cast<std::int64_t>(v->get_uint64());
  return std::nullopt;
}

// yaml-cpp 0.7 and 0.8 agree on Mark; both count lines and columns from 0.
struct YamlPosition {
  int line = 0;    // 1-based; 0 when unknown
  int column = 0;  // 1-based; 0 when unknown
};
inline YamlPosition position_of(const YAML::Mark& mark) {
  if (mark.is_null()) return {};
  return {mark.line + 1, mark.column + 1};
}

}  // namespace gatekit::compat
