#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The repository stands alone: no tracked file (code, comments, docs,
# tests) refers to the specification directory outside it.  The facts the
# code relies on live in docs/ (docs/format.md, docs/tags.md).  Checks
# every tracked file (git ls-files), or every file of the tree outside
# build directories when this is not a git checkout; and checks itself
# on a planted file so that it can fail.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$TOP"
# built from pieces, so that this file does not match itself
pattern="shared""/spec|\.\./""shared"

scan() {	# prints file:line:text of every match under the current directory
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git grep -nIE "$pattern" -- . || true
	else
		grep -rnIE --exclude-dir=.git --exclude-dir='build*' "$pattern" . || true
	fi
}

# the check can fail: a planted reference must be found
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'see %s/blktrace-format.md\n' "shared""/spec" >"$probe/planted.md"
(cd "$probe" && scan) | grep -q planted.md || { echo "FAIL: the scan missed a planted reference"; exit 1; }

hits=$(scan)
if [ -n "$hits" ]; then
	echo "FAIL: references to the external specification (put the facts in docs/ and point there):"
	echo "$hits"
	exit 1
fi
echo "OK: no tracked file refers outside the repository"
