// Decoding GitHub's JSON into the client's structs, and GitHub's error bodies.
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/github_decode.hpp"

using namespace gatekit;
using namespace gatekit::github;
using namespace gatekit::github::detail;
namespace json = boost::json;

TEST_CASE("github: a pull request decodes, changed_files included") {
  auto v = json::parse(R"({"number": 7, "state": "open", "changed_files": 3500,
      "head": {"sha": "h", "ref": "feature"}, "base": {"sha": "b", "ref": "main"}})");
  auto pr = decode_pull_request(v);
  REQUIRE(pr.ok());
  CHECK(pr->number == 7);
  CHECK(pr->head_sha == "h");
  CHECK(pr->base_ref == "main");
  CHECK(pr->changed_files == 3500);
}

TEST_CASE("github: decoding errors name the field") {
  struct Row {
    std::string body;
    std::string error;
  };
  const std::vector<Row> rows = {
      {R"([1])", "expected a JSON object"},
      {R"({"state": "open", "head": {"sha": "h", "ref": "f"}, "base": {"sha": "b", "ref": "m"}})", "field `number`: missing"},
      {R"({"number": "7", "state": "open", "head": {"sha": "h", "ref": "f"}, "base": {"sha": "b", "ref": "m"}})",
       "field `number`: expected an integer"},
      {R"({"number": 7, "state": "open", "head": {"ref": "f"}, "base": {"sha": "b", "ref": "m"}})", "field `head.sha`: missing"},
      {R"({"number": 7, "state": "open", "head": null, "base": {"sha": "b", "ref": "m"}})",
       "field `head`: expected a JSON object"},
  };
  for (const auto& row : rows) {
    INFO(row.body);
    auto pr = decode_pull_request(json::parse(row.body));
    REQUIRE_FALSE(pr.ok());
    CHECK(pr.error().message == row.error);
  }
}

TEST_CASE("github: changed_files other than an integer reads as unknown (-1)") {
  for (const char* value : {"null", "\"12\"", "1.5"}) {
    auto body = std::string(R"({"number": 1, "state": "open", "head": {"sha": "h", "ref": "f"},
        "base": {"sha": "b", "ref": "m"}, "changed_files": )") + value + "}";
    auto pr = decode_pull_request(json::parse(body));
    REQUIRE(pr.ok());
    CHECK(pr->changed_files == -1);
  }
}

