#include "gatekit/git.hpp"

#include "gatekit/text.hpp"

namespace gatekit {

Result<std::string> Git::run(const std::vector<std::string>& args,
                             std::optional<std::string> stdin_data) const {
  ProcessSpec spec;
  spec.argv = {"git", "-C", repo_.string()};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.stdin_data = std::move(stdin_data);
  spec.capture_limit = std::size_t{1} << 30;
  // Never wait for a credential prompt in CI.
  spec.env_set = {{"GIT_TERMINAL_PROMPT", "0"}, {"LC_ALL", "C"}};
  auto result = runner_.run(spec);
  if (!result) return result.error();
  if (!result->succeeded()) {
    std::string message = "git " + join(args, " ") + " failed (" + result->describe() + ")";
    auto err = trim(result->err);
    if (!err.empty()) message += ": " + err;
    return make_error(std::move(message));
  }
  return std::move(result->out);
}

Result<std::string> Git::rev_parse(const std::string& rev) const {
  auto out = run({"rev-parse", "--verify", "--quiet", rev + "^{object}"});
  if (!out) return make_error("cannot resolve '" + rev + "' in " + repo_.string() + ": " + out.error().message);
  return trim(*out);
}

Result<bool> Git::has_commit(const std::string& rev) const {
  ProcessSpec spec;
  spec.argv = {"git", "-C", repo_.string(), "cat-file", "-e", rev + "^{commit}"};
  auto result = runner_.run(spec);
  if (!result) return result.error();
  return result->succeeded();
}

Result<std::vector<FileChange>> parse_name_status_z(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\0', start);
    if (end == std::string_view::npos) end = text.size();
    fields.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::vector<FileChange> changes;
  for (std::size_t i = 0; i < fields.size();) {
    auto status = fields[i++];
    if (status.empty()) return make_error("unexpected empty status field in git diff output");
    FileChange change;
    change.status = status[0];
    const bool two_paths = change.status == 'R' || change.status == 'C';
    if (i + (two_paths ? 2 : 1) > fields.size())
      return make_error("truncated git diff output after status '" + std::string(status) + "'");
    if (two_paths) change.previous_path = fields[i++];
    change.path = fields[i++];
    changes.push_back(std::move(change));
  }
  return changes;
}

Result<std::vector<FileChange>> Git::diff(const std::string& base, const std::string& head,
                                          bool three_dot) const {
  auto out = run({"diff", "--name-status", "-z", "--find-renames", "--no-ext-diff",
                  three_dot ? base + "..." + head : base + ".." + head, "--"});
  if (!out) return out.error();
  return parse_name_status_z(*out);
}

Result<std::vector<RefEntry>> Git::for_each_ref(const std::string& pattern) const {
  auto out = run({"for-each-ref", "--format=%(refname)%00%(objectname)%00%(committerdate:iso-strict)", pattern});
  if (!out) return out.error();
  std::vector<RefEntry> refs;
  for (const auto& line : split_lines(*out)) {
    auto a = line.find('\0');
    auto b = a == std::string::npos ? a : line.find('\0', a + 1);
    if (b == std::string::npos) return make_error("unexpected git for-each-ref line: " + line);
    refs.push_back({line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)});
  }
  return refs;
}

Status Git::update_ref(const std::string& ref, const std::string& value) const {
  auto out = run({"update-ref", ref, value});
  if (!out) return out.error();
  return {};
}

Status Git::delete_ref(const std::string& ref) const {
  auto out = run({"update-ref", "-d", ref});
  if (!out) return out.error();
  return {};
}

Status Git::push(const std::string& remote, const std::vector<std::string>& refspecs) const {
  std::vector<std::string> args{"push", "--porcelain", remote};
  args.insert(args.end(), refspecs.begin(), refspecs.end());
  auto out = run(args);
  if (!out) return out.error();
  return {};
}

Status Git::fetch(const std::string& remote, const std::vector<std::string>& refspecs,
                  std::optional<int> depth) const {
  std::vector<std::string> args{"fetch", "--no-tags", "--quiet"};
  if (depth) args.push_back("--depth=" + std::to_string(*depth));
  args.push_back(remote);
  args.insert(args.end(), refspecs.begin(), refspecs.end());
  auto out = run(args);
  if (!out) return out.error();
  return {};
}

}  // namespace gatekit
