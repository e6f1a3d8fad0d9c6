#!/usr/bin/env bash
# release-assets.sh VERSION: run in the folder holding what the release's build jobs produced
# (.github/workflows/release.yml's publish job, after downloading this run's artifacts).
#
# Checks that the folder holds exactly the release's assets, one per platform the build jobs
# make, and nothing else:
#   gatekit-VERSION-<platform>.tar.gz                  for each of ARCHIVES below
#   gatekit-VERSION-py3-none-<platform tag>.whl        one per WHEELS pattern below
# then writes SHA256SUMS over all of them (sha256sum lines, sorted by name) and appends to
# $GITHUB_STEP_SUMMARY the lines for actions/setup-gatekit/checksums.txt (`VERSION PLATFORM
# SHA256`, the archives only). The same job uploads exactly these files, so the checksums are
# those of the files published (docs/releasing.md).
# Exit codes (docs/exit-codes.md): 0 written; 2 a bad VERSION, or an asset missing, twice, or
# one the release does not make (named); 3 SHA256SUMS could not be written.
set -euo pipefail

# The platforms of release.yml's build matrices (tests/workflows/test_release_workflow.py
# checks that the two lists agree).
ARCHIVES=(linux-x86_64 linux-aarch64 darwin-arm64 darwin-x86_64)
WHEELS=('manylinux_2_34_x86_64' 'manylinux_2_34_aarch64' 'macosx_*_arm64')

die() { echo "release-assets: $2" >&2; exit "$1"; }

[ "$#" -eq 1 ] || die 2 "usage: release-assets.sh VERSION"
version="$1"
[[ "$version" =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]] || die 2 "'$version' is not a version X.Y.Z"

expected=()
for platform in "${ARCHIVES[@]}"; do expected+=("gatekit-$version-$platform.tar.gz"); done
shopt -s nullglob
for pattern in "${WHEELS[@]}"; do
  found=()
  for name in gatekit-"$version"-py3-none-$pattern.whl; do  # the pattern is ours, expanded on purpose
    if [ -f "$name" ]; then found+=("$name"); fi
  done
  case "${#found[@]}" in
    0) die 2 "no wheel gatekit-$version-py3-none-$pattern.whl: a build job of release.yml made none" ;;
    1) expected+=("${found[0]}") ;;
    *) die 2 "more than one wheel gatekit-$version-py3-none-$pattern.whl: ${found[*]}" ;;
  esac
done

missing=()
for name in "${expected[@]}"; do
  if [ ! -f "$name" ]; then missing+=("$name"); fi
done
[ "${#missing[@]}" -eq 0 ] || die 2 "missing: ${missing[*]}: a build job of release.yml did not produce them"
unexpected=()
for name in * .[!.]*; do
  if [[ " ${expected[*]} " != *" $name "* ]]; then unexpected+=("$name"); fi
done
[ "${#unexpected[@]}" -eq 0 ] ||
  die 2 "not an asset of gatekit $version: ${unexpected[*]} (only the build jobs' archives and wheels are published)"

mapfile -t sorted < <(printf '%s\n' "${expected[@]}" | LC_ALL=C sort)
sha256sum -- "${sorted[@]}" > SHA256SUMS.tmp || die 3 "cannot write SHA256SUMS"
mv -f SHA256SUMS.tmp SHA256SUMS || die 3 "cannot write SHA256SUMS"
cat SHA256SUMS
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    echo "### Release archives"
    echo
    echo "Lines for actions/setup-gatekit/checksums.txt (docs/releasing.md, step 4):"
    echo
    echo '```'
    sed -n -E 's/^([0-9a-f]{64})  gatekit-([0-9.]+)-((linux|darwin)-[a-z0-9_]+)\.tar\.gz$/\2 \3 \1/p' SHA256SUMS
    echo '```'
  } >> "$GITHUB_STEP_SUMMARY"
fi
