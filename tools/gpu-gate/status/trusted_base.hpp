#pragma once
// Where the CI side's trusted files come from (docs/gpu-gate.md, "Trust model"): the gate's
// configuration, the allowed-signers and revoked-keys files, and the base of "no code change".
//
// The tool decides, never the event. The trusted branch is the repository's DEFAULT branch, as
// the remote itself names it (the branch its HEAD points to: `git ls-remote --symref <remote>
// HEAD`; on GitHub that is the repository's default branch), or a branch that the default
// branch's own configuration lists under `trusted_bases`. A base that a pull request or an
// event names (`--base`, a merge queue's branch) is only a candidate: anything else (a branch
// anyone with push access made, whose allowed signers hold their own key; a commit) is not
// trusted, and the default branch's files decide. The summary says so.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config.hpp"
#include "gatekit/git.hpp"

namespace gatekit::gpu_gate {

// Local names for what the CI side fetches (never a branch or a result ref of the clone).
inline constexpr const char* kDefaultRef = "refs/gatekit-ci/default";
inline constexpr const char* kBaseRef = "refs/gatekit-ci/base";

// Which branch is trusted (pure): `asked` ("" = none; "refs/heads/" already taken off) when it
// is the default branch or listed in the default branch's `trusted_bases`, else the default
// branch, with `refused` set to what was asked.
struct TrustChoice {
  std::string branch;
  std::string refused;  // the candidate that is not trusted ("" = none)
};
TrustChoice choose_trusted(std::string_view asked, std::string_view default_branch,
                           const std::vector<std::string>& trusted_bases);

// The branch the remote's HEAD names: the repository's default branch. Exit 3 when the remote
// cannot be asked or its HEAD names no branch.
std::string default_branch_of(const Git& git, const std::string& remote);

struct TrustedBase {
  std::string default_branch;  // the remote's default branch
  std::string branch;          // where the trusted files come from: default_branch or a listed base
  std::string rev;             // that branch in the clone (kDefaultRef or kBaseRef)
  std::string refused;         // a candidate base that was not trusted ("" = none)
  Config config;               // the trusted branch's configuration
  // "the default branch main", "the trusted base release/1.x": how messages name it.
  std::string named() const;
};

// A file of the trusted branch (`<rev>:<path>`): nullopt when the branch does not have it.
std::optional<std::string> trusted_file(const Git& git, const TrustedBase& trusted, const std::string& path);
// The configuration at `path` of `trusted`'s branch and rev ("" = the default path, where a
// missing file means the defaults; a named path the branch lacks is bad input). Errors name
// the file as `<branch>:<path>`.
Config trusted_config(const Git& git, const TrustedBase& trusted, const std::string& path);

}  // namespace gatekit::gpu_gate