TEST_CASE("github: files, issues, statuses, runs, jobs, artifacts decode") {
  auto files = decode_array<PullFile>(json::parse(R"([{"filename": "a", "status": "added"},
      {"filename": "b", "status": "renamed", "previous_filename": "c"}])"), decode_pull_file);
  REQUIRE(files.ok());
  REQUIRE(files->size() == 2);
  CHECK((*files)[1].previous_filename == "c");
  CHECK((*files)[0].previous_filename.empty());

  auto bad = decode_array<PullFile>(json::parse(R"([{"filename": "a", "status": "added"}, {"status": "added"}])"),
                                    decode_pull_file);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "item 1: field `filename`: missing");

  auto issue = decode_issue(json::parse(R"({"number": 3, "title": "t", "body": null, "state": "open",
      "labels": [{"name": "flaky"}, "gpu"], "html_url": "https://github.com/o/r/issues/3"})"));
  REQUIRE(issue.ok());
  CHECK(issue->body.empty());
  CHECK(issue->labels == std::vector<std::string>{"flaky", "gpu"});
  CHECK(issue->author.empty());  // no user: nobody a tool would trust

  // Who opened it: user.login; a deleted account (null) reads as "", a user without a login fails.
  const std::vector<std::pair<std::string, std::string>> authors = {
      {R"("user": {"login": "github-actions[bot]", "type": "Bot"})", "github-actions[bot]"},
      {R"("user": null)", ""},
  };
  for (const auto& [user, login] : authors) {
    INFO(user);
    auto by = decode_issue(json::parse(R"({"number": 3, "title": "t", "state": "open", )" + user + "}"));
    REQUIRE(by.ok());
    CHECK(by->author == login);
  }
  CHECK(decode_issue(json::parse(R"({"number": 3, "title": "t", "state": "open", "user": {"id": 1}})")).error().message ==
        "field `user.login`: missing");
  CHECK(decode_issue(json::parse(R"({"number": 3, "title": "t", "state": "open", "user": "octocat"})")).error().message ==
        "field `user`: expected a JSON object");

  auto me = decode_user(json::parse(R"({"login": "octocat", "id": 1, "type": "User"})"));
  REQUIRE(me.ok());
  CHECK(me->login == "octocat");
  CHECK(me->type == "User");
  CHECK(decode_user(json::parse(R"({"id": 1})")).error().message == "field `login`: missing");
  CHECK(decode_user(json::parse(R"({"login": ""})")).error().message == "field `login`: empty");

  auto status = decode_status(json::parse(R"({"state": "success", "context": "c", "description": null,
      "target_url": null, "created_at": "2024-01-01T00:00:00Z"})"));
  REQUIRE(status.ok());
  CHECK(status->state == "success");
  CHECK(status->description.empty());
  CHECK(status->creator.empty());  // no creator: nothing trusts it
  // Who posted it: an app's bot; null (a deleted account) reads as "", a creator without a login fails.
  auto by_app = decode_status(json::parse(R"({"state": "failure", "context": "gate/gpu",
      "creator": {"login": "gatekit-gate[bot]", "type": "Bot"}})"));
  REQUIRE(by_app.ok());
  CHECK(by_app->creator == "gatekit-gate[bot]");
  CHECK(decode_status(json::parse(R"({"state": "failure", "context": "c", "creator": null})"))->creator.empty());
  CHECK(decode_status(json::parse(R"({"state": "failure", "context": "c", "creator": {"id": 1}})")).error().message ==
        "field `creator.login`: missing");

  auto run = decode_run(json::parse(R"({"id": 9, "head_sha": "s", "status": "completed", "conclusion": null})"));
  REQUIRE(run.ok());
  CHECK(run->id == 9);
  CHECK(run->conclusion.empty());
  CHECK(run->repository.empty());
  CHECK(run->head_repository.empty());

  // A fork's pull request: the head repository is named apart; a deleted fork's is null.
  auto fork = decode_run(json::parse(R"({"id": 9, "head_sha": "s", "status": "completed",
      "repository": {"full_name": "o/r"}, "head_repository": {"full_name": "fork/r"}})"));
  REQUIRE(fork.ok());
  CHECK(fork->repository == "o/r");
  CHECK(fork->head_repository == "fork/r");
  auto gone = decode_run(json::parse(R"({"id": 9, "head_sha": "s", "status": "completed",
      "repository": {"full_name": "o/r"}, "head_repository": null})"));
  REQUIRE(gone.ok());
  CHECK(gone->head_repository.empty());
  auto bad_repo = decode_run(json::parse(R"({"id": 9, "head_sha": "s", "status": "completed",
      "repository": {"full_name": 7}})"));
  REQUIRE_FALSE(bad_repo.ok());
  CHECK(bad_repo.error().message == "field `repository.full_name`: expected a string");

  auto job = decode_job(json::parse(R"j({"id": 1, "name": "test (gpu, 2)", "status": "completed", "conclusion": "failure"})j"));
  REQUIRE(job.ok());
  CHECK(job->name == "test (gpu, 2)");

  auto artifact = decode_artifact(json::parse(R"({"id": 1, "name": "junit", "size_in_bytes": 10, "expired": "no"})"));
  REQUIRE_FALSE(artifact.ok());
  CHECK(artifact.error().message == "field `expired`: expected true or false");
}

