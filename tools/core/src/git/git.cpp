#include "gatekit/git.hpp"

#include <algorithm>

#include "gatekit/text.hpp"

namespace gatekit {
namespace {

// Every value is checked before git runs, so a refused one never reaches a command line.
Status check_revisions(std::initializer_list<const std::string*> revs) {
  for (const auto* rev : revs)
    if (auto ok = check_revision(*rev); !ok) return ok.error();
  return {};
}

Status check_refspecs(const std::vector<std::string>& refspecs) {
  for (const auto& refspec : refspecs)
    if (auto ok = check_argument("the refspec", refspec); !ok) return ok.error();
  return {};
}

}  // namespace

Result<ProcessResult> Git::exec(const std::vector<std::string>& args) const {
  ProcessSpec spec;
  spec.argv = {"git", "-C", repo_.string()};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.capture_limit = std::size_t{1} << 30;
  // Never wait for a credential prompt in CI.
  spec.env_set = {{"GIT_TERMINAL_PROMPT", "0"}, {"LC_ALL", "C"}};
  return runner_.run(spec);
}

Result<std::string> Git::run(const std::vector<std::string>& args) const {
  auto result = exec(args);
  if (!result) return result.error();
  if (!result->succeeded()) {
    std::string message = "git " + join(args, " ") + " failed (" + result->describe() + ")";
    auto err = trim(result->err);
    if (!err.empty()) message += ": " + err;
    return could_not_evaluate(std::move(message));
  }
  return std::move(result->out);
}

Result<std::string> Git::rev_parse(const std::string& rev) const {
  if (auto ok = check_revision(rev); !ok) return ok.error();
  auto out = run({"rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{object}"});
  if (!out) return could_not_evaluate("cannot resolve '" + rev + "' in " + repo_.string() + ": " + out.error().message);
  return trim(*out);
}

Result<bool> Git::has_commit(const std::string& rev) const {
  if (auto ok = check_revision(rev); !ok) return ok.error();
  auto result = exec({"cat-file", "-e", "--end-of-options", rev + "^{commit}"});
  if (!result) return result.error();
  return result->succeeded();
}

Result<std::vector<std::string>> Git::list_files(const std::string& pathspec) const {
  if (auto ok = check_argument("the pathspec", pathspec); !ok) return ok.error();
  auto listed = run({"ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", pathspec});
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
  if (auto ok = check_revisions({&a, &b}); !ok) return ok.error();
  auto result = exec({"merge-base", "--end-of-options", a, b});
  if (!result) return result.error();
  return result->succeeded();
}

Result<bool> Git::is_shallow() const {
  auto out = run({"rev-parse", "--is-shallow-repository"});
  if (!out) return out.error();
  return trim(*out) == "true";
}

Result<std::vector<FileChange>> Git::diff(const std::string& base, const std::string& head,
                                          bool three_dot) const {
  if (auto ok = check_revisions({&base, &head}); !ok) return ok.error();
  auto out = run({"diff", "--name-status", "-z", "--find-renames", "--no-ext-diff", "--no-textconv",
                  "--end-of-options", three_dot ? base + "..." + head : base + ".." + head, "--"});
  if (!out) return out.error();
  return parse_name_status_z(*out);
}

Result<std::vector<RefEntry>> Git::for_each_ref(const std::string& pattern) const {
  if (auto ok = check_argument("the ref pattern", pattern); !ok) return ok.error();
  auto out = run({"for-each-ref", "--format=%(refname)%00%(objectname)%00%(committerdate:iso-strict)",
                  "--end-of-options", pattern});
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
  if (auto ok = check_revisions({&ref, &value}); !ok) return ok.error();
  auto out = run({"update-ref", "--end-of-options", ref, value});
  if (!out) return out.error();
  return {};
}

Status Git::delete_ref(const std::string& ref) const {
  if (auto ok = check_revision(ref); !ok) return ok.error();
  auto out = run({"update-ref", "-d", "--end-of-options", ref});
  if (!out) return out.error();
  return {};
}

Status Git::push(const std::string& remote, const std::vector<std::string>& refspecs) const {
  if (auto ok = check_argument("the remote", remote); !ok) return ok.error();
  if (auto ok = check_refspecs(refspecs); !ok) return ok.error();
  std::vector<std::string> args{"push", "--porcelain", "--end-of-options", remote};
  args.insert(args.end(), refspecs.begin(), refspecs.end());
  auto out = run(args);
  if (!out) return out.error();
  return {};
}

Status Git::fetch(const std::string& remote, const std::vector<std::string>& refspecs,
                  const FetchOptions& options) const {
  if (auto ok = check_argument("the remote", remote); !ok) return ok.error();
  if (auto ok = check_refspecs(refspecs); !ok) return ok.error();
  std::vector<std::string> args{"fetch", "--no-tags", "--quiet"};
  if (options.depth) args.push_back("--depth=" + std::to_string(*options.depth));
  if (options.deepen) args.push_back("--deepen=" + std::to_string(*options.deepen));
  if (options.unshallow) args.emplace_back("--unshallow");
  if (options.prune) args.emplace_back("--prune");
  args.emplace_back("--end-of-options");
  args.push_back(remote);
  args.insert(args.end(), refspecs.begin(), refspecs.end());
  auto out = run(args);
  if (!out) return out.error();
  return {};
}

}  // namespace gatekit
