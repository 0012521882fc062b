#!/usr/bin/env bash
# bench-replay.sh - how well `blkscope replay` keeps a trace's timing, and
# how fast it can go, against fio measured in the same run.
#
# 1. Timing.  The fio mix of issue 39 (4k random reads at 20k IOPS QD8 +
#    64k writes at 40 MB/s, 3 s) is recorded on a loop device over
#    /dev/shm, then replayed onto another one, ROUNDS times in alternation:
#    blkscope replay (normal scheduling), blkscope replay --realtime, and
#    fio --read_iolog of the trace's blkparse dump (io_uring, QD32,
#    --replay_redirect), each recorded by blkscope record.  The recordings
#    are compared with the original by tests/replay/qcompare.py: each I/O's
#    queue time after the first, replay minus original (p50, p99, max of
#    the absolute error), and the duration from the first to the last Q.
#    blkscope replay's own lateness figures are printed next to them.
# 2. Speed.  A trace of fio's 4k random reads at QD${QD:-16} (2 s, as fast
#    as the device goes) is replayed with --max, alternating with fio
#    itself at the same queue depth on the same device, for as many I/Os:
#    IOPS of each, the median of the per-round ratios, and the CPU time
#    per I/O (fio's job; the replay's submitting threads), which others'
#    load moves far less than IOPS.
# The load average is printed before and after: other jobs on the machine
# move these figures.
#
#   ROUNDS=3 QD=16 tests/bench/bench-replay.sh
# Needs root, the recorder, fio, python3.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/record.sh"
rec_require fio python3
need_built "$BIN/blkscope-replay" "blkscope replay (needs liburing at build time)"
ROUNDS=${ROUNDS:-3}
QD=${QD:-16}
RP=$BIN/blkscope-replay
QC=$TOP/tests/replay/qcompare.py
rec_workdir
W=$REC_WORK
rec_loop 256
A=$REC_LOOP
rec_loop 256
B=$REC_LOOP
B_NAME=$REC_LOOP_NAME
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# ---- 1. timing
"$REC" -d "$A" -D "$W/mix" -o mix -- env MIX_DEV="$A" MIX_SECONDS=3 fio "$TOP/tests/replay/mix.fio" --output=/dev/null >/dev/null 2>&1
"$BIN/blkscope-parse" -O -d "$W/mix.dump" "$W/mix/mix" >/dev/null
timing() {	# LABEL COMMAND...: record COMMAND on B, compare with the original
	local label=$1
	shift
	rm -rf "$W/rep"
	"$REC" -d "$B" -D "$W/rep" -- "$@" >"$W/cmd.out" 2>&1 || { cat "$W/cmd.out"; return 1; }
	python3 "$QC" --label "$label" "$W/mix/mix" "$W/rep/$B_NAME" | tail -1 | tee -a "$W/timing.txt"
	grep -E '^  (lateness|replayer)' "$W/cmd.out" | sed "s/^ */$label: own /" || true
}
for r in $(seq "$ROUNDS"); do
	echo "-- round $r (load $(cut -d' ' -f1 /proc/loadavg))"
	timing "blkscope replay" "$RP" --allow-writes -d "$B" "$W/mix/mix"
	timing "blkscope replay --realtime" "$RP" --realtime --allow-writes -d "$B" "$W/mix/mix"
	timing "fio --read_iolog" fio --name=replay --read_iolog="$W/mix.dump" --replay_redirect="$B" \
		--ioengine=io_uring --iodepth=32 --direct=1 --output=/dev/null
done
python3 - "$W/timing.txt" <<'PY'
import re, statistics, sys
rows = {}
for ln in open(sys.argv[1]):
    m = re.match(r"(.*): queue-time error: p50 ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms .*replay ([\d.]+) s \(([-+\d.]+) %\)", ln)
    if m:
        rows.setdefault(m.group(1), []).append([float(x) for x in m.groups()[1:]])
print("timing, medians over the rounds (queue time after the first Q, |replay - original|):")
for label, v in rows.items():
    med = [statistics.median(c) for c in zip(*v)]
    print("  %-28s p50 %8.3f ms  p99 %8.3f ms  max %8.3f ms  duration %.3f s (%+.2f %%)" % (label, *med))
PY

# ---- 2. speed: --max against fio at the same queue depth
"$REC" -d "$A" -D "$W/rr" -o rr -- fio --name=rr --filename="$A" --rw=randread --bs=4k --iodepth="$QD" \
	--ioengine=io_uring --direct=1 --runtime=2 --time_based --output=/dev/null >/dev/null 2>&1
ios=$("$RP" -n --json - "$W/rr/rr" | python3 -c 'import json,sys; print(json.load(sys.stdin)["ios"])')
echo "speed: a trace of $ios 4k random reads at QD$QD; --max against fio QD$QD on the same device"
for r in $(seq "$ROUNDS"); do
	fio --name=f --filename="$B" --rw=randread --bs=4k --iodepth="$QD" --ioengine=io_uring --direct=1 \
		--number_ios="$ios" --output-format=json --output="$W/f.json" >/dev/null
	"$RP" --max -d "$B" --json "$W/m.json" "$W/rr/rr" >/dev/null
	python3 - "$W/f.json" "$W/m.json" "$r" <<'PY' | tee -a "$W/speed.txt"
import json, sys
f = json.load(open(sys.argv[1]))["jobs"][0]
m = json.load(open(sys.argv[2]))
fiops = f["read"]["iops"]
fcpu = (f["usr_cpu"] + f["sys_cpu"]) / 100 * f["job_runtime"] * 1e3 / max(f["read"]["total_ios"], 1)  # job_runtime: ms
miops = m["completed"]["read"] / (m["duration_ns"] / 1e9)
mcpu = m["cpu_ns"] / 1e3 / max(m["issued"], 1)
print("  round %s: fio %.0f IOPS (%.2f us CPU per I/O), blkscope replay --max %.0f IOPS (%.2f us), "
      "ratio %.2f" % (sys.argv[3], fiops, fcpu, miops, mcpu, miops / fiops))
PY
done
python3 - "$W/speed.txt" <<'PY'
import re, statistics, sys
rows = [re.search(r"fio (\d+) IOPS \(([\d.]+) us.*--max (\d+) IOPS \(([\d.]+) us\), ratio ([\d.]+)", l) for l in open(sys.argv[1])]
rows = [[float(x) for x in m.groups()] for m in rows if m]
med = [statistics.median(c) for c in zip(*rows)]
print("speed: medians: fio %.0f IOPS, %.2f us CPU per I/O; blkscope replay --max %.0f IOPS, %.2f us; "
      "IOPS ratio %.2f" % tuple(med))
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
