#pragma once
// In-memory IssueStore for tests: issues by number, comments, a call log, a failure from the
// n-th call on (the API going down), failing comments (comment_fails: the next ones answer
// comment_status), and a hook run before each update (another run writing in between:
// after_update overwrites what this run just wrote). Issues it creates are opened by `login`.
// list_repeats > 1 lists every issue that many times (a store that does not de-duplicate).
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "issue_store.hpp"

namespace gatekit::flaky_tracker::testing {

class MemoryIssueStore final : public IssueStore {
 public:
  std::map<std::int64_t, StoredIssue> issues;
  std::map<std::int64_t, std::vector<std::string>> comments;
  std::vector<std::string> calls;
  int fail_from_call = 0;  // 0: never; n: the n-th call and every later one fail
  int comment_fails = 0;   // the next this many comments fail with comment_status
  int comment_status = 503;
  std::string login = "gatekit-bot";
  int list_repeats = 1;
  std::function<void(std::int64_t)> before_update;
  std::function<void(std::int64_t)> after_update;

  Result<std::vector<StoredIssue>> list(const std::string&) override {
    if (auto s = call("list"); !s) return s.error();
    std::vector<StoredIssue> out;
    for (int i = 0; i < list_repeats; ++i)
      for (const auto& [n, issue] : issues) out.push_back(issue);
    return out;
  }
  Result<StoredIssue> get(std::int64_t number) override {
    if (auto s = call("get #" + std::to_string(number)); !s) return s.error();
    return issues.at(number);
  }
  Result<StoredIssue> create(const std::string& title, const std::string& body, const std::string&) override {
    if (auto s = call("create"); !s) return s.error();
    const std::int64_t n = issues.empty() ? 1 : issues.rbegin()->first + 1;
    issues[n] = {n, title, body, "open", "https://github.test/o/r/issues/" + std::to_string(n), login};
    return issues[n];
  }
  Status update(std::int64_t number, const std::optional<std::string>& body,
                const std::optional<std::string>& state) override {
    if (auto s = call("update #" + std::to_string(number) + (state ? " " + *state : "")); !s) return s;
    if (before_update) before_update(number);
    if (body) issues.at(number).body = *body;
    if (state) issues.at(number).state = *state;
    if (after_update) after_update(number);
    return {};
  }
  Status comment(std::int64_t number, const std::string& body) override {
    if (auto s = call("comment #" + std::to_string(number)); !s) return s;
    if (comment_fails > 0) {
      --comment_fails;
      Error e = could_not_evaluate("POST /repos/o/r/issues/" + std::to_string(number) + "/comments: HTTP " +
                                   std::to_string(comment_status));
      e.http_status = comment_status;
      return e;
    }
    if (!issues.count(number)) {
      Error e = could_not_evaluate("POST /repos/o/r/issues/" + std::to_string(number) + "/comments: HTTP 404: Not Found");
      e.http_status = 404;
      return e;
    }
    comments[number].push_back(body);
    return {};
  }

 private:
  Status call(std::string what) {
    calls.push_back(std::move(what));
    if (fail_from_call > 0 && static_cast<int>(calls.size()) >= fail_from_call)
      return could_not_evaluate("GET /repos/o/r/issues: HTTP 503: Service Unavailable");
    return {};
  }
};

}  // namespace gatekit::flaky_tracker::testing
