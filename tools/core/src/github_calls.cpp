// The typed calls: URL building, request bodies and decoding into the client's structs.
#include "gatekit/github_detail.hpp"
#include "github_impl.hpp"

namespace gatekit::github {
namespace {

namespace json = boost::json;
using detail::encode_segments;
using detail::percent_encode;

std::string repo_path(const std::string& repo) { return "/repos/" + encode_segments(repo); }

// Runs `decode` on a successful value; a decoding failure becomes a typed decode error.
template <class T, class F>
ApiResult<T> decoded(ApiResult<json::value> result, const std::string& method, const std::string& url, F decode) {
  if (auto* error = std::get_if<ApiError>(&result)) return *error;
  Result<T> value = decode(std::get<json::value>(result));
  if (!value) {
    ApiError e;
    e.kind = ApiErrorKind::decode;
    e.method = method;
    e.url = url;
    e.message = "unexpected response: " + value.error().message;
    return e;
  }
  return std::move(*value);
}

json::array string_array(const std::vector<std::string>& values) {
  json::array out;
  for (const auto& v : values) out.emplace_back(v);
  return out;
}

}  // namespace

ApiResult<PullRequest> Client::get_pull_request(const std::string& repo, std::int64_t number) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/pulls/" + std::to_string(number));
  return decoded<PullRequest>(impl_->call("GET", url, "", impl_->start_call()), "GET", url,
                              detail::decode_pull_request);
}

ApiResult<std::vector<PullFile>> Client::list_pull_request_files(const std::string& repo, std::int64_t number) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/pulls/" + std::to_string(number) + "/files");
  auto listing = impl_->paginate(url, 0, impl_->start_call());
  if (auto* error = std::get_if<ApiError>(&listing)) return *error;
  return decoded<std::vector<PullFile>>(json::value(std::move(std::get<Impl::Page>(listing).items)), "GET", url,
                                        [](const json::value& v) { return detail::decode_array<PullFile>(v, detail::decode_pull_file); });
}

ApiResult<std::vector<Issue>> Client::list_issues(const std::string& repo, const std::string& label,
                                                  const std::string& state) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/issues");
  url = detail::add_query(url, "state", state.empty() ? "open" : state);
  if (!label.empty()) url = detail::add_query(url, "labels", label);
  auto listing = impl_->paginate(url, 0, impl_->start_call());
  if (auto* error = std::get_if<ApiError>(&listing)) return *error;
  // GitHub lists pull requests among issues; they carry a `pull_request` key.
  json::array issues;
  for (auto& item : std::get<Impl::Page>(listing).items) {
    if (item.is_object() && item.get_object().contains("pull_request")) continue;
    issues.push_back(std::move(item));
  }
  return decoded<std::vector<Issue>>(json::value(std::move(issues)), "GET", url,
                                     [](const json::value& v) { return detail::decode_array<Issue>(v, detail::decode_issue); });
}

ApiResult<Issue> Client::create_issue(const std::string& repo, const std::string& title, const std::string& body,
                                      const std::vector<std::string>& labels) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/issues");
  json::object request{{"title", title}, {"body", body}, {"labels", string_array(labels)}};
  return decoded<Issue>(impl_->call("POST", url, json::serialize(request), impl_->start_call()), "POST", url,
                        detail::decode_issue);
}

ApiResult<Issue> Client::update_issue(const std::string& repo, std::int64_t number, const json::object& fields) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/issues/" + std::to_string(number));
  return decoded<Issue>(impl_->call("PATCH", url, json::serialize(fields), impl_->start_call()), "PATCH", url,
                        detail::decode_issue);
}

ApiResult<json::value> Client::add_issue_comment(const std::string& repo, std::int64_t number, const std::string& body) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/issues/" + std::to_string(number) + "/comments");
  return impl_->call("POST", url, json::serialize(json::object{{"body", body}}), impl_->start_call());
}

ApiResult<json::value> Client::add_labels(const std::string& repo, std::int64_t number,
                                          const std::vector<std::string>& labels) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/issues/" + std::to_string(number) + "/labels");
  return impl_->call("POST", url, json::serialize(json::object{{"labels", string_array(labels)}}), impl_->start_call());
}

