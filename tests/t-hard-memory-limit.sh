#!/usr/bin/env bash
# Issue 13: the analyzer's memory budget (--memory-limit, analyze/analysis_mem.c).
# A valid but hostile trace of 2M requests queued and issued, never
# completed (bs-gen-trace -w hostile-pending), makes the analysis hold every
# request (~330 MiB).  Under a small --memory-limit analyze, export and
# compare stop with one line naming the input and the budget and exit 1,
# near the budget, never killed; under the default budget (half of RAM) the
# analysis completes within an RSS bound.  Malformed sizes are refused with
# one line.
set -euo pipefail
. "${TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/skip.sh"
need_tools /usr/bin/time timeout
: "${BIN:?}" "${TOP:?}"
N=${HOSTILE_PENDING:-2000000}
RSS_DEFAULT=$((1024 * 1024))	# KiB, the default run
SLACK=$((48 * 1024))		# KiB over the budget: measured every 65536 records
if [ "${SANITIZE:-}" = 1 ]; then	# shadow memory and quarantine are not budgeted
	RSS_DEFAULT=$((RSS_DEFAULT * 4))
	SLACK=$((SLACK * 16))
fi
base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
dir=$(mktemp -d "$base/blkscope-memlimit.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$BIN/bs-gen-trace" -o pend -w hostile-pending -n "$N"

# over LABEL CMD...: must stop with the budget message, exit 1, RSS near 64 MiB
over() {
	local label=$1 rc=0 rss
	shift
	timeout 120 /usr/bin/time -f '%M' -o time.out "$@" >out 2>err || rc=$?
	[ "$rc" -eq 1 ] || { cat err >&2; fail "$label: exit $rc, expected 1"; }
	grep -v '^Command exited' err >msg || true
	grep -q '^blkscope [a-z]*: pend: the analysis needs more than 64 MiB (--memory-limit); ' msg ||
		{ cat err >&2; fail "$label: no budget message"; }
	[ "$(wc -l <msg)" -eq 1 ] || { cat msg >&2; fail "$label: more than one line"; }
	rss=$(tail -n 1 time.out)
	echo "$label: stopped, peak RSS $rss KiB: $(cut -c1-100 msg)..."
	[ "$rss" -le $((65536 + SLACK)) ] || fail "$label: peak RSS $rss KiB, budget 64 MiB"
}
over "analyze" "$BIN/blkscope-analyze" --no-progress --memory-limit 64M pend
over "analyze --btt-only" "$BIN/blkscope-analyze" --btt-only --no-progress --memory-limit 64M pend
over "analyze --json" "$BIN/blkscope-analyze" --no-progress --memory-limit 64MiB --json out.json pend
over "export" "$BIN/blkscope-export" --memory-limit 64M -o out.parquet pend
[ ! -e out.parquet ] || fail "export left a partial out.parquet"
over "compare" "$BIN/blkscope-compare" --memory-limit 64M pend pend

# the default budget: completes, bounded
timeout 300 /usr/bin/time -f '%M' -o time.out "$BIN/blkscope-analyze" --no-progress pend >out 2>err ||
	{ cat err >&2; fail "default budget: analyze failed"; }
rss=$(tail -n 1 time.out)
grep -q "^8,0 .*read *$N " out || fail "default budget: the $N queued requests are not in the report"
echo "default budget: completed, peak RSS $rss KiB (bound $RSS_DEFAULT KiB)"
[ "$rss" -le "$RSS_DEFAULT" ] || fail "default budget: peak RSS over the bound"
"$BIN/blkscope-analyze" --btt-only --no-progress --memory-limit 0 pend >out 2>err ||
	{ cat err >&2; fail "--memory-limit 0 (no limit) failed"; }

# malformed sizes: refused with one line, before reading anything
for v in '' abc -1 1x 8M 15M 1.5G 0x10M 20000000T 64MBs; do
	rc=0
	"$BIN/blkscope-analyze" --memory-limit "$v" pend >out 2>err || rc=$?
	[ "$rc" -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q -- "--memory-limit: '$v' is not .*; try " err ||
		{ cat err >&2; fail "--memory-limit '$v': exit $rc, expected one line and exit 2"; }
done
echo "ok: malformed --memory-limit values refused"
