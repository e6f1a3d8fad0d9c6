#pragma once
// JSON answers -> the client's structs (github_decode.cpp), exposed for table-driven tests
// and fuzzing. Decoding is strict for the fields a gate decides on and lenient (empty) for
// display-only ones; an error names the field (``field `head.sha`: missing``).
#include <string>
#include <vector>

#include "gatekit/github_detail.hpp"
#include "gatekit/json.hpp"

namespace gatekit::github::detail {

// Parses a response body as JSON; a non-JSON content type or invalid JSON is an error
// message naming the content type / parse error. An empty body (204) is null.
Result<boost::json::value> parse_body(const HttpResponse& response);

Result<PullRequest> decode_pull_request(const boost::json::value& v);
Result<PullFile> decode_pull_file(const boost::json::value& v);
Result<Issue> decode_issue(const boost::json::value& v);
Result<CommitStatus> decode_status(const boost::json::value& v);
Result<WorkflowRun> decode_run(const boost::json::value& v);
Result<WorkflowJob> decode_job(const boost::json::value& v);
Result<Artifact> decode_artifact(const boost::json::value& v);
Result<User> decode_user(const boost::json::value& v);
Result<CheckAnnotation> decode_annotation(const boost::json::value& v);
Result<IssueComment> decode_comment(const boost::json::value& v);
Result<std::string> decode_label_name(const boost::json::value& v);  // "bug" or {"name": "bug", ...}
Result<GitRef> decode_ref(const boost::json::value& v);
Result<Repository> decode_repository(const boost::json::value& v);
// One rule of GET /repos/{repo}/rules/branches/{branch}; the checks of a
// required_status_checks rule (parameters.required_status_checks) are required.
Result<BranchRule> decode_branch_rule(const boost::json::value& v);
// GET .../branches/{branch}/protection: the required checks, from `checks` (context and
// app_id; null or -1: any source) and the older `contexts` list (any source) for a context
// `checks` lacks.
Result<BranchProtection> decode_branch_protection(const boost::json::value& v);
Result<DeploymentEnvironment> decode_environment(const boost::json::value& v);
Result<DeploymentBranchPolicy> decode_branch_policy(const boost::json::value& v);
// The `name` of an environment's variable or secret.
Result<std::string> decode_name(const boost::json::value& v);
Result<ContentEntry> decode_content_entry(const boost::json::value& v);
// A file of the contents API: its base64 `content` decoded. Another type, or an encoding
// other than base64 (GitHub answers "none" for files over 1 MB), is an error.
Result<std::string> decode_file_content(const boost::json::value& v);
// Standard base64 with the line breaks GitHub puts in `content`; padding optional.
Result<std::string> decode_base64(std::string_view text);
Result<RefActivity> decode_activity(const boost::json::value& v);

// Decodes every element of an array; errors name the element ("item 3: ...").
template <class T, class F>
Result<std::vector<T>> decode_array(const boost::json::value& v, F decode_one) {
  if (!v.is_array()) return could_not_evaluate("expected a JSON array");
  std::vector<T> out;
  out.reserve(v.get_array().size());
  std::size_t index = 0;
  for (const auto& item : v.get_array()) {
    auto one = decode_one(item);
    if (!one) return could_not_evaluate("item " + std::to_string(index) + ": " + one.error().message);
    out.push_back(std::move(*one));
    ++index;
  }
  return out;
}

}  // namespace gatekit::github::detail
