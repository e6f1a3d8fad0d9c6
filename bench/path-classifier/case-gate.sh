#!/usr/bin/env bash
# The anchor gatekit's path gate replaces: the shell gate of the project gatekit started from,
# a `case` deny list over the changed paths (one a line on stdin). Prints relevant=true when
# some path is on none of the deny list's patterns, else relevant=false. bash's `case` globs
# let `*` cross '/', so `docs/*` means all of docs/.
relevant=false
while IFS= read -r path; do
  case "$path" in
    docs/*|*.md|*.rst|*.txt|LICENSE|.github/ISSUE_TEMPLATE/*|.github/CODEOWNERS|mkdocs.yml|examples/*/README*) ;;
    notebooks/*|*.ipynb|*.png|*.svg|*.jpg|.gitignore|.editorconfig|CITATION.cff|benchmarks/results/*) ;;
    *) relevant=true; break ;;
  esac
done
echo "relevant=$relevant"
