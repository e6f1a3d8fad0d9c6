#include "gatekit/git.hpp"

#include <algorithm>

#include "gatekit/text.hpp"

namespace gatekit {

// ---- GitCommand --------------------------------------------------------------------------

GitCommand::GitCommand(std::initializer_list<GitWord> words) { this->words(words); }

GitCommand& GitCommand::words(std::initializer_list<GitWord> words) {
  for (const auto& word : words) args_.emplace_back(word.text());
  return *this;
}

GitCommand& GitCommand::option(GitWord name, std::string_view value) {
  if (has_control(value))
    refuse(could_not_evaluate("the value of " + std::string(name.text()) + " " + quote_for_message(value) +
                              " contains a control character"));
  args_.push_back(std::string(name.text()).append(value));
  return *this;
}

GitCommand& GitCommand::option(GitWord name, long long value) { return option(name, std::to_string(value)); }

GitCommand& GitCommand::revision(std::string_view rev, GitWord suffix) {
  refuse(check_revision(rev));
  add_value(std::string(rev).append(suffix.text()));
  return *this;
}

GitCommand& GitCommand::range(std::string_view base, std::string_view head, bool three_dot) {
  refuse(check_revision(base));
  refuse(check_revision(head));
  add_value(std::string(base).append(three_dot ? "..." : "..").append(head));
  return *this;
}

GitCommand& GitCommand::argument(std::string_view what, std::string_view value) {
  refuse(check_argument(what, value));
  add_value(std::string(value));
  return *this;
}

GitCommand& GitCommand::object(std::string_view name) {
  if (!is_object_name(name)) refuse(could_not_evaluate("not an object name: " + quote_for_message(name)));
  args_.emplace_back(name);
  return *this;
}

GitCommand& GitCommand::paths(const std::vector<std::string>& paths) {
  args_.emplace_back("--");
  for (const auto& path : paths) {
    // argv cannot carry a NUL: the path git would see is not the path asked about.
    if (path.find('\0') != std::string::npos) refuse(could_not_evaluate("the path " + quote_for_message(path) + " contains a NUL byte"));
    args_.push_back(path);
  }
  return *this;
}

GitCommand& GitCommand::input(std::string data) {
  input_ = std::move(data);
  return *this;
}

GitCommand& GitCommand::env(GitWord name, std::string value) {
  env_[std::string(name.text())] = std::move(value);
  return *this;
}

GitCommand& GitCommand::cleanup() {
  cleanup_ = true;
  return *this;
}

std::string GitCommand::describe() const {
  std::string text = "git";
  for (const auto& arg : args_) text += " " + (has_control(arg) ? quote_for_message(arg) : arg);
  return text;
}

void GitCommand::add_value(std::string word) {
  if (!values_started_) args_.emplace_back("--end-of-options");
  values_started_ = true;
  args_.push_back(std::move(word));
}

void GitCommand::refuse(const Status& status) {
  if (!status && problem_) problem_ = status.error();
}

// ---- Git ---------------------------------------------------------------------------------

Result<ProcessResult> Git::exec(const GitCommand& command) const {
  if (!command.problem()) return command.problem().error();
  ProcessSpec spec;
  spec.argv = {"git", "-C", repo_.string()};
  spec.argv.insert(spec.argv.end(), command.args().begin(), command.args().end());
  spec.capture_limit = std::size_t{1} << 30;
  spec.stdin_data = command.stdin_data();
  spec.env_set = command.environment();
  if (command.is_cleanup()) {
    spec.cleanup = true;
    spec.timeout = kCleanupTimeout;
  }
  // Never wait for a credential prompt in CI.
  spec.env_set["GIT_TERMINAL_PROMPT"] = "0";
  spec.env_set["LC_ALL"] = "C";
  return runner_.run(spec);
}

Result<std::string> Git::run(const GitCommand& command) const {
  auto result = exec(command);
  if (!result) return result.error();
  if (!result->succeeded()) {
    std::string message = command.describe() + " failed (" + result->describe() + ")";
    auto err = trim(result->err);
    if (!err.empty()) message += ": " + err;
    return could_not_evaluate(std::move(message));
  }
  return std::move(result->out);
}

Result<std::string> Git::rev_parse(const std::string& rev) const {
  if (auto ok = check_revision(rev); !ok) return ok.error();
  auto out = run(GitCommand{"rev-parse", "--verify", "--quiet"}.revision(rev, "^{object}"));
  if (!out) return could_not_evaluate("cannot resolve '" + rev + "' in " + repo_.string() + ": " + out.error().message);
  return trim(*out);
}

Result<std::string> Git::branch_first(const std::string& rev, const std::string& remote) const {
  if (auto ok = check_revision(rev); !ok) return ok.error();
  const auto split = std::min(rev.find_first_of("~^"), rev.size());
  for (const auto& full : branch_candidates(std::string_view(rev).substr(0, split), remote)) {
    auto found = exec(GitCommand{"rev-parse", "--verify", "--quiet"}.revision(full, "^{commit}"));
    if (!found) return found.error();
    if (found->succeeded()) return full + rev.substr(split);
  }
  return rev;
}

Result<bool> Git::has_commit(const std::string& rev) const {
  auto result = exec(GitCommand{"cat-file", "-e"}.revision(rev, "^{commit}"));
  if (!result) return result.error();
  return result->succeeded();
}

Result<std::vector<std::string>> Git::list_files(const std::string& pathspec) const {
  if (auto ok = check_argument("the pathspec", pathspec); !ok) return ok.error();
  auto listed = run(GitCommand{"ls-files", "-z", "--cached", "--others", "--exclude-standard"}.paths({pathspec}));
  if (!listed) return listed.error();
  std::vector<std::string> paths;
  for (std::size_t start = 0; start < listed->size();) {
    auto end = listed->find('\0', start);
    if (end == std::string::npos) end = listed->size();
    if (end > start) paths.push_back(listed->substr(start, end - start));
    start = end + 1;
  }
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  return paths;
}

Result<bool> Git::has_merge_base(const std::string& a, const std::string& b) const {
  auto result = exec(GitCommand{"merge-base"}.revision(a).revision(b));
  if (!result) return result.error();
  return result->succeeded();
}

Result<bool> Git::is_shallow() const {
  auto out = run(GitCommand{"rev-parse", "--is-shallow-repository"});
  if (!out) return out.error();
  return trim(*out) == "true";
}

Result<std::vector<FileChange>> Git::diff(const std::string& base, const std::string& head,
                                          bool three_dot) const {
  auto out = run(GitCommand{"diff", "--name-status", "-z", "--find-renames", "--no-ext-diff", "--no-textconv"}
                     .range(base, head, three_dot)
                     .paths({}));
  if (!out) return out.error();
  return parse_name_status_z(*out);
}

Result<std::vector<RefEntry>> Git::for_each_ref(const std::string& pattern) const {
  auto out = run(GitCommand{"for-each-ref", "--format=%(refname)%00%(objectname)%00%(committerdate:iso-strict)"}
                     .argument("the ref pattern", pattern));
  if (!out) return out.error();
  std::vector<RefEntry> refs;
  // Ref names cannot hold a newline (git check-ref-format), so lines are safe here.
  for (const auto& line : split_lines(*out)) {
    auto a = line.find('\0');
    auto b = a == std::string::npos ? a : line.find('\0', a + 1);
    if (b == std::string::npos) return could_not_evaluate("unexpected git for-each-ref line: " + line);
    refs.push_back({line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)});
  }
  return refs;
}

