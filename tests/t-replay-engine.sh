#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The replay engine on a loop device, checked against the kernel's own
# counters and against the rules:
#  1. a generated trace (a synchronous reader, a reader keeping 4 in
#     flight, a kernel worker's write bursts, FUA writes, flushes,
#     discards) replayed on its timeline, three times: /sys/block/DEV/stat
#     counts exactly the planned reads, writes and discards, bios and
#     sectors (a flush is an empty write there), and at least the planned
#     flushes; the per-I/O log
#     (tests/replay/engine_check.py) shows every I/O issued once, not
#     before its time, in trace order per submitter, a synchronous
#     submitter's I/O only after the one before completed, the other never
#     over its depth of 4;
#  2. the same on two threads, with --max (most I/O ahead of the trace's
#     time), with --max on two threads, with --max --no-deps --depth 2 (never more than 2 in
#     flight), and at --speed 4 (the schedule a quarter of the trace's);
#  3. SIGINT: the replay stops issuing, waits for what is in flight,
#     prints its summary marked interrupted and exits 1; the kernel saw
#     exactly the I/Os it says it issued.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
need_root "CAP_SYS_ADMIN for loop devices"
need_tools losetup python3
need_built "$BIN/blkscope-replay" "blkscope replay (needs liburing at build time)"
rec_workdir
W=$REC_WORK
RP=$BIN/blkscope-replay
EC=$TOP/tests/replay/engine_check.py
rec_loop 64
T=$REC_LOOP
STAT=/sys/block/$REC_LOOP_NAME/stat

python3 "$EC" gen 7 300 >"$W/trace.txt"
"$BIN/bs-gen-trace" -w script -o "$W/t" <"$W/trace.txt"

# counted BEFORE AFTER JSON: the kernel's counters moved by exactly the plan
counted() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
b = [int(x) for x in open(sys.argv[1]).read().split()]
a = [int(x) for x in open(sys.argv[2]).read().split()]
j = json.load(open(sys.argv[3]))
d = [y - x for x, y in zip(b, a)]
ops, nbytes = j["completed"], j["completed_bytes"]
checks = [("read bios", d[0] + d[1], ops["read"]), ("read sectors", d[2], nbytes["read"] // 512),
          # an empty flush (fsync of the device) is an empty write bio: counted as a write
          ("write bios", d[4] + d[5], ops["write"] + ops["flush"]), ("write sectors", d[6], nbytes["write"] // 512),
          ("discard bios", d[11] + d[12], ops["discard"]), ("discard sectors", d[13], nbytes["discard"] // 512)]
bad = ["%s: the kernel counted %d, the replay %d" % c for c in checks if c[1] != c[2]]
if d[15] < ops["flush"]:
    bad.append("flushes: the kernel counted %d, the replay issued %d" % (d[15], ops["flush"]))
if j["issued"] != sum(ops.values()) or j["errors"]:
    bad.append("issued %d, completed %d, errors %d" % (j["issued"], sum(ops.values()), j["errors"]))
for x in bad:
    print("FAIL: " + x)
if bad:
    sys.exit(1)
print("kernel counters: %d reads, %d writes, %d discards, %d flushes (%d counted) as replayed" %
      (ops["read"], ops["write"], ops["discard"], ops["flush"], d[15]))
PY
}

replay() {	# LABEL ARGS...: replay, then check the counters and the log
	local label=$1
	shift
	cp "$STAT" "$W/before"
	"$RP" --allow-writes -d "$T" --json "$W/r.json" --log "$W/r.csv" "$@" "$W/t" >"$W/out" 2>"$W/err" ||
		{ cat "$W/out" "$W/err"; rec_die "$label: replay failed"; }
	cp "$STAT" "$W/after"
	counted "$W/before" "$W/after" "$W/r.json" >"$W/count" || { cat "$W/count"; rec_die "$label: counters"; }
	python3 "$EC" log "$W/trace.txt" "$W/r.csv" "$@" >"$W/check" || { cat "$W/check"; rec_die "$label"; }
	echo "ok: $label: $(cat "$W/count"); $(tail -1 "$W/check")"
}

# ---- 1. on the timeline
for run in 1 2 3; do
	replay "timed, run $run"
done
grep -E '^  (lateness|replayer|held)' "$W/out"

# ---- 2. --max, threads, depth, speed
replay "--max" --max
python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ahead = sum(1 for r in rows if int(r["issued_ns"]) < int(r["scheduled_ns"]))
assert ahead > len(rows) // 4, (ahead, len(rows))
print("ok: --max: %d of %d I/Os issued ahead of the trace'"'"'s time" % (ahead, len(rows)))
' "$W/r.csv"
replay "on its timeline on 2 threads" --threads 2
replay "--max on 2 threads" --max --threads 2
grep -q '"threads": 2' "$W/r.json" || rec_die "--threads 2 did not use two threads"
replay "--max --no-deps --depth 2" --max --no-deps --depth 2
replay "--speed 4" --speed 4
python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
want = j["trace_span_ns"] / 4
assert abs(j["scheduled_span_ns"] - want) <= 4, (j["scheduled_span_ns"], want)
assert j["issue_span_ns"] >= j["scheduled_span_ns"] - j["lateness"]["max_ns"]
print("ok: --speed 4: scheduled over %.1f ms, the trace %.1f ms" % (j["scheduled_span_ns"] / 1e6,
      j["trace_span_ns"] / 1e6))
' "$W/r.json"

# ---- 3. SIGINT
python3 "$EC" gen 8 4000 >"$W/long.txt"
"$BIN/bs-gen-trace" -w script -o "$W/long" <"$W/long.txt"
cp "$STAT" "$W/before"
"$RP" --allow-writes -d "$T" --json "$W/int.json" "$W/long" >"$W/int.out" 2>"$W/int.err" &
pid=$!
rec_defer "kill $pid 2>/dev/null"
sleep 1
kill -INT "$pid"
start=$(date +%s%N)
rc=0
wait "$pid" || rc=$?
took=$((($(date +%s%N) - start) / 1000000))
cp "$STAT" "$W/after"
[ "$rc" -eq 1 ] || rec_die "SIGINT: exit $rc, not 1"
[ "$took" -lt 3000 ] || rec_die "SIGINT: it took $took ms to stop"
grep -q "(interrupted)" "$W/int.out" && grep -q '"interrupted": true' "$W/int.json" ||
	rec_die "SIGINT: the summary does not say it was interrupted: $(cat "$W/int.out")"
python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert 0 < j["issued"] < j["ios"], (j["issued"], j["ios"])
' "$W/int.json" || rec_die "SIGINT: not a part of the trace issued"
counted "$W/before" "$W/after" "$W/int.json" >"$W/count" || { cat "$W/count"; rec_die "SIGINT: counters"; }
echo "ok: SIGINT: stopped in $took ms, exit 1, $(grep -o '"issued": [0-9]*' "$W/int.json") of $(grep -o '"ios": [0-9]*' "$W/int.json"); $(cat "$W/count")"
