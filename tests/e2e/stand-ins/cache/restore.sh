#!/usr/bin/env bash
# The cache stand-in's restore (action.yml, restore/action.yml): nothing, or with
# E2E_CACHE_SEED the seeded entry for any key (README.md).
set -euo pipefail
if [ -z "${E2E_CACHE_SEED:-}" ]; then
  echo "cache stand-in - no cache in the end-to-end tests"
  echo "cache-hit=false" >> "$GITHUB_OUTPUT"
  exit 0
fi
name="$(basename -- "$INPUT_PATH")"
if [ -f "$E2E_CACHE_SEED/$name" ]; then
  mkdir -p -- "$(dirname -- "$INPUT_PATH")"
  cp -- "$E2E_CACHE_SEED/$name" "$INPUT_PATH"
else
  mkdir -p "$INPUT_PATH"
  cp -R "$E2E_CACHE_SEED/." "$INPUT_PATH/"
fi
echo "cache stand-in: restored the seeded entry for key $INPUT_KEY into $INPUT_PATH"
echo "cache-hit=true" >> "$GITHUB_OUTPUT"
