#pragma once
// Where flaky-test issues live: GitHub through the core client, or memory in tests.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gatekit/result.hpp"

namespace gatekit::github {
class Client;
}

namespace gatekit::flaky_tracker {

struct StoredIssue {
  std::int64_t number = 0;
  std::string title;
  std::string body;
  std::string state;  // open|closed
  std::string url;
  std::string author;  // the login that opened it (GitHub's record; "" when unknown)
};

class IssueStore {
 public:
  virtual ~IssueStore() = default;
  // Every issue with the label, open and closed.
  virtual Result<std::vector<StoredIssue>> list(const std::string& label) = 0;
  virtual Result<StoredIssue> get(std::int64_t number) = 0;
  virtual Result<StoredIssue> create(const std::string& title, const std::string& body, const std::string& label) = 0;
  // Sets the body and/or the state (open|closed); unset fields stay.
  virtual Status update(std::int64_t number, const std::optional<std::string>& body,
                        const std::optional<std::string>& state) = 0;
  virtual Status comment(std::int64_t number, const std::string& body) = 0;
};

std::unique_ptr<IssueStore> make_github_issue_store(github::Client& client, std::string repo);

}  // namespace gatekit::flaky_tracker
