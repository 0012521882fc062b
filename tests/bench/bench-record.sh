#!/usr/bin/env bash
# bench-record.sh - what recording costs the traced workload.
#
# fio 4k random reads, io_uring, QD32, on a loop device over /dev/shm, run
# in alternation within one invocation (order rotated each round): untraced, under `blkscope record`
# (files in /dev/shm), and under the kernel's own ftrace blk tracer (binary
# records read from trace_pipe into /dev/shm, as blktrace-over-ftrace would).
# Prints mean IOPS, ratios to untraced and to the ftrace tracer, the
# recorder's own CPU time, and drops/overruns.
#
#   ROUNDS=3 SECONDS_PER_RUN=5 tests/bench/bench-record.sh
# Needs root, fio, tracefs with the blk tracer.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/record.sh"
rec_require fio python3 flock
ROUNDS=${ROUNDS:-3}
RUNTIME=${SECONDS_PER_RUN:-5}
T=/sys/kernel/tracing
LOCK=${ORACLE_LOCK:-/run/lock/blkscope-oracle-tracefs.lock}

rec_loop 512
OUT=$(mktemp -d /dev/shm/blkscope-bench.XXXXXX)
rec_defer "rm -rf '$OUT'"
# fill the backing file so reads hit real pages
dd if=/dev/urandom of="$REC_LOOP" bs=1M count=512 oflag=direct status=none

# fio_iops: run the job, print read IOPS
fio_iops() {
	fio --name=bench --filename="$REC_LOOP" --rw=randread --bs=4k --ioengine=io_uring \
		--iodepth=32 --direct=1 --runtime="$RUNTIME" --time_based --output-format=json \
		--output="$OUT/fio.json" >/dev/null
	python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"]))' "$OUT/fio.json"
}

run_untraced() {
	fio_iops
}

# run_blkscope: IOPS; leaves the recorder's summary in $OUT/rec.err
run_blkscope() {
	local pid iops i
	rm -f "$OUT"/rec.*
	"$BIN/blkscope-record" -v -d "$REC_LOOP" -D "$OUT" -o rec 2>"$OUT/rec.err" &
	pid=$!
	for i in $(seq 100); do
		grep -q "tracing $REC_LOOP" "$OUT/rec.err" && break
		sleep 0.05
	done
	iops=$(fio_iops)
	kill -INT "$pid"
	wait "$pid" || { cat "$OUT/rec.err" >&2; rec_die "blkscope record failed"; }
	rm -f "$OUT"/rec.blktrace.*
	echo "$iops"
}

