#pragma once
// GitHub REST client (libcurl; JSON stays inside the core). Transport, clock and environment
// are injected, so retries, rate limits and pagination are tested without a network or real
// sleeps. The typed calls below need no JSON library; the raw call that returns a JSON value
// (the gatekit-api tool) is declared in gatekit/github_json.hpp.
//
// Contract for every call:
// - pagination only by following `Link: rel="next"`, first request with per_page=100;
// - a listing holds each item once: one listed again on a later page (GitHub's offset pages
//   shift when the listing changes while it is read) is dropped, by the listing's id field
//   (`id`; a pull request's files by `filename`; annotations, which have none, by content),
//   and the repeats are reported as one warning annotation on the Workflow given;
// - connection errors, timeouts and 5xx are retried with exponential backoff and jitter
//   while the total time budget lasts; 403/429 rate limits wait for Retry-After or
//   x-ratelimit-reset when that fits in the budget, else fail saying when the limit resets;
// - a request in flight is cut off at the deadline (its timeout is at most the time left);
// - the token is never printed; it is masked through Workflow::mask when one is given, and
//   every answer (bodies, headers, transport messages) is redacted where it enters the
//   client: the token and its percent-encoded, JSON-escaped and base64 forms become "***",
//   so no API text a tool prints can carry it.
//
// Errors: every call returns a Result (gatekit/result.hpp). A failed call is an Error of kind
// could_not_evaluate whose message names the request and the reason,
//   "GET /repos/o/r/pulls/1: HTTP 404: Not Found (https://docs.github.com/rest)"
//   "GET /repos/o/r/pulls/1: could not connect: ... (gave up after 6 attempts)"
//   "GET /repos/o/r/issues?per_page=100: the time budget of 120 s is spent"
// and whose http_status is the status of GitHub's last answer when the call failed on one
// (an error status, or a rate limit or 5xx that outlasted the budget); 0 when no answer came
// or the answer could not be decoded.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "gatekit/clock.hpp"
#include "gatekit/context.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/result.hpp"
#include "gatekit/run_info.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::github {

// ---- Transport -----------------------------------------------------------------------

struct HttpRequest {
  std::string method = "GET";
  std::string url;  // absolute
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::chrono::milliseconds timeout{30'000};
};

struct HttpResponse {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
  std::string body;
  std::optional<std::string> header(std::string_view name) const;  // case-insensitive
};

enum class TransportErrorKind { connect, timeout, dropped, other };

struct TransportError {
  TransportErrorKind kind = TransportErrorKind::other;
  std::string message;
};

// One HTTP exchange. Implementations: CurlTransport (one reused connection) and test fakes.
class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  // Either a response (any status) or a transport error.
  virtual std::variant<HttpResponse, TransportError> send(const HttpRequest& request) = 0;
};

// libcurl is loaded on first use: libcurl.so.4 (macOS: /usr/lib/libcurl.4.dylib; see
// platform.hpp), or the file named by GATEKIT_LIBCURL in `env`
// (unusual installs and tests). A library that cannot be loaded fails every request with a
// transport error naming it.
std::unique_ptr<HttpTransport> make_curl_transport(const Environment& env);

// ---- Client --------------------------------------------------------------------------

