#!/usr/bin/env bash
# The per-I/O model on real recordings against fio's own per-I/O
# latencies (write_lat_log, log_avg_msec=0, log_offset=1), the reproductions
# of issue 35:
#  1. one 1 MiB direct write (split by the block layer) is one I/O of
#     1 MiB whose Q2C runs from its Q to its last C, read off blkparse's
#     own text of the same files;
#  2. fio 4k random reads (io_uring, QD32) with 1 MiB direct writes: every
#     I/O fio logged has its row, fio's latency is never below our Q2C
#     beyond clock noise and exceeds it by little; Q2C and D2C have the
#     same N and every Q2C percentile is at least D2C's;
#  3. recorded with a tiny ring (-b 4): events lost, the report says so
#     and shows no Q2C above the longest latency fio saw;
#  4. one CPU file cut at a record boundary (no end note) and one cut
#     inside a record (damage): the per-I/O figures stop there, say so,
#     and show no D2C above the intact recording's.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require fio python3 blkparse
rec_workdir
rec_loop 512
dev=$REC_LOOP
# 512 KiB requests at most: a 1 MiB write is split whatever its pages
name=$REC_LOOP_NAME
echo none >"/sys/block/$name/queue/scheduler"
echo 512 >"/sys/block/$name/queue/max_sectors_kb"
cd "$REC_WORK"
A=$BIN/blkscope-analyze
X=$BIN/blkscope-export

echo "== 1: one 1 MiB direct write"
mkdir one && "$REC" -d "$dev" -D one -- dd if=/dev/zero of="$dev" bs=1M count=1 oflag=direct status=none 2>/dev/null
"$A" --json one.json "one/$name" >one.txt
"$X" --format jsonl -o one.jsonl "one/$name"
blkparse -i "one/$name" >one.bp
python3 - one.json one.jsonl one.bp <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
rows = [json.loads(l) for l in open(sys.argv[2]) if json.loads(l)["op"] == "write"]
q = c = None
splits = 0
for line in open(sys.argv[3]):       # "  7,0  0  1  0.000000000  123  Q  WS 0 + 2048 [dd]"
    f = line.split()
    if len(f) > 6 and f[5] in ("Q", "C", "X") and "W" in f[6]:
        t = int(f[3].replace(".", ""))
        if f[5] == "Q" and f[8] == "+" and int(f[9]) == 2048:
            q = t
        elif f[5] == "C" and q is not None:
            c = t
        elif f[5] == "X":
            splits += 1
w = {o["op"]: o for o in a["operations"]}["write"]
assert splits >= 1, "the 1 MiB write was not split: %d X" % splits
assert w["ios"] == 1 and w["completed"] == 1 and w["bytes"] == 1 << 20, w
assert len(rows) == 1 and rows[0]["q2c"] == c - q and rows[0]["splits"] == splits, (rows, q, c, splits)
print("1 MiB write: one I/O, %d bytes, Q2C %d ns = last C - Q in blkparse's text, %d splits" % (w["bytes"], c - q, splits))
PY
grep -q "^btt's sections above: 1 queued bios btt never saw complete (1 bios here were split" one.txt ||
	rec_die "the report does not say where btt's model differs"

fio_mix() {	# DIR LOGPREFIX [record options]
	local dir=$1 log=$2
	shift 2
	mkdir "$dir"
	"$REC" "$@" -d "$dev" -D "$dir" -- fio --name=r --filename="$dev" --rw=randread --bs=4k --iodepth=32 \
		--ioengine=io_uring --direct=1 --size=256M --runtime=2 --time_based \
		--write_lat_log="$log-r" --log_avg_msec=0 --log_offset=1 \
		--name=w --filename="$dev" --rw=write --bs=1M --ioengine=psync --direct=1 --offset=256M --size=128M \
		--runtime=2 --time_based --write_lat_log="$log-w" --log_avg_msec=0 --log_offset=1 \
		>/dev/null 2>"$dir.err" || { cat "$dir.err"; rec_die "recording $dir failed"; }
}

