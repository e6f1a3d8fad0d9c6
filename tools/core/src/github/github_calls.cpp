// The typed calls: URL building, request bodies and decoding into the client's structs.
#include <algorithm>
#include <cctype>

#include "gatekit/github_decode.hpp"
#include "github_impl.hpp"

namespace gatekit::github {
namespace {

namespace json = boost::json;
using detail::encode_segments;
using detail::percent_encode;

std::string repo_path(const std::string& repo) { return "/repos/" + encode_segments(repo); }

Error unreadable(Error error) {
  error.unreadable_answer = true;
  return error;
}

// Runs `decode` on a successful value; a decoding failure fails the call, naming it.
template <class T, class F>
Result<T> decoded(Result<json::value> result, const std::string& method, const std::string& url, F decode) {
  if (!result) return result.error();
  Result<T> value = decode(*result);
  if (!value) return unreadable(detail::api_error(method, url, "unexpected response: " + value.error().message));
  return std::move(*value);
}

// A listing's items decoded one by one (Listing: the engine's Result<Page>).
template <class T, class Listing, class F>
Result<std::vector<T>> decoded_listing(Listing listing, const std::string& url, F decode_one) {
  if (!listing) return listing.error();
  return decoded<std::vector<T>>(json::value(std::move(listing->items)), "GET", url,
                                 [&](const json::value& v) { return detail::decode_array<T>(v, decode_one); });
}

// A single object that GitHub may answer 404 for: absent (nullopt) on that 404, when `absent`
// says so, else the call's result.
template <class T, class F>
Result<std::optional<T>> unless_absent(Result<T> result, F absent) {
  if (result) return std::optional<T>(std::move(*result));
  if (result.error().http_status == 404 && absent(result.error())) return std::optional<T>();
  return result.error();
}

bool any_error(const Error&) { return true; }

json::array string_array(const std::vector<std::string>& values) {
  json::array out;
  for (const auto& v : values) out.emplace_back(v);
  return out;
}

}  // namespace

Result<PullRequest> Client::get_pull_request(const std::string& repo, std::int64_t number) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/pulls/" + std::to_string(number));
  return decoded<PullRequest>(impl_->call("GET", url, "", impl_->start_call()), "GET", url,
                              detail::decode_pull_request);
}

Result<std::vector<PullFile>> Client::list_pull_request_files(const std::string& repo, std::int64_t number) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/pulls/" + std::to_string(number) + "/files");
  // A file has no id: its name is its key in the listing.
  return decoded_listing<PullFile>(impl_->paginate(url, 0, impl_->start_call(), "filename"), url,
                                   detail::decode_pull_file);
}

Result<std::vector<Issue>> Client::list_issues(const std::string& repo, const std::string& label,
                                                  const std::string& state) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/issues");
  url = detail::add_query(url, "state", state.empty() ? "open" : state);
  if (!label.empty()) url = detail::add_query(url, "labels", label);
  auto listing = impl_->paginate(url, 0, impl_->start_call());
  if (!listing) return listing.error();
  // GitHub lists pull requests among issues; they carry a `pull_request` key.
  json::array issues;
  for (auto& item : listing->items) {
    if (item.is_object() && item.get_object().contains("pull_request")) continue;
    issues.push_back(std::move(item));
  }
  listing->items = std::move(issues);
  return decoded_listing<Issue>(std::move(listing), url, detail::decode_issue);
}

Result<Issue> Client::get_issue(const std::string& repo, std::int64_t number) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/issues/" + std::to_string(number));
  return decoded<Issue>(impl_->call("GET", url, "", impl_->start_call()), "GET", url, detail::decode_issue);
}

Result<Issue> Client::create_issue(const std::string& repo, const std::string& title, const std::string& body,
                                      const std::vector<std::string>& labels) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/issues");
  json::object request{{"title", title}, {"body", body}, {"labels", string_array(labels)}};
  return decoded<Issue>(impl_->call("POST", url, json::serialize(request), impl_->start_call()), "POST", url,
                        detail::decode_issue);
}

Result<Issue> Client::update_issue(const std::string& repo, std::int64_t number, const IssueUpdate& fields) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/issues/" + std::to_string(number));
  json::object request;
  if (fields.title) request["title"] = *fields.title;
  if (fields.body) request["body"] = *fields.body;
  if (fields.state) request["state"] = *fields.state;
  if (fields.labels) request["labels"] = string_array(*fields.labels);
  return decoded<Issue>(impl_->call("PATCH", url, json::serialize(request), impl_->start_call()), "PATCH", url,
                        detail::decode_issue);
}

Result<IssueComment> Client::add_issue_comment(const std::string& repo, std::int64_t number, const std::string& body) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/issues/" + std::to_string(number) + "/comments");
  return decoded<IssueComment>(
      impl_->call("POST", url, json::serialize(json::object{{"body", body}}), impl_->start_call()), "POST", url,
      detail::decode_comment);
}

