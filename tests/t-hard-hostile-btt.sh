#!/usr/bin/env bash
# Issue 13, findings 1-2: valid traces with very many devices or process
# names (bs-gen-trace -w hostile-*, tests/gen/gen_hostile.c).  On small instances our report
# must equal btt's byte for byte (devices in order of appearance,
# processes by name, names shared by several pids); the big instances
# (100k devices, 1M process names) must analyse within a CPU-time and
# peak-RSS budget (blkscope-analyze --btt-only, and the full report on
# 100k devices and on 1M names: <= 10 s CPU, <= 512 MiB); on the
# mid-size instances btt can run (3000 devices, 100k names) we may not
# use more CPU or memory than btt itself.
# Before the fix they took 54 s / 1.1 GB and hours.
set -euo pipefail
: "${BIN:?}" "${TOP:?}"
. "$TOP/tests/lib/analyze.sh"
bt_need_tools
need_tools /usr/bin/time timeout
CPU_LIMIT=${HOSTILE_CPU_LIMIT:-10}		# seconds, user + system
RSS_LIMIT=${HOSTILE_RSS_LIMIT:-524288}		# KiB
if [ "${SANITIZE:-}" = 1 ]; then	# ASan/UBSan: ~3x the CPU, shadow memory
	CPU_LIMIT=$((CPU_LIMIT * 5))
	RSS_LIMIT=$((RSS_LIMIT * 4))
fi
base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
dir=$(mktemp -d "$base/blkscope-hostile.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. equal to btt on small instances, plain and with -A (per-process tables)
"$BIN/bs-gen-trace" -o devs -w hostile-devs -n 3000
"$BIN/bs-gen-trace" -o names -w hostile-names -n 6000 --names 2500 --io-every 2	# 2.4 pids per name, half do IO
for t in devs names; do
	blkparse -O -d "$t.dump" -i "$t" >/dev/null
	for a in "" "-A"; do
		btt -i "$t.dump" $a >"$t.btt"
		"$BIN/blkscope-analyze" --btt-only --no-progress "$t" $a >"$t.ours"
		cmp -s "$t.btt" "$t.ours" || { diff -u "$t.btt" "$t.ours" | head -20 >&2; fail "$t $a: report differs from btt's"; }
		echo "ok: $t ${a:-(plain)}: report identical to btt's ($(wc -l <"$t.ours") lines)"
	done
	rm -f ./*_fp.dat "$t.dump"
done

# 2. never worse than btt: on 3000 one-I/O devices and 100k names (one I/O
# each) our CPU time and peak RSS, --btt-only and with every section, are
# at most btt's own on the same trace (btt alone, after blkparse -d; CPU
# with 0.1 s of slack for timer granularity).  Not under SANITIZE.
worse_than_btt() {	# LABEL GEN-ARGS...
	local label=$1 bc br oc orr a
	shift
	"$BIN/bs-gen-trace" -o cmp "$@"
	blkparse -O -d cmp.dump -i cmp >/dev/null
	/usr/bin/time -f '%U %S %M' -o time.out btt -i cmp.dump >/dev/null
	read -r u s br <time.out
	bc=$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u + s}')
	for a in --btt-only ""; do
		/usr/bin/time -f '%U %S %M' -o time.out "$BIN/blkscope-analyze" --no-progress ${a:+"$a"} cmp >/dev/null
		read -r u s orr <time.out
		oc=$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u + s}')
		echo "$label, analyze ${a:-(every section)}: CPU $oc s, RSS $orr KiB; btt: CPU $bc s, RSS $br KiB"
		awk -v o="$oc" -v b="$bc" 'BEGIN{exit !(o <= b + 0.1)}' || fail "$label $a: more CPU than btt"
		[ "$orr" -le "$br" ] || fail "$label $a: more memory than btt"
	done
	rm -f cmp.blktrace.* cmp.dump ./*_fp.dat
}
if [ "${SANITIZE:-}" != 1 ]; then
	worse_than_btt "3000 devices" -w hostile-devs -n 3000
	worse_than_btt "100k names" -w hostile-names -n 100000 --io-every 1
fi

# 3. the big instances within budget (a timeout catches the quadratic code)
budget() {	# LABEL ANALYZE-ARGS...
	local label=$1 cpu rss
	shift
	timeout 120 /usr/bin/time -f '%U %S %M' -o time.out \
		"$BIN/blkscope-analyze" "$@" --no-progress big >big.out 2>big.err ||
		{ cat big.err >&2; fail "$label: analyze failed or took over 120 s"; }
	read -r u s rss <time.out
	cpu=$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u + s}')
	echo "$label: CPU ${cpu} s, peak RSS ${rss} KiB (limits ${CPU_LIMIT} s, ${RSS_LIMIT} KiB)"
	awk -v c="$cpu" -v l="$CPU_LIMIT" 'BEGIN{exit !(c <= l)}' || fail "$label: CPU time over the limit"
	[ "$rss" -le "$RSS_LIMIT" ] || fail "$label: peak RSS over the limit"
	grep -q "All Devices" big.out || fail "$label: no report"
	rm -f big.out
}
"$BIN/bs-gen-trace" -o big -w hostile-devs -n 100000
budget "100k devices" --btt-only
# the full report keeps latency sketches per device, process and combo:
# they must stay small for sets of a few I/Os (was 570 MB here).  Not
# under SANITIZE: its shadow memory and slow allocator say nothing here.
[ "${SANITIZE:-}" = 1 ] || budget "100k devices, full report"
rm -f big.blktrace.*
"$BIN/bs-gen-trace" -o big -w hostile-names -n 1000000 --io-every 1
budget "1M process names" --btt-only
# the full report on top: a process and its slice of one I/O (its stage
# times, no sketches) must stay small (was 921 MB, ~640 bytes a name)
[ "${SANITIZE:-}" = 1 ] || budget "1M process names, full report"
rm -f big.blktrace.*