echo "== 2: fio random reads and 1 MiB direct writes"
fio_mix mix lat
"$A" --json mix.json "mix/$name" >/dev/null
"$X" --format jsonl -o mix.jsonl "mix/$name"
python3 "$TOP/tests/model/fio_vs_ios.py" mix.jsonl lat-r_lat.1.log lat-w_lat.2.log
python3 - mix.json <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
st = a["all"]["stages"]
assert a["health"]["clean"], a["health"]["findings"]
assert st["Q2C"]["n"] == st["D2C"]["n"] == a["all"]["completed"], (st["Q2C"]["n"], st["D2C"]["n"])
for p in ("min", "p50", "p90", "p99", "p99.9", "max"):
    assert st["Q2C"][p] >= st["D2C"][p], (p, st["Q2C"][p], st["D2C"][p])
w = {o["op"]: o for o in a["operations"]}["write"]
assert w["bytes"] >= 64 << 20 and w["stages"]["Q2C"]["n"] == w["completed"], w
print("mix: Q2C n %d = D2C n, Q2C >= D2C at every percentile, writes %.1f MB with a Q2C each"
      % (st["Q2C"]["n"], w["bytes"] / 1e6))
PY

echo "== 3: a tiny ring: events lost"
fio_mix lost llat -b 4
"$A" --json lost.json "lost/$name" >lost.txt
python3 - lost.json llat-r_lat.1.log llat-w_lat.2.log <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
h = a["health"]
fio_max = max(int(line.split(",")[1]) for p in sys.argv[2:] for line in open(p))
q2c = a["all"]["stages"]["Q2C"]
assert not h["clean"] and h["lost_events"] > 0, h
assert any(f.startswith("LOST EVENTS") for f in h["findings"]), h["findings"]
assert q2c["max"] <= fio_max, "Q2C max %d above fio's longest latency %d" % (q2c["max"], fio_max)
print("tiny ring: %d events lost, said so; Q2C max %d ns <= fio's longest %d ns" % (h["lost_events"], q2c["max"], fio_max))
PY
grep -q "Trace Health: NOT CLEAN" lost.txt || rec_die "no health block at the top of the text report"

echo "== 4: a CPU file cut short, a CPU file damaged"
python3 - "mix/$name" <<'PY'
import glob, os, shutil, sys
sys.path.insert(0, os.path.join(os.environ["TOP"], "tests", "lib"))
import blktrace
base = sys.argv[1]
files = sorted(glob.glob(base + ".blktrace.*"))
big = max(files, key=os.path.getsize)
for kind in ("cut", "dmg"):
    os.makedirs(kind, exist_ok=True)
    for f in files:
        shutil.copy(f, kind)
data = open(big, "rb").read()
offs = [off for off, _, _ in blktrace.records(data)]
cut = offs[len(offs) * 45 // 100]
open(os.path.join("cut", os.path.basename(big)), "wb").write(data[:cut])
open(os.path.join("dmg", os.path.basename(big)), "wb").write(data[:cut + 20])
PY
for kind in cut dmg; do
	"$A" --json "$kind.json" "$kind/$name" >"$kind.txt" 2>"$kind.err" || true
done
python3 - mix.json cut.json dmg.json <<'PY'
import json, sys
full, cut, dmg = (json.load(open(p)) for p in sys.argv[1:])
assert cut["health"]["damage"]["kind"] == "cut short", cut["health"]["damage"]
assert dmg["health"]["damage"]["kind"] == "damaged", dmg["health"]["damage"]
for name, d in (("cut", cut), ("damaged", dmg)):
    f = d["health"]["findings"][0]
    assert "stop there" in f, f
    assert d["all"]["stages"]["D2C"]["max"] <= full["all"]["stages"]["D2C"]["max"], name
    assert d["all"]["completed"] < full["all"]["completed"], name
print("cut short and damaged: the per-I/O figures stop there and say so; no D2C above the intact maximum")
PY
echo OK