TEST_CASE("github: jobs keep their labels, runner and queue time; annotations their message") {
  auto job = decode_job(json::parse(R"j({"id": 1, "name": "pytest (GPU)", "status": "completed",
      "conclusion": "skipped", "labels": ["self-hosted", "gpu"], "runner_name": null,
      "created_at": "2026-11-02T10:00:00Z", "started_at": "2026-11-02T10:05:00Z"})j"));
  REQUIRE(job.ok());
  CHECK(job->labels == std::vector<std::string>{"self-hosted", "gpu"});
  CHECK(job->runner_name.empty());
  CHECK(job->created_at == "2026-11-02T10:00:00Z");
  CHECK(job->started_at == "2026-11-02T10:05:00Z");
  const std::vector<std::pair<std::string, std::string>> bad{
      {R"({"id": 1, "name": "a", "status": "completed", "labels": [1]})", "field `labels`: item 0: expected a string"},
      {R"({"id": 1, "name": "a", "status": "completed", "labels": "gpu"})", "field `labels`: expected a JSON array"},
      {R"({"id": 1, "name": "a", "status": "completed", "created_at": 5})", "field `created_at`: expected a string"},
  };
  for (const auto& [text, message] : bad) {
    INFO(text);
    auto got = decode_job(json::parse(text));
    REQUIRE_FALSE(got.ok());
    CHECK(got.error().message == message);
  }
  auto note = decode_annotation(json::parse(R"({"annotation_level": "warning", "title": "path gate",
      "message": "fail-open: the GitHub API failed"})"));
  REQUIRE(note.ok());
  CHECK(note->level == "warning");
  CHECK(note->message == "fail-open: the GitHub API failed");
  CHECK_FALSE(decode_annotation(json::parse(R"({"annotation_level": "warning"})")).ok());
  auto issue = decode_issue(json::parse(R"({"number": 3, "title": "t", "state": "closed",
      "created_at": "2026-11-02T10:00:00Z", "closed_at": "2026-11-03T10:00:00Z"})"));
  REQUIRE(issue.ok());
  CHECK(issue->created_at == "2026-11-02T10:00:00Z");
  CHECK(issue->closed_at == "2026-11-03T10:00:00Z");
}

TEST_CASE("github: error bodies become typed errors with GitHub's message") {
  HttpResponse r;
  r.status = 422;
  r.headers = {{"content-type", "application/json"}};
  r.body = R"({"message": "Validation Failed", "errors": [{"resource": "Label", "code": "invalid", "field": "color"}],
      "documentation_url": "https://docs.github.com/rest/issues/labels#create-a-label"})";
  auto e = error_from_response(r, "POST", "https://api.github.com/repos/o/r/labels");
  CHECK(e.kind == ErrorKind::could_not_evaluate);
  CHECK(e.http_status == 422);
  CHECK(e.message ==
        "POST /repos/o/r/labels: HTTP 422: Validation Failed (Label.color invalid) "
        "(https://docs.github.com/rest/issues/labels#create-a-label)");

  r.status = 502;
  r.body = "<html>\n<h1>Bad gateway</h1></html>";
  CHECK(error_from_response(r, "GET", "https://h/x").message == "GET /x: HTTP 502: <html> <h1>Bad gateway</h1></html>");
  CHECK(error_from_response(r, "GET", "https://h/x", " (gave up after 2 attempts)").message ==
        "GET /x: HTTP 502: <html> <h1>Bad gateway</h1></html> (gave up after 2 attempts)");
}

TEST_CASE("github: a refused request names the permissions GitHub accepts (X-Accepted-GitHub-Permissions)") {
  HttpResponse r;
  r.status = 403;
  r.headers = {{"content-type", "application/json"}, {"x-accepted-github-permissions", "administration=read"}};
  r.body = R"({"message": "Resource not accessible by personal access token",
      "documentation_url": "https://docs.github.com/rest/branches/branch-protection#get-branch-protection"})";
  CHECK(error_from_response(r, "GET", "https://api.github.com/repos/o/r/branches/main/protection").message ==
        "GET /repos/o/r/branches/main/protection: HTTP 403: Resource not accessible by personal access token; "
        "GitHub accepts a token with administration=read "
        "(https://docs.github.com/rest/branches/branch-protection#get-branch-protection)");
  r.status = 422;  // only refusals name them
  CHECK(error_from_response(r, "GET", "https://h/x").message.find("accepts") == std::string::npos);
}

