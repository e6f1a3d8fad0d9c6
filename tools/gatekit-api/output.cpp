#include <cstdio>

#include "gatekit-api.hpp"
#include "gatekit/utf8.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::api {
namespace {

void append_escape(std::string& out, char32_t unit) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(unit));
  out += buffer;
}

// The code point as JSON \u escapes (a surrogate pair above U+FFFF).
void append_code_point(std::string& out, char32_t cp) {
  if (cp < 0x10000) return append_escape(out, cp);
  cp -= 0x10000;
  append_escape(out, 0xD800 + (cp >> 10));
  append_escape(out, 0xDC00 + (cp & 0x3FF));
}

}  // namespace

std::string inert_json(const boost::json::value& value) {
  std::string text = boost::json::serialize(value);
  if (inert_line(text) == text) return text;
  // Only string contents can hold what the runner would read (a `##[`, a line separator, a
  // character it ignores between the marks): escape them there, so the value is unchanged.
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  bool in_string = false;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (!in_string || c == '"') {
      in_string = in_string ? false : c == '"';
      out += text[i++];
    } else if (c == '\\') {
      out.append(text, i, 2);  // an escape the serializer wrote: \" \\ \n \u00XX ...
      i += 2;
    } else if (c == '[') {
      out += "\\u005b";
      ++i;
    } else if (c < 0x80) {
      out += text[i++];
    } else {
      const auto ch = decode_utf8(text, i);
      append_code_point(out, ch.valid ? ch.code_point : 0xFFFD);
      i += ch.length;
    }
  }
  return out;
}

}  // namespace gatekit::api
