#pragma once
// A thin wrapper over the `git` command. Every failure carries git's own stderr.
//
// Contract: no value handed to git can be read as an option. Revisions are checked with
// check_revision, other values (remotes, refspecs, ref patterns) with check_argument, before
// git runs; every command puts `--end-of-options` (git 2.24+) before them and `--` before
// paths. Output that carries paths is read in git's `-z` form, so names are never quoted.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
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

struct FetchOptions {
  std::optional<int> depth;   // --depth=N
  std::optional<int> deepen;  // --deepen=N
  bool unshallow = false;     // --unshallow
  bool prune = false;         // --prune: remove refs the refspecs map that the remote no longer has
};

class Git {
 public:
  Git(ProcessRunner& runner, std::filesystem::path repo) : runner_(runner), repo_(std::move(repo)) {}

  Result<std::string> rev_parse(const std::string& rev) const;
  // Changed files from base to head with rename detection. three_dot: from their merge base.
  Result<std::vector<FileChange>> diff(const std::string& base, const std::string& head,
                                       bool three_dot = false) const;
  // Whether the two revisions have a merge base in the clone (false also when one is missing).
  Result<bool> has_merge_base(const std::string& a, const std::string& b) const;
  Result<bool> is_shallow() const;
  Result<std::vector<RefEntry>> for_each_ref(const std::string& pattern) const;
  Status update_ref(const std::string& ref, const std::string& value) const;
  Status delete_ref(const std::string& ref) const;
  Status push(const std::string& remote, const std::vector<std::string>& refspecs) const;
  // refspecs: object names, ref names or `src:dst` specs (may be empty with unshallow).
  Status fetch(const std::string& remote, const std::vector<std::string>& refspecs,
               const FetchOptions& options = {}) const;
  Result<bool> has_commit(const std::string& rev) const;
  // The working tree's files matching `pathspec` (a git pathspec such as "*.py", checked
  // with check_argument): tracked, and untracked but not ignored (`ls-files --cached
  // --others --exclude-standard`); repository-relative, sorted, unique.
  Result<std::vector<std::string>> list_files(const std::string& pathspec) const;

  const std::filesystem::path& repo() const { return repo_; }
  // For commands this wrapper does not cover (gpu-gate's worktrees, commit-tree, cat-file
  // --batch): the caller keeps the contract above for every value it passes.
  ProcessRunner& runner() const { return runner_; }

 private:
  // Runs `git -C repo args...` (no prompts, C locale); the Result holds the process's result,
  // whatever its exit code.
  Result<ProcessResult> exec(const std::vector<std::string>& args) const;
  // exec, requiring success; the Result holds stdout.
  Result<std::string> run(const std::vector<std::string>& args) const;

  ProcessRunner& runner_;
  std::filesystem::path repo_;
};

// ---- pure helpers (exposed for tests) ----------------------------------------------------

// A revision gatekit may pass to git: a ref name as `git check-ref-format --allow-onelevel`
// accepts it (a branch, tag, remote-tracking name, HEAD or an object name), optionally
// followed by `~N`, `^N` or `^{commit|tree|blob|tag|object}` suffixes. Everything else is
// refused, in particular a leading '-' (git would read an option), control characters,
// spaces, `:`, `@{...}` and ranges. The error message names the problem and the value.
Status check_revision(std::string_view rev);

// A full object name: 40 (SHA-1) or 64 (SHA-256) hexadecimal digits.
bool is_object_name(std::string_view text);

// Any other value given to git (a remote, a refspec, a ref pattern): not empty, not starting
// with '-', no control characters. `what` names it in the message ("the remote").
Status check_argument(std::string_view what, std::string_view value);

// Decodes one path in git's C-style quoting (core.quotePath): a path that starts with '"'
// must be a whole quoted string with the escapes \a \b \t \n \v \f \r \" \\ and \NNN (three
// octal digits, bytes 0-255); anything else is an error naming the problem. A path not
// starting with '"' is returned unchanged.
Result<std::string> unquote_c_style(std::string_view text);

// The value as it may appear in a message: in single quotes, control characters and DEL
// written as \xNN, cut after `limit` bytes (then "...").
std::string quote_for_message(std::string_view value, std::size_t limit = 80);

// Parses `git diff --name-status -z` output.
Result<std::vector<FileChange>> parse_name_status_z(std::string_view text);

}  // namespace gatekit