struct ClientOptions {
  std::string base_url = "https://api.github.com";  // GITHUB_API_URL
  std::string token;                                // GITHUB_TOKEN / GH_TOKEN / option
  std::chrono::milliseconds budget{120'000};        // total for one logical call, retries included
  // When non-zero: one deadline for every call of the client together, counted from its
  // construction (a gate's whole listing: the pull request and every page of its files).
  std::chrono::milliseconds total_budget{0};
  std::chrono::milliseconds request_timeout{30'000};
  int max_attempts = 6;
  std::string api_version = "2022-11-28";
};

// The options of a connection for this run: the API from the run's identity (RunInfo::api_url,
// GITHUB_API_URL; a trailing '/' dropped) and the token, a credential the client alone reads
// from the environment: GITHUB_TOKEN, else GH_TOKEN; `explicit_token` wins when non-empty.
ClientOptions options_for(const RunInfo& run, const Environment& env, const std::string& explicit_token = "");
ClientOptions options_for(const Context& context, const std::string& explicit_token = "");

struct PullFile {
  std::string filename;
  std::string status;  // added|removed|modified|renamed|copied|changed|unchanged
  std::string previous_filename;  // renames only
};

struct PullRequest {
  std::int64_t number = 0;
  std::string state;
  std::string head_sha;
  std::string base_sha;
  std::string head_ref;
  std::string base_ref;
  std::int64_t changed_files = -1;  // -1: missing or not a number
};

struct Issue {
  std::int64_t number = 0;
  std::string title;
  std::string body;
  std::string state;  // open|closed
  std::vector<std::string> labels;
  std::string html_url;
  std::string author;  // user.login: who opened it, as GitHub records it ("" for a deleted account)
  std::string created_at;  // ISO 8601, "" when absent
  std::string closed_at;   // "" while open
};

// The account a token acts as (GET /user).
struct User {
  std::string login;
  std::string type;  // User|Bot|Organization
};

struct CommitStatus {
  std::string state;  // error|failure|pending|success
  std::string context;
  std::string description;
  std::string target_url;
  std::string created_at;
  // The login that posted it (`creator.login`; an app's is `<slug>[bot]`, a workflow's
  // github.token's `github-actions[bot]`). "" when GitHub gives none (a deleted account):
  // nothing trusts such a status.
  std::string creator;
};

struct WorkflowJob {
  std::int64_t id = 0;
  std::string name;
  std::string status;      // queued|in_progress|completed|...
  std::string conclusion;  // success|failure|cancelled|skipped|... or empty
  std::string html_url;
  std::string started_at;
  std::string completed_at;
  std::string created_at;              // queued at; started_at - created_at is the queue time
  std::vector<std::string> labels;     // the job's runs-on labels
  std::string runner_name;             // "" until a runner took it
};

struct WorkflowRun {
  std::int64_t id = 0;
  std::string name;
  std::string head_branch;
  std::string head_sha;
  std::string event;
  std::string status;
  std::string conclusion;
  std::string html_url;
  std::string created_at;
  // Full names (owner/name) of the run's repository and of the repository its head came from
  // ("" when GitHub gives none, e.g. a deleted fork): they differ for a fork's pull request.
  std::string repository;
  std::string head_repository;
};

// One page-walk of a workflow's runs: GitHub's `total_count` says how many matched, which is
// more than `runs` holds when a search (created=, status=, ...) passed its 1,000-result cap.
struct RunListing {
  std::vector<WorkflowRun> runs;
  std::int64_t total_count = -1;  // -1: missing
};

struct CheckAnnotation {
  std::string level;  // notice|warning|failure
  std::string title;
  std::string message;
};

struct Artifact {
  std::int64_t id = 0;
  std::string name;
  std::int64_t size_in_bytes = 0;
  bool expired = false;
  std::string archive_download_url;
};

// update_issue: only the fields that are set are sent.
struct IssueUpdate {
  std::optional<std::string> title;
  std::optional<std::string> body;
  std::optional<std::string> state;  // open|closed
  std::optional<std::vector<std::string>> labels;
};

struct IssueComment {
  std::int64_t id = 0;
  std::string body;
  std::string html_url;
};

struct GitRef {
  std::string ref;  // "refs/heads/main"
  std::string sha;  // the object it points at
  std::string type;  // commit|tag|...
};

// The repository (GET /repos/{repo}).
struct Repository {
  std::string full_name;
  std::string default_branch;
};

// A required status check: the context it names and, when pinned, the one App whose check run
// or commit status satisfies it (rulesets: `integration_id`; branch protection: `app_id`).
// GitHub Actions is app 15368. No app: any source, a personal token's status included.
struct RequiredCheck {
  std::string context;
  std::optional<std::int64_t> app_id;
};

// One rule that applies to a branch (GET /repos/{repo}/rules/branches/{branch}): active
// rulesets only, of the repository or of its organization.
struct BranchRule {
  std::string type;                 // required_status_checks, merge_queue, pull_request, ...
  std::int64_t ruleset_id = 0;      // 0 when GitHub names none
  std::string ruleset_source;       // "owner/repo" or the organization
  std::string ruleset_source_type;  // Repository|Organization ("" when absent)
  std::vector<RequiredCheck> checks;  // required_status_checks only
};

// Classic branch protection's required status checks (GET .../branches/{branch}/protection).
struct BranchProtection {
  std::vector<RequiredCheck> checks;  // empty when the rule requires no status check
};

// Which branches may run a job that names a deployment environment.
enum class DeploymentBranches {
  all,                 // deployment_branch_policy null: every branch and tag
  protected_branches,  // branches with branch protection rules
  custom,              // the name patterns of list_deployment_branch_policies
};

struct DeploymentEnvironment {
  std::string name;
  DeploymentBranches branches = DeploymentBranches::all;
};

struct DeploymentBranchPolicy {
  std::int64_t id = 0;
  std::string name;  // a name pattern ("main", "release/*")
  std::string type;  // branch|tag ("" when absent: a branch)
};

// One entry of a folder listed through the contents API.
struct ContentEntry {
  std::string name;
  std::string path;
  std::string type;  // file|dir|symlink|submodule
};

// One update of a branch, as the repository's activity lists it (a push, a force push, a pull
// request's merge, a merge queue's merge, a creation or deletion).
struct RefActivity {
  std::int64_t id = 0;
  std::string ref;            // the full ref: "refs/heads/main"
  std::string before;         // the commit before
  std::string after;          // the commit after: the branch's tip from then on
  std::string activity_type;  // push|force_push|branch_creation|branch_deletion|pr_merge|merge_queue_merge
};

// True for GitHub's answer to an installation token calling an endpoint only users may call
// (HTTP 403 "Resource not accessible by integration").
bool is_integration_refusal(const Error& error);

// True for GitHub's 404 "Branch not protected" (a readable branch without protection), as
// against a 404 that hides the protection from a token without admin rights.
bool is_not_protected(const Error& error);

// A GitHub login: 1 to 39 letters, digits and hyphens, not starting or ending with a hyphen;
// or an app's account, NAME[bot].
bool is_login(std::string_view login);
// The account GitHub records for what a workflow's github.token creates (statuses, issues).
inline constexpr const char* kActionsBot = "github-actions[bot]";

// True when GitHub answered but the answer could not be read: a body that is not JSON, not
// JSON of the shape expected, or of another content type. A reader of many items can skip the
// one item (and say so) instead of stopping, as it must on a failure of the API itself.
bool is_unreadable_answer(const Error& error);

struct JsonAccess;  // gatekit/github_json.hpp

class Client {
 public:
  Client(ClientOptions options, HttpTransport& transport, Clock& clock,
         Workflow* workflow = nullptr, std::uint64_t jitter_seed = 0);
  // The same, owning its connection (see connect()).
  Client(ClientOptions options, std::unique_ptr<HttpTransport> transport, Clock& clock, Workflow* workflow);

  // Typed calls. Listings follow every Link rel=next page. Decoding is strict about the
  // fields the structs hold: a missing or mistyped required field fails the call.
  Result<PullRequest> get_pull_request(const std::string& repo, std::int64_t number);
  Result<std::vector<PullFile>> list_pull_request_files(const std::string& repo, std::int64_t number);

  // label: one label name, or "" for any; state: open|closed|all ("" = open). Pull requests,
  // which GitHub's issues listing also returns, are left out.
  Result<std::vector<Issue>> list_issues(const std::string& repo, const std::string& label,
                                         const std::string& state);
  Result<Issue> get_issue(const std::string& repo, std::int64_t number);
  Result<Issue> create_issue(const std::string& repo, const std::string& title, const std::string& body,
                             const std::vector<std::string>& labels);
  Result<Issue> update_issue(const std::string& repo, std::int64_t number, const IssueUpdate& fields);
  Result<IssueComment> add_issue_comment(const std::string& repo, std::int64_t number, const std::string& body);
  // The issue's label names afterwards.
  Result<std::vector<std::string>> add_labels(const std::string& repo, std::int64_t number,
                                              const std::vector<std::string>& labels);

  Result<CommitStatus> create_status(const std::string& repo, const std::string& sha, const CommitStatus& status);
  Result<std::vector<CommitStatus>> list_statuses(const std::string& repo, const std::string& sha);

  Result<GitRef> get_ref(const std::string& repo, const std::string& ref);  // "heads/main"
  // The updates of one branch, newest first (GET /repos/{owner}/{repo}/activity?ref=...):
  // `ref` is the full ref, refs/heads/main, which a tag cannot shadow. limit: as for runs.
  Result<std::vector<RefActivity>> list_ref_activity(const std::string& repo, const std::string& ref,
                                                     std::size_t limit = 0);

  // workflow_file: "ci.yml" or a numeric id, "" for all workflows; branch/status: "" = any.
  // Newest first. limit: stop after this many runs (0 = every page; "the last main run" is
  // limit 1, one request).
  Result<std::vector<WorkflowRun>> list_workflow_runs(const std::string& repo, const std::string& workflow_file,
                                                      const std::string& branch, const std::string& status,
                                                      std::size_t limit = 0);
  // The runs of one workflow created in `created` (GitHub's search syntax, e.g.
  // "2026-11-01T00:00:00Z..2026-11-08T00:00:00Z"), newest first, with total_count. limit:
  // stop after this many runs (0 = every page; 1 = one request that asks only for the count).
  Result<RunListing> list_workflow_runs_created(const std::string& repo, const std::string& workflow_file,
                                                const std::string& created, std::size_t limit = 0);
  // A check run's annotations (a job's check run has the job's id).
  Result<std::vector<CheckAnnotation>> list_check_run_annotations(const std::string& repo, std::int64_t check_run_id);
  Result<std::vector<WorkflowJob>> list_run_jobs(const std::string& repo, std::int64_t run_id);
  Result<std::vector<Artifact>> list_run_artifacts(const std::string& repo, std::int64_t run_id);
  Status dispatch_workflow(const std::string& repo, const std::string& workflow_file, const std::string& ref,
                           const std::map<std::string, std::string>& inputs);

  // The repository itself: its full name and default branch.
  Result<Repository> get_repository(const std::string& repo);
  // Every rule of an active ruleset that applies to `branch` (every page; the branch need not
  // exist). Rules of evaluate-mode or disabled rulesets are not listed by GitHub.
  Result<std::vector<BranchRule>> list_branch_rules(const std::string& repo, const std::string& branch);
  // The branch's classic protection; nullopt when GitHub answers 404 "Branch not protected".
  // Reading it takes admin rights: without them GitHub answers 403, or 404 "Not Found", which
  // stay errors (is_not_protected() tells the two 404s apart).
  Result<std::optional<BranchProtection>> get_branch_protection(const std::string& repo, const std::string& branch);
  // A deployment environment; nullopt when the repository has none of that name (404).
  Result<std::optional<DeploymentEnvironment>> get_environment(const std::string& repo, const std::string& name);
  Result<std::vector<DeploymentBranchPolicy>> list_deployment_branch_policies(const std::string& repo,
                                                                              const std::string& environment);
  // The names of an environment's variables and secrets (never a secret's value: GitHub gives none).
  Result<std::vector<std::string>> list_environment_variable_names(const std::string& repo,
                                                                   const std::string& environment);
  Result<std::vector<std::string>> list_environment_secret_names(const std::string& repo,
                                                                 const std::string& environment);
  // A repository variable's value; nullopt when it is not set (404).
  Result<std::optional<std::string>> get_repository_variable(const std::string& repo, const std::string& name);
  // The entries of a folder at `ref`; nullopt when there is no such folder (404).
  Result<std::optional<std::vector<ContentEntry>>> list_directory(const std::string& repo, const std::string& path,
                                                                  const std::string& ref);
  // A file's text at `ref` (its base64 content decoded). A file over GitHub's 1 MB limit for
  // this endpoint, a folder or a symlink is an error naming the path.
  Result<std::string> get_file_text(const std::string& repo, const std::string& path, const std::string& ref);

  // The token's own account (GET /user). An installation token (a GitHub App's, and Actions'
  // GITHUB_TOKEN) cannot call it: GitHub answers 403 "Resource not accessible by
  // integration", which is_integration_refusal() tells apart.
  Result<User> get_authenticated_user();

  // Requests sent so far (attempts included), for tests and the summary.
  int requests_sent() const;

 private:
  friend struct JsonAccess;
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

// The one way a tool builds a client: `options` (options_for(context): the run's API URL and
// GITHUB_TOKEN / GH_TOKEN, as the caller adjusts them), a new connection from
// context.make_transport that the client owns, the Context's clock, and its workflow, which
// masks the token. could_not_evaluate "no HTTP transport to reach GitHub" when the Context has
// no transport (a test without HTTP).
Result<Client> connect(Context& context, ClientOptions options);
Result<Client> connect(Context& context);

}  // namespace gatekit::github