ApiResult<CommitStatus> Client::create_status(const std::string& repo, const std::string& sha,
                                              const CommitStatus& status) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/statuses/" + percent_encode(sha));
  json::object request{{"state", status.state}, {"context", status.context}};
  if (!status.description.empty()) request["description"] = status.description;
  if (!status.target_url.empty()) request["target_url"] = status.target_url;
  return decoded<CommitStatus>(impl_->call("POST", url, json::serialize(request), impl_->start_call()), "POST", url,
                               detail::decode_status);
}

ApiResult<std::vector<CommitStatus>> Client::list_statuses(const std::string& repo, const std::string& sha) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/commits/" + percent_encode(sha) + "/statuses");
  auto listing = impl_->paginate(url, 0, impl_->start_call());
  if (auto* error = std::get_if<ApiError>(&listing)) return *error;
  return decoded<std::vector<CommitStatus>>(
      json::value(std::move(std::get<Impl::Page>(listing).items)), "GET", url,
      [](const json::value& v) { return detail::decode_array<CommitStatus>(v, detail::decode_status); });
}

ApiResult<json::value> Client::get_ref(const std::string& repo, const std::string& ref) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/git/ref/" + encode_segments(ref));
  return impl_->call("GET", url, "", impl_->start_call());
}

ApiResult<std::vector<WorkflowRun>> Client::list_workflow_runs(const std::string& repo, const std::string& workflow_file,
                                                               const std::string& branch, const std::string& status,
                                                               std::size_t limit) {
  auto path = repo_path(repo) + "/actions/";
  path += workflow_file.empty() ? "runs" : "workflows/" + percent_encode(workflow_file) + "/runs";
  auto url = detail::join_url(impl_->options.base_url, path);
  if (!branch.empty()) url = detail::add_query(url, "branch", branch);
  if (!status.empty()) url = detail::add_query(url, "status", status);
  // A small limit needs no 100-item pages.
  if (limit != 0 && limit < 100) url = detail::add_query(url, "per_page", std::to_string(limit));
  auto listing = impl_->paginate(url, limit, impl_->start_call());
  if (auto* error = std::get_if<ApiError>(&listing)) return *error;
  return decoded<std::vector<WorkflowRun>>(
      json::value(std::move(std::get<Impl::Page>(listing).items)), "GET", url,
      [](const json::value& v) { return detail::decode_array<WorkflowRun>(v, detail::decode_run); });
}

ApiResult<std::vector<WorkflowJob>> Client::list_run_jobs(const std::string& repo, std::int64_t run_id) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/actions/runs/" + std::to_string(run_id) + "/jobs");
  auto listing = impl_->paginate(url, 0, impl_->start_call());
  if (auto* error = std::get_if<ApiError>(&listing)) return *error;
  return decoded<std::vector<WorkflowJob>>(
      json::value(std::move(std::get<Impl::Page>(listing).items)), "GET", url,
      [](const json::value& v) { return detail::decode_array<WorkflowJob>(v, detail::decode_job); });
}

ApiResult<std::vector<Artifact>> Client::list_run_artifacts(const std::string& repo, std::int64_t run_id) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/actions/runs/" + std::to_string(run_id) + "/artifacts");
  auto listing = impl_->paginate(url, 0, impl_->start_call());
  if (auto* error = std::get_if<ApiError>(&listing)) return *error;
  return decoded<std::vector<Artifact>>(
      json::value(std::move(std::get<Impl::Page>(listing).items)), "GET", url,
      [](const json::value& v) { return detail::decode_array<Artifact>(v, detail::decode_artifact); });
}

ApiResult<std::monostate> Client::dispatch_workflow(const std::string& repo, const std::string& workflow_file,
                                                    const std::string& ref,
                                                    const std::map<std::string, std::string>& inputs) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/actions/workflows/" + percent_encode(workflow_file) + "/dispatches");
  json::object in;
  for (const auto& [k, v] : inputs) in[k] = v;
  json::object request{{"ref", ref}, {"inputs", std::move(in)}};
  auto result = impl_->call("POST", url, json::serialize(request), impl_->start_call());
  if (auto* error = std::get_if<ApiError>(&result)) return *error;
  return std::monostate{};
}

}  // namespace gatekit::github
