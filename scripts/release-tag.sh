#!/usr/bin/env bash
# release-tag.sh --tag vX.Y.Z [--branch BRANCH] [--remote REMOTE] [--expect SHA]
#
# Decides whether a tag may be released (docs/releasing.md, "Who can publish"). Run by
# .github/workflows/release.yml, from the default branch's copy of the repository, in a clone
# that has the default branch's history and the tags (actions/checkout with fetch-depth: 0):
#   1. the tag is vMAJOR.MINOR.PATCH;
#   2. REMOTE (default origin) has refs/tags/<tag>, and the clone's refs/tags/<tag> names the
#      same commit (a tag moved since the clone fetched is refused);
#   3. that commit is on the history of refs/remotes/REMOTE/BRANCH (default main): a tag pushed
#      on another branch, whatever its copy of release.yml says, is never released;
#   4. project(gatekit VERSION X.Y.Z) of that commit's CMakeLists.txt is the tag's version;
#   5. with --expect SHA (the publishing job, after the build): the tag still names SHA, the
#      commit that was checked and built.
# Writes `sha=<commit>` and `version=X.Y.Z` to $GITHUB_OUTPUT (when set) and prints them.
# Only full ref names are read (refs/tags/..., refs/remotes/...): a branch named like the tag
# is never taken for it. The tag is checked against its pattern before git sees it.
# Exit codes (docs/exit-codes.md): 0 the tag may be released; 2 it may not (bad name, no such
# tag, not on the branch, another version, a bad argument); 3 it could not be decided (git
# failed, the remote cannot be read, or the tag moved: it names another commit than the clone
# or --expect says).
set -euo pipefail

die() { echo "release-tag: $2" >&2; exit "$1"; }

tag=""
branch=main
remote=origin
expect=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    --tag | --branch | --remote | --expect)
      [ "$#" -ge 2 ] || die 2 "$1 needs a value"
      case "$1" in
        --tag) tag="$2" ;;
        --branch) branch="$2" ;;
        --remote) remote="$2" ;;
        --expect) expect="$2" ;;
      esac
      shift 2 ;;
    *) die 2 "unknown argument '$1' (usage: release-tag.sh --tag vX.Y.Z [--branch BRANCH] [--remote REMOTE] [--expect SHA])" ;;
  esac
done

[[ "$tag" =~ ^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]] ||
  die 2 "tag '$tag' is not vMAJOR.MINOR.PATCH (e.g. v0.2.0): only such tags are released"
version="${tag#v}"
# git check-ref-format refuses what could be read as an option or a revision expression.
if ! [[ "$branch" =~ ^[A-Za-z0-9._/-]+$ && "$branch" != -* ]] || ! git check-ref-format --branch "$branch" >/dev/null 2>&1; then
  die 2 "--branch '$branch' is not a branch name"
fi
[[ "$remote" =~ ^[A-Za-z0-9._-]+$ && "$remote" != -* ]] || die 2 "--remote '$remote' is not a remote name"
if [ -n "$expect" ] && ! [[ "$expect" =~ ^[0-9a-f]{40}([0-9a-f]{24})?$ ]]; then
  die 2 "--expect '$expect' is not a full commit name"
fi

# What the remote says the tag is, now (peeled: an annotated tag's commit).
listed="$(git ls-remote --tags "$remote" "refs/tags/$tag" "refs/tags/$tag^{}")" ||
  die 3 "cannot list the tags of $remote (git ls-remote failed)"
remote_sha="$(printf '%s\n' "$listed" | awk -v ref="refs/tags/$tag^{}" '$2 == ref { print $1 }')"
if [ -z "$remote_sha" ]; then
  remote_sha="$(printf '%s\n' "$listed" | awk -v ref="refs/tags/$tag" '$2 == ref { print $1 }')"
fi
[ -n "$remote_sha" ] || die 2 "$remote has no tag $tag: push the tag (on a commit of $branch) first"

sha="$(git rev-parse --verify --quiet "refs/tags/$tag^{commit}")" ||
  die 3 "this clone has no refs/tags/$tag naming a commit: fetch the tags (actions/checkout with fetch-depth: 0)"
[ "$sha" = "$remote_sha" ] ||
  die 3 "$tag moved: $remote says $remote_sha, this clone fetched $sha. Start the release again"
if [ -n "$expect" ] && [ "$sha" != "$expect" ]; then
  die 3 "$tag names $sha now, but $expect was checked and built: the tag moved during the release. Nothing is published"
fi

tip="$(git rev-parse --verify --quiet "refs/remotes/$remote/$branch^{commit}")" ||
  die 3 "this clone has no refs/remotes/$remote/$branch: fetch the default branch's history"
if ! git merge-base --is-ancestor "$sha" "$tip"; then
  die 2 "$tag names commit $sha, which is not on the history of $branch: releases come only from the default branch's history (docs/releasing.md)"
fi

cmake_lists="$(git show "$sha:CMakeLists.txt" 2>/dev/null)" || die 2 "commit $sha of $tag has no CMakeLists.txt"
have="$(printf '%s\n' "$cmake_lists" |
  sed -n 's/^[[:space:]]*project([[:space:]]*gatekit[[:space:]][[:space:]]*VERSION[[:space:]][[:space:]]*\([0-9][0-9.]*\).*/\1/p' |
  head -n 1)"
[ "$have" = "$version" ] ||
  die 2 "$tag names commit $sha, whose CMakeLists.txt says project(gatekit VERSION ${have:-?}): tag the commit that sets $version"

echo "release-tag: $tag is commit $sha on the history of $branch, gatekit $version"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  printf 'sha=%s\nversion=%s\n' "$sha" "$version" >> "$GITHUB_OUTPUT"
fi
