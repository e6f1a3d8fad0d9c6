// JSON bodies -> the client's structs, and GitHub's error bodies -> Error. Decoding is
// strict for the fields a gate decides on and lenient (empty) for display-only ones.
#include <algorithm>
#include <boost/archive/iterators/binary_from_base64.hpp>
#include <boost/archive/iterators/transform_width.hpp>
#include <cctype>

#include "gatekit/github_decode.hpp"

namespace gatekit::github::detail {
namespace {

namespace json = boost::json;

// Reads fields of one object, remembering the first problem so a decoder reads linearly.
class Fields {
 public:
  explicit Fields(const json::value& v) : object_(v.if_object()) {
    if (object_ == nullptr) error_ = "expected a JSON object";
  }
  // Required string; JSON null is accepted only when `nullable`.
  std::string str(std::string_view key, bool nullable = false) {
    const auto* v = lookup(key);
    if (v == nullptr) return fail(key, "missing");
    if (v->is_string()) return std::string(v->get_string());
    if (v->is_null() && nullable) return {};
    return fail(key, "expected a string");
  }
  // Optional string: missing or null read as "".
  std::string opt_str(std::string_view key) {
    const auto* v = lookup(key);
    if (v == nullptr || v->is_null()) return {};
    if (v->is_string()) return std::string(v->get_string());
    return fail(key, "expected a string");
  }
  std::int64_t integer(std::string_view key) {
    const auto* v = lookup(key);
    if (v == nullptr) return fail(key, "missing"), 0;
    if (v->is_int64()) return v->get_int64();
    if (v->is_uint64()) return static_cast<std::int64_t>(v->get_uint64());
    return fail(key, "expected an integer"), 0;
  }
  // Optional integer: missing or null is nullopt.
  std::optional<std::int64_t> opt_integer(std::string_view key) {
    const auto* v = lookup(key);
    if (v == nullptr || v->is_null()) return std::nullopt;
    return integer(key);
  }
  bool boolean(std::string_view key) {
    const auto* v = lookup(key);
    if (v != nullptr && v->is_bool()) return v->get_bool();
    return fail(key, v == nullptr ? "missing" : "expected true or false"), false;
  }
  // A nested object's reader, e.g. head.sha.
  Fields nested(std::string_view key) {
    const auto* v = lookup(key);
    static const json::value null_value;
    Fields inner(v != nullptr ? *v : null_value);
    inner.prefix_ = prefix_ + std::string(key) + ".";
    if (inner.error_ && !error_) error_ = "field `" + prefix_ + std::string(key) + "`: " + *inner.error_;
    return inner;
  }
  const json::value* raw(std::string_view key) const { return lookup(key); }
  void absorb(const Fields& inner) {
    if (inner.error_ && !error_) error_ = inner.error_;
  }
  template <class T>
  Result<T> finish(T value) const {
    if (error_) return could_not_evaluate(*error_);
    return value;
  }

 private:
  const json::value* lookup(std::string_view key) const {
    return object_ == nullptr ? nullptr : json_find(*object_, key);
  }
  std::string fail(std::string_view key, std::string_view what) {
    if (!error_) error_ = "field `" + prefix_ + std::string(key) + "`: " + std::string(what);
    return {};
  }

