// A string as Boost.JSON writes it, without building a json::value when nothing needs escaping.
#include <algorithm>

#include "gatekit/json.hpp"
#include "gatekit/text.hpp"

namespace gatekit {

void append_json_string(std::string& out, std::string_view text) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x20 && c != '"' && c != '\\';
  });
  if (!plain) {
    out += boost::json::serialize(boost::json::string_view(text.data(), text.size()));
    return;
  }
  out.reserve(out.size() + text.size() + 2);
  out += '"';
  out.append(text);
  out += '"';
}

}  // namespace gatekit
