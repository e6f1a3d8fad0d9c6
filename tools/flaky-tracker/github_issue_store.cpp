// The issue store over the core GitHub client.
#include "gatekit/github.hpp"
#include "issue_store.hpp"

namespace gatekit::flaky_tracker {

namespace {

StoredIssue stored(const github::Issue& issue) {
  return {issue.number, issue.title, issue.body, issue.state, issue.html_url, issue.author};
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

  Result<StoredIssue> get(std::int64_t number) override {
    auto issue = client_.get_issue(repo_, number);
    if (!issue) return issue.error();
    if (issue->number != number || (issue->state != "open" && issue->state != "closed"))
      return could_not_evaluate("GET issue #" + std::to_string(number) + ": the answer has no number or state");
    return stored(*issue);
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
