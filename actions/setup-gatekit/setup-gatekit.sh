#!/usr/bin/env bash
# setup-gatekit.sh probe|install: makes the gatekit tools available to later steps of a job.
#
# The tools come from the first of these that works: the tools already on PATH at this
# source's version; the Actions cache; the release archive of this version, verified against
# the SHA-256 committed next to this script (checksums.txt), so pinning the action pins the
# binaries; a build of the action's own source tree ($GITHUB_ACTION_PATH/../..) with CMake's
# `release` preset. The action.yml wires two calls around an actions/cache step:
#   probe    decides whether anything is needed. Tools already on PATH with this source's
#            version (`path-classifier --version`) are used as they are unless INPUT_FORCE
#            or INPUT_VERIFIED is true. Otherwise it prints the cache key and the folder the
#            cache restores into: for a version checksums.txt lists, the release archive
#            itself, keyed by its SHA-256 (gatekit-archive-<platform>-<sha256>) and checked
#            again after a restore; for another version the built tools, keyed by the
#            sources (gatekit-built-<platform>-<os>-<sources sha256>), never with
#            INPUT_VERIFIED (no key: nothing is restored). It never judges the OS: tools on
#            PATH or in the cache work on any OS. Outputs: skip, bin (unless verified), version,
#            key, cache-path, source (when skipping).
#   install  uses restored built tools when GATEKIT_CACHE_HIT is true and they run (never
#            with INPUT_VERIFIED), or a restored archive whose SHA-256 matches checksums.txt;
#            else downloads the release archive (curl or wget, tar; no root, no compiler);
#            else builds, after installing the missing build dependencies with apt where
#            INPUT_INSTALL_DEPS allows it. Then appends the bin folder to $GITHUB_PATH,
#            exports GATEKIT_BIN and writes the outputs bin, version, source, verified.
# A cache entry is whatever the first job of the same scope saved under the key, and a job
# that runs a pull request's code, or its dependencies, can save any key it can compute. So an
# entry is never trusted for what its key says: an archive is checked against checksums.txt
# after the restore, and INPUT_VERIFIED (for a job that holds a token) takes only what it can
# check: no tools on PATH, no restored built tools, and a build in a fresh folder
# (docs/actions/setup-gatekit.md, "Verified tools").
#            The OS matters only for the build, and only when apt must install something:
#            the package list (actions/lib/apt-packages.sh) names the releases it was checked
#            on, tries the version-less names with a ::warning on others, and refuses only a
#            release whose CMake or Boost is too old, or a runner without apt-get.
#            On macOS (`uname -s` is Darwin) the archive is gatekit-<version>-darwin-<arch>
#            and the build's packages come from Homebrew (GATEKIT_BREW_BUILD in the same list),
#            on the same terms as apt's; a runner without brew is refused.
# A release archive whose SHA-256 differs from checksums.txt is never unpacked, let alone
# run: exit 3. An archive that is not there (no line in checksums.txt for this version and
# platform, HTTP 404, no curl or wget, a timeout) falls through to the build.
#
# Inputs, only from the environment (never ${{ }} in a script):
#   INPUT_FORCE             'true' | 'false': do not use the tools on PATH
#   INPUT_VERIFIED          'true' | 'false': only tools whose bytes are checked here: the release
#                           archive against checksums.txt (downloaded or restored), else a build
#                           of this source in a fresh folder under RUNNER_TEMP; never PATH,
#                           never restored built tools; bin is that folder's absolute path
#   INPUT_CACHE             'true' | 'false': only validated here (action.yml skips actions/cache)
#   INPUT_INSTALL_DEPS      'auto' | 'true' | 'false': install missing build dependencies with
#                           apt: auto only on GitHub-hosted runners (RUNNER_ENVIRONMENT)
#   INPUT_BUILD_DIR         build folder (default $RUNNER_TEMP/gatekit-build); tools go to its bin/.
#                           Not with INPUT_VERIFIED: a folder kept between jobs is not checked
#   INPUT_DOWNLOAD_TIMEOUT  seconds the archive download may take (default 60)
#   GATEKIT_CACHE_HIT       install only: actions/cache's cache-hit output
#   GATEKIT_OS_RELEASE      os-release file to read (default /etc/os-release)
#   GATEKIT_RELEASE_URL     test only: the URL that holds v<version>/<archive>, instead of
#                           $GITHUB_SERVER_URL/<repository of checksums.txt>/releases/download
# Exit codes (docs/exit-codes.md): 0 the tools are available; 2 a bad input, or packages must
# be installed where they may not or cannot be (a self-hosted runner without install-deps:
# true, no apt-get, or a release too old to build gatekit); 3 the tools could not be set up
# (a release archive that does not match its checksum, apt, build, or the built tools do not
# run or report another version).
set -euo pipefail

