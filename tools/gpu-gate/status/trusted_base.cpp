// Where the CI side's trusted files come from: see trusted_base.hpp.
#include "status/trusted_base.hpp"

#include <algorithm>

#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {

TrustChoice choose_trusted(std::string_view asked, std::string_view default_branch,
                           const std::vector<std::string>& trusted_bases) {
  if (asked.empty() || asked == default_branch) return {std::string(default_branch), ""};
  if (std::find(trusted_bases.begin(), trusted_bases.end(), asked) != trusted_bases.end() && !is_object_name(asked))
    return {std::string(asked), ""};
  return {std::string(default_branch), std::string(asked)};
}

std::string default_branch_of(const Git& git, const std::string& remote) {
  auto out = git.exec(GitCommand{"ls-remote", "--symref"}.argument("the remote", remote).argument("the ref", "HEAD"));
  if (!out) fail(out.error());
  if (!out->succeeded())
    fail_could_not_evaluate("cannot ask " + remote + " for its default branch (git ls-remote --symref " + remote +
                            " HEAD: " + out->describe() + "): " + trim(out->err));
  constexpr std::string_view prefix = "ref: refs/heads/";
  for (const auto& line : split_lines(out->out)) {
    if (!line.starts_with(prefix) || !line.ends_with("\tHEAD")) continue;
    const std::string branch = line.substr(prefix.size(), line.size() - prefix.size() - 5);
    if (branch.empty() || !check_revision(branch).ok())
      fail_could_not_evaluate(remote + "'s HEAD names a branch gatekit cannot use: " + quote_for_message(branch));
    return branch;
  }
  fail_could_not_evaluate(remote + " names no default branch (its HEAD is not a branch): the trusted configuration "
                          "and allowed signers cannot be found");
}

std::string TrustedBase::named() const {
  return (branch == default_branch ? "the default branch " : "the trusted base ") + branch;
}

std::optional<std::string> trusted_file(const Git& git, const TrustedBase& trusted, const std::string& path) {
  if (path.empty() || path.front() == '/' || path.find('\n') != std::string::npos)
    fail_bad_input("not a path in the repository: " + quote_for_message(path));
  const std::string object = trusted.rev + ":" + path;
  auto exists = git.exec(GitCommand{"cat-file", "-e"}.argument("the object", object));
  if (!exists) fail(exists.error());
  if (!exists->succeeded()) return std::nullopt;
  return value_or_throw(git.run(GitCommand{"cat-file", "blob"}.argument("the object", object)));
}

Config trusted_config(const Git& git, const TrustedBase& trusted, const std::string& path) {
  const std::string file = path.empty() ? default_config_path : path;
  auto text = trusted_file(git, trusted, file);
  if (!text) {
    if (file != default_config_path) fail_bad_input("the configuration " + file + " is not on " + trusted.named());
    return default_config();
  }
  return value_or_throw(parse_config(*text, trusted.branch + ":" + file));
}

}  // namespace gatekit::gpu_gate
