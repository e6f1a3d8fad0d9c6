#pragma once
// A thin wrapper over the `git` command. Every failure carries git's own stderr.
//
// Contract: no value handed to git can be read as an option. A command line is a GitCommand:
// its options are GitWords, which only a string literal makes, and every value goes through
// a typed call that checks it before git runs (revisions with check_revision, other values
// such as remotes, refspecs and ref patterns with check_argument) and puts
// `--end-of-options` (git 2.24+) before the first of them and `--` before paths. Output that
// carries paths is read in git's `-z` form, so names are never quoted.
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <map>
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

// A fixed word of a git command line: a subcommand, an option, a format. Only a string literal
// (or a constexpr character array) converts to it, at compile time, so text from outside data
// can never become one.
class GitWord {
 public:
  template <std::size_t N>
  consteval GitWord(const char (&text)[N]) : text_(text, N - 1) {}  // NOLINT: implicit on purpose
  constexpr std::string_view text() const { return text_; }

 private:
  std::string_view text_;
};

// One git command line, built from fixed words and checked values, plus its standard input and
// environment. A refused value is kept as the command's problem(): Git::exec returns it and
// runs nothing. Values come after the options; the first one is preceded by `--end-of-options`.
//
//   GitCommand{"log", "-1", "--format=%H %T"}.revision(rev, "^{commit}").paths({})
//   -> git log -1 '--format=%H %T' --end-of-options main^{commit} --
class GitCommand {
 public:
  GitCommand(std::initializer_list<GitWord> words);
  // More fixed words, wherever they stand (an empty old value after update-ref's values).
  GitCommand& words(std::initializer_list<GitWord> words);
  // One word: the fixed name followed by a value ("--skip=" and 3, "--force-with-lease=" and a
  // ref:object pair). The name comes first, so git reads the value as the option's; a value
  // with a control character is refused.
  GitCommand& option(GitWord name, std::string_view value);
  GitCommand& option(GitWord name, long long value);
  // A revision (check_revision), written with a fixed suffix such as "^{commit}".
  GitCommand& revision(std::string_view rev, GitWord suffix = "");
  // base..head, or base...head (three_dot); both ends checked as revisions.
  GitCommand& range(std::string_view base, std::string_view head, bool three_dot);
  // Any other value (check_argument): `what` names it in the message ("the remote").
  GitCommand& argument(std::string_view what, std::string_view value);
  // A full object name (is_object_name): it cannot be read as an option, so it needs no
  // `--end-of-options` (for commands such as commit-tree).
  GitCommand& object(std::string_view name);
  // `--`, then the paths (none: just `--`, so no later word can be read as a revision).
  GitCommand& paths(const std::vector<std::string>& paths);
  GitCommand& input(std::string data);
  GitCommand& env(GitWord name, std::string value);
  // Cleanup of what the tool made (ProcessSpec::cleanup): it runs to its end, within
  // kCleanupTimeout, even once the tool has received a termination signal.
  GitCommand& cleanup();

  const std::vector<std::string>& args() const { return args_; }
  const std::optional<std::string>& stdin_data() const { return input_; }
  const std::map<std::string, std::string>& environment() const { return env_; }
  bool is_cleanup() const { return cleanup_; }
  // The first refused value, if any.
  const Status& problem() const { return problem_; }
  // "git ARGS" for messages: an argument with a control character (a path) is quoted.
  std::string describe() const;

 private:
  void add_value(std::string word);
  void refuse(const Status& status);

  std::vector<std::string> args_;
  bool values_started_ = false;
  Status problem_;
  std::optional<std::string> input_;
  std::map<std::string, std::string> env_;
  bool cleanup_ = false;
};

// The limit of a cleanup command (GitCommand::cleanup).
inline constexpr std::chrono::seconds kCleanupTimeout{30};

class Git {
 public:
  Git(ProcessRunner& runner, std::filesystem::path repo) : runner_(runner), repo_(std::move(repo)) {}

  Result<std::string> rev_parse(const std::string& rev) const;
  // `rev` with the branch it names spelled as a full ref, so that a tag named like the branch
  // never stands for it: git's own lookup prefers refs/tags/NAME to refs/heads/NAME, and
  // refs/tags/origin/NAME to refs/remotes/origin/NAME. NAME (with any ~N, ^N, ^{...} suffix
  // kept) becomes refs/heads/NAME when that branch exists, else refs/remotes/NAME (a
  // remote-tracking name such as origin/main), else refs/remotes/REMOTE/NAME. An object name,
  // a full ref (refs/...), HEAD-like names, and a name no such branch has (a tag, a commit the
  // clone lacks) come back as they are. A revision check_revision refuses is an error.
  Result<std::string> branch_first(const std::string& rev, const std::string& remote = "origin") const;
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
  // The process seam git runs through, for the programs git itself hands work to (gpu-gate
  // runs ssh-keygen, as git's signature check does, to judge a certificate at another time).
  ProcessRunner& runner() const { return runner_; }

  // Any other command (gpu-gate's worktrees, commit-tree, cat-file --batch): runs
  // `git -C repo ARGS` (no prompts, C locale) with the command's input and environment. The
  // Result holds the process's result, whatever its exit code; a command with a problem()
  // returns it and runs nothing.
  Result<ProcessResult> exec(const GitCommand& command) const;
  // exec, requiring success; the Result holds stdout. A failure is could_not_evaluate,
  // "git ARGS failed (exit code N): STDERR".
  Result<std::string> run(const GitCommand& command) const;

 private:
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

// The full refs a revision names when it names a branch, in the order Git::branch_first tries
// them, each with the revision's suffix: refs/heads/NAME, refs/remotes/NAME and (with a
// remote) refs/remotes/REMOTE/NAME. None for an object name, a full ref (refs/...) or a
// HEAD-like name (HEAD, FETCH_HEAD). Pure; the revision is one check_revision accepts.
std::vector<std::string> branch_candidates(std::string_view rev, std::string_view remote);

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