# The ftrace blk tracer; every setting touched is restored (also on failure).
FT_SAVED=()
ft_save() { FT_SAVED+=("$1"$'\t'"$(sed 's/.*expanded: \([0-9]*\).*/\1/' "$1")"); }
ft_restore() {
	local i f v
	echo 0 >"/sys/class/block/$REC_LOOP_NAME/trace/enable" 2>/dev/null || true
	for ((i = ${#FT_SAVED[@]} - 1; i >= 0; i--)); do
		f=${FT_SAVED[i]%%$'\t'*}
		v=${FT_SAVED[i]#*$'\t'}
		echo "$v" >"$f" 2>/dev/null || echo "bench: could not restore $f" >&2
	done
	FT_SAVED=()
	echo >"$T/trace" 2>/dev/null || true
}

# run_ftrace: IOPS; leaves the ring buffer overrun count in $OUT/ft.overrun
run_ftrace() {
	local catpid iops n f
	ft_save "$T/tracing_on"
	ft_save "$T/buffer_size_kb"
	ft_save "$T/options/bin"
	ft_save "$T/options/context-info"
	ft_save "$T/current_tracer"
	echo 0 >"$T/tracing_on"
	echo 8192 >"$T/buffer_size_kb"
	echo blk >"$T/current_tracer"
	echo 1 >"$T/options/bin"
	echo 0 >"$T/options/context-info"
	echo >"$T/trace"
	cat "$T/trace_pipe" >"$OUT/ftrace.bin" &
	catpid=$!
	echo 1 >"$T/tracing_on"
	echo 1 >"/sys/class/block/$REC_LOOP_NAME/trace/enable"
	iops=$(fio_iops)
	echo 0 >"/sys/class/block/$REC_LOOP_NAME/trace/enable"
	n=0
	for f in "$T"/per_cpu/cpu*/stats; do
		n=$((n + $(sed -n 's/^overrun: //p' "$f")))
	done
	echo "$n" >"$OUT/ft.overrun"
	sleep 0.3
	kill "$catpid" 2>/dev/null || true
	wait "$catpid" 2>/dev/null || true
	ft_restore
	rm -f "$OUT/ftrace.bin"
	echo "$iops"
}

[ -e "$T/current_tracer" ] || { mount -t tracefs nodev "$T" && rec_defer "umount '$T'"; }
grep -qw blk "$T/available_tracers" || rec_die "no ftrace blk tracer in this kernel"
exec {lockfd}>"$LOCK"
flock -w 600 "$lockfd" || rec_die "tracefs busy ($LOCK)"
[ "$(cat "$T/current_tracer")" = nop ] || rec_die "tracefs in use: current_tracer is $(cat "$T/current_tracer")"
rec_defer ft_restore

echo "bench-record: fio 4k randread, io_uring, QD32, loop over /dev/shm; $ROUNDS rounds x 3 modes x ${RUNTIME}s"
# the fixed cost of starting (BTF probing, verifying 15 programs), idle
"$BIN/blkscope-record" -d "$REC_LOOP" -o - -w 0.1 2>"$OUT/idle.err" >/dev/null || rec_die "idle recording failed"
startup=$(awk '/^CPU time of the recorder:/ { print $6 + $9 }' "$OUT/idle.err")
# median VALUES...: the middle value (per-round ratios resist load from
# other processes better than means of IOPS)
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratios_b=() ratios_f=() ratios_bf=()
sum_u=0 sum_b=0 sum_f=0 sum_cpu=0 sum_drops=0 sum_ev=0 sum_over=0
for ((r = 1; r <= ROUNDS; r++)); do
	# rotate the order each round so that no mode always runs first
	modes=(untraced blkscope ftrace)
	for ((k = 0; k < 3; k++)); do
		case ${modes[(k + r) % 3]} in
		untraced) u=$(run_untraced) ;;
		blkscope) b=$(run_blkscope) ;;
		ftrace) f=$(run_ftrace) ;;
		esac
	done
	CPU=$(awk '/^CPU time of the recorder:/ { print $6 + $9 }' "$OUT/rec.err")
	DROPS=$(awk '$1 == "Total:" { print $7 }' "$OUT/rec.err")
	EVENTS=$(awk '$1 == "Total:" { print $2 }' "$OUT/rec.err")
	over=$(cat "$OUT/ft.overrun")
	printf '  round %d: untraced %7d IOPS | blkscope %7d IOPS (%.3f) cpu %.2fs %d events %d drops | ftrace blk %7d IOPS (%.3f) %d overrun\n' \
		"$r" "$u" "$b" "$(echo "$b / $u" | bc -l)" "$CPU" "$EVENTS" "$DROPS" "$f" "$(echo "$f / $u" | bc -l)" "$over"
	ratios_b+=("$(echo "$b / $u" | bc -l)") ratios_f+=("$(echo "$f / $u" | bc -l)")
	ratios_bf+=("$(echo "$b / $f" | bc -l)")
	sum_u=$((sum_u + u)) sum_b=$((sum_b + b)) sum_f=$((sum_f + f))
	sum_cpu=$(echo "$sum_cpu + $CPU" | bc -l)
	sum_drops=$((sum_drops + DROPS)) sum_ev=$((sum_ev + EVENTS)) sum_over=$((sum_over + over))
done
mu=$((sum_u / ROUNDS)) mb=$((sum_b / ROUNDS)) mf=$((sum_f / ROUNDS))
echo "mean IOPS: untraced $mu, blkscope $mb, ftrace blk tracer $mf"
printf 'blkscope / untraced:          %.3f of the means, %.3f median of rounds   (target >= 0.90)\n' \
	"$(echo "$mb / $mu" | bc -l)" "$(median "${ratios_b[@]}")"
printf 'ftrace blk / untraced:        %.3f of the means, %.3f median of rounds\n' \
	"$(echo "$mf / $mu" | bc -l)" "$(median "${ratios_f[@]}")"
printf 'blkscope / ftrace blk:        %.3f of the means, %.3f median of rounds   (target > 1)\n' \
	"$(echo "$mb / $mf" | bc -l)" "$(median "${ratios_bf[@]}")"
printf 'recorder CPU (user+sys):      %.2f s per %d s run (%.1f%% of one CPU); %.2f s of it is start-up\n' \
	"$(echo "$sum_cpu / $ROUNDS" | bc -l)" "$RUNTIME" "$(echo "100 * $sum_cpu / $ROUNDS / $RUNTIME" | bc -l)" "$startup"
printf '                              %.0f ns per event after start-up\n' \
	"$(echo "if ($sum_ev > 0) 1000000000 * ($sum_cpu - $ROUNDS * $startup) / $sum_ev else 0" | bc -l)"
echo "blkscope drops:               $sum_drops (of $sum_ev events recorded, default -b)"
echo "ftrace blk tracer overruns:   $sum_over (8 MiB per CPU, trace_pipe read by cat)"

# BPF cost per event: one more run with kernel.bpf_stats_enabled (it adds
# two clock reads per program run, so it is kept out of the IOPS rounds)
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
rec_defer "sysctl -qw kernel.bpf_stats_enabled=$old_stats"
sysctl -qw kernel.bpf_stats_enabled=1
"$BIN/blkscope-record" -v -d "$REC_LOOP" -o - 2>"$OUT/stats.err" >/dev/null &
pid=$!
for i in $(seq 100); do grep -q "tracing $REC_LOOP" "$OUT/stats.err" && break; sleep 0.05; done
fio_iops >/dev/null
kill -INT "$pid"
wait "$pid" || true
sysctl -qw kernel.bpf_stats_enabled="$old_stats"
sed -n 's/^BPF programs: \([0-9]*\) runs, \([0-9]*\) ns per run/BPF programs:                 \2 ns per event (\1 runs, kernel.bpf_stats_enabled)/p' "$OUT/stats.err"
