#!/usr/bin/env bash
# Issue 13: a stream (stdin, a FIFO, a dump) with very many devices, each on
# a CPU up to 65535, through the stream-mode merge of format/
# (bs_merge_pipe.c).  Its per-event device lookup was a linear scan (100k
# devices: quadratic, minutes) and every device held a table of cpu + 1
# sequence states (2 MiB at cpu 65535: 3000 devices took 6 GB, 100k would
# take 200 GB).  Both are hashed now: `parse -i -` and `analyze -` must
# finish within a CPU-time and peak-RSS budget and see every device.
set -euo pipefail
. "${TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/skip.sh"
need_tools /usr/bin/time timeout prlimit
: "${BIN:?}" "${TOP:?}"
CPU_LIMIT=${HOSTILE_CPU_LIMIT:-10}		# seconds, user + system, per run
RSS_LIMIT=${HOSTILE_RSS_LIMIT:-524288}		# KiB
AS_LIMIT=$((4 << 30))	# keeps the machine safe from the old code (not under ASan)
if [ "${SANITIZE:-}" = 1 ]; then
	CPU_LIMIT=$((CPU_LIMIT * 5))
	RSS_LIMIT=$((RSS_LIMIT * 4))
	AS_LIMIT=unlimited	# ASan reserves terabytes of address space
fi
base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
dir=$(mktemp -d "$base/blkscope-hstream.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }

# run LABEL INPUT CMD...: CMD reads INPUT on stdin, within the budget
run() {
	local label=$1 input=$2 cpu rss
	shift 2
	prlimit --as="$AS_LIMIT" timeout 120 /usr/bin/time -f '%U %S %M' -o time.out "$@" <"$input" >run.out 2>run.err ||
		{ head -5 run.err >&2; fail "$label: failed or took over 120 s"; }
	read -r u s rss <time.out
	cpu=$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u + s}')
	echo "$label: CPU ${cpu} s, peak RSS ${rss} KiB (limits ${CPU_LIMIT} s, ${RSS_LIMIT} KiB)"
	awk -v c="$cpu" -v l="$CPU_LIMIT" 'BEGIN{exit !(c <= l)}' || fail "$label: CPU time over the limit"
	[ "$rss" -le "$RSS_LIMIT" ] || fail "$label: peak RSS over the limit"
}

for n in 3000 100000; do
	"$BIN/bs-gen-trace" -o s -w hostile-devs -n "$n" --stamp-cpus 65536
	run "parse -i -, $n devices on CPUs up to 65535" s.blktrace.0 "$BIN/blkscope-parse" -i -
	got=$(grep -c '^Events (' run.out || true)
	[ "$got" -eq "$n" ] || fail "parse: $got device summaries, expected $n"
	grep -q '^CPU65535 (8,0):' run.out || fail "parse: no summary for CPU 65535"
	run "analyze --btt-only -, $n devices" s.blktrace.0 "$BIN/blkscope-analyze" --btt-only --no-progress -
	got=$(grep -cE '^ ?[(] *[0-9]+, *[0-9]+[)] +[|]' run.out || true)
	[ "$got" -ge "$n" ] || fail "analyze: $got device rows, expected at least $n"
	rm -f s.blktrace.0
done
echo "ok: stream-mode merge bounded on many devices and CPUs"
