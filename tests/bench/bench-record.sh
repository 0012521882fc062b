#!/usr/bin/env bash
# bench-record.sh - what recording costs the traced workload.
#
# fio 4k random reads, io_uring, QD32, on a loop device over /dev/shm, run
# in alternation within one invocation (order rotated each round): untraced,
# under `blkscope record` with its files in /dev/shm ("shm"), the same with
# its files on a real disk ("disk": BENCH_DISK_DIR, default /var/tmp, must
# not be tmpfs/ramfs), and under the kernel's own ftrace blk tracer (binary
# records read from trace_pipe into /dev/shm, as blktrace-over-ftrace would).
# Short runs, many rounds: the machine is shared, and load from other jobs
# moves single runs by a factor of two; adjacent short runs see similar load.
# Prints per-round IOPS, medians of the per-round ratios to untraced and to
# the ftrace tracer, the recorder's own CPU time, drops/overruns, and then
# the BPF programs' cost per event (kernel.bpf_stats_enabled, one more run),
# next to the floor measured in that same run by bs-bench-bpf-floor: an empty
# program and one that only reads the clock, on the same tracepoints. The
# load average is printed before and after: IOPS ratios mean little when
# other jobs load the machine.
#
#   ROUNDS=11 SECONDS_PER_RUN=2 BENCH_DISK_DIR=/var/tmp tests/bench/bench-record.sh
# Needs root, fio, tracefs with the blk tracer.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/record.sh"
rec_require fio python3 flock
ROUNDS=${ROUNDS:-11}
DISK_DIR=${BENCH_DISK_DIR:-/var/tmp}
RUNTIME=${SECONDS_PER_RUN:-2}
T=/sys/kernel/tracing
LOCK=${ORACLE_LOCK:-/run/lock/blkscope-oracle-tracefs.lock}

rec_loop 512
OUT=$(mktemp -d /dev/shm/blkscope-bench.XXXXXX)
rec_defer "rm -rf '$OUT'"
case $(stat -f -c %T "$DISK_DIR") in
tmpfs|ramfs) rec_die "BENCH_DISK_DIR=$DISK_DIR is $(stat -f -c %T "$DISK_DIR"), not a disk" ;;
esac
DOUT=$(mktemp -d "$DISK_DIR/blkscope-bench.XXXXXX")
rec_defer "rm -rf '$DOUT'"
# fill the backing file so reads hit real pages
dd if=/dev/urandom of="$REC_LOOP" bs=1M count=512 oflag=direct status=none

# fio_iops: run the job, print read IOPS; leaves in $OUT/fio.cpu the CPU
# time fio's own thread spent per I/O (ns, user + system), which includes the
# programs of the events raised while it submits (Q, G, P, U, I, D) and is far
# less sensitive to other jobs' load than IOPS
fio_iops() {
	fio --name=bench --filename="$REC_LOOP" --rw=randread --bs=4k --ioengine=io_uring \
		--iodepth=32 --direct=1 --runtime="$RUNTIME" --time_based --output-format=json \
		--output="$OUT/fio.json" >/dev/null
	python3 -c 'import json,sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(round(j["read"]["iops"]))
with open(sys.argv[2], "w") as f:
	print(round((j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] * 1e6 / max(j["read"]["total_ios"], 1)), file=f)' \
		"$OUT/fio.json" "$OUT/fio.cpu"
}

run_untraced() {
	fio_iops
}

# run_blkscope DIR NAME: IOPS with the trace files in DIR; leaves the
# recorder's summary in $OUT/NAME.err
run_blkscope() {
	local dir=$1 err=$OUT/$2.err pid iops i
	rm -f "$dir"/rec.blktrace.*
	: >"$err"
	"$BIN/blkscope-record" -v -d "$REC_LOOP" -D "$dir" -o rec 2>"$err" &
	pid=$!
	for i in $(seq 100); do
		grep -q "tracing $REC_LOOP" "$err" && break
		sleep 0.05
	done
	iops=$(fio_iops)
	kill -INT "$pid"
	wait "$pid" || { cat "$err" >&2; rec_die "blkscope record failed"; }
	rm -f "$dir"/rec.blktrace.*
	echo "$iops"
}

