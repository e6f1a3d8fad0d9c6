#include <algorithm>
#include <cctype>

#include "build_call.hpp"
#include "gatekit/github_detail.hpp"

namespace gatekit::gatekit_api {
namespace {

namespace json = boost::json;

Result<std::pair<std::string, std::string>> split_field(const std::string& field) {
  auto eq = field.find('=');
  if (eq == std::string::npos || eq == 0)
    return bad_input("field '" + field + "' is not key=value");
  return std::pair{field.substr(0, eq), field.substr(eq + 1)};
}

// -F: JSON literals true/false/null and numbers keep their type; anything else is a string.
json::value typed_value(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  if (text == "null") return nullptr;
  boost::system::error_code ec;
  auto v = json::parse(text, ec);
  if (!ec && v.is_number()) return v;
  return json::string(text);
}

}  // namespace

Result<Call> build_call(const Options& options, const std::optional<std::string>& input_text) {
  Call call;
  call.method = options.method;
  std::transform(call.method.begin(), call.method.end(), call.method.begin(),
                 [](char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); });
  static const char* known[] = {"GET", "POST", "PATCH", "PUT", "DELETE"};
  if (std::find(std::begin(known), std::end(known), call.method) == std::end(known))
    return bad_input("unknown method '" + options.method + "'; use GET, POST, PATCH, PUT or DELETE");
  if (options.path.empty() || (options.path.front() != '/' && options.path.find("://") == std::string::npos))
    return bad_input("the path must start with '/' (e.g. /repos/o/r/pulls/1), got '" + options.path + "'");
  if (options.paginate && call.method != "GET")
    return bad_input("--paginate needs GET");
  call.path = options.path;

  std::vector<std::pair<std::string, json::value>> fields;
  for (const auto& f : options.raw_fields) {
    auto kv = split_field(f);
    if (!kv) return kv.error();
    fields.emplace_back(kv->first, json::string(kv->second));
  }
  for (const auto& f : options.typed_fields) {
    auto kv = split_field(f);
    if (!kv) return kv.error();
    fields.emplace_back(kv->first, typed_value(kv->second));
  }
  if (input_text && !fields.empty())
    return bad_input("--input and -f/-F cannot be combined");
  if (input_text) {
    boost::system::error_code ec;
    auto body = json::parse(*input_text, ec);
    if (ec) return bad_input("--input is not valid JSON: " + ec.message());
    call.body = std::move(body);
    return call;
  }
  if (call.method == "GET" || call.method == "DELETE") {
    for (const auto& [key, value] : fields) {
      std::string text = value.is_string() ? std::string(value.get_string()) : json::serialize(value);
      call.path = github::detail::add_query(call.path, key, text);
    }
  } else if (!fields.empty()) {
    json::object body;
    for (auto& [key, value] : fields) body[key] = value;
    call.body = json::value(std::move(body));
  }
  return call;
}

}  // namespace gatekit::gatekit_api
