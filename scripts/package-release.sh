#!/usr/bin/env bash
# package-release.sh [--build-dir DIR] [--out DIR] [--no-build] [--tag TAG] [--glibc-baseline X.Y]
#
# Builds gatekit's `release` preset and packs this platform's release archive:
#   OUT/gatekit-<version>-<os>-<arch>.tar.gz    one folder gatekit-<version>-<os>-<arch>/ holding
#                                               the `cmake --install --strip` tree: bin/ (the
#                                               tools), share/doc/gatekit/, share/gatekit/
#   OUT/SHA256SUMS                              sha256sum lines of every archive in OUT
# <version> is project(gatekit VERSION ...) of CMakeLists.txt, <os> is linux or darwin, <arch>
# is `uname -m` (Linux: x86_64, aarch64; macOS: arm64, x86_64). Before packing, every tool must
# run and report that version, and need at most the glibc baseline (Linux:
# scripts/check-glibc.sh, 2.34 unless --glibc-baseline says otherwise) or link nothing but the
# system's libraries (macOS: `otool -L` names only /usr/lib and /System; yaml-cpp and expat are
# built from source for it by scripts/deps-from-source.sh, Boost.JSON by the build):
# nothing is written to OUT otherwise. Then it prints the line for
# actions/setup-gatekit/checksums.txt (docs/contributing.md, "Releases"). On macOS the minimum
# version is MACOSX_DEPLOYMENT_TARGET (release.yml sets it), and GNU tar must be on PATH as
# gtar (brew install gnu-tar) for a reproducible archive.
#
#   --build-dir DIR   the release build folder (default build/release)
#   --out DIR         where the archive and SHA256SUMS go (default dist)
#   --no-build        pack DIR as it is built (it must be configured and built already)
#   --tag TAG         the git tag being released: must be v<version>
#   --glibc-baseline  the oldest glibc the tools must run on (default: check-glibc.sh's)
# The archive is reproducible from the same binaries: names sorted, owner 0, mtime
# $SOURCE_DATE_EPOCH (default: the commit time of HEAD, else 0), gzip without a timestamp.
# Exit codes (docs/exit-codes.md): 0 packed; 1 the tools need a newer glibc than the baseline
# (macOS: link a library outside the system);
# 2 usage error, or a tag that does not match the version; 3 the build, install or a tool
# check failed.
set -euo pipefail
cd "$(dirname "$0")/.."
src="$PWD"

die() { echo "package-release: $2" >&2; exit "$1"; }
step() { printf '\n==> %s\n' "$*"; }

build_dir=build/release
out=dist
build=1
tag=""
baseline=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --build-dir | --out | --tag | --glibc-baseline)
      [ "$#" -ge 2 ] || die 2 "$1 needs a value"
      case "$1" in
        --build-dir) build_dir="$2" ;;
        --out) out="$2" ;;
        --tag) tag="$2" ;;
        --glibc-baseline) baseline=(--baseline "$2") ;;
      esac
      shift 2 ;;
    --no-build) build=0; shift ;;
    *) die 2 "unknown argument '$1' (usage: package-release.sh [--build-dir DIR] [--out DIR] [--no-build] [--tag TAG] [--glibc-baseline X.Y])" ;;
  esac
done

version="$(sed -n 's/^[[:space:]]*project([[:space:]]*gatekit[[:space:]][[:space:]]*VERSION[[:space:]][[:space:]]*\([0-9][0-9.]*\).*/\1/p' \
  CMakeLists.txt | head -n 1)"
[ -n "$version" ] || die 3 "cannot read project(gatekit VERSION ...) from CMakeLists.txt"
if [ -n "$tag" ] && [ "$tag" != "v$version" ]; then
  die 2 "tag $tag does not match the version in CMakeLists.txt ($version): tag v$version, or change the version first"
