// The issue store over the core GitHub client.
#include "gatekit/github.hpp"
#include "gatekit/github_json.hpp"
#include "issue_store.hpp"

namespace gatekit::flaky_tracker {

namespace {

StoredIssue stored(const github::Issue& issue) {
  return {issue.number, issue.title, issue.body, issue.state, issue.html_url};
}

class GitHubIssueStore final : public IssueStore {
 public:
  GitHubIssueStore(github::Client& client, std::string repo) : client_(client), repo_(std::move(repo)) {}

  Result<std::vector<StoredIssue>> list(const std::string& label) override {
    auto issues = client_.list_issues(repo_, label, "all");
    if (!issues) return issues.error();
    std::vector<StoredIssue> out;
    for (const auto& issue : *issues) out.push_back(stored(issue));
    return out;
  }

  // The client has no typed single-issue call: the raw one, decoded here.
  Result<StoredIssue> get(std::int64_t number) override {
    auto value = github::request(client_, "GET", "/repos/" + repo_ + "/issues/" + std::to_string(number));
    if (!value) return value.error();
    if (!value->is_object()) return could_not_evaluate("GET issue #" + std::to_string(number) + ": not a JSON object");
    const auto& o = value->get_object();
    StoredIssue issue{json_int_at(o, "number").value_or(0), json_string_at(o, "title").value_or(""),
                      json_string_at(o, "body").value_or(""), json_string_at(o, "state").value_or(""),
                      json_string_at(o, "html_url").value_or("")};
    if (issue.number != number || (issue.state != "open" && issue.state != "closed"))
      return could_not_evaluate("GET issue #" + std::to_string(number) + ": the answer has no number or state");
    return issue;
  }

  Result<StoredIssue> create(const std::string& title, const std::string& body, const std::string& label) override {
    auto issue = client_.create_issue(repo_, title, body, {label});
    if (!issue) return issue.error();
    return stored(*issue);
  }

  Status update(std::int64_t number, const std::optional<std::string>& body,
                const std::optional<std::string>& state) override {
    github::IssueUpdate fields;
    fields.body = body;
    fields.state = state;
    auto issue = client_.update_issue(repo_, number, fields);
    if (!issue) return issue.error();
    return {};
  }

  Status comment(std::int64_t number, const std::string& body) override {
    auto c = client_.add_issue_comment(repo_, number, body);
    if (!c) return c.error();
    return {};
  }

 private:
  github::Client& client_;
  std::string repo_;
};

}  // namespace

std::unique_ptr<IssueStore> make_github_issue_store(github::Client& client, std::string repo) {
  return std::make_unique<GitHubIssueStore>(client, std::move(repo));
}

}  // namespace gatekit::flaky_tracker
