#include "gatekit/regex.hpp"

#include <regex>

namespace gatekit {

struct Regex::Compiled {
  std::regex re;
};

Regex::Regex(std::string_view pattern)
    : compiled_(std::make_unique<Compiled>(Compiled{std::regex(pattern.begin(), pattern.end())})) {}
Regex::~Regex() = default;
Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;

bool Regex::matches(std::string_view text) const { return std::regex_match(text.begin(), text.end(), compiled_->re); }

bool Regex::found_in(std::string_view text) const {
  return std::regex_search(text.begin(), text.end(), compiled_->re);
}

std::vector<std::vector<std::string>> Regex::all_matches(std::string_view text) const {
  using Iterator = std::regex_iterator<std::string_view::const_iterator>;
  std::vector<std::vector<std::string>> found;
  for (Iterator it(text.begin(), text.end(), compiled_->re), end; it != end; ++it) {
    std::vector<std::string> groups;
    groups.reserve(it->size());
    for (const auto& group : *it) groups.push_back(group.str());
    found.push_back(std::move(groups));
  }
  return found;
}

}  // namespace gatekit