# run_floor KIND: IOPS with only bs-bench-bpf-floor's KIND programs attached
# (empty: what attaching any program costs; clock: one that only reads the
# clock every record needs), the lower bounds for the recorder's IOPS
run_floor() {
	local pid iops i
	"$FLOOR" "$1" >/dev/null 2>"$OUT/floor-$1.err" &
	pid=$!
	for i in $(seq 200); do
		grep -q attached "$OUT/floor-$1.err" && break
		sleep 0.05
	done
	grep -q attached "$OUT/floor-$1.err" || rec_die "bs-bench-bpf-floor $1 did not attach: $(cat "$OUT/floor-$1.err")"
	iops=$(fio_iops)
	kill -INT "$pid"
	wait "$pid" || rec_die "bs-bench-bpf-floor $1 failed"
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
FLOOR=$BIN/bs-bench-bpf-floor
[ -x "$FLOOR" ] || rec_die "$FLOOR not built"

echo "bench-record: fio 4k randread, io_uring, QD32, loop over /dev/shm; $ROUNDS rounds x 6 modes x ${RUNTIME}s"
echo "  load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
echo "  trace files: shm = $OUT, disk = $DOUT ($(findmnt -no SOURCE,FSTYPE -T "$DISK_DIR" | tr -s ' ' ' '))"
# the fixed cost of starting (BTF probing, verifying 15 programs), idle
"$BIN/blkscope-record" -d "$REC_LOOP" -o - -w 0.1 2>"$OUT/idle.err" >/dev/null || rec_die "idle recording failed"
startup=$(awk '/^CPU time of the recorder:/ { print $6 + $9 }' "$OUT/idle.err")
echo "  recorder start-up (loading and verifying the BPF programs): $startup s of CPU"
# median VALUES...: the middle value (per-round ratios resist load from
# other processes better than means of IOPS)
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
div() { echo "$1 / $2" | bc -l; }
# summary FILE: "CPU EVENTS DROPS" from a recorder's summary (CPU while
# tracing: the start-up varies by more than the drain costs)
summary() {
	awk '/^CPU time while tracing:/ { cpu = $5 + $8 } $1 == "Total:" { ev = $2; dr = $7 }
		END { print cpu, ev, dr }' "$1"
}
r_e=() r_c=() r_s=() r_d=() r_f=() r_sf=() r_df=() iops_u=() cpu_s=() cpu_d=() c_u=() c_s=() c_d=() c_f=()
ev_s=0 ev_d=0 drops=0 over=0
for ((r = 1; r <= ROUNDS; r++)); do
	# rotate the order each round so that no mode always runs first
	modes=(untraced shm disk ftrace empty clock)
	for ((k = 0; k < 6; k++)); do
		case ${modes[(k + r) % 6]} in
		untraced) u=$(run_untraced) c_u+=("$(cat "$OUT/fio.cpu")") ;;
		shm) b=$(run_blkscope "$OUT" shm) c_s+=("$(cat "$OUT/fio.cpu")") ;;
		disk) d=$(run_blkscope "$DOUT" disk) c_d+=("$(cat "$OUT/fio.cpu")") ;;
		ftrace) f=$(run_ftrace) c_f+=("$(cat "$OUT/fio.cpu")") ;;
		empty) e=$(run_floor empty) ;;
		clock) ck=$(run_floor clock) ;;
		esac
	done
	read -r cs es ds < <(summary "$OUT/shm.err")
	read -r cd ed dd < <(summary "$OUT/disk.err")
	o=$(cat "$OUT/ft.overrun")
	printf '  round %d: untraced %6d | blkscope shm %6d (%.3f) | disk %6d (%.3f) | ftrace blk %6d (%.3f) | empty progs %6d (%.3f) | clock progs %6d (%.3f) | drops %d+%d, overrun %d\n' \
		"$r" "$u" "$b" "$(div "$b" "$u")" "$d" "$(div "$d" "$u")" "$f" "$(div "$f" "$u")" \
		"$e" "$(div "$e" "$u")" "$ck" "$(div "$ck" "$u")" "$ds" "$dd" "$o"
	r_e+=("$(div "$e" "$u")") r_c+=("$(div "$ck" "$u")")
	r_s+=("$(div "$b" "$u")") r_d+=("$(div "$d" "$u")") r_f+=("$(div "$f" "$u")")
	r_sf+=("$(div "$b" "$f")") r_df+=("$(div "$d" "$f")") iops_u+=("$u")
	cpu_s+=("$cs") cpu_d+=("$cd")
	ev_s=$((ev_s + es)) ev_d=$((ev_d + ed)) drops=$((drops + ds + dd)) over=$((over + o))
done
echo "medians of $ROUNDS rounds (untraced: $(median "${iops_u[@]}") IOPS):"
printf '  blkscope, files on /dev/shm / untraced:  %.3f   (target >= 0.90)\n' "$(median "${r_s[@]}")"
printf '  blkscope, files on disk / untraced:      %.3f   (target >= 0.90)\n' "$(median "${r_d[@]}")"
printf '  ftrace blk tracer / untraced:            %.3f\n' "$(median "${r_f[@]}")"
printf '  empty programs / untraced:               %.3f   (the ceiling for any BPF recorder on these 7 tracepoints)\n' "$(median "${r_e[@]}")"
printf '  clock-only programs / untraced:          %.3f   (the ceiling for one that stamps each record)\n' "$(median "${r_c[@]}")"
printf '  blkscope shm / ftrace blk:               %.3f\n' "$(median "${r_sf[@]}")"
printf '  blkscope disk / ftrace blk:              %.3f\n' "$(median "${r_df[@]}")"
for m in shm disk; do
	if [ "$m" = shm ]; then c=$(median "${cpu_s[@]}") ev=$ev_s; else c=$(median "${cpu_d[@]}") ev=$ev_d; fi
	printf '  recorder CPU while tracing (%s, user+sys): %.3f s per %d s run (%.1f%% of one CPU), %.0f ns per event\n' \
		"$m" "$c" "$RUNTIME" "$(echo "100 * $c / $RUNTIME" | bc -l)" \
		"$(echo "if ($ev > 0) 1000000000 * $c * $ROUNDS / $ev else 0" | bc -l)"