  const json::object* object_;
  std::string prefix_;
  std::optional<std::string> error_;
};

std::string printable_prefix(std::string_view body, std::size_t limit) {
  std::string out;
  for (char c : body) {
    if (out.size() >= limit) {
      out += "...";
      break;
    }
    out += std::isprint(static_cast<unsigned char>(c)) ? c : ' ';
  }
  return out;
}

}  // namespace

Result<json::value> parse_body(const HttpResponse& response) {
  if (response.body.empty()) return json::value(nullptr);
  auto type = response.header("content-type").value_or("");
  if (type.find("json") == std::string::npos) {
    return could_not_evaluate("expected a JSON body, got content type '" + type + "' (" +
                      std::to_string(response.body.size()) + " bytes: " + printable_prefix(response.body, 60) + ")");
  }
  boost::system::error_code ec;
  auto value = json::parse(response.body, ec);
  if (ec) {
    return could_not_evaluate("invalid JSON in a " + std::to_string(response.body.size()) + "-byte body: " + ec.message());
  }
  return value;
}

Error api_error(std::string_view method, std::string_view url, std::string_view reason,
                std::string_view documentation_url, int http_status) {
  std::string message = std::string(method) + " " + path_of(url) + ": " + std::string(reason);
  if (!documentation_url.empty()) message += " (" + std::string(documentation_url) + ")";
  Error error = could_not_evaluate(std::move(message));
  error.http_status = http_status;
  return error;
}

namespace {

// "Label.color invalid; ..." from a validation failure's errors[], "" when there is none.
std::string validation_details(const json::object& body) {
  const auto* errors = json_find(body, "errors");
  if (errors == nullptr || !errors->is_array()) return "";
  std::string details;
  for (const auto& item : errors->get_array()) {
    const auto* e = item.if_object();
    std::string one;
    if (e == nullptr) {
      if (item.is_string()) one = std::string(item.get_string());
    } else if (auto m = json_string_at(*e, "message")) {
      one = *m;
    } else {
      one = json_string_at(*e, "resource").value_or("") + "." + json_string_at(*e, "field").value_or("") + " " +
            json_string_at(*e, "code").value_or("");
    }
    if (one.empty()) continue;
    details += (details.empty() ? "" : "; ") + one;
  }
  return details;
}

}  // namespace

Error error_from_response(const HttpResponse& response, const std::string& method, const std::string& url,
                          std::string_view suffix) {
  std::string reason = "HTTP " + std::to_string(response.status);
  std::string documentation_url;
  boost::system::error_code ec;
  auto value = json::parse(response.body, ec);
  const auto* object = ec ? nullptr : value.if_object();
  if (object == nullptr) {
    if (!response.body.empty()) reason += ": " + printable_prefix(response.body, 120);
  } else {
    if (auto message = json_string_at(*object, "message")) reason += ": " + *message;
    documentation_url = json_string_at(*object, "documentation_url").value_or("");
    if (auto details = validation_details(*object); !details.empty()) reason += " (" + details + ")";
  }
  // GitHub names the permissions a refused request needs (X-Accepted-GitHub-Permissions,
  // "administration=read"): the one fact a person needs to fix the token.
  if (response.status == 403 || response.status == 404)
    if (auto accepted = response.header("x-accepted-github-permissions"); accepted && !accepted->empty())
      reason += "; GitHub accepts a token with " + printable_prefix(*accepted, 120);
  return api_error(method, url, reason + std::string(suffix), documentation_url, response.status);
}

Result<PullRequest> decode_pull_request(const json::value& v) {
  Fields f(v);
  PullRequest pr;
  pr.number = f.integer("number");
  pr.state = f.str("state");
  auto head = f.nested("head");
  pr.head_sha = head.str("sha");
  pr.head_ref = head.str("ref");
  f.absorb(head);
  auto base = f.nested("base");
  pr.base_sha = base.str("sha");
  pr.base_ref = base.str("ref");
  f.absorb(base);
  // changed_files decides whether the file list is complete: anything but an integer is -1.
  if (const auto* cf = f.raw("changed_files"); cf != nullptr && (cf->is_int64() || cf->is_uint64()))
    pr.changed_files = f.integer("changed_files");
  return f.finish(std::move(pr));
}

Result<PullFile> decode_pull_file(const json::value& v) {
  Fields f(v);
  PullFile file;
  file.filename = f.str("filename");
  file.status = f.str("status");
  file.previous_filename = f.opt_str("previous_filename");
  return f.finish(std::move(file));
}

Result<Issue> decode_issue(const json::value& v) {
  Fields f(v);
  Issue issue;
  issue.number = f.integer("number");
  issue.title = f.str("title");
  issue.body = f.opt_str("body");
  issue.state = f.str("state");
  issue.html_url = f.opt_str("html_url");
  // Who opened it: a missing or null user (a deleted account) reads as "", which no tool trusts;
  // a user without a string login fails.
  if (const auto* user = f.raw("user"); user != nullptr && !user->is_null()) {
    auto by = f.nested("user");
    issue.author = by.str("login");
    f.absorb(by);
  }
  issue.created_at = f.opt_str("created_at");
  issue.closed_at = f.opt_str("closed_at");
  if (const auto* labels = f.raw("labels"); labels != nullptr && labels->is_array()) {
    // GitHub's schema allows a label to be a plain string or an object with `name`.
    for (const auto& label : labels->get_array()) {
      if (label.is_string()) {
        issue.labels.emplace_back(label.get_string());
      } else if (const auto* o = label.if_object()) {
        if (auto name = json_string_at(*o, "name")) issue.labels.push_back(*name);
      }
    }
  }
  return f.finish(std::move(issue));
}

Result<CommitStatus> decode_status(const json::value& v) {
  Fields f(v);
  CommitStatus s;
  s.state = f.str("state");
  s.context = f.str("context");
  s.description = f.opt_str("description");
  s.target_url = f.opt_str("target_url");
  s.created_at = f.opt_str("created_at");
  // Who posted it: a missing or null creator reads as "", which no tool trusts; a creator
  // without a string login fails.
  if (const auto* creator = f.raw("creator"); creator != nullptr && !creator->is_null()) {
    auto by = f.nested("creator");
    s.creator = by.str("login");
    f.absorb(by);
  }
  return f.finish(std::move(s));
}

Result<WorkflowRun> decode_run(const json::value& v) {
  Fields f(v);
  WorkflowRun run;
  run.id = f.integer("id");
  run.name = f.opt_str("name");
  run.head_branch = f.opt_str("head_branch");
  run.head_sha = f.str("head_sha");
  run.event = f.opt_str("event");
  run.status = f.str("status", true);
  run.conclusion = f.opt_str("conclusion");
  run.html_url = f.opt_str("html_url");
  run.created_at = f.opt_str("created_at");
  for (auto [key, out] : {std::pair{"repository", &run.repository}, std::pair{"head_repository", &run.head_repository}})
    if (const auto* repo = f.raw(key); repo != nullptr && !repo->is_null()) {
      auto named = f.nested(key);
      *out = named.str("full_name");
      f.absorb(named);
    }
  return f.finish(std::move(run));
}

Result<WorkflowJob> decode_job(const json::value& v) {
  Fields f(v);
  WorkflowJob job;
  job.id = f.integer("id");
  job.name = f.str("name");
  job.status = f.str("status");
  job.conclusion = f.opt_str("conclusion");
  job.html_url = f.opt_str("html_url");
  job.started_at = f.opt_str("started_at");
  job.completed_at = f.opt_str("completed_at");
  job.created_at = f.opt_str("created_at");
  job.runner_name = f.opt_str("runner_name");
  if (const auto* labels = f.raw("labels"); labels != nullptr && !labels->is_null()) {
    auto names = decode_array<std::string>(*labels, [](const json::value& l) -> Result<std::string> {
      if (l.is_string()) return std::string(l.get_string());
      return could_not_evaluate("expected a string");
    });
    if (!names) return could_not_evaluate("field `labels`: " + names.error().message);
    job.labels = std::move(*names);
  }
  return f.finish(std::move(job));
}

Result<CheckAnnotation> decode_annotation(const json::value& v) {
  Fields f(v);
  CheckAnnotation a;
  a.level = f.opt_str("annotation_level");
  a.title = f.opt_str("title");
  a.message = f.str("message");
  return f.finish(std::move(a));
}

Result<Artifact> decode_artifact(const json::value& v) {
  Fields f(v);
  Artifact a;
  a.id = f.integer("id");
  a.name = f.str("name");
  a.size_in_bytes = f.integer("size_in_bytes");
  a.expired = f.boolean("expired");
  a.archive_download_url = f.opt_str("archive_download_url");
  return f.finish(std::move(a));
}

Result<User> decode_user(const json::value& v) {
  Fields f(v);
  User user;
  user.login = f.str("login");
  user.type = f.opt_str("type");
  auto decoded = f.finish(std::move(user));
  if (decoded && decoded->login.empty()) return could_not_evaluate("field `login`: empty");
  return decoded;
}

Result<IssueComment> decode_comment(const json::value& v) {
  Fields f(v);
  IssueComment c;
  c.id = f.integer("id");
  c.body = f.opt_str("body");
  c.html_url = f.opt_str("html_url");
  return f.finish(std::move(c));
}

Result<std::string> decode_label_name(const json::value& v) {
  if (v.is_string()) return std::string(v.get_string());
  Fields f(v);
  auto name = f.str("name");
  return f.finish(std::move(name));
}

Result<GitRef> decode_ref(const json::value& v) {
  Fields f(v);
  GitRef ref;
  ref.ref = f.str("ref");
  auto object = f.nested("object");
  ref.sha = object.str("sha");
  ref.type = object.opt_str("type");
  f.absorb(object);
  return f.finish(std::move(ref));
}

namespace {

// A list of required checks ([{context, integration_id|app_id}]); `id_key` names the App's field.
Result<std::vector<RequiredCheck>> decode_checks(const json::value& v, std::string_view id_key) {
  return decode_array<RequiredCheck>(v, [&](const json::value& item) -> Result<RequiredCheck> {
    Fields f(item);
    RequiredCheck check;
    check.context = f.str("context");
    check.app_id = f.opt_integer(id_key);
    // Branch protection takes -1 for "any app may set it" (GitHub's docs of the app_id field).
    if (check.app_id && *check.app_id < 0) check.app_id.reset();
    return f.finish(std::move(check));
  });
}

}  // namespace

Result<Repository> decode_repository(const json::value& v) {
  Fields f(v);
  Repository repo;
  repo.full_name = f.str("full_name");
  repo.default_branch = f.str("default_branch");
  return f.finish(std::move(repo));
}

Result<BranchRule> decode_branch_rule(const json::value& v) {
  Fields f(v);
  BranchRule rule;
  rule.type = f.str("type");
  rule.ruleset_id = f.opt_integer("ruleset_id").value_or(0);
  rule.ruleset_source = f.opt_str("ruleset_source");
  rule.ruleset_source_type = f.opt_str("ruleset_source_type");
  if (rule.type == "required_status_checks") {
    auto parameters = f.nested("parameters");
    if (auto checked = f.finish(0); !checked) return checked.error();
    const auto* checks = parameters.raw("required_status_checks");
    if (checks == nullptr) return could_not_evaluate("field `parameters.required_status_checks`: missing");
    auto decoded = decode_checks(*checks, "integration_id");
    if (!decoded) return could_not_evaluate("field `parameters.required_status_checks`: " + decoded.error().message);
    rule.checks = std::move(*decoded);
    f.absorb(parameters);
  }
  return f.finish(std::move(rule));
}

Result<BranchProtection> decode_branch_protection(const json::value& v) {
  Fields f(v);
  BranchProtection protection;
  const auto* required = f.raw("required_status_checks");
  if (required == nullptr || required->is_null()) return f.finish(std::move(protection));
  auto fields = f.nested("required_status_checks");
  if (const auto* checks = fields.raw("checks"); checks != nullptr) {
    auto decoded = decode_checks(*checks, "app_id");
    if (!decoded) return could_not_evaluate("field `required_status_checks.checks`: " + decoded.error().message);
    protection.checks = std::move(*decoded);
  }
  // `contexts` is the older list: a context it names that `checks` lacks accepts any source.
  if (const auto* contexts = fields.raw("contexts"); contexts != nullptr) {
    auto names = decode_array<std::string>(*contexts, [](const json::value& c) -> Result<std::string> {
      if (c.is_string()) return std::string(c.get_string());
      return could_not_evaluate("expected a string");
    });
    if (!names) return could_not_evaluate("field `required_status_checks.contexts`: " + names.error().message);
    for (auto& name : *names) {
      const bool listed = std::any_of(protection.checks.begin(), protection.checks.end(),
                                      [&](const RequiredCheck& c) { return c.context == name; });
      if (!listed) protection.checks.push_back({std::move(name), std::nullopt});
    }
  }
  f.absorb(fields);
  return f.finish(std::move(protection));
}

Result<DeploymentEnvironment> decode_environment(const json::value& v) {
  Fields f(v);
  DeploymentEnvironment environment;
  environment.name = f.str("name");
  const auto* policy = f.raw("deployment_branch_policy");
  if (policy != nullptr && !policy->is_null()) {
    auto settings = f.nested("deployment_branch_policy");
    const bool protected_branches = settings.boolean("protected_branches");
    const bool custom = settings.boolean("custom_branch_policies");
    f.absorb(settings);
    if (protected_branches == custom)
      return could_not_evaluate("field `deployment_branch_policy`: protected_branches and custom_branch_policies are "
                                "both " + std::string(custom ? "true" : "false"));
    environment.branches = custom ? DeploymentBranches::custom : DeploymentBranches::protected_branches;
  }
  return f.finish(std::move(environment));
}

Result<DeploymentBranchPolicy> decode_branch_policy(const json::value& v) {
  Fields f(v);
  DeploymentBranchPolicy policy;
  policy.id = f.integer("id");
  policy.name = f.str("name");
  policy.type = f.opt_str("type");
  return f.finish(std::move(policy));
}

Result<std::string> decode_name(const json::value& v) {
  Fields f(v);
  auto name = f.str("name");
  return f.finish(std::move(name));
}

Result<ContentEntry> decode_content_entry(const json::value& v) {
  Fields f(v);
  ContentEntry entry;
  entry.name = f.str("name");
  entry.path = f.str("path");
  entry.type = f.str("type");
  return f.finish(std::move(entry));
}

Result<std::string> decode_file_content(const json::value& v) {
  Fields f(v);
  const auto type = f.str("type");
  const auto path = f.opt_str("path");
  const auto encoding = f.opt_str("encoding");
  const auto content = f.opt_str("content");
  if (auto checked = f.finish(0); !checked) return checked.error();
  if (type != "file") return could_not_evaluate(path + " is a " + type + ", not a file");
  if (encoding != "base64")
    return could_not_evaluate(path + ": the contents API gave no content (encoding '" + encoding +
                              "'; it gives none for a file over 1 MB)");
  auto text = decode_base64(content);
  if (!text) return could_not_evaluate("field `content`: " + text.error().message);
  return text;
}

Result<std::string> decode_base64(std::string_view text) {
  std::string digits;
  digits.reserve(text.size());
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == ' ') continue;
    digits += c;
  }
  std::size_t padding = 0;
  while (!digits.empty() && digits.back() == '=' && padding < 2) {
    digits.pop_back();
    ++padding;
  }
  const auto invalid = std::find_if(digits.begin(), digits.end(), [](char c) {
    return !(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/');
  });
  if (invalid != digits.end())
    return could_not_evaluate("not base64: character " + std::to_string(invalid - digits.begin() + 1) +
                              " is '" + std::string(1, *invalid) + "'");
  if (digits.size() % 4 == 1 || (padding != 0 && (digits.size() + padding) % 4 != 0))
    return could_not_evaluate("not base64: " + std::to_string(digits.size()) + " digits cannot end a group");
  using namespace boost::archive::iterators;
  using Decoder = transform_width<binary_from_base64<std::string::const_iterator>, 8, 6>;
  const std::size_t bytes = digits.size() * 6 / 8;
  std::string out;
  out.reserve(bytes);
  auto it = Decoder(digits.cbegin());
  for (std::size_t i = 0; i < bytes; ++i, ++it) out += static_cast<char>(*it);
  return out;
}

Result<RefActivity> decode_activity(const json::value& v) {
  Fields f(v);
  RefActivity a;
  a.id = f.integer("id");
  a.ref = f.str("ref");
  a.before = f.str("before");
  a.after = f.str("after");
  a.activity_type = f.str("activity_type");
  return f.finish(std::move(a));
}

}  // namespace gatekit::github::detail
