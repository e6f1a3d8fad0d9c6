#!/usr/bin/env bash
# Builds the libraries gatekit links, from source, for a compiler and standard library other
# than the host's own: the macOS cross-builds (scripts/cross-macos.sh, Zig's toolchain) and
# any build whose C++ ABI differs from the distribution's (clang with libc++). Installs them
# into PREFIX, the layout cmake/GatekitDepsFromSource.cmake reads (-DGATEKIT_DEPS_PREFIX=PREFIX):
#   PREFIX/lib/libyaml-cpp.a, PREFIX/lib/libexpat.a   built here, static
#   PREFIX/include/{yaml-cpp,expat*.h}                 their headers
#   PREFIX/include/{boost,CLI,curl}                    links to the host's headers: Boost and
#       CLI11 are used header-only (Boost.JSON is compiled by gatekit's own build from
#       boost/json/src.hpp), libcurl is dlopen'd, so only its declarations are needed.
#
# The sources are the Debian 12 source packages of the versions the dev build links (yaml-cpp
# 0.7.0+dfsg-8, expat 2.5.0-1+deb12u1): the upstream .orig tarball and Debian's patches, from
# the Debian mirror's pools (GATEKIT_DEBIAN_MIRROR, default http://deb.debian.org: its debian/ and,
# for security updates, debian-security/ archives), each
# checked against the SHA-256 pinned below (the one the package's .dsc names). Downloads are
# kept in build/deps-src/; a prefix whose stamp matches the request is reused as it is.
#
# usage: deps-from-source.sh --prefix DIR --cc CC --cxx CXX [-- EXTRA-CMAKE-ARGS...]
#   EXTRA-CMAKE-ARGS go to both libraries' configure, e.g. -DCMAKE_TOOLCHAIN_FILE=... or
#   -DCMAKE_CXX_FLAGS=-stdlib=libc++. Exit 0 built or reused, 2 usage, 1 anything failed.
set -euo pipefail
shopt -s inherit_errexit 2>/dev/null || true  # bash >= 4.4; macOS's /bin/bash is 3.2
cd "$(dirname "$0")/.."
root="$PWD"

prefix="" cc="" cxx=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="${2:-}"; shift 2 ;;
    --cc) cc="${2:-}"; shift 2 ;;
    --cxx) cxx="${2:-}"; shift 2 ;;
    --) shift; break ;;
    *) echo "deps-from-source.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done
if [ -z "$prefix" ] || [ -z "$cc" ] || [ -z "$cxx" ]; then
  echo "usage: deps-from-source.sh --prefix DIR --cc CC --cxx CXX [-- EXTRA-CMAKE-ARGS...]" >&2
  exit 2
fi
extra=("$@")
mirror="${GATEKIT_DEBIAN_MIRROR:-http://deb.debian.org}"
# Where the host's Boost, CLI11 and libcurl headers are: /usr/include on Debian and Ubuntu;
# on macOS, Homebrew's include folder (GATEKIT_HOST_INCLUDE=$(brew --prefix)/include).
host_include="${GATEKIT_HOST_INCLUDE:-/usr/include}"
# sha256 FILE...: sha256sum's lines (macOS has shasum).
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }
src_cache="$root/build/deps-src"

# name|folder on the mirror|file|sha256: the .orig tarball and the Debian changes of each package.
SOURCES=(
  "yaml-cpp|debian/pool/main/y/yaml-cpp|yaml-cpp_0.7.0+dfsg.orig.tar.xz|dc63708605404e0b963e0ca3a9619d1c8270eda2839603e6fa0384e5e51e5312"
  "yaml-cpp|debian/pool/main/y/yaml-cpp|yaml-cpp_0.7.0+dfsg-8.debian.tar.xz|d2d09d2e54215b5865d5dfd4a92ec887c261f9c19c0b2521303647505127163e"
  "expat|debian/pool/main/e/expat|expat_2.5.0.orig.tar.gz|ab00ee05c7067fd10a35c5d2a4922ebba746ddd50ff83b79c828da17bbdf1757"
  "expat|debian-security/pool/updates/main/e/expat|expat_2.5.0-1+deb12u1.debian.tar.xz|32e9a953f5a240fca186e077ca957fe9352777707b650a58ff989650b9fa0a80"
)

# fetch FILE: build/deps-src/FILE, downloaded once and checked every time.
fetch() {
  local line name pool file sha actual
  for line in "${SOURCES[@]}"; do
    IFS='|' read -r name pool file sha <<<"$line"
    [ "$file" = "$1" ] || continue
    mkdir -p "$src_cache"
    if [ ! -f "$src_cache/$file" ]; then
      echo "==> downloading $mirror/$pool/$file" >&2
      if ! curl --fail --silent --show-error --location --retry 3 -o "$src_cache/$file.part" "$mirror/$pool/$file"; then
        echo "deps-from-source.sh: cannot download $mirror/$pool/$file" >&2
        rm -f "$src_cache/$file.part"
        exit 1
      fi
      mv "$src_cache/$file.part" "$src_cache/$file"
    fi
    actual="$(sha256 "$src_cache/$file" | cut -d' ' -f1)"
    if [ "$actual" != "$sha" ]; then
      echo "deps-from-source.sh: $src_cache/$file: SHA-256 is $actual, expected $sha; removed it" >&2
      rm -f "$src_cache/$file"
      exit 1
    fi
    printf '%s\n' "$src_cache/$file"
    return 0
  done
  echo "deps-from-source.sh: no pinned source named $1" >&2
  exit 1
}