TEST_CASE("github: bodies must be JSON with a JSON content type") {
  HttpResponse r;
  r.status = 200;
  r.headers = {{"content-type", "text/html"}};
  r.body = "<html>login</html>";
  auto parsed = parse_body(r);
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.error().message == "expected a JSON body, got content type 'text/html' (18 bytes: <html>login</html>)");

  r.headers = {{"content-type", "application/json; charset=utf-8"}};
  r.body = R"({"a": )";
  parsed = parse_body(r);
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.error().message.rfind("invalid JSON in a 6-byte body: ", 0) == 0);

  r.body = "";
  parsed = parse_body(r);
  REQUIRE(parsed.ok());
  CHECK(parsed->is_null());
}

// ---- what gatekit-doctor reads --------------------------------------------------------

TEST_CASE("github: branch rules decode; a required_status_checks rule keeps each check's integration") {
  auto rules = decode_array<BranchRule>(json::parse(R"([
      {"type": "required_status_checks", "ruleset_source_type": "Repository", "ruleset_source": "o/r",
       "ruleset_id": 42, "parameters": {"strict_required_status_checks_policy": false,
        "required_status_checks": [{"context": "CPU tests", "integration_id": 15368}, {"context": "gate/gpu"}]}},
      {"type": "merge_queue", "ruleset_id": 43, "parameters": {"merge_method": "MERGE"}},
      {"type": "deletion"}])"), decode_branch_rule);
  REQUIRE(rules.ok());
  REQUIRE(rules->size() == 3);
  const auto& checks = (*rules)[0].checks;
  REQUIRE(checks.size() == 2);
  CHECK(checks[0].context == "CPU tests");
  CHECK(checks[0].app_id == 15368);
  CHECK(checks[1].context == "gate/gpu");
  CHECK_FALSE(checks[1].app_id.has_value());
  CHECK((*rules)[0].ruleset_id == 42);
  CHECK((*rules)[0].ruleset_source == "o/r");
  CHECK((*rules)[1].type == "merge_queue");
  CHECK((*rules)[1].checks.empty());
  CHECK((*rules)[2].ruleset_id == 0);
}

TEST_CASE("github: the doctor's decoders name the field that is wrong") {
  struct Row {
    std::string body;
    std::string error;
  };
  const std::vector<Row> rules = {
      {R"({"ruleset_id": 1})", "field `type`: missing"},
      {R"({"type": "required_status_checks"})", "field `parameters`: expected a JSON object"},
      {R"({"type": "required_status_checks", "parameters": {}})", "field `parameters.required_status_checks`: missing"},
      {R"({"type": "required_status_checks", "parameters": {"required_status_checks": [{"integration_id": 1}]}})",
       "field `parameters.required_status_checks`: item 0: field `context`: missing"},
      {R"({"type": "required_status_checks", "parameters": {"required_status_checks": [{"context": "a",
          "integration_id": "15368"}]}})",
       "field `parameters.required_status_checks`: item 0: field `integration_id`: expected an integer"},
  };
  for (const auto& row : rules) {
    INFO(row.body);
    auto rule = decode_branch_rule(json::parse(row.body));
    REQUIRE_FALSE(rule.ok());
    CHECK(rule.error().message == row.error);
  }
  const std::vector<Row> environments = {
      {R"({"deployment_branch_policy": null})", "field `name`: missing"},
      {R"({"name": "e", "deployment_branch_policy": {"protected_branches": true}})",
       "field `deployment_branch_policy.custom_branch_policies`: missing"},
      {R"({"name": "e", "deployment_branch_policy": {"protected_branches": true, "custom_branch_policies": true}})",
       "field `deployment_branch_policy`: protected_branches and custom_branch_policies are both true"},
  };
  for (const auto& row : environments) {
    INFO(row.body);
    auto environment = decode_environment(json::parse(row.body));
    REQUIRE_FALSE(environment.ok());
    CHECK(environment.error().message == row.error);
  }
}

