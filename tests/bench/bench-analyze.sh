#!/usr/bin/env bash
# bench-analyze: what a btt user runs (blkparse -O -d, then btt) against
# blkscope analyze straight on the per-CPU files, on generated 2-CPU traces
# of BENCH_EVENTS events (default 10M) in /dev/shm:
#   bench  bs-gen-trace -w bench: back-merged bios covered by their requests,
#          sequential and random streams, 32 requests in flight
#   bulk   bs-gen-trace -w bulk: random IO whose merged bios are never completed
#          (they stay queued, as in btt: in-flight memory grows)
#   random bs-gen-trace -w random -s 1: the random-I/O trace of issue 11 (15%
#          back-merges, 50 in flight; at 10M events three D2D distances tie for the mode, so
#          btt's seek tree has to be rebuilt)
#   real   a real recording (root and the recorder needed, else skipped):
#          blkscope record of BENCH_REAL_SECS (10) s of fio 4k randread,
#          io_uring, QD32, plus a buffered sequential writer, on a loop device
#          over /dev/shm with mq-deadline (the loop device is detached and the
#          backing file removed at exit)
# BENCH_BIG=1 adds the random workload at 100M events (about 5 GB of trace
# plus btt's dump of the same size: set BENCH_DIR to a roomy directory).
# BENCH_WORKLOADS picks workloads (default "bench bulk random real").
# Prints events/s, the ratio, peak RSS; checks that the reports are equal.
# analyze runs with its default threads (2 with two CPUs), then --threads=1.
# Targets (issue): >= 20M events/s, >= 10x blkparse+btt, RSS <= 128 MiB.
set -euo pipefail
: "${BIN:?}"
N=${BENCH_EVENTS:-10000000}
RUNS=${BENCH_RUNS:-5}
for t in blkparse btt; do
	command -v "$t" >/dev/null || { echo "$t is not installed"; exit 1; }
done

dir=$(mktemp -d "${BENCH_DIR:-/dev/shm}/bench-analyze.XXXXXX")
loopdev=
cleanup() {
	[ -n "$loopdev" ] && losetup -d "$loopdev"
	rm -rf "$dir"
}
trap cleanup EXIT
cd "$dir"

# record_real BASE: the "real" workload's trace; returns 1 (with a line
# saying why) where it cannot be recorded
record_real() {
	local secs=${BENCH_REAL_SECS:-10} rpid
	if [ "$(id -u)" != 0 ] || [ ! -x "$BIN/blkscope-record" ] || ! command -v fio >/dev/null; then
		echo "real: skipped (needs root, fio and the recorder)"
		return 1
	fi
	truncate -s 1G "$dir/backing"
	loopdev=$(losetup -f --show "$dir/backing")
	echo mq-deadline >"/sys/block/${loopdev#/dev/}/queue/scheduler"
	dd if=/dev/urandom of="$loopdev" bs=1M count=512 oflag=direct status=none
	"$BIN/blkscope-record" -v -d "$loopdev" -D "$dir" -o "$1" 2>"$dir/rec.err" &
	rpid=$!
	for _ in $(seq 600); do
		grep -q "tracing" "$dir/rec.err" && break
		sleep 0.05
	done
	fio --name=rr --filename="$loopdev" --rw=randread --bs=4k --ioengine=io_uring --iodepth=32 \
		--direct=1 --size=512M --runtime="$secs" --time_based \
		--name=wr --filename="$loopdev" --rw=write --bs=64k --ioengine=psync --direct=0 \
		--offset=512M --size=512M --runtime="$secs" --time_based >/dev/null
	kill -INT "$rpid"
	wait "$rpid" || { cat "$dir/rec.err"; return 1; }
	grep -E "Total:" "$dir/rec.err" | sed 's/^/real: recorder: /'
	losetup -d "$loopdev"
	loopdev=
	rm -f "$dir/backing"
}

# measure CMD...: SECS (wall), USER (CPU seconds), RSS_KB (peak) of one run
measure() {
	/usr/bin/time -f '%e %U %S %M' -o "$dir/.time" "$@" >/dev/null 2>&1
	read -r SECS USER SYS RSS_KB <"$dir/.time"
	USER=$(awk -v a="$USER" -v b="$SYS" 'BEGIN{printf "%.2f", a + b}')
}

