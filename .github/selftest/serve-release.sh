#!/usr/bin/env bash
# serve-release.sh DIST: serves the one release archive in DIST the way a GitHub release does
# (URL/v<version>/<archive>) from a Python HTTP server on 127.0.0.1:8765, and writes the
# workspace's actions/setup-gatekit/checksums.txt to list it, so that ./actions/setup-gatekit
# with GATEKIT_RELEASE_URL=<url> takes its download path. Outputs: url, version, file (the
# served archive, for the tamper and remove cases).
set -euo pipefail
shopt -s nullglob
archives=("$1"/gatekit-*-linux-*.tar.gz)
[ "${#archives[@]}" -eq 1 ] || { echo "::error title=self-test::expected one archive in $1, found ${#archives[@]}"; exit 1; }
archive="${archives[0]}"
name="$(basename "$archive" .tar.gz)"
rest="${name#gatekit-}"
version="${rest%-linux-*}"
platform="linux-${rest##*-linux-}"
root="$RUNNER_TEMP/selftest-release"
mkdir -p "$root/v$version"
cp "$archive" "$root/v$version/"
sum="$(sha256sum "$archive")"
printf 'repository selftest/gatekit\n%s %s %s\n' "$version" "$platform" "${sum%% *}" > actions/setup-gatekit/checksums.txt
cat actions/setup-gatekit/checksums.txt
nohup python3 -m http.server 8765 --bind 127.0.0.1 --directory "$root" > "$RUNNER_TEMP/selftest-server.log" 2>&1 &
for _ in $(seq 100); do
  if curl -fsS -o /dev/null http://127.0.0.1:8765/; then break; fi
  sleep 0.1
done
{
  echo "url=http://127.0.0.1:8765"
  echo "version=$version"
  echo "file=$root/v$version/$(basename "$archive")"
} >> "$GITHUB_OUTPUT"
