#!/usr/bin/env bash
# Issue 13: valid but hostile traces (bs-gen-trace -w hostile-*, tests/gen/gen_hostile.c), one
# family at a time, through every command: parse, analyze (default,
# --btt-only, --json + --csv + --html), compare (the trace with itself) and
# export, each within a wall-time and a peak-RSS limit (/usr/bin/time).
# Families (N = HOSTILE_FAMILY_N, 30000; t-hard-hostile-btt and make bench
# take --btt-only to 100k devices and 1M names):
#   devices   N devices, one IO each (per-CPU file)
#   cpus      N devices on CPUs 65535, 65534, ... read as a stream
#   names     N processes with distinct names, one IO each
#   pending   1M requests queued and issued, never completed
# (under SANITIZE=1: 5000 and 200k, for time)
#   span      1000 devices plus IOs at time 0 and at time 2^63
# When blkparse and btt are installed, btt's time and RSS on the same input
# (blkparse -d, then btt) are printed next to ours (HOSTILE_BTT=0: not).
# Fails on the code before issue 13's last fixes: the stream family took
# minutes and gigabytes in the stream merge (see t-hard-hostile-stream), and
# compare matched rows by a scan per name (quadratic: 100k devices > 5 min).
set -euo pipefail
. "${TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/skip.sh"
need_tools /usr/bin/time timeout prlimit
: "${BIN:?}" "${TOP:?}"
WALL_LIMIT=${HOSTILE_WALL_LIMIT:-60}		# seconds per run
RSS_LIMIT=${HOSTILE_RSS_LIMIT:-786432}		# KiB per run (768 MiB)
BTT=${HOSTILE_BTT:-1}
N=${HOSTILE_FAMILY_N:-30000}
PENDING=1000000
AS_LIMIT=$((4 << 30))	# keeps the machine safe from a runaway (not under ASan)
if [ "${SANITIZE:-}" = 1 ]; then	# ASan/UBSan: several times the CPU, shadow memory
	WALL_LIMIT=$((WALL_LIMIT * 5))
	RSS_LIMIT=$((RSS_LIMIT * 4))
	AS_LIMIT=unlimited	# ASan reserves terabytes of address space
	# the sanitizers look for memory errors, which a smaller family shows
	# as well: the sizes stay the normal build's test (10 min -> ~2 min)
	N=${HOSTILE_FAMILY_N:-5000}
	PENDING=200000
fi
command -v blkparse >/dev/null && command -v btt >/dev/null || BTT=0
base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
dir=$(mktemp -d "$base/blkscope-families.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }

# measure OUT CMD...: sets SECS, RSS_KB and RC of one run (stdout to OUT)
measure() {
	local out=$1
	shift
	RC=0
	prlimit --as="$AS_LIMIT" timeout "$WALL_LIMIT" /usr/bin/time -f '%e %M' -o time.out "$@" \
		>"$out" 2>err.out || RC=$?
	SECS=- RSS_KB=0
	[ -s time.out ] && read -r SECS RSS_KB < <(tail -n 1 time.out)
	rm -f time.out
}

# run FAMILY LABEL WANT CMD...: exit 0, output holding WANT, within the limits
run() {
	local fam=$1 label=$2 want=$3
	shift 3
	rm -rf o.json o.html csvd o.parquet
	measure out.txt "$@"
	[ "$RC" -ne 124 ] || fail "$fam: $label: over ${WALL_LIMIT} s"
	[ "$RC" -eq 0 ] || { head -3 err.out >&2; fail "$fam: $label: exit $RC"; }
	printf '  %-28s %7s s %8s KiB\n' "$label" "$SECS" "$RSS_KB"
	[ "$RSS_KB" -le "$RSS_LIMIT" ] || fail "$fam: $label: peak RSS $RSS_KB KiB over $RSS_LIMIT KiB"
	[ -z "$want" ] || grep -q -- "$want" out.txt || [ -e "$want" ] ||
		fail "$fam: $label: no '$want' in the output"
}

# btt_ref FAMILY INPUT: btt's time and RSS on the same input, for reference
btt_ref() {
	local ps pr
	[ "$BTT" = 1 ] || return 0
	case $2 in	# a stream goes to blkparse on stdin
	*.bin) measure /dev/null sh -c 'exec blkparse -O -d ref.dump -i - <"$1"' sh "$2" ;;
	*) measure /dev/null blkparse -O -d ref.dump -i "$2" ;;
	esac
	ps=$SECS pr=$RSS_KB
	if [ "$RC" -ne 0 ]; then
		echo "  btt reference: blkparse -d failed or took over ${WALL_LIMIT} s"
	else
		# btt keeps two files open per device: allow them if we may (root)
		measure /dev/null sh -c 'ulimit -n 262144 2>/dev/null; exec btt -i ref.dump'
		[ "$RC" -eq 0 ] && echo "  btt reference: blkparse -d ${ps} s ${pr} KiB, btt ${SECS} s ${RSS_KB} KiB" ||
			echo "  btt reference: btt failed or took over ${WALL_LIMIT} s (exit $RC)"
	fi
	rm -f ref.dump ./*_fp.dat
}

family() {	# NAME INPUT PARSE-INPUT-ARGS...
	local fam=$1 in=$2
	shift 2
	echo "$fam ($(du -ch "$in"* | tail -n 1 | cut -f1)):"
	run "$fam" "parse" "" "$BIN/blkscope-parse" "$@"
	run "$fam" "analyze" "All Devices" "$BIN/blkscope-analyze" --no-progress "$in"
	run "$fam" "analyze --btt-only" "All Devices" "$BIN/blkscope-analyze" --btt-only --no-progress "$in"
	run "$fam" "analyze --json --csv --html" "o.json" \
		"$BIN/blkscope-analyze" --no-progress --json o.json --csv csvd --html o.html "$in"
	python3 -c 'import json,sys; json.load(open("o.json"))' 2>/dev/null ||
		! command -v python3 >/dev/null || fail "$fam: o.json does not parse"
	run "$fam" "compare" "" "$BIN/blkscope-compare" "$in" "$in"
	run "$fam" "export" "o.parquet" "$BIN/blkscope-export" -o o.parquet "$in"
	btt_ref "$fam" "$in"
}

"$BIN/bs-gen-trace" -o devices -w hostile-devs -n "$N"
family devices devices -i devices
rm -f devices.blktrace.*

"$BIN/bs-gen-trace" -o cpus -w hostile-devs -n "$N" --stamp-cpus 65536
mv cpus.blktrace.0 cpus.bin	# not a per-CPU file name: read as one stream
family cpus cpus.bin -i cpus.bin
rm -f cpus.bin

"$BIN/bs-gen-trace" -o names -w hostile-names -n "$N" --io-every 1
family names names -i names
rm -f names.blktrace.*

"$BIN/bs-gen-trace" -o pending -w hostile-pending -n "$PENDING"
family pending pending -i pending
rm -f pending.blktrace.*

"$BIN/bs-gen-trace" -o span -w hostile-devs -n 1000 --span
family span span -i span
rm -f span.blktrace.*
echo "ok: every hostile family through every command within ${WALL_LIMIT} s and ${RSS_LIMIT} KiB a run"