Result<std::vector<std::string>> Client::add_labels(const std::string& repo, std::int64_t number,
                                                    const std::vector<std::string>& labels) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/issues/" + std::to_string(number) + "/labels");
  return decoded<std::vector<std::string>>(
      impl_->call("POST", url, json::serialize(json::object{{"labels", string_array(labels)}}), impl_->start_call()),
      "POST", url, [](const json::value& v) { return detail::decode_array<std::string>(v, detail::decode_label_name); });
}

Result<CommitStatus> Client::create_status(const std::string& repo, const std::string& sha,
                                              const CommitStatus& status) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/statuses/" + percent_encode(sha));
  json::object request{{"state", status.state}, {"context", status.context}};
  if (!status.description.empty()) request["description"] = status.description;
  if (!status.target_url.empty()) request["target_url"] = status.target_url;
  return decoded<CommitStatus>(impl_->call("POST", url, json::serialize(request), impl_->start_call()), "POST", url,
                               detail::decode_status);
}

Result<std::vector<CommitStatus>> Client::list_statuses(const std::string& repo, const std::string& sha) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/commits/" + percent_encode(sha) + "/statuses");
  return decoded_listing<CommitStatus>(impl_->paginate(url, 0, impl_->start_call()), url, detail::decode_status);
}

Result<GitRef> Client::get_ref(const std::string& repo, const std::string& ref) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/git/ref/" + encode_segments(ref));
  return decoded<GitRef>(impl_->call("GET", url, "", impl_->start_call()), "GET", url, detail::decode_ref);
}

Result<std::vector<WorkflowRun>> Client::list_workflow_runs(const std::string& repo, const std::string& workflow_file,
                                                               const std::string& branch, const std::string& status,
                                                               std::size_t limit) {
  auto path = repo_path(repo) + "/actions/";
  path += workflow_file.empty() ? "runs" : "workflows/" + percent_encode(workflow_file) + "/runs";
  auto url = detail::join_url(impl_->options.base_url, path);
  if (!branch.empty()) url = detail::add_query(url, "branch", branch);
  if (!status.empty()) url = detail::add_query(url, "status", status);
  // A small limit needs no 100-item pages.
  if (limit != 0 && limit < 100) url = detail::add_query(url, "per_page", std::to_string(limit));
  return decoded_listing<WorkflowRun>(impl_->paginate(url, limit, impl_->start_call()), url, detail::decode_run);
}

Result<RunListing> Client::list_workflow_runs_created(const std::string& repo, const std::string& workflow_file,
                                                       const std::string& created, std::size_t limit) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/actions/workflows/" + percent_encode(workflow_file) + "/runs");
  url = detail::add_query(url, "created", created);
  if (limit != 0 && limit < 100) url = detail::add_query(url, "per_page", std::to_string(limit));
  auto listing = impl_->paginate(url, limit, impl_->start_call());
  if (!listing) return listing.error();
  RunListing out;
  if (const auto* first = listing->first.if_object())
    if (const auto* total = first->if_contains("total_count"); total != nullptr && total->is_int64())
      out.total_count = total->get_int64();
  auto runs = decoded_listing<WorkflowRun>(std::move(listing), url, detail::decode_run);
  if (!runs) return runs.error();
  out.runs = std::move(*runs);
  return out;
}

Result<std::vector<CheckAnnotation>> Client::list_check_run_annotations(const std::string& repo,
                                                                        std::int64_t check_run_id) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/check-runs/" + std::to_string(check_run_id) + "/annotations");
  // An annotation has no id: one listed again is the same content again.
  return decoded_listing<CheckAnnotation>(impl_->paginate(url, 0, impl_->start_call(), ""), url,
                                          detail::decode_annotation);
}

Result<std::vector<WorkflowJob>> Client::list_run_jobs(const std::string& repo, std::int64_t run_id) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/actions/runs/" + std::to_string(run_id) + "/jobs");
  return decoded_listing<WorkflowJob>(impl_->paginate(url, 0, impl_->start_call()), url, detail::decode_job);
}

Result<std::vector<Artifact>> Client::list_run_artifacts(const std::string& repo, std::int64_t run_id) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/actions/runs/" + std::to_string(run_id) + "/artifacts");
  return decoded_listing<Artifact>(impl_->paginate(url, 0, impl_->start_call()), url, detail::decode_artifact);
}

Result<std::vector<RefActivity>> Client::list_ref_activity(const std::string& repo, const std::string& ref,
                                                           std::size_t limit) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/activity");
  url = detail::add_query(url, "ref", ref);
  if (limit != 0 && limit < 100) url = detail::add_query(url, "per_page", std::to_string(limit));
  return decoded_listing<RefActivity>(impl_->paginate(url, limit, impl_->start_call()), url, detail::decode_activity);
}

Result<User> Client::get_authenticated_user() {
  auto url = detail::join_url(impl_->options.base_url, "/user");
  return decoded<User>(impl_->call("GET", url, "", impl_->start_call()), "GET", url, detail::decode_user);
}

Result<Repository> Client::get_repository(const std::string& repo) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo));
  return decoded<Repository>(impl_->call("GET", url, "", impl_->start_call()), "GET", url, detail::decode_repository);
}