fi
arch="$(uname -m)"
case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) die 3 "releases are built on Linux or macOS, not $(uname -s)" ;;
esac
name="gatekit-$version-$os-$arch"
jobs="$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)"
# sha256 FILE...: sha256sum's lines (macOS has shasum).
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }
tar_cmd=tar
if [ "$os" = darwin ]; then
  command -v gtar >/dev/null || die 3 "GNU tar is not on PATH as gtar (brew install gnu-tar)"
  tar_cmd=gtar
fi

tools=()
for dir in tools/*/; do
  tool="$(basename "$dir")"
  if [ "$tool" != core ] && [ -f "$dir/CMakeLists.txt" ]; then tools+=("$tool"); fi
done

if [ "$build" = 1 ]; then
  from_source=()
  if [ "$os" = darwin ]; then
    # Homebrew's yaml-cpp is a dylib no user's Mac has: link yaml-cpp and expat built from
    # source, and Boost.JSON compiled by the build (cmake/GatekitDepsFromSource.cmake).
    deps="$build_dir-deps"
    case "$deps" in /*) ;; *) deps="$PWD/$deps" ;; esac
    step "libraries from source (scripts/deps-from-source.sh) in $deps"
    host_include="${GATEKIT_HOST_INCLUDE:-$(brew --prefix 2>/dev/null || echo /usr/local)/include}"
    GATEKIT_HOST_INCLUDE="$host_include" "$BASH" "$src/scripts/deps-from-source.sh" --prefix "$deps" \
      --cc cc --cxx c++ || die 3 "building the libraries from source failed"
    from_source=("-DGATEKIT_DEPS_PREFIX=$deps")
  fi
  step "configure and build (release preset) in $build_dir"
  cmake --preset release -B "$build_dir" "${from_source[@]}" >/dev/null || die 3 "cmake configure failed"
  cmake --build "$build_dir" --parallel "$jobs" || die 3 "the build failed"
fi
[ -f "$build_dir/CMakeCache.txt" ] || die 3 "$build_dir is not a configured build folder"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
step "install (stripped) into $name/"
cmake --install "$build_dir" --prefix "$stage/$name" --strip >/dev/null || die 3 "cmake --install failed"

step "check the tools"
for tool in "${tools[@]}"; do
  exe="$stage/$name/bin/$tool"
  [ -x "$exe" ] || die 3 "the install has no bin/$tool"
  reported="$("$exe" --version 2>&1)" || die 3 "bin/$tool --version fails: $reported"
  [ "${reported##* }" = "$version" ] || die 3 "bin/$tool reports '$reported', not version $version"
  echo "$tool $version"
done

if [ "$os" = linux ]; then
  step "glibc baseline"
  bash "$src/scripts/check-glibc.sh" "${baseline[@]}" "$stage/$name/bin" || exit "$?"
else
  step "linked libraries: the system's only"
  for tool in "${tools[@]}"; do
    foreign="$(otool -L "$stage/$name/bin/$tool" | tail -n +2 | awk '{print $1}' | grep -v -E '^(/usr/lib/|/System/Library/)' || true)"
    [ -z "$foreign" ] || die 1 "bin/$tool links libraries a Mac does not have: $(echo "$foreign" | tr '\n' ' ')"
    echo "$tool: $(otool -L "$stage/$name/bin/$tool" | tail -n +2 | awk '{print $1}' | tr '\n' ' ')"
  done
fi

step "pack $out/$name.tar.gz"
epoch="${SOURCE_DATE_EPOCH:-$(git -C "$src" log -1 --format=%ct 2>/dev/null || echo 0)}"
mkdir -p "$out"
"$tar_cmd" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$stage" -cf - "$name" |
  gzip -9n > "$out/$name.tar.gz.tmp"
mv "$out/$name.tar.gz.tmp" "$out/$name.tar.gz"
(cd "$out" && sha256 gatekit-*.tar.gz > SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS)
cat "$out/SHA256SUMS"
sum="$(sha256 "$out/$name.tar.gz")"
echo
echo "actions/setup-gatekit/checksums.txt line, once the release is published:"
echo "$version $os-$arch ${sum%% *}"
