#!/usr/bin/env bash
# bench-attr.sh - what record --files and --stacks cost (docs/record.md,
# "Files and stacks").
#
# fio 4k random direct reads, io_uring, QD32, of a file on ext4 on a loop
# device over /dev/shm (so every Q is a file's direct I/O: --files looks
# the file up, --stacks takes a kernel and a user stack), run in
# alternation within one invocation (order rotated each round): untraced,
# under `blkscope record` without the options, with --files, with
# --stacks, with both.  Prints per-round IOPS, medians of the ratios to
# untraced and to the plain recording, fio's CPU per I/O; then one run per
# mode with kernel.bpf_stats_enabled: the Q program's cost per run (the
# only program the options change) and all programs'; then the analyzer's
# speed on a recording with both options, with and without its side
# files, and with --group-by file --folded.
#
#   ROUNDS=7 SECONDS_PER_RUN=2 tests/bench/bench-attr.sh
# Needs root, fio, mkfs.ext4.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/record.sh"
rec_require fio python3 mkfs.ext4
ROUNDS=${ROUNDS:-7}
RUNTIME=${SECONDS_PER_RUN:-2}

rec_loop 512
OUT=$(mktemp -d /dev/shm/blkscope-bench-attr.XXXXXX)
rec_defer "rm -rf '$OUT'"
mkfs.ext4 -q -F -b 4096 "$REC_LOOP" || rec_die "mkfs.ext4 failed"
mkdir "$OUT/mnt" "$OUT/rec"
mount "$REC_LOOP" "$OUT/mnt" || rec_die "mount failed"
rec_defer "umount '$OUT/mnt'"
dd if=/dev/urandom of="$OUT/mnt/data" bs=1M count=256 oflag=direct status=none

fio_iops() {	# IOPS; fio's thread CPU per I/O (ns) into $OUT/fio.cpu
	fio --name=bench --filename="$OUT/mnt/data" --rw=randread --bs=4k --ioengine=io_uring \
		--iodepth=32 --direct=1 --runtime="$RUNTIME" --time_based --output-format=json \
		--output="$OUT/fio.json" >/dev/null
	python3 -c 'import json,sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(round(j["read"]["iops"]))
with open(sys.argv[2], "w") as f:
	print(round((j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] * 1e6 / max(j["read"]["total_ios"], 1)), file=f)' \
		"$OUT/fio.json" "$OUT/fio.cpu"
}