TEST_CASE("github: branch protection's checks, with the older contexts list as any source") {
  auto protection = decode_branch_protection(json::parse(R"({"required_status_checks": {
      "contexts": ["GPU tests", "lint"], "checks": [{"context": "GPU tests", "app_id": 15368}]}})"));
  REQUIRE(protection.ok());
  REQUIRE(protection->checks.size() == 2);
  CHECK(protection->checks[0].context == "GPU tests");
  CHECK(protection->checks[0].app_id == 15368);
  CHECK(protection->checks[1].context == "lint");
  CHECK_FALSE(protection->checks[1].app_id.has_value());
  auto any = decode_branch_protection(json::parse(R"({"required_status_checks": {
      "contexts": ["lint"], "checks": [{"context": "lint", "app_id": -1}]}})"));
  REQUIRE(any.ok());
  REQUIRE(any->checks.size() == 1);
  CHECK_FALSE(any->checks[0].app_id.has_value());  // -1: any app may set it
  auto none = decode_branch_protection(json::parse(R"({"enforce_admins": {"enabled": false}})"));
  REQUIRE(none.ok());
  CHECK(none->checks.empty());
}

TEST_CASE("github: an environment's deployment branches") {
  struct Row {
    std::string policy;
    DeploymentBranches branches;
  };
  for (const auto& row : std::vector<Row>{
           {"null", DeploymentBranches::all},
           {R"({"protected_branches": true, "custom_branch_policies": false})", DeploymentBranches::protected_branches},
           {R"({"protected_branches": false, "custom_branch_policies": true})", DeploymentBranches::custom}}) {
    INFO(row.policy);
    auto environment = decode_environment(json::parse(R"({"name": "gatekit-gate", "deployment_branch_policy": )" +
                                                      row.policy + "}"));
    REQUIRE(environment.ok());
    CHECK(environment->name == "gatekit-gate");
    CHECK(environment->branches == row.branches);
  }
}

TEST_CASE("github: a file of the contents API is its base64 content, line breaks and all") {
  // "name: CI\non: pull_request\n" as GitHub sends it: base64 with a line break every 60 characters.
  auto text = decode_file_content(json::parse(R"({"type": "file", "path": ".github/workflows/ci.yml",
      "encoding": "base64", "content": "bmFtZTogQ0kKb246IHB1bGxf\ncmVxdWVzdAo=\n"})"));
  REQUIRE(text.ok());
  CHECK(*text == "name: CI\non: pull_request\n");
  auto big = decode_file_content(json::parse(R"({"type": "file", "path": "big.yml", "encoding": "none", "content": ""})"));
  REQUIRE_FALSE(big.ok());
  CHECK(big.error().message ==
        "big.yml: the contents API gave no content (encoding 'none'; it gives none for a file over 1 MB)");
  auto folder = decode_file_content(json::parse(R"({"type": "dir", "path": ".github"})"));
  REQUIRE_FALSE(folder.ok());
  CHECK(folder.error().message == ".github is a dir, not a file");
}

TEST_CASE("github: base64 decoding, table-driven") {
  struct Row {
    std::string text;
    std::string decoded;  // or the error
    bool ok;
  };
  const std::vector<Row> rows = {
      {"", "", true},
      {"YQ==", "a", true},
      {"YQ", "a", true},
      {"YWI=", "ab", true},
      {"YWJj", "abc", true},
      {"YWJj\nZA==\n", "abcd", true},
      {"/+8=", "\xff\xef", true},
      {"YWJj!", "not base64: character 5 is '!'", false},
      {"Y", "not base64: 1 digits cannot end a group", false},
      {"YWJjZ=", "not base64: 5 digits cannot end a group", false},
      {"YQ=", "not base64: 2 digits cannot end a group", false},
  };
  for (const auto& row : rows) {
    INFO(row.text);
    auto decoded = decode_base64(row.text);
    REQUIRE(decoded.ok() == row.ok);
    CHECK((row.ok ? *decoded : decoded.error().message) == row.decoded);
  }
}
