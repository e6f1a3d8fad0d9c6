// Link header parsing and URL building for the GitHub client.
#include <cctype>

#include "gatekit/github_detail.hpp"

namespace gatekit::github::detail {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Splits on `sep` outside <...> and "..." so URLs and quoted values may contain it.
std::vector<std::string_view> split_outside(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  bool in_angle = false;
  bool in_quote = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (in_quote) {
      if (c == '"') in_quote = false;
    } else if (in_angle) {
      if (c == '>') in_angle = false;
    } else if (c == '"') {
      in_quote = true;
    } else if (c == '<') {
      in_angle = true;
    } else if (c == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(s.substr(start));
  return parts;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

}  // namespace

std::vector<LinkEntry> parse_link_header(std::string_view value) {
  std::vector<LinkEntry> out;
  for (auto link : split_outside(value, ',')) {
    link = trim(link);
    if (link.size() < 2 || link.front() != '<') continue;
    auto close = link.find('>');
    if (close == std::string_view::npos) continue;
    std::string url(link.substr(1, close - 1));
    if (url.empty()) continue;
    auto params = split_outside(link.substr(close + 1), ';');
    for (auto param : params) {
      param = trim(param);
      auto eq = param.find('=');
      if (eq == std::string_view::npos || !iequals(trim(param.substr(0, eq)), "rel")) continue;
      auto rels = trim(param.substr(eq + 1));
      if (rels.size() >= 2 && rels.front() == '"' && rels.back() == '"') rels = rels.substr(1, rels.size() - 2);
      // rel may list several space-separated relation types.
      std::size_t pos = 0;
      while (pos < rels.size()) {
        auto end = rels.find(' ', pos);
        if (end == std::string_view::npos) end = rels.size();
        if (end > pos) out.push_back({url, std::string(rels.substr(pos, end - pos))});
        pos = end + 1;
      }
    }
  }
  return out;
}

std::optional<std::string> next_link(std::string_view value) {
  for (auto& entry : parse_link_header(value))
    if (iequals(entry.rel, "next")) return entry.url;
  return std::nullopt;
}

std::string percent_encode(std::string_view text) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string encode_segments(std::string_view path) {
  std::string out;
  std::size_t pos = 0;
  while (true) {
    auto slash = path.find('/', pos);
    out += percent_encode(path.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos));
    if (slash == std::string_view::npos) break;
    out += '/';
    pos = slash + 1;
  }
  return out;
}

std::string join_url(std::string_view base, std::string_view path_or_url) {
  if (path_or_url.find("://") != std::string_view::npos) return std::string(path_or_url);
  while (!base.empty() && base.back() == '/') base.remove_suffix(1);
  std::string out(base);
  if (path_or_url.empty() || path_or_url.front() != '/') out += '/';
  out += path_or_url;
  return out;
}

std::string add_query(std::string_view url, std::string_view key, std::string_view value) {
  std::string out(url);
  out += url.find('?') == std::string_view::npos ? '?' : '&';
  out += percent_encode(key);
  out += '=';
  out += percent_encode(value);
  return out;
}

bool has_query_param(std::string_view url, std::string_view key) {
  auto q = url.find('?');
  if (q == std::string_view::npos) return false;
  for (auto part : split_outside(url.substr(q + 1), '&')) {
    auto name = part.substr(0, part.find('='));
    if (name == key) return true;
  }
  return false;
}

std::string origin_of(std::string_view url) {
  auto scheme = url.find("://");
  if (scheme == std::string_view::npos) return "";
  auto slash = url.find_first_of("/?#", scheme + 3);
  return std::string(url.substr(0, slash));
}

std::string path_of(std::string_view url) {
  auto origin = origin_of(url);
  if (origin.empty()) return std::string(url);
  auto rest = url.substr(origin.size());
  return rest.empty() ? "/" : std::string(rest);
}

}  // namespace gatekit::github::detail