Result<std::vector<BranchRule>> Client::list_branch_rules(const std::string& repo, const std::string& branch) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/rules/branches/" + encode_segments(branch));
  return decoded_listing<BranchRule>(impl_->paginate(url, 0, impl_->start_call()), url, detail::decode_branch_rule);
}

Result<std::optional<BranchProtection>> Client::get_branch_protection(const std::string& repo,
                                                                      const std::string& branch) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/branches/" + encode_segments(branch) + "/protection");
  return unless_absent(decoded<BranchProtection>(impl_->call("GET", url, "", impl_->start_call()), "GET", url,
                                                 detail::decode_branch_protection),
                       is_not_protected);
}

Result<std::optional<DeploymentEnvironment>> Client::get_environment(const std::string& repo, const std::string& name) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/environments/" + percent_encode(name));
  return unless_absent(decoded<DeploymentEnvironment>(impl_->call("GET", url, "", impl_->start_call()), "GET", url,
                                                      detail::decode_environment),
                       any_error);
}

Result<std::vector<DeploymentBranchPolicy>> Client::list_deployment_branch_policies(const std::string& repo,
                                                                                    const std::string& environment) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/environments/" +
                                                           percent_encode(environment) + "/deployment-branch-policies");
  return decoded_listing<DeploymentBranchPolicy>(impl_->paginate(url, 0, impl_->start_call()), url,
                                                 detail::decode_branch_policy);
}

Result<std::vector<std::string>> Client::list_environment_variable_names(const std::string& repo,
                                                                         const std::string& environment) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/environments/" + percent_encode(environment) + "/variables");
  return decoded_listing<std::string>(impl_->paginate(url, 0, impl_->start_call()), url, detail::decode_name);
}

Result<std::vector<std::string>> Client::list_environment_secret_names(const std::string& repo,
                                                                       const std::string& environment) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/environments/" + percent_encode(environment) + "/secrets");
  return decoded_listing<std::string>(impl_->paginate(url, 0, impl_->start_call()), url, detail::decode_name);
}

Result<std::optional<std::string>> Client::get_repository_variable(const std::string& repo, const std::string& name) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/actions/variables/" + percent_encode(name));
  auto value = [](const json::value& v) -> Result<std::string> {
    const auto* o = v.if_object();
    if (o == nullptr) return could_not_evaluate("expected a JSON object");
    auto text = json_string_at(*o, "value");
    if (!text) return could_not_evaluate("field `value`: missing or not a string");
    return *text;
  };
  return unless_absent(decoded<std::string>(impl_->call("GET", url, "", impl_->start_call()), "GET", url, value),
                       any_error);
}

Result<std::optional<std::vector<ContentEntry>>> Client::list_directory(const std::string& repo,
                                                                       const std::string& path,
                                                                       const std::string& ref) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/contents/" + encode_segments(path));
  if (!ref.empty()) url = detail::add_query(url, "ref", ref);
  auto entries = [](const json::value& v) -> Result<std::vector<ContentEntry>> {
    if (v.is_object()) return could_not_evaluate("a file, not a folder");
    return detail::decode_array<ContentEntry>(v, detail::decode_content_entry);
  };
  return unless_absent(decoded<std::vector<ContentEntry>>(impl_->call("GET", url, "", impl_->start_call()), "GET",
                                                          url, entries),
                       any_error);
}

Result<std::string> Client::get_file_text(const std::string& repo, const std::string& path, const std::string& ref) {
  auto url = detail::join_url(impl_->options.base_url, repo_path(repo) + "/contents/" + encode_segments(path));
  if (!ref.empty()) url = detail::add_query(url, "ref", ref);
  return decoded<std::string>(impl_->call("GET", url, "", impl_->start_call()), "GET", url,
                              detail::decode_file_content);
}

bool is_not_protected(const Error& error) {
  return error.http_status == 404 && error.message.find(": HTTP 404: Branch not protected") != std::string::npos;
}

bool is_unreadable_answer(const Error& error) { return error.unreadable_answer; }

bool is_integration_refusal(const Error& error) {
  return error.http_status == 403 && error.message.find("Resource not accessible by integration") != std::string::npos;
}

bool is_login(std::string_view login) {
  if (login.ends_with("[bot]")) login.remove_suffix(5);
  if (login.empty() || login.size() > 39 || login.front() == '-' || login.back() == '-') return false;
  return std::all_of(login.begin(), login.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-'; });
}

Status Client::dispatch_workflow(const std::string& repo, const std::string& workflow_file,
                                                    const std::string& ref,
                                                    const std::map<std::string, std::string>& inputs) {
  auto url = detail::join_url(impl_->options.base_url,
                              repo_path(repo) + "/actions/workflows/" + percent_encode(workflow_file) + "/dispatches");
  json::object in;
  for (const auto& [k, v] : inputs) in[k] = v;
  json::object request{{"ref", ref}, {"inputs", std::move(in)}};
  auto result = impl_->call("POST", url, json::serialize(request), impl_->start_call());
  if (!result) return result.error();
  return {};
}

}  // namespace gatekit::github
