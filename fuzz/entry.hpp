#pragma once
// The one shape of a libFuzzer target here: the input goes to a property function (a
// *_property.hpp header, shared with the deterministic CTest of the owning tests/ folder),
// which returns "" when the property holds and what broke otherwise; a broken property
// aborts, so libFuzzer records the input as a crash. Long inputs only slow the search down.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace gatekit::fuzzing {

template <class Property>
int run_property(const std::uint8_t* data, std::size_t size, std::size_t max_size, const char* what,
                 Property property) {
  if (size > max_size) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string violation = property(input);
  if (!violation.empty()) {
    std::fprintf(stderr, "%s property violated: %s\n", what, violation.c_str());
    std::abort();
  }
  return 0;
}

// The first byte of an input as a selector (which decoder, which dialect, which chunk size)
// and the rest as the text; an empty input selects 0 and has no text.
inline unsigned char selector(std::string_view input) {
  return input.empty() ? 0 : static_cast<unsigned char>(input.front());
}
inline std::string_view after_selector(std::string_view input) {
  return input.empty() ? input : input.substr(1);
}

}  // namespace gatekit::fuzzing