Status Git::update_ref(const std::string& ref, const std::string& value) const {
  auto out = run(GitCommand{"update-ref"}.revision(ref).revision(value));
  if (!out) return out.error();
  return {};
}

Status Git::delete_ref(const std::string& ref) const {
  auto out = run(GitCommand{"update-ref", "-d"}.revision(ref));
  if (!out) return out.error();
  return {};
}

Status Git::push(const std::string& remote, const std::vector<std::string>& refspecs) const {
  GitCommand command{"push", "--porcelain"};
  command.argument("the remote", remote);
  for (const auto& refspec : refspecs) command.argument("the refspec", refspec);
  auto out = run(command);
  if (!out) return out.error();
  return {};
}

Status Git::fetch(const std::string& remote, const std::vector<std::string>& refspecs,
                  const FetchOptions& options) const {
  GitCommand command{"fetch", "--no-tags", "--quiet"};
  if (options.depth) command.option("--depth=", *options.depth);
  if (options.deepen) command.option("--deepen=", *options.deepen);
  if (options.unshallow) command.words({"--unshallow"});
  if (options.prune) command.words({"--prune"});
  command.argument("the remote", remote);
  for (const auto& refspec : refspecs) command.argument("the refspec", refspec);
  auto out = run(command);
  if (!out) return out.error();
  return {};
}

}  // namespace gatekit