# shellcheck source=../lib/commands.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/commands.sh"
die() {  # die CODE MESSAGE
  echo "::error title=setup-gatekit::$(gatekit_command_data "$2")" >&2
  exit "$1"
}
warn() { echo "::warning title=setup-gatekit::$(gatekit_command_data "$1")"; }
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
verified="$(bool verified "${INPUT_VERIFIED:-}" false)"
bool cache "${INPUT_CACHE:-}" true >/dev/null  # read by action.yml; checked here
install_deps="${INPUT_INSTALL_DEPS:-auto}"
case "$install_deps" in
  auto | true | false) ;;
  *) die 2 "input install-deps must be 'auto', 'true' or 'false', got '$install_deps'" ;;
esac
download_timeout="${INPUT_DOWNLOAD_TIMEOUT:-60}"
[[ "$download_timeout" =~ ^[1-9][0-9]{0,3}$ ]] ||
  die 2 "input download-timeout must be a number of seconds from 1 to 9999, got '$download_timeout'"
action_dir="${GITHUB_ACTION_PATH:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}"
src="$(cd "$action_dir/../.." && pwd)" || die 3 "cannot enter the gatekit source tree above $action_dir"
temp_root="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
case "$temp_root" in
  /*) ;;
  *) temp_root="$PWD/$temp_root" ;;
esac
if [ "$verified" = true ] && [ -n "${INPUT_BUILD_DIR:-}" ]; then
  die 2 "input build-dir cannot be used with verified: true: a build folder kept between jobs is not checked. Leave it empty (a fresh folder under RUNNER_TEMP)"
fi
build_dir="${INPUT_BUILD_DIR:-$temp_root/gatekit-build}"
case "$build_dir" in
  *$'\n'* | *$'\r'*) die 2 "input build-dir must not contain a line break" ;;
  /*) ;;
  *) build_dir="$PWD/$build_dir" ;;
esac
bin="$build_dir/bin"
# Where the Actions cache keeps a release archive: checked against checksums.txt after a restore.
archive_dir="$temp_root/gatekit-archive"

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

# The release archives this action may download: checksums.txt next to this script.
checksums="$action_dir/checksums.txt"
[ -r "$checksums" ] || die 3 "cannot read $checksums: is this a gatekit source tree?"
case "$(uname -s)" in
  Darwin) os_kind=darwin ;;
  *) os_kind=linux ;;
esac
platform="$os_kind-$(uname -m)"
# sha256sum's lines (macOS has shasum); an argv, so xargs can run it too.
sha256_cmd=(sha256sum)
command -v sha256sum >/dev/null || sha256_cmd=(shasum -a 256)

# The apt package list shared with scripts/install-deps.sh, and the os-release reader.
apt_lib="$action_dir/../lib/apt-packages.sh"
[ -r "$apt_lib" ] || die 3 "cannot read $apt_lib: is this a gatekit source tree?"
# shellcheck source=../lib/apt-packages.sh
source "$apt_lib"
if [ "$os_kind" = darwin ]; then
  os_id=macos
  os_version="$(sw_vers -productVersion 2>/dev/null || true)"
  os_pretty="macOS ${os_version:-unknown}"
else
  os_id="$(gatekit_os_field ID)"
  os_version="$(gatekit_os_field VERSION_ID)"
  os_pretty="$(gatekit_os_field PRETTY_NAME)"
fi
os_name="${os_pretty:-unknown} (ID=${os_id:-?}, VERSION_ID=${os_version:-?})"
yourself="install g++, CMake >= 3.25, Ninja, Boost >= 1.81 (JSON, filesystem), yaml-cpp, CLI11, libcurl and expat yourself and set install-deps: false, or put the gatekit tools on PATH"

apt_judge() {  # apt is about to run on this OS: exit 2 where it cannot serve, warn where untried
  command -v apt-get >/dev/null ||
    die 2 "cannot install the build dependencies on $os_name: apt-get is not on PATH (setup-gatekit installs them with apt, on Debian and Ubuntu). Either $yourself"
  case "$(gatekit_apt_release "$os_id" "$os_version")" in
    listed) ;;
    too-old)
      die 2 "cannot build gatekit from the packages of $os_name: its CMake or Boost is older than the build needs (CMake >= 3.25, Boost >= 1.81 with JSON). Run the job on $GATEKIT_APT_LISTED (e.g. runs-on: ubuntu-24.04), or $yourself" ;;
    *)
      warn "$os_name is not a release whose packages gatekit checked ($GATEKIT_APT_LISTED): trying the version-less package names. If apt or the build fails, $yourself" ;;
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

summary() {  # summary SOURCE BIN [NOTE]
  local file="${GITHUB_STEP_SUMMARY:-}"
  [ -n "$file" ] || return 0
  {
    echo "### gatekit $version"
    echo
    echo "| tools | from | folder | took |"
    echo "| --- | --- | --- | --- |"
    echo "| ${tools[*]} | $1 | \`$2\` | ${SECONDS}s |"
    if [ -n "${3:-}" ]; then echo; echo "$3"; fi
  } >> "$file"
}

probe() {
  group "probe"
  echo "gatekit source: $src (version $version)"
  echo "tools: ${tools[*]}"
  echo "OS: $os_name"
  local existing dir reason
  existing="$(command -v path-classifier || true)"
  if [ "$verified" = true ]; then
    echo "verified: true: not using tools on PATH (only tools checked here run)"
  elif [ -z "$existing" ]; then
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
      write GITHUB_OUTPUT "verified=false"
      summary "PATH" "$dir"
      return 0
    fi
    echo "not using the tools on PATH: $reason"
  fi
  # What the Actions cache holds (cache_plan), and where it restores it.
  read_checksums
  local key="" cache_path=""
  if [ -n "$release_sum" ]; then
    key="gatekit-archive-$platform-$release_sum"
    cache_path="$archive_dir"
    echo "cache: the release archive $archive_name, keyed by its SHA-256 and checked against checksums.txt after a restore"
  elif [ "$verified" = true ]; then
    echo "cache: none (verified: true, and checksums.txt lists no release archive of gatekit $version for $platform, so restored tools could not be checked)"
  else
    local files=() hash
    for f in tools cmake CMakeLists.txt CMakePresets.json; do
      if [ -e "$src/$f" ]; then files+=("$f"); fi
    done
    hash="$(cd "$src" && find "${files[@]}" -type f -print0 | LC_ALL=C sort -z | xargs -0 "${sha256_cmd[@]}" | "${sha256_cmd[@]}")"
    key="gatekit-built-$platform-${os_id:-unknown}-${os_version:-unknown}-${hash%% *}"
    cache_path="$bin"
    echo "cache: the built tools, keyed by the sources"
  fi
  if [ "$verified" = true ]; then
    echo "build folder: a fresh one under $temp_root (verified: true)"
  else
    echo "build folder: $build_dir"
  fi
  echo "cache key: ${key:-none}"
  endgroup
  write GITHUB_OUTPUT "skip=false"
  if [ "$verified" != true ]; then write GITHUB_OUTPUT "bin=$bin"; fi
  write GITHUB_OUTPUT "version=$version"
  write GITHUB_OUTPUT "key=$key"
  write GITHUB_OUTPUT "cache-path=$cache_path"
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

# missing_packages: the build packages dpkg does not list as installed, one a line (all of
# them where dpkg-query is absent).
missing_packages() {
  local pkg
  for pkg in $(gatekit_apt_packages build "$os_id" "$os_version"); do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || echo "$pkg"
  done
}

# brew_dependencies: install_dependencies on macOS, with Homebrew.
brew_dependencies() {
  group "dependencies (Homebrew)"
  command -v brew >/dev/null ||
    die 2 "cannot install the build dependencies on $os_name: brew is not on PATH (on macOS setup-gatekit installs them with Homebrew, https://brew.sh). Either install ${GATEKIT_BREW_BUILD[*]} yourself and set install-deps: false, or put the gatekit tools on PATH"
  local formula missing=()
  for formula in "${GATEKIT_BREW_BUILD[@]}"; do
    brew list --formula "$formula" >/dev/null 2>&1 || missing+=("$formula")
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    echo "all build dependencies are installed"
  elif [ "$install_deps" = auto ] && [ "${RUNNER_ENVIRONMENT:-}" != github-hosted ]; then
    die 2 "cannot set up gatekit $version: no usable release archive ($download_reason), and building it needs Homebrew packages this runner lacks: ${missing[*]}. setup-gatekit installs packages on its own only on GitHub-hosted runners (this one is ${RUNNER_ENVIRONMENT:-not one}). Set install-deps: true to install them with brew, or install them on the runner, or put the gatekit tools on PATH (cmake --install)"
  else
    echo "installing: ${missing[*]}"
    HOMEBREW_NO_AUTO_UPDATE=1 brew install --quiet "${missing[@]}" ||
      die 3 "brew install ${missing[*]} failed (see the log above)"
  fi
  endgroup
}

install_dependencies() {
  if [ "$os_kind" = darwin ]; then
    brew_dependencies
    return 0
  fi
  group "dependencies (apt)"
  local missing=()
  mapfile -t missing < <(missing_packages)
  if [ "${#missing[@]}" -eq 0 ]; then
    echo "all build dependencies are installed"
  elif [ "$install_deps" = auto ] && [ "${RUNNER_ENVIRONMENT:-}" != github-hosted ]; then
    # A self-hosted runner is a machine someone keeps: gatekit changes its packages only when
    # the workflow says so. Without dpkg-query nothing can be judged: let the build try.
    if command -v dpkg-query >/dev/null; then
      die 2 "cannot set up gatekit $version: no usable release archive ($download_reason), and building it needs packages this runner lacks: ${missing[*]}. setup-gatekit installs packages on its own only on GitHub-hosted runners (this one is ${RUNNER_ENVIRONMENT:-not one}). Set install-deps: true to install them with apt (root or passwordless sudo), or install them in the runner image, or put the gatekit tools on PATH (cmake --install)"
    fi
    echo "dpkg-query is not on PATH: cannot tell which build dependencies are missing; trying the build"
  else
    apt_judge
    echo "installing: ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq ||
      die 3 "apt-get update failed (see the log above)"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
      die 3 "apt-get install ${missing[*]} failed (see the log above)"
  fi
  endgroup
}

# read_checksums: sets release_repo and release_sum (the SHA-256 checksums.txt lists for
# gatekit $version on $platform; '' when none). A malformed line is the action's own source
# gone wrong: exit 3 naming it. Format: `repository OWNER/NAME`, and `VERSION PLATFORM SHA256`
# per archive; `#` starts a comment.
release_repo=""
release_sum=""
archive_name="gatekit-$version-$platform.tar.gz"
read_checksums() {
  local n=0 line fields
  while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    line="${line%%#*}"
    read -r -a fields <<< "$line" || true
    case "${#fields[@]}" in
      0) ;;
      2)
        if [ "${fields[0]}" != repository ] || ! [[ "${fields[1]}" =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]]; then
          die 3 "$checksums:$n: expected 'repository OWNER/NAME'"
        fi
        release_repo="${fields[1]}" ;;
      3)
        [[ "${fields[0]}" =~ ^[0-9]+(\.[0-9]+)*$ && "${fields[1]}" =~ ^(linux|darwin)-[a-z0-9_]+$ && "${fields[2]}" =~ ^[0-9a-f]{64}$ ]] ||
          die 3 "$checksums:$n: expected 'VERSION linux-ARCH SHA256' or 'VERSION darwin-ARCH SHA256' (64 lowercase hex digits)"
        if [ "${fields[0]}" = "$version" ] && [ "${fields[1]}" = "$platform" ]; then release_sum="${fields[2]}"; fi ;;
      *) die 3 "$checksums:$n: expected 'repository OWNER/NAME' or 'VERSION linux-ARCH SHA256' (or darwin-ARCH)" ;;
    esac
  done < "$checksums"
}

# fetch URL FILE: downloads URL into FILE within $download_timeout seconds and at most 256 MiB,
# over http(s) only; prints why not on failure.
fetch() {
  local err
  if command -v curl >/dev/null; then
    err="$(curl --fail --silent --show-error --location --proto '=http,https' --proto-redir '=http,https' \
      --connect-timeout 10 --max-time "$download_timeout" --max-filesize 268435456 \
      --output "$2" "$1" 2>&1)" && return 0
    case "$err" in
      *"Operation timed out"* | *"timed out"*) echo "the download did not finish within $download_timeout s (input download-timeout)" ;;
      *) echo "curl: ${err#curl: }" ;;
    esac
    return 1
  elif command -v wget >/dev/null; then
    err="$(wget --quiet --output-document="$2" --timeout="$download_timeout" --tries=1 "$1" 2>&1)" && return 0
    echo "wget could not download it (exit $?${err:+: $err})"
    return 1
  fi
  echo "neither curl nor wget is on PATH"
  return 1
}

# unpack FILE: the tools of the release archive FILE (its SHA-256 checked) into $bin; exit 3
# when it holds no bin/ folder tar can unpack. (Its callers run in an `if`, where `set -e`
# does not stop a failed command: each one is checked.)
unpack() {
  local tmp top tool
  tmp="$(mktemp -d "$temp_root/gatekit-release.XXXXXX")" || die 3 "cannot create a folder under $temp_root"
  top="gatekit-$version-$platform"
  if ! tar -xzf "$1" -C "$tmp" --no-same-owner "$top/bin" 2>/dev/null; then
    rm -rf "$tmp"
    die 3 "$archive_name matches its checksum but holds no $top/bin/ folder tar can unpack"
  fi
  mkdir -p "$bin" || die 3 "cannot create folder $bin"
  for tool in "${tools[@]}"; do
    if [ -f "$tmp/$top/bin/$tool" ]; then
      cp -f "$tmp/$top/bin/$tool" "$bin/$tool" || die 3 "cannot copy $tool into $bin"
    fi
  done
  rm -rf "$tmp"
}

sha256_of() {  # sha256_of FILE: its SHA-256, 64 hex digits
  local line
  line="$("${sha256_cmd[@]}" "$1")"
  printf '%s\n' "${line%% *}"
}

# restored: puts the tools of the release archive the Actions cache restored into $bin, when
# its SHA-256 is the one checksums.txt lists. Returns 1, saying why, when there is none or it
# does not run here; a restored archive with another SHA-256 is deleted and never unpacked (a
# cache entry is whatever a job of this scope saved under the key first).
restored() {
  group "release archive (Actions cache)"
  local file="$archive_dir/$archive_name" got reason
  if [ ! -f "$file" ]; then
    echo "the cache restored no $archive_name"
    endgroup
    return 1
  fi
  got="$(sha256_of "$file")"
  if [ "$got" != "$release_sum" ]; then
    rm -f "$file"
    warn "the $archive_name restored from the Actions cache has SHA-256 $got, but checksums.txt of this action says $release_sum: not using it (the entry was not saved from the release; delete it: gh cache delete gatekit-archive-$platform-$release_sum). Downloading the release archive instead"
    endgroup
    return 1
  fi
  echo "SHA-256 $got matches checksums.txt"
  unpack "$file"
  if ! reason="$(tools_ok "$bin")"; then
    echo "the restored tools do not run here: $reason"
    endgroup
    return 1
  fi
  echo "the release tools run"
  endgroup
}

# download: puts the verified tools of the release archive into $bin, and keeps the archive in
# $archive_dir for the Actions cache. Returns 1 with download_reason set when there is no
# usable archive; exits 3 when the archive does not match its checksum.
download_reason=""
download() {
  group "release archive"
  local url part got reason
  if [ -z "$release_sum" ]; then
    download_reason="checksums.txt lists no release archive of gatekit $version for $platform"
    echo "$download_reason: building from source"
    endgroup
    return 1
  fi
  if [ -z "$release_repo" ]; then
    die 3 "$checksums names no repository ('repository OWNER/NAME') to download gatekit $version from"
  fi
  url="${GATEKIT_RELEASE_URL:-${GITHUB_SERVER_URL:-https://github.com}/$release_repo/releases/download}/v$version/$archive_name"
  mkdir -p "$archive_dir" || die 3 "cannot create folder $archive_dir"
  part="$archive_dir/$archive_name.part"
  echo "downloading $url (at most ${download_timeout}s)"
  if ! reason="$(fetch "$url" "$part")"; then
    rm -f "$part"
    rmdir "$archive_dir" 2>/dev/null || true  # nothing for the cache to save
    download_reason="$archive_name could not be downloaded: $reason"
    warn "$download_reason. Building gatekit from source instead (slower; see docs/actions/setup-gatekit.md)"
    endgroup
    return 1
  fi
  got="$(sha256_of "$part")"
  if [ "$got" != "$release_sum" ]; then
    rm -f "$part"
    die 3 "$url has SHA-256 $got, but checksums.txt of this action says $release_sum for gatekit $version on $platform: not using it. The archive was changed after the release, or the action's checksums.txt is wrong"
  fi
  echo "SHA-256 $got matches checksums.txt"
  mv -f "$part" "$archive_dir/$archive_name" || die 3 "cannot rename $part to $archive_dir/$archive_name"
  unpack "$archive_dir/$archive_name"
  if ! reason="$(tools_ok "$bin")"; then
    download_reason="the tools of $archive_name do not run here: $reason"
    warn "$download_reason. Building gatekit from source instead"
    endgroup
    return 1
  fi
  echo "the release tools run"
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
  jobs="$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)"
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

publish() {  # publish SOURCE [NOTE]
  write GITHUB_PATH "$bin"
  write GITHUB_ENV "GATEKIT_BIN=$bin"
  write GITHUB_OUTPUT "bin=$bin"
  write GITHUB_OUTPUT "version=$version"
  write GITHUB_OUTPUT "source=$1"
  write GITHUB_OUTPUT "verified=$verified"
  local note="${2:-}"
  if [ "$verified" = true ]; then
    note="${note:+$note }Verified (\`verified: true\`): a job that holds a token runs the tools from this folder by its path."
  fi
  summary "$1" "$bin" "$note"
  echo "gatekit $version tools ($1) in $bin"
}

install() {
  local reason
  if [ "$verified" = true ]; then
    # Nothing that was there before this step: a new folder of its own.
    build_dir="$(mktemp -d "$temp_root/gatekit-verified.XXXXXX")" ||
      die 3 "cannot create a fresh folder under $temp_root for the verified tools"
    bin="$build_dir/bin"
  fi
  read_checksums
  if [ -n "$release_sum" ] && [ "${GATEKIT_CACHE_HIT:-}" = true ] && restored; then
    publish cache "Release archive \`$archive_name\` restored from the Actions cache, SHA-256 checked against the action's checksums.txt."
    return 0
  fi
  if [ -z "$release_sum" ] && [ "$verified" != true ] && [ "${GATEKIT_CACHE_HIT:-}" = true ]; then
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
  if download; then
    publish release "Release archive \`$archive_name\`, SHA-256 checked against the action's checksums.txt."
    return 0
  fi
  if [ "$install_deps" != false ]; then
    install_dependencies
    # Restored binaries may only have lacked the shared libraries the packages bring.
    if [ -z "$release_sum" ] && [ "$verified" != true ] && [ "${GATEKIT_CACHE_HIT:-}" = true ] &&
       tools_ok "$bin" >/dev/null; then
      publish cache
      return 0
    fi
  fi
  build
  group "check"
  reason="$(tools_ok "$bin")" || die 3 "the built tools are not usable: $reason"
  echo "ok: gatekit $version"
  endgroup
  publish built "Built from source: $download_reason."
}

"$mode"
