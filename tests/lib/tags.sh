# Shared helpers of the tagging tests (tests/t-tags-*.sh).  Source after
# `set -euo pipefail`; needs BIN and TOP (set by tests/run-tests.sh).
: "${TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${BUILD:=build}"
: "${BIN:=$TOP/$BUILD/bin}"
BAD="$TOP/tests/tags/bad-plugin.py"
NO_ORPHANS="$TOP/tests/tags/no-orphans.py"
TAG_BY_PID="$BIN/tag-by-pid"
TAG_BY_COMM="$BIN/tag-by-comm"
PY_TAG_BY_PID="$TOP/tags/python/tag-by-pid.py"

for f in "$BIN/bs-gen-trace" "$TAG_BY_PID" "$TAG_BY_COMM" "$BIN/blkscope-tag-check"; do
	[ -x "$f" ] || { echo "missing $f: run make first" >&2; exit 1; }
done
. "$TOP/tests/lib/skip.sh"
need_tools python3

tags_tmp=$(mktemp -d /tmp/blkscope-tags.XXXXXX)
trap 'rm -rf "$tags_tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# gen_trace NAME ARGS...: $tags_tmp/NAME.blktrace.0 (bs-gen-trace -w tags, a
# one-CPU trace; ARGS: -n EVENTS -p PIDS -u UNNAMED -s SEED), prints the base path
gen_trace() {
	local name=$1; shift
	"$BIN/bs-gen-trace" -w tags "$@" -D "$tags_tmp" -o "$name"
	echo "$tags_tmp/$name"
}

# run_guarded OUT ERR CMD...: run CMD with a 60 s limit, under a subreaper that
# fails (exit 99) if CMD leaves a child process behind; sets $rc.
run_guarded() {
	local out=$1 err=$2; shift 2
	rc=0
	timeout 60 "$NO_ORPHANS" "$@" >"$out" 2>"$err" || rc=$?
	[ "$rc" -ne 124 ] || fail "hang: $* (killed after 60 s)"
	[ "$rc" -ne 99 ] || { cat "$err" >&2; fail "left a process behind: $*"; }
}

# expect_one_error ERRFILE REGEX: exactly one error line, and it matches
expect_one_error() {
	local n
	n=$(grep -c "tag plugin '" "$1" || true)
	[ "$n" -eq 1 ] || { cat "$1" >&2; fail "expected one plugin error line, got $n"; }
	grep -Eq "$2" "$1" || { cat "$1" >&2; fail "error line does not match /$2/"; }
}
