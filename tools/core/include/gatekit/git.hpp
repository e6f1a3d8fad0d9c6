#pragma once
// A thin wrapper over the `git` command. Every failure carries git's own stderr.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gatekit/process.hpp"
#include "gatekit/result.hpp"

namespace gatekit {

struct FileChange {
  char status = 'M';          // A, C, D, M, R, T (git's letters)
  std::string path;           // the path after the change
  std::string previous_path;  // renames and copies: the path before
};

struct RefEntry {
  std::string name;       // refs/...
  std::string object;     // object name
  std::string committer_date;  // ISO 8601 strict, when the ref points at a commit or tag
};

class Git {
 public:
  Git(ProcessRunner& runner, std::filesystem::path repo) : runner_(runner), repo_(std::move(repo)) {}

  // Runs `git -C repo args...`; the Result holds stdout.
  Result<std::string> run(const std::vector<std::string>& args,
                          std::optional<std::string> stdin_data = std::nullopt) const;

  Result<std::string> rev_parse(const std::string& rev) const;
  // Changed files from base to head with rename detection. three_dot: from their merge base.
  Result<std::vector<FileChange>> diff(const std::string& base, const std::string& head,
                                       bool three_dot = false) const;
  Result<std::vector<RefEntry>> for_each_ref(const std::string& pattern) const;
  Status update_ref(const std::string& ref, const std::string& value) const;
  Status delete_ref(const std::string& ref) const;
  Status push(const std::string& remote, const std::vector<std::string>& refspecs) const;
  Status fetch(const std::string& remote, const std::vector<std::string>& refspecs,
               std::optional<int> depth = std::nullopt) const;
  Result<bool> has_commit(const std::string& rev) const;

  const std::filesystem::path& repo() const { return repo_; }

 private:
  ProcessRunner& runner_;
  std::filesystem::path repo_;
};

// Parses `git diff --name-status -z` output (exposed for tests).
Result<std::vector<FileChange>> parse_name_status_z(std::string_view text);

}  // namespace gatekit
