#pragma once
// Boost.JSON for the files that read or write JSON, and nothing else: include this header,
// never <boost/json.hpp>, and only where JSON is used (it is heavy). Boost.JSON changed
// try_as_* and if_contains across 1.81..1.83; these helpers are the small, stable subset
// gatekit uses on Debian 12 (Boost 1.81) and Ubuntu 24.04/26.04.
#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gatekit {

inline const boost::json::value* json_find(const boost::json::object& object, std::string_view key) {
  auto it = object.find(key);
  return it == object.end() ? nullptr : &it->value();
}

// What a value is, for messages: "null", "a boolean", "a number", "a string", "an array",
// "an object".
inline const char* json_kind_name(const boost::json::value& v) {
  switch (v.kind()) {
    case boost::json::kind::null: return "null";
    case boost::json::kind::bool_: return "a boolean";
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
    case boost::json::kind::double_: return "a number";
    case boost::json::kind::string: return "a string";
    case boost::json::kind::array: return "an array";
    case boost::json::kind::object: return "an object";
  }
  return "a value";
}

inline std::optional<std::string> json_string_at(const boost::json::object& object, std::string_view key) {
  const auto* v = json_find(object, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

inline std::optional<std::int64_t> json_int_at(const boost::json::object& object, std::string_view key) {
  const auto* v = json_find(object, key);
  if (v == nullptr) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64()) return static_cast<std::int64_t>(v->get_uint64());
  return std::nullopt;
}

}  // namespace gatekit
