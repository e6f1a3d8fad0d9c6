// JSON bodies -> the client's structs, and GitHub's error bodies -> Error. Decoding is
// strict for the fields a gate decides on and lenient (empty) for display-only ones.
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