done
imedian() { printf '%.0f' "$(median "$@")"; }
mu=$(imedian "${c_u[@]}") ms=$(imedian "${c_s[@]}") md=$(imedian "${c_d[@]}") mf=$(imedian "${c_f[@]}")
printf '  fio thread CPU per I/O (median): untraced %d ns, blkscope shm %d ns (+%d), disk %d ns (+%d), ftrace blk %d ns (+%d)\n' \
	"$mu" "$ms" "$((ms - mu))" "$md" "$((md - mu))" "$mf" "$((mf - mu))"
# fio's thread runs six of the seven events of a read (Q G P U I D; C runs
# in the loop worker): its added CPU per I/O over six is the per-event cost
# without bpf_stats' own clock reads, dispatch and cache effects included
printf '  per event in fio'"'"'s thread, without bpf_stats: blkscope shm %d ns, disk %d ns, ftrace blk %d ns (added CPU per I/O / 6)\n' \
	"$(((ms - mu) / 6))" "$(((md - mu) / 6))" "$(((mf - mu) / 6))"
echo "  blkscope drops:      $drops (of $((ev_s + ev_d)) events recorded, default -b)"
echo "  ftrace overruns:     $over (8 MiB per CPU, trace_pipe read by cat)"

echo "  load after:  $(cut -d' ' -f1-3 /proc/loadavg)"

# BPF cost per event: one more run with kernel.bpf_stats_enabled (it adds
# two clock reads per program run, so it is kept out of the IOPS rounds).
# run_cnt counts every block tracepoint hit, other disks' too; the
# per-program lines of the traced events are the figure that matters.
# bs-bench-bpf-floor's empty and clock-only programs run on the same
# tracepoints in the same run: what any program costs here (dispatch and
# bpf_stats' own clock reads) and what one clock read adds to it.
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
rec_defer "sysctl -qw kernel.bpf_stats_enabled=$old_stats"
sysctl -qw kernel.bpf_stats_enabled=1
"$FLOOR" >"$OUT/floor.out" 2>"$OUT/floor.err" &
fpid=$!
rec_defer "kill -INT $fpid 2>/dev/null || true"
"$BIN/blkscope-record" -v -d "$REC_LOOP" -o - 2>"$OUT/stats.err" >/dev/null &
pid=$!
for i in $(seq 600); do
	grep -q "tracing $REC_LOOP" "$OUT/stats.err" && grep -q attached "$OUT/floor.err" && break
	sleep 0.05
done
fio_iops >/dev/null
kill -INT "$pid"
wait "$pid" || true
kill -INT "$fpid"
wait "$fpid" || rec_die "bs-bench-bpf-floor failed: $(cat "$OUT/floor.err")"
sysctl -qw kernel.bpf_stats_enabled="$old_stats"
echo "BPF cost per event (run_time_ns / run_cnt, kernel.bpf_stats_enabled, one ${RUNTIME}s run, load $(cut -d' ' -f1 /proc/loadavg)):"
all=$(sed -n 's/^BPF programs: \([0-9]*\) runs, \([0-9]*\) ns per run/\2/p' "$OUT/stats.err")
empty=$(sed -n 's/^floor empty: .* \([0-9]*\) ns per run/\1/p' "$OUT/floor.out")
clock=$(sed -n 's/^floor clock: .* \([0-9]*\) ns per run/\1/p' "$OUT/floor.out")
sed -n 's/^BPF programs: \([0-9]*\) runs, \([0-9]*\) ns per run/  blkscope programs:        \2 ns per event (\1 runs)/p' "$OUT/stats.err"
printf '  empty program, same run: %s ns (the floor: dispatch plus bpf_stats)\n' "$empty"
printf '  clock-only program:      %s ns (+%d for bpf_ktime_get_ns)\n' "$clock" "$((clock - empty))"
printf '  blkscope above empty:    %d ns per event (of which the clock %d)\n' "$((all - empty))" "$((clock - empty))"
echo "  per program (blkscope, then the floor programs on the same tracepoints):"
awk '$2 ~ /^[0-9]+$/ && $3 == "runs" && $2 >= 1000 { print "  " $0 }' "$OUT/stats.err"
awk '$3 == "runs" { print "  " $0 }' "$OUT/floor.out"
