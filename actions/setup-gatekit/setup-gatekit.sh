#!/usr/bin/env bash
# setup-gatekit.sh probe|install: makes the gatekit tools available to later steps of a job.
#
# The action's own source tree ($GITHUB_ACTION_PATH/../..) is built with CMake's `release`
# preset; the action.yml wires two calls around an actions/cache step:
#   probe    decides whether anything is needed. Tools already on PATH with this source's
#            version (`path-classifier --version`) are used as they are unless INPUT_FORCE
#            is true. Otherwise it checks the OS (when it must install packages) and prints
#            the cache key. Outputs: skip, bin, version, key, source (when skipping).
#   install  uses restored binaries when GATEKIT_CACHE_HIT is true and they run, else
#            installs the build dependencies with apt and builds. Then appends the bin folder
#            to $GITHUB_PATH, exports GATEKIT_BIN and writes the outputs bin, version, source.
#
# Inputs, only from the environment (never ${{ }} in a script):
#   INPUT_FORCE         'true' | 'false': build even when the tools are on PATH already
#   INPUT_CACHE         'true' | 'false': only validated here (action.yml skips actions/cache)
#   INPUT_INSTALL_DEPS  'true' | 'false': install the build dependencies with apt
#   INPUT_BUILD_DIR     build folder (default $RUNNER_TEMP/gatekit-build); tools go to its bin/
#   GATEKIT_CACHE_HIT   install only: actions/cache's cache-hit output
#   GATEKIT_OS_RELEASE  os-release file to read (default /etc/os-release)
# Exit codes (docs/exit-codes.md): 0 the tools are available; 2 a bad input or an unsupported
# OS for installing packages; 3 the tools could not be set up (apt, build, or the built tools
# do not run or report another version).
set -euo pipefail

die() {  # die CODE MESSAGE
  echo "::error title=setup-gatekit::$2" >&2
  exit "$1"
}
group() { echo "::group::setup-gatekit: $*"; }
endgroup() { echo "::endgroup::"; }
bool() {  # bool NAME VALUE DEFAULT: prints true|false, or exits 2
  local value="${2:-$3}"
  case "$value" in
    true | false) echo "$value" ;;
    *) die 2 "input $1 must be 'true' or 'false', got '$2'" ;;
  esac
}
write() {  # write FILE-VARIABLE LINE: appends to $GITHUB_OUTPUT etc. when the runner set it
  local file="${!1:-}"
  if [ -n "$file" ]; then printf '%s\n' "$2" >> "$file"; fi
}

mode="${1:-}"
case "$mode" in
  probe | install) ;;
  *) die 2 "usage: setup-gatekit.sh probe|install (got '${mode}')" ;;
esac

force="$(bool force "${INPUT_FORCE:-}" false)"
bool cache "${INPUT_CACHE:-}" true >/dev/null  # read by action.yml; checked here
install_deps="$(bool install-deps "${INPUT_INSTALL_DEPS:-}" true)"
action_dir="${GITHUB_ACTION_PATH:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}"
src="$(cd "$action_dir/../.." && pwd)" || die 3 "cannot enter the gatekit source tree above $action_dir"
build_dir="${INPUT_BUILD_DIR:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/gatekit-build}"
case "$build_dir" in
  *$'\n'* | *$'\r'*) die 2 "input build-dir must not contain a line break" ;;
  /*) ;;
  *) build_dir="$PWD/$build_dir" ;;
esac
bin="$build_dir/bin"

# The version the tools report: project(gatekit VERSION x.y.z ...) of the source tree.
version="$(sed -n 's/^[[:space:]]*project([[:space:]]*gatekit[[:space:]][[:space:]]*VERSION[[:space:]][[:space:]]*\([0-9][0-9.]*\).*/\1/p' \
  "$src/CMakeLists.txt" 2>/dev/null | head -n 1)"
[ -n "$version" ] || die 3 "cannot read the gatekit version (project(gatekit VERSION ...)) from $src/CMakeLists.txt"

