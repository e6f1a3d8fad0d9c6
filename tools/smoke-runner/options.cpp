#include "options.hpp"

#include <charconv>

#include "gatekit/text.hpp"

namespace gatekit::smoke_runner {

gatekit::Result<int> parse_count(std::string_view text, int max) {
  int value = 0;
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
  const auto [end, ec] = digits ? std::from_chars(text.data(), text.data() + text.size(), value)
                                : std::from_chars_result{text.data(), std::errc::invalid_argument};
  if (!digits || ec != std::errc() || end != text.data() + text.size() || value > max) {
    return gatekit::bad_input("expected a whole number from 0 to " + std::to_string(max) +
                                   " in decimal digits, got '" + gatekit::visible_controls(text) + "'");
  }
  return value;
}

}  // namespace gatekit::smoke_runner
