# shellcheck shell=bash
# Sourced by actions/setup-gatekit/setup-gatekit.sh and scripts/install-deps.sh (not an action).
# The one list of the apt packages gatekit needs. Every difference between distributions
# lives in this file, nowhere else.
#
# What the build needs: g++ with C++20, CMake >= 3.25, Ninja, Boost >= 1.81 with JSON (and
# filesystem), yaml-cpp, CLI11, libcurl and expat. The Boost packages are the version-less
# meta packages (libboost-json-dev, ...), which follow each release's default Boost, so a new
# release needs no change here; only a release whose default is too old names a version.

# Build: what setup-gatekit installs (the release preset builds no tests, so no Catch2).
GATEKIT_APT_BUILD=(g++ cmake ninja-build libyaml-cpp-dev libcli11-dev libcurl4-openssl-dev libexpat1-dev)
# Development: what scripts/install-deps.sh adds to build and test gatekit itself
# (shellcheck: the workflow and script linting in tests/workflows/test_linters.py; curl,
# xz-utils, patch and file: scripts/deps-from-source.sh and scripts/cross-macos.sh; ruby:
# the Homebrew formula's syntax check, tests/packaging; the release's default clang with libc++
# and the sanitizer runtimes: the asan preset, which builds and tests gatekit with macOS's
# compiler and standard library family; GNU time: the peak memory of a benchmarked command
# alone, bench/common.py).
GATEKIT_APT_DEV=(git pkg-config python3 python3-pip nodejs catch2 shellcheck curl xz-utils patch file ruby
                 clang libc++-dev libc++abi-dev libclang-rt-dev time)
# macOS: the same needs from Homebrew (scripts/install-deps.sh). Build: cmake, ninja and the
# libraries (CLI11 and Boost's headers; expat, libcurl and the C++ compiler are the system's).
# Development: what the tests add (Catch2 3, node, shellcheck, Go for actionlint, GNU tar for
# reproducible archives, bash 5 for the scripts: macOS's /bin/bash is 3.2).
# shellcheck disable=SC2034  # read by the scripts that source this file
GATEKIT_BREW_BUILD=(cmake ninja boost yaml-cpp cli11)
# shellcheck disable=SC2034
GATEKIT_BREW_DEV=(catch2 node shellcheck go gnu-tar bash)
# Releases whose packages were checked against the needs above.
# shellcheck disable=SC2034  # read by the scripts that source this file
GATEKIT_APT_LISTED="Debian 12, Debian 13, Ubuntu 24.04, Ubuntu 26.04"

# gatekit_os_field NAME: a field of os-release (GATEKIT_OS_RELEASE, default /etc/os-release),
# unquoted; '' when the file or the field is absent.
gatekit_os_field() {
  local file="${GATEKIT_OS_RELEASE:-/etc/os-release}"
  [ -r "$file" ] || return 0
  sed -n "s/^$1=//p" "$file" | head -n 1 | sed -e 's/^"\(.*\)"$/\1/' -e "s/^'\(.*\)'$/\1/"
}

# gatekit_apt_release ID VERSION_ID: how well apt can serve this release. Prints
#   listed    its packages were checked (GATEKIT_APT_LISTED)
#   too-old   its archive has an older CMake or Boost than the build needs
#   generic   anything else (a newer or derived release): the version-less names are a good try
gatekit_apt_release() {
  case "$1:$2" in
    debian:12 | debian:13 | ubuntu:24.04 | ubuntu:26.04) echo listed ;;
    # Debian 11: CMake 3.18, Boost 1.74. Ubuntu 22.04 and older: CMake 3.22, Boost 1.74.
    debian:[0-9] | debian:1[01] | ubuntu:1[0-9].* | ubuntu:2[0-2].*) echo too-old ;;
    *) echo generic ;;
  esac
}

# gatekit_apt_packages SET ID VERSION_ID: the packages, one a line. SET is `build` (the tools)
# or `dev` (build, plus what developing and testing gatekit needs).
gatekit_apt_packages() {
  local boost
  case "$2:$3" in
    # Debian 12's default Boost is 1.74, which has no JSON: name 1.81, which it also ships.
    debian:12) boost=(libboost1.81-dev libboost-json1.81-dev libboost-filesystem1.81-dev) ;;
    *) boost=(libboost-dev libboost-json-dev libboost-filesystem-dev) ;;
  esac
  printf '%s\n' "${GATEKIT_APT_BUILD[@]}" "${boost[@]}"
  if [ "$1" = dev ]; then
    printf '%s\n' "${GATEKIT_APT_DEV[@]}"
    # Go builds actionlint (scripts/install-deps.sh). Go >= 1.21 fetches the newer toolchain
    # actionlint asks for through the Go module proxy; Debian 12's golang-go is 1.19, too old
    # for that: there, Go must come from elsewhere (https://go.dev/dl/).
    case "$2:$3" in
      debian:12) ;;
      *) echo golang-go ;;
    esac
  fi
}