# Every tool folder (tools/<tool>/CMakeLists.txt, not core) is one executable.
tools=()
for dir in "$src"/tools/*/; do
  name="$(basename "$dir")"
  if [ "$name" != core ] && [ -f "$dir/CMakeLists.txt" ]; then tools+=("$name"); fi
done
[[ " ${tools[*]} " == *" path-classifier "* ]] || die 3 "no tools/path-classifier in $src: is this a gatekit source tree?"

os_field() {  # os_field NAME: a field of os-release, unquoted ('' when absent)
  local file="${GATEKIT_OS_RELEASE:-/etc/os-release}"
  [ -r "$file" ] || return 0
  sed -n "s/^$1=//p" "$file" | head -n 1 | sed -e 's/^"\(.*\)"$/\1/' -e "s/^'\(.*\)'$/\1/"
}
os_id="$(os_field ID)"
os_version="$(os_field VERSION_ID)"

apt_packages() {  # the build dependencies for this distribution, one per line, or exit 2
  local common=(g++ cmake ninja-build libyaml-cpp-dev libcli11-dev libcurl4-openssl-dev libexpat1-dev)
  case "$os_id:$os_version" in
    debian:12) printf '%s\n' "${common[@]}" libboost1.81-dev libboost-json1.81-dev libboost-filesystem1.81-dev ;;
    ubuntu:24.04) printf '%s\n' "${common[@]}" libboost-dev libboost-json-dev libboost-filesystem-dev ;;
    *)
      local pretty
      pretty="$(os_field PRETTY_NAME)"
      die 2 "unsupported OS for installing the build dependencies: ${pretty:-unknown} (ID=${os_id:-?}, VERSION_ID=${os_version:-?}); supported: Debian 12, Ubuntu 24.04. Install g++, CMake >= 3.25, Ninja, Boost >= 1.81 (JSON, filesystem), yaml-cpp, CLI11, libcurl and expat yourself and set install-deps: false, or put the gatekit tools on PATH"
      ;;
  esac
}

tools_version() {  # tools_version DIR: prints the version path-classifier in DIR reports
  local out
  out="$("$1/path-classifier" --version 2>/dev/null)" || return 1
  printf '%s\n' "${out##* }"
}

tools_ok() {  # tools_ok DIR: every tool runs and path-classifier reports $version; says why not
  local tool have
  for tool in "${tools[@]}"; do
    if [ ! -x "$1/$tool" ]; then echo "$1/$tool is missing"; return 1; fi
    if ! "$1/$tool" --version >/dev/null 2>&1; then echo "$1/$tool --version fails"; return 1; fi
  done
  have="$(tools_version "$1")" || { echo "$1/path-classifier --version fails"; return 1; }
  if [ "$have" != "$version" ]; then echo "$1 holds gatekit $have, this source is $version"; return 1; fi
}

summary() {  # summary SOURCE BIN
  local file="${GITHUB_STEP_SUMMARY:-}"
  [ -n "$file" ] || return 0
  {
    echo "### gatekit $version"
    echo
    echo "| tools | from | folder | took |"
    echo "| --- | --- | --- | --- |"
    echo "| ${tools[*]} | $1 | \`$2\` | ${SECONDS}s |"
  } >> "$file"
}

probe() {
  group "probe"
  echo "gatekit source: $src (version $version)"
  echo "tools: ${tools[*]}"
  local existing dir reason
  existing="$(command -v path-classifier || true)"
  if [ -z "$existing" ]; then
    echo "path-classifier is not on PATH"
  elif [ "$force" = true ]; then
    echo "force: true: not using $existing"
  else
    dir="$(dirname "$existing")"
    if reason="$(tools_ok "$dir")"; then
      echo "using the gatekit $version tools on PATH in $dir"
      endgroup
      write GITHUB_ENV "GATEKIT_BIN=$dir"
      write GITHUB_OUTPUT "skip=true"
      write GITHUB_OUTPUT "bin=$dir"
      write GITHUB_OUTPUT "version=$version"
      write GITHUB_OUTPUT "source=path"
      summary "PATH" "$dir"
      return 0
    fi
    echo "not using the tools on PATH: $reason"
  fi
  # Fail before restoring or building anything when the packages cannot be installed here.
  if [ "$install_deps" = true ]; then apt_packages >/dev/null; fi

  local files=() hash
  for f in tools cmake CMakeLists.txt CMakePresets.json; do
    if [ -e "$src/$f" ]; then files+=("$f"); fi
  done
  hash="$(cd "$src" && find "${files[@]}" -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum)"
  local key="${os_id:-unknown}-${os_version:-unknown}-${hash%% *}"
  echo "build folder: $build_dir"
  echo "cache key suffix: $key"
  endgroup
  write GITHUB_OUTPUT "skip=false"
  write GITHUB_OUTPUT "bin=$bin"
  write GITHUB_OUTPUT "version=$version"
  write GITHUB_OUTPUT "key=$key"
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo -n "$@"
  else
    die 3 "installing packages needs root or passwordless sudo; install them beforehand and set install-deps: false"
  fi
}

install_dependencies() {
  group "dependencies (apt)"
  local packages missing=() pkg
  packages="$(apt_packages)"
  for pkg in $packages; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    echo "all build dependencies are installed"
  else
    echo "installing: ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq ||
      die 3 "apt-get update failed (see the log above)"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
      die 3 "apt-get install ${missing[*]} failed (see the log above)"
  fi
  endgroup
}

build() {
  group "configure (cmake --preset release)"
  # A build folder configured from another source tree cannot be reused (self-hosted runners).
  if [ -f "$build_dir/CMakeCache.txt" ] &&
     ! grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$src" "$build_dir/CMakeCache.txt"; then
    echo "$build_dir was configured from another source tree: starting afresh"
    rm -rf "$build_dir/CMakeCache.txt" "$build_dir/CMakeFiles"
  fi
  (cd "$src" && cmake --preset release -B "$build_dir" -DBUILD_TESTING=OFF) ||
    die 3 "cmake configure failed (see the log above)"
  endgroup
  group "build (${tools[*]})"
  local jobs
  jobs="$(nproc 2>/dev/null || echo 2)"
  cmake --build "$build_dir" --parallel "$jobs" --target "${tools[@]}" ||
    die 3 "the gatekit build failed (see the log above)"
  endgroup
  group "install into $bin"
  mkdir -p "$bin"
  local tool
  for tool in "${tools[@]}"; do
    [ -x "$build_dir/tools/$tool/$tool" ] || die 3 "the build did not produce $build_dir/tools/$tool/$tool"
    cp -f "$build_dir/tools/$tool/$tool" "$bin/$tool"
    echo "$bin/$tool"
  done
  endgroup
}

publish() {  # publish SOURCE
  write GITHUB_PATH "$bin"
  write GITHUB_ENV "GATEKIT_BIN=$bin"
  write GITHUB_OUTPUT "bin=$bin"
  write GITHUB_OUTPUT "version=$version"
  write GITHUB_OUTPUT "source=$1"
  summary "$1" "$bin"
  echo "gatekit $version tools ($1) in $bin"
}

install() {
  local reason
  if [ "${GATEKIT_CACHE_HIT:-}" = true ]; then
    group "cached tools"
    if reason="$(tools_ok "$bin")"; then
      echo "the cached tools run"
      endgroup
      publish cache
      return 0
    fi
    echo "the cached tools do not run yet: $reason"
    endgroup
  fi
  if [ "$install_deps" = true ]; then
    install_dependencies
    # Restored binaries may only have lacked the shared libraries the packages bring.
    if [ "${GATEKIT_CACHE_HIT:-}" = true ] && tools_ok "$bin" >/dev/null; then
      publish cache
      return 0
    fi
  fi
  build
  group "check"
  reason="$(tools_ok "$bin")" || die 3 "the built tools are not usable: $reason"
  echo "ok: gatekit $version"
  endgroup
  publish built
}

"$mode"
