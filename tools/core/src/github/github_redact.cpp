// The token never leaves the client in API text: every answer is redacted where it enters
// (github_client.cpp), so no tool that prints API text can leak it.
#include <algorithm>
#include <boost/archive/iterators/base64_from_binary.hpp>
#include <boost/archive/iterators/transform_width.hpp>

#include "gatekit/github_detail.hpp"
#include "gatekit/json.hpp"

namespace gatekit::github::detail {
namespace {

constexpr std::size_t kMinimumForm = 6;

// Standard base64 without padding ('=' is added by the caller's alignment logic, not here).
std::string base64(std::string_view bytes) {
  using namespace boost::archive::iterators;
  using Encoder = base64_from_binary<transform_width<const char*, 6, 8>>;
  std::string padded(bytes);
  const std::size_t groups = (bytes.size() * 8 + 5) / 6;
  padded.append(2, '\0');  // transform_width reads whole bytes past the end of a partial group
  return std::string(Encoder(padded.data()), Encoder(padded.data() + bytes.size())).substr(0, groups);
}

// The characters of base64(prefix + token) that depend on the token's bytes only, for a
// prefix of `shift` bytes (0, 1 or 2): what the token looks like inside longer base64 text.
std::string base64_core(std::string_view token, std::size_t shift) {
  std::string shifted(shift, '\0');
  shifted.append(token);
  auto encoded = base64(shifted);
  static constexpr std::size_t kLeading[] = {0, 2, 3};  // characters that mix in the prefix
  encoded.erase(0, kLeading[shift]);
  if (shifted.size() % 3 != 0 && !encoded.empty()) encoded.pop_back();  // mixes in what follows
  return encoded;
}

}  // namespace

std::vector<std::string> secret_forms(std::string_view token) {
  std::vector<std::string> forms;
  if (token.empty()) return forms;
  forms.emplace_back(token);
  auto add = [&](std::string form) {
    if (form.size() >= kMinimumForm && std::find(forms.begin(), forms.end(), form) == forms.end())
      forms.push_back(std::move(form));
  };
  add(percent_encode(token));
  auto json = boost::json::serialize(boost::json::string(token));
  add(json.substr(1, json.size() - 2));
  for (std::size_t shift = 0; shift < 3; ++shift) add(base64_core(token, shift));
  // Longest first, so a form that contains another is replaced whole.
  std::stable_sort(forms.begin(), forms.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  return forms;
}

std::string redact_secrets(std::string_view text, const std::vector<std::string>& forms) {
  std::string out(text);
  for (const auto& form : forms) {
    for (auto pos = out.find(form); pos != std::string::npos; pos = out.find(form, pos + 3))
      out.replace(pos, form.size(), "***");
  }
  return out;
}

}  // namespace gatekit::github::detail