# run_rec NAME OPTS...: IOPS under the recorder; its summary in $OUT/NAME.err
run_rec() {
	local name=$1 err=$OUT/$1.err pid iops i
	shift
	rm -f "$OUT"/rec/*
	"$BIN/blkscope-record" -v "$@" -d "$REC_LOOP" -D "$OUT/rec" -o rec 2>"$err" &
	pid=$!
	for i in $(seq 200); do
		grep -q "tracing $REC_LOOP" "$err" && break
		sleep 0.05
	done
	iops=$(fio_iops)
	kill -INT "$pid"
	wait "$pid" || { cat "$err" >&2; rec_die "blkscope record $* failed"; }
	echo "$iops"
}

median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
div() { echo "$1 / $2" | bc -l; }
opts_of() {
	case $1 in plain) ;; files) echo --files ;; stacks) echo --stacks ;; both) echo --files --stacks ;; esac
}

echo "bench-attr: fio 4k randread direct, io_uring, QD32, a file on ext4 on a loop over /dev/shm; $ROUNDS rounds x 5 modes x ${RUNTIME}s"
echo "  load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
declare -A iops cpu ratio_u ratio_p
modes=(untraced plain files stacks both)
for ((r = 1; r <= ROUNDS; r++)); do
	line="  round $r:"
	for ((k = 0; k < 5; k++)); do
		m=${modes[(k + r) % 5]}
		if [ "$m" = untraced ]; then v=$(fio_iops); else
			# shellcheck disable=SC2046
			v=$(run_rec "$m" $(opts_of "$m")); fi
		iops[$m,$r]=$v
		cpu[$m]+="$(cat "$OUT/fio.cpu") "
	done
	for m in "${modes[@]}"; do
		line+=" $m ${iops[$m,$r]}"
		[ "$m" = untraced ] && continue
		ratio_u[$m]+="$(div "${iops[$m,$r]}" "${iops[untraced,$r]}") "
		ratio_p[$m]+="$(div "${iops[$m,$r]}" "${iops[plain,$r]}") "
	done
	echo "$line"
done
echo "medians of $ROUNDS rounds:"
for m in plain files stacks both; do
	# shellcheck disable=SC2086
	printf '  %-7s IOPS kept: %.3f of untraced, %.3f of the plain recording; fio CPU per I/O %d ns (untraced %d)\n' \
		"$m" "$(median ${ratio_u[$m]})" "$(median ${ratio_p[$m]})" "$(printf '%.0f' "$(median ${cpu[$m]})")" \
		"$(printf '%.0f' "$(median ${cpu[untraced]})")"
done
grep "^Attribution:" "$OUT/both.err" | sed 's/^/  last run with both: /'
echo "  load after:  $(cut -d' ' -f1-3 /proc/loadavg)"

# BPF cost: one run per mode with kernel.bpf_stats_enabled (two clock reads per run of its own)
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
rec_defer "sysctl -qw kernel.bpf_stats_enabled=$old_stats"
sysctl -qw kernel.bpf_stats_enabled=1
echo "BPF cost (run_time_ns / run_cnt, kernel.bpf_stats_enabled, one ${RUNTIME}s run each):"
for m in plain files stacks both; do
	# shellcheck disable=SC2046
	run_rec "stats-$m" $(opts_of "$m") >/dev/null
	q=$(awk '$1 == "bio_queue" { print $4 }' "$OUT/stats-$m.err")
	all=$(sed -n 's/^BPF programs: \([0-9]*\) runs, \([0-9]*\) ns per run/\2/p' "$OUT/stats-$m.err")
	printf '  %-7s Q program %5s ns per run; all programs %5s ns per event\n' "$m" "$q" "$all"
done
sysctl -qw kernel.bpf_stats_enabled="$old_stats"

# the analyzer on a recording with both options (3 s of fio)
RUNTIME=3 run_rec big --files --stacks >/dev/null
mkdir "$OUT/alone"
cp "$OUT"/rec/rec.blktrace.* "$OUT/alone/"
ev=$(awk '$1 == "Total:" { n += $2 } END { print n }' "$OUT/big.err")
echo "the analyzer on that recording ($ev events, $(du -sh "$OUT/rec" | cut -f1) with side files):"
t() {	# DIR ARGS...: best of 3 wall-clock seconds of `blkscope analyze ARGS` in DIR
	local dir=$1 best=999 s e i
	shift
	for i in 1 2 3; do
		s=$(date +%s.%N)
		(cd "$dir" && "$BIN/blkscope" analyze "$@" rec >/dev/null)
		e=$(date +%s.%N)
		best=$(echo "if ($e - $s < $best) $e - $s else $best" | bc -l)
	done
	echo "$best"
}
a=$(t "$OUT/alone")
b=$(t "$OUT/rec")
c=$(t "$OUT/rec" --group-by file --folded /dev/null)
printf '  analyze, no side files:            %.3f s (%.2f M events/s)\n' "$a" "$(echo "$ev / $a / 1000000" | bc -l)"
printf '  analyze, with them:                %.3f s (%.2f M events/s, %.2f times the time without)\n' "$b" \
	"$(echo "$ev / $b / 1000000" | bc -l)" "$(div "$b" "$a")"
printf '  --group-by file --folded:          %.3f s (%.2f M events/s)\n' "$c" "$(echo "$ev / $c / 1000000" | bc -l)"