# the btt user's pipeline: two programs, the dump in between (in /dev/shm)
btt_pipeline() {
	measure blkparse -O -d "$dir/T.dump" -i "$1"
	local s1=$SECS u1=$USER r1=$RSS_KB
	measure btt -i "$dir/T.dump"
	SECS=$(awk -v a="$s1" -v b="$SECS" 'BEGIN{printf "%.2f", a + b}')
	USER=$(awk -v a="$u1" -v b="$USER" 'BEGIN{printf "%.2f", a + b}')
	[ "$r1" -gt "$RSS_KB" ] && RSS_KB=$r1
	rm -f "$dir/T.dump" "$dir"/*_fp.dat
}

rate() { awk -v n="$1" -v s="$2" 'BEGIN{ if (s <= 0) s = 0.005; printf "%.1f", n / s / 1e6 }'; }

one() {	# LABEL BASE
	local label=$1 base=$2 n best= bu= peak=0 i
	n=$("$BIN/blkscope-analyze" -v --no-progress "$base" 2>&1 >/dev/null | sed -n 's/.*: \([0-9]*\) events in .*/\1/p')
	# correctness first (untimed): the same report
	blkparse -O -d "$dir/ref.dump" -i "$base" >/dev/null 2>&1
	btt -i "$dir/ref.dump" >"$dir/ref.out" 2>/dev/null
	"$BIN/blkscope-analyze" --btt-only --no-progress "$base" >"$dir/our.out" 2>/dev/null
	if cmp -s "$dir/ref.out" "$dir/our.out"; then
		echo "$label: report identical to btt's"
	else
		echo "$label: report DIFFERENT from btt's"
	fi
	rm -f "$dir/ref.dump" "$dir"/*_fp.dat

	btt_pipeline "$base"
	local rs=$SECS ru=$USER rr=$RSS_KB
	# alternating with one thread (--threads=1: the reports filed inline):
	# this VM's speed drifts over seconds, alternation keeps the two fair
	local best1= bu1=
	for ((i = 0; i < RUNS; i++)); do
		measure "$BIN/blkscope-analyze" --no-progress "$base"
		if [ -z "$best" ] || awk "BEGIN{exit !($SECS < $best)}"; then best=$SECS bu=$USER; fi
		[ "$RSS_KB" -gt "$peak" ] && peak=$RSS_KB
		measure "$BIN/blkscope-analyze" --threads=1 --no-progress "$base"
		if [ -z "$best1" ] || awk "BEGIN{exit !($SECS < $best1)}"; then best1=$SECS bu1=$USER; fi
	done
	# the machine may be shared: CPU seconds (user+sys) say more than wall time
	printf '%-7s %9d events | blkparse+btt %6.2fs (cpu %6.2fs) %6s Mev/s %7d KiB | analyze %5.2fs (cpu %5.2fs) %6s Mev/s (cpu %6s) %7d KiB | x%s (cpu x%s)\n' \
		"$label" "$n" "$rs" "$ru" "$(rate "$n" "$rs")" "$rr" "$best" "$bu" "$(rate "$n" "$best")" \
		"$(rate "$n" "$bu")" "$peak" \
		"$(awk -v a="$rs" -v b="$best" 'BEGIN{ if (b <= 0) b = 0.005; printf "%.1f", a / b }')" \
		"$(awk -v a="$ru" -v b="$bu" 'BEGIN{ if (b <= 0) b = 0.005; printf "%.1f", a / b }')"
	printf '%-7s %9s          one thread (--threads=1): %5.2fs (cpu %5.2fs) %6s Mev/s | x%s\n' \
		"" "" "$best1" "$bu1" "$(rate "$n" "$best1")" \
		"$(awk -v a="$rs" -v b="$best1" 'BEGIN{ if (b <= 0) b = 0.005; printf "%.1f", a / b }')"
	# what the work allows here: one thread's CPU time split perfectly
	# over the CPUs, with no cost for the split (threads add some)
	printf '%-7s %9s          ceiling on %d CPUs: %s Mev/s (%s ns of CPU an event on one thread)\n' \
		"" "" "$(nproc)" "$(rate "$(( n * $(nproc) ))" "$bu1")" \
		"$(awk -v c="$bu1" -v n="$n" 'BEGIN{ printf "%.0f", c / n * 1e9 }')"
}

echo "best of $RUNS runs for analyze (alternating with --threads=1), 1 for blkparse+btt; wall time, CPU time (user+sys), events/s (wall), peak RSS"
for w in ${BENCH_WORKLOADS:-bench bulk random real}; do
	case $w in
	real) record_real real || continue ;;
	bench) "$BIN/bs-gen-trace" -w bench -n "$N" -o bench ;;
	bulk) "$BIN/bs-gen-trace" -n "$N" -c 2 -o bulk >/dev/null ;;
	random) "$BIN/bs-gen-trace" -w random -s 1 -n "$N" -o random ;;
	*) echo "unknown workload $w"; exit 1 ;;
	esac
	[ "$w" = real ] && size="recorded" || size="~$N events"
	echo "$w: $size, $(du -sh "$dir" | cut -f1) in $dir"
	one "$w" "$w"
	rm -f "$dir/$w".blktrace.*
done
if [ -n "${BENCH_BIG:-}" ]; then
	"$BIN/bs-gen-trace" -w random -s 8 -n 100000000 -o random100m
	echo "random100m: ~100M events, $(du -sh "$dir" | cut -f1) in $dir"
	# analyze best of 3: a single run right after blkparse and btt have
	# churned 10 GB through /dev/shm is slow (docs/testing.md,
	# "Measurements"); blkparse + btt once (two minutes)
	RUNS=3 one rnd100m random100m
fi
