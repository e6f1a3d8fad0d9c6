#pragma once
// A regular expression (std::regex, ECMAScript grammar) compiled into the core once: <regex>
// is a heavy header whose templates cost each translation unit that uses them some 2 s of
// compile time at -O2, so the tools match through this class and never include <regex>
// themselves (docs/contributing.md, "Build weight"). A pattern is program text, never outside
// data: construct it once (a function-local `static const Regex`) and match many texts.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gatekit {

class Regex {
 public:
  // `pattern` is gatekit's own; an invalid one throws std::regex_error, as std::regex does.
  explicit Regex(std::string_view pattern);
  ~Regex();
  Regex(Regex&&) noexcept;
  Regex& operator=(Regex&&) noexcept;
  Regex(const Regex&) = delete;
  Regex& operator=(const Regex&) = delete;

  // The whole of `text` matches (std::regex_match).
  bool matches(std::string_view text) const;
  // Some part of `text` matches (std::regex_search).
  bool found_in(std::string_view text) const;
  // Every match in `text`, left to right and not overlapping (std::sregex_iterator), each as
  // its groups: [0] the whole match, [i] group i ("" for a group that took no part).
  std::vector<std::vector<std::string>> all_matches(std::string_view text) const;

 private:
  struct Compiled;
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace gatekit
