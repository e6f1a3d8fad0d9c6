#!/usr/bin/env bash
# check-glibc.sh [--baseline X.Y] FILE|DIR...: the highest glibc symbol version each ELF
# executable needs at run time, judged against the baseline the release archives promise.
#
# The loader refuses to start a program that needs a GLIBC_x.y symbol version its libc lacks
# ("version `GLIBC_2.38' not found"), so this is the oldest glibc the tools run on. The
# baseline is 2.34: Ubuntu 22.04 (glibc 2.35) images and containers must run the released
# tools (docs/contributing.md, "Releases"). A DIR stands for the executable files directly in
# it (an installed bin/). Reads the dynamic symbol table with objdump (binutils).
#
# Prints one table row per file (also appended to $GITHUB_STEP_SUMMARY when set): the highest
# version, one symbol that needs it, and the verdict. GLIBC_PRIVATE is always above any
# baseline (it ties a program to one glibc build).
# Exit codes (docs/exit-codes.md): 0 every file is within the baseline; 1 some file needs a
# newer glibc; 2 usage error (no file, a bad --baseline, a DIR without executables); 3 could
# not evaluate (objdump missing, a file unreadable or not an ELF file).
set -euo pipefail

readonly DEFAULT_BASELINE=2.34

die() { echo "check-glibc: $2" >&2; exit "$1"; }
usage() { die 2 "usage: check-glibc.sh [--baseline X.Y] FILE|DIR... ($1)"; }

# version_above A B: A is a strictly newer glibc version than B (both dotted numbers).
version_above() {
  [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1)" = "$1" ]
}

# needs FILE: prints "VERSION SYMBOL" for the highest GLIBC_ version FILE's dynamic symbols
# name (PRIVATE when any is GLIBC_PRIVATE), "none -" when none, "static -" for an ELF
# executable without dynamic section. Exit 3 (with the reason on stderr) when unreadable.
needs() {
  local file="$1" table
  if ! table="$(LC_ALL=C objdump -T "$file" 2>&1)"; then
    if LC_ALL=C readelf -h "$file" >/dev/null 2>&1 &&
       LC_ALL=C readelf -d "$file" 2>/dev/null | grep -q 'There is no dynamic section'; then
      echo "static -"
      return 0
    fi
    echo "check-glibc: $file: objdump cannot read its dynamic symbols: ${table##*: }" >&2
    return 3
  fi
  # Each versioned symbol line ends "... (GLIBC_2.34) name" or "... GLIBC_2.34 name".
  printf '%s\n' "$table" | awk '
    { for (i = 1; i < NF; i++) {
        v = $i; gsub(/[()]/, "", v)
        if (v ~ /^GLIBC_PRIVATE$/) { print "PRIVATE " $NF; next }
        if (v ~ /^GLIBC_[0-9]+(\.[0-9]+)*$/) { sub(/^GLIBC_/, "", v); print v " " $NF; next }
      } }' |
    sort -k1,1V -k2,2 | awk '
      $1 == "PRIVATE" { private = $0 }
      $1 != "PRIVATE" { last = $0 }
      END { if (private != "") print private; else if (last != "") print last; else print "none -" }'
}

baseline="$DEFAULT_BASELINE"
inputs=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --baseline)
      [ "$#" -ge 2 ] || usage "--baseline needs a value"
      baseline="$2"
      shift 2 ;;
    --baseline=*) baseline="${1#--baseline=}"; shift ;;
    -*) usage "unknown option '$1'" ;;
    *) inputs+=("$1"); shift ;;
  esac
done
[[ "$baseline" =~ ^[0-9]+\.[0-9]+$ ]] || usage "--baseline must look like 2.34, got '$baseline'"
[ "${#inputs[@]}" -gt 0 ] || usage "no file given"
command -v objdump >/dev/null || die 3 "objdump is not on PATH (install binutils)"

files=()
for input in "${inputs[@]}"; do
  if [ -d "$input" ]; then
    found=0
    for f in "$input"/*; do
      if [ -f "$f" ] && [ -x "$f" ]; then files+=("$f"); found=1; fi
    done
    [ "$found" = 1 ] || usage "$input holds no executable file"
  elif [ -f "$input" ] && [ -r "$input" ]; then
    files+=("$input")
  else
    die 3 "$input: no such readable file or folder"
  fi
done

rows=("| file | needs | for | glibc $baseline baseline |" "| --- | --- | --- | --- |")
above=0
for f in "${files[@]}"; do
  result="$(needs "$f")" || exit 3
  version="${result%% *}"
  symbol="${result#* }"
  case "$version" in
    static | none) verdict="ok (no glibc symbol versions)"; shown="-" ;;
    PRIVATE) verdict="ABOVE (GLIBC_PRIVATE)"; shown="GLIBC_PRIVATE"; above=1 ;;
    *)
      shown="GLIBC_$version"
      if version_above "$version" "$baseline"; then verdict="ABOVE"; above=1; else verdict="ok"; fi ;;
  esac
  rows+=("| \`$(basename "$f")\` | $shown | \`$symbol\` | $verdict |")
done

printf '%s\n' "${rows[@]}"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  { echo "### glibc symbol versions"; echo; printf '%s\n' "${rows[@]}"; echo; } >> "$GITHUB_STEP_SUMMARY"
fi
if [ "$above" = 1 ]; then
  echo "check-glibc: some files need a glibc newer than $baseline: they would not start on every system the release promises (build them on the release image, docs/contributing.md)" >&2
  exit 1
fi
echo "check-glibc: each of the ${#files[@]} files needs at most glibc $baseline"