# unpack NAME ORIG DEBIAN DIR: the upstream tree in DIR with Debian's patches applied.
unpack() {
  local name="$1" orig debian dir="$4" patch
  orig="$(fetch "$2")"
  debian="$(fetch "$3")"
  rm -rf "$dir"
  mkdir -p "$dir"
  tar -xf "$orig" -C "$dir" --strip-components=1
  tar -xf "$debian" -C "$dir"
  if [ -f "$dir/debian/patches/series" ]; then
    while read -r patch _; do
      case "$patch" in ''|'#'*) continue ;; esac
      patch --quiet --directory="$dir" -p1 <"$dir/debian/patches/$patch" \
        || { echo "deps-from-source.sh: $name: Debian patch $patch does not apply" >&2; exit 1; }
    done <"$dir/debian/patches/series"
  fi
}

# host_headers DIR: link the host's Boost, CLI11 and libcurl headers into DIR.
host_headers() {
  local inc="$1" multiarch candidate curl_dir=""
  multiarch="$(gcc -print-multiarch 2>/dev/null || true)"
  for candidate in "$host_include/curl" "$host_include/$multiarch/curl" \
                   "$(xcrun --show-sdk-path 2>/dev/null || echo /nonexistent)/usr/include/curl"; do
    if [ -f "$candidate/curl.h" ]; then curl_dir="$candidate"; break; fi
  done
  [ -f "$host_include/boost/json/src.hpp" ] || { echo "deps-from-source.sh: no $host_include/boost/json/src.hpp (install Boost >= 1.81 with JSON: libboost-json-dev, brew install boost)" >&2; exit 1; }
  [ -f "$host_include/CLI/CLI.hpp" ] || { echo "deps-from-source.sh: no $host_include/CLI/CLI.hpp (install CLI11: libcli11-dev, brew install cli11)" >&2; exit 1; }
  [ -n "$curl_dir" ] || { echo "deps-from-source.sh: no curl/curl.h under $host_include (install libcurl4-openssl-dev)" >&2; exit 1; }
  ln -sfn "$host_include/boost" "$inc/boost"
  ln -sfn "$host_include/CLI" "$inc/CLI"
  ln -sfn "$curl_dir" "$inc/curl"
}

stamp_text="$(printf '%s\n' "$cc" "$cxx" "$host_include" "${extra[@]}" "${SOURCES[@]}" | sha256 | cut -d' ' -f1)"
if [ -f "$prefix/.stamp" ] && [ "$(cat "$prefix/.stamp")" = "$stamp_text" ]; then
  echo "==> libraries from source: $prefix is up to date"
  exit 0
fi

work="$prefix.work"
rm -rf "$prefix" "$work"
mkdir -p "$prefix/include" "$work"
common=(-G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_INSTALL_PREFIX=$prefix" -DCMAKE_INSTALL_LIBDIR=lib
        "-DCMAKE_C_COMPILER=$cc" "-DCMAKE_CXX_COMPILER=$cxx" -DCMAKE_POSITION_INDEPENDENT_CODE=ON
        -DBUILD_SHARED_LIBS=OFF "${extra[@]}")
jobs="$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)"
# quiet STEP CMD...: CMD's output goes to a log, shown only when CMD fails.
quiet() {
  local step="$1"; shift
  if ! "$@" >"$work/$step.log" 2>&1; then
    tail -n 40 "$work/$step.log" >&2
    echo "deps-from-source.sh: $step failed (log: $work/$step.log)" >&2
    exit 1
  fi
}

echo "==> yaml-cpp 0.7.0 from source into $prefix"
unpack yaml-cpp yaml-cpp_0.7.0+dfsg.orig.tar.xz yaml-cpp_0.7.0+dfsg-8.debian.tar.xz "$work/yaml-cpp"
quiet yaml-cpp-configure cmake -S "$work/yaml-cpp" -B "$work/yaml-cpp/build" "${common[@]}" -DYAML_CPP_BUILD_TESTS=OFF \
  -DYAML_CPP_BUILD_TOOLS=OFF -DYAML_CPP_BUILD_CONTRIB=OFF -DYAML_BUILD_SHARED_LIBS=OFF
quiet yaml-cpp-build cmake --build "$work/yaml-cpp/build" -j "$jobs"
quiet yaml-cpp-install cmake --install "$work/yaml-cpp/build"

echo "==> expat 2.5.0 from source into $prefix"
# The upstream tarball holds the whole repository; the library is its expat/ folder.
unpack expat expat_2.5.0.orig.tar.gz expat_2.5.0-1+deb12u1.debian.tar.xz "$work/expat"
quiet expat-configure cmake -S "$work/expat/expat" -B "$work/expat/build" "${common[@]}" -DEXPAT_SHARED_LIBS=OFF \
  -DEXPAT_BUILD_TOOLS=OFF -DEXPAT_BUILD_EXAMPLES=OFF -DEXPAT_BUILD_TESTS=OFF -DEXPAT_BUILD_DOCS=OFF \
  -DEXPAT_BUILD_FUZZERS=OFF -DEXPAT_BUILD_PKGCONFIG=OFF
quiet expat-build cmake --build "$work/expat/build" -j "$jobs"
quiet expat-install cmake --install "$work/expat/build"

host_headers "$prefix/include"
for lib in libyaml-cpp.a libexpat.a; do
  [ -f "$prefix/lib/$lib" ] || { echo "deps-from-source.sh: the build installed no $prefix/lib/$lib" >&2; exit 1; }
done
rm -rf "$work"
printf '%s\n' "$stamp_text" >"$prefix/.stamp"
echo "==> libraries from source: $prefix ready"
