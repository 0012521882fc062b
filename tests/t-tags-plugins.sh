#!/usr/bin/env bash
# The C reference plugins: tag-by-pid and tag-by-comm assign exactly the
# tags an independent model of the protocol (docs/tags.md) predicts (with
# and without -g groups), and reject bad command lines with a clear message
# and status 2.
set -euo pipefail
. "$(dirname "$0")/lib/tags.sh"

tr=$(gen_trace plug -n 20000 -p 7 -u 2 -s 3)
EXPECT="$TOP/tests/tags/expect-tags.py"

# tag-check -v lines -> "N T label" for tagged events
assignments() {
	sed -nE 's/^event ([0-9]+): .* -> tag ([0-9]+) \((.*)\)$/\1 \2 \3/p'
}

check() {	# MODE PLUGIN [ARGS...]
	local mode=$1; shift
	local plugin=$1; shift
	"$BIN/blkscope-tag-check" -v "$plugin" "$@" -- "$tr" >"$tags_tmp/out" 2>"$tags_tmp/err" ||
		{ cat "$tags_tmp/err" >&2; fail "tag-check $plugin $* failed"; }
	grep -q '^OK: every answer follows the protocol' "$tags_tmp/out" || fail "no OK line"
	assignments <"$tags_tmp/out" >"$tags_tmp/got"
	"$EXPECT" "$mode" "$tr.blktrace.0" "$@" >"$tags_tmp/want"
	[ -s "$tags_tmp/want" ] || fail "model produced no assignments"
	diff -u "$tags_tmp/want" "$tags_tmp/got" >&2 || fail "$plugin $*: assignments differ from the model"
	echo "ok: $(basename "$plugin") $* ($(wc -l <"$tags_tmp/got") tagged events)"
}

check pid "$TAG_BY_PID"
check pid "$TAG_BY_PID" -g db:1000,1003 -g solo:1005
check comm "$TAG_BY_COMM"
check comm "$TAG_BY_COMM" -g w:worker,proc3

# Labels the protocol fixes: "COMM (PID)", "? (PID)" without a note, the full
# 16-byte comm, the group NAME; tag-by-comm merges pids sharing a name.
"$BIN/blkscope-tag-check" "$TAG_BY_PID" -g db:1000,1003 -- "$tr" >"$tags_tmp/sum"
for label in 'worker (1001)' 'worker (1002)' '? (1006)' '? (1005)' 'db'; do
	grep -qF " $label " "$tags_tmp/sum" || { cat "$tags_tmp/sum"; fail "label '$label' missing"; }
done
"$BIN/blkscope-tag-check" -v "$TAG_BY_PID" -- "$tr" >"$tags_tmp/v"
grep -qF '(sixteen-chars-xx (1000))' "$tags_tmp/v" ||
	fail "16-byte comm without NUL not labelled in full"
"$BIN/blkscope-tag-check" "$TAG_BY_COMM" -- "$tr" >"$tags_tmp/c"
[ "$(grep -c ' worker ' "$tags_tmp/c")" -eq 1 ] ||
	fail "tag-by-comm: pids 1001 and 1002 (both 'worker') must share one tag"

# Usage errors: status 2, one clear line naming the problem.
usage_error() {	# PLUGIN EXPECTED-TEXT ARGS...
	local plugin=$1 want=$2; shift 2
	local rc=0
	"$plugin" "$@" </dev/null >/dev/null 2>"$tags_tmp/uerr" || rc=$?
	[ "$rc" -eq 2 ] || fail "$(basename "$plugin") $*: status $rc, want 2"
	grep -qF -- "$want" "$tags_tmp/uerr" || { cat "$tags_tmp/uerr"; fail "$(basename "$plugin") $*: no '$want'"; }
}
usage_error "$TAG_BY_PID" "no ':' after the name" -g db
usage_error "$TAG_BY_PID" "empty name" -g :12
usage_error "$TAG_BY_PID" "no pid" -g db:
usage_error "$TAG_BY_PID" "decimal numbers" -g db:12,x
usage_error "$TAG_BY_PID" "trailing ','" -g db:12,
usage_error "$TAG_BY_PID" "pid 12 is already in group 'a'" -g a:12 -g b:12
usage_error "$TAG_BY_PID" "unexpected argument 'trace'" trace
usage_error "$TAG_BY_PID" "Try 'tag-by-pid --help'" --bogus
usage_error "$TAG_BY_COMM" "longer than the kernel's 15-character" -g x:averyveryverylongname
usage_error "$TAG_BY_COMM" "'bash' is already in group 'a'" -g a:bash -g b:bash
usage_error "$TAG_BY_COMM" "empty command name" -g a:bash,,sh
"$TAG_BY_PID" --help | grep -q '^Usage: tag-by-pid' || fail "tag-by-pid --help"
"$TAG_BY_COMM" --help | grep -q '^Usage: tag-by-comm' || fail "tag-by-comm --help"

# An empty trace is answered by an empty response stream.
[ "$("$TAG_BY_PID" </dev/null | wc -c)" -eq 0 ] || fail "output on empty input"
echo "PASS"
