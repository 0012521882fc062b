#!/usr/bin/env bash
# --html / --svg chart content, checked on the markup (no browser needed):
# traces crafted so the right numbers are known.
#  - stages: every I/O waits exactly 2 ms between Q and D and 1 ms at the
#    device, one queued per ms: the Q2D/D2C chart shows those, the queue
#    depth chart 2 bios in the block layer, 1 at the device (Little's law);
#    the generator's --delay gives the same shape on a busy trace
#  - the summary panel agrees with --json (worst interval, stage shares)
#  - tick labels never in scientific notation (a 400 µs trace at 1M IOPS,
#    a 1380 s latency), a lone point gets a marker
#  - log axes spanning less than a decade get 1-2-5 or 1..9 ticks
#  - histogram: log count axis, a 300 ms tail visible next to 60k fast I/Os,
#    labels that do not overlap
#  - 12 groups: 8 drawn, said so, no two sharing a color
#  - -t/-T: the charts' time axis is the window
#  - offset map in MiB for a small device, writes visible at a 30% share
#  - several devices: a device selector; every chart has <title> hover text
set -euo pipefail
. "$TOP/tests/lib/extras.sh"
. "$TOP/tests/lib/analyze.sh"
extras_need_python
H="$EXTRAS_DIR/htmlcheck.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

fail() { echo "FAIL: $*" >&2; exit 1; }

echo "== stages: Q2D 2 ms, D2C 1 ms, one I/O per ms"
python3 - <<'PY' | bt_mktrace stages
for i in range(1000):
    t = 1000000 + i * 1000000
    s = 8 * i
    for dt, a in ((0, "Q"), (1000, "G"), (2000, "I"), (2000000, "D"), (3000000, "C")):
        print(t + dt, 0, "8,0", a, "R", s, 4096, 100)
PY
blkscope-analyze --btt-only --html stages.html --json stages.json stages >/dev/null
python3 "$H" summary stages.html stages.json
python3 - "$H" stages.html <<'PY'
import sys
sys.path.insert(0, sys.argv[1].rsplit("/", 1)[0])
import htmlcheck as h
cs = h.charts(h.read(sys.argv[2]))
w, d = h.hover(cs["q2d-d2c"]), h.hover(cs["queue-depth"])
assert len(w) > 20 and len(w) == len(d), (len(w), len(d))
# interior intervals: away from the ramp up and down
for row in w[3:-3]:
    for k, v in (("Q2D p50", 2e6), ("Q2D p99", 2e6), ("D2C p50", 1e6), ("D2C p99", 1e6)):
        assert row[k] == v, (k, row)
for row in d[3:-3]:
    for k, v in (("block layer", 2.0), ("device", 1.0), ("all", 3.0)):
        assert abs(row[k] - v) <= 0.05 * v, (k, row)
print("Q2D 2ms, D2C 1ms, depth 2 + 1 in %d interior intervals: ok" % (len(w) - 6))
PY

echo "== the generator's --delay: I2D +2 ms, D2C +1 ms on a busy trace"
bs-gen-trace -D . -n 100000 -L I2D=2000000 -L D2C=1000000 -o delayed >/dev/null
blkscope-analyze --btt-only --html delayed.html --json delayed.json delayed >/dev/null
python3 "$H" summary delayed.html delayed.json
python3 - "$H" delayed.html <<'PY'
import sys
sys.path.insert(0, sys.argv[1].rsplit("/", 1)[0])
import htmlcheck as h
cs = h.charts(h.read(sys.argv[2]))
n = 0
for row in h.hover(cs["q2d-d2c"]):
    if row["D2C p50"] is None:
        continue
    assert row["Q2D p50"] >= 2e6 * 0.992 and row["D2C p50"] >= 1e6 * 0.992, row
    assert row["D2C p50"] < 1.5e6 and row["Q2D p50"] > row["D2C p50"], row
    n += 1
assert n > 20
print("Q2D p50 >= 2ms > D2C p50 >= 1ms in %d intervals: ok" % n)
PY

echo "== no scientific notation: 400 us at 1M IOPS, a 1380 s latency"
python3 - <<'PY' | bt_mktrace fast
for i in range(400):
    t = 1000 + i * 1000
    print(t, 0, "8,0", "Q", "W" if i % 3 == 0 else "R", 8 * i, 4096, 100)
    print(t + 100, 0, "8,0", "D", "W" if i % 3 == 0 else "R", 8 * i, 4096, 100)
    print(t + 900, 0, "8,0", "C", "W" if i % 3 == 0 else "R", 8 * i, 4096, 100)
PY
python3 - <<'PY' | bt_mktrace slow
for i in range(50):
    t = 1000000 + i * 1000000
    for dt, a in ((0, "Q"), (10000, "D"), (60000, "C")):
        print(t + dt, 0, "8,0", a, "R", 8 * i, 4096, 100)
for dt, a in ((0, "Q"), (10000, "D"), (1380 * 10**9, "C")):
    print(2000000 + dt, 0, "8,0", a, "W", 999999, 4096, 101)
PY
for t in fast slow; do
	blkscope-analyze --btt-only --html $t.html --svg $t-svg $t >/dev/null
	python3 "$H" nosci $t.html $t-svg/*.svg || fail "$t: scientific notation"
	python3 "$H" titles $t.html || fail "$t: a chart without hover text"
	for s in $t-svg/*.svg; do python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$s"; done
done
grep -q '<circle class="pt"' slow-svg/latency.svg || fail "the lone 1380 s point has no marker"
grep -q 'offset (MiB)' fast-svg/offsets-8-0.svg || fail "a 2 MiB offset range is not in MiB"
python3 - fast-svg/offsets-8-0.svg <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
labels = re.findall(r'<text x="66" y="[0-9.]+">([^<]*)</text>', svg)
assert labels and all(len(l) <= 5 for l in labels), labels
print("offset labels:", " ".join(labels))
PY
echo "ok"

echo "== histogram: a 300 ms tail next to 60k fast I/Os"
python3 - <<'PY' | bt_mktrace tail
for i in range(60000):
    t = 1000 + i * 10000
    print(t, 0, "8,0", "Q", "R", 8 * i, 4096, 100)
    print(t + 1000, 0, "8,0", "D", "R", 8 * i, 4096, 100)
    print(t + 50000 + i % 7 * 1000, 0, "8,0", "C", "R", 8 * i, 4096, 100)
print(5000000, 0, "8,0", "Q", "R", 10**8, 4096, 100)
print(5001000, 0, "8,0", "D", "R", 10**8, 4096, 100)
print(305001000, 0, "8,0", "C", "R", 10**8, 4096, 100)
PY
blkscope-analyze --btt-only --svg histogram=tail.svg tail >/dev/null
python3 - tail.svg <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
bars = re.findall(r'<rect x="[0-9.]+" y="[0-9.]+" width="[0-9.]+" height="([0-9.]+)"><title>([^<]*)</title>', svg)
tail = [float(hgt) for hgt, t in bars if t.startswith("D2C 200ms to 500ms: 1 I/Os")]
assert tail and tail[0] >= 10, ("the 300 ms I/O's bar", tail, bars[:3])
# x labels: left-aligned at their bucket, wide enough apart for their text
xs = re.search(r'<g fill="#333" text-anchor="start">(.*?)</g>', svg, re.S).group(1)
labs = [(float(x), t) for x, t in re.findall(r'<text x="([0-9.]+)" y="[0-9.]+">([^<]*)</text>', xs)]
assert len(labs) >= 3, labs
for (x0, t0), (x1, _) in zip(labs, labs[1:]):
    assert x1 - x0 >= 6.5 * len(t0), ("labels overlap", labs)
assert all(re.fullmatch(r"(0|[125]0{0,2})(ns|µs|ms|s)", t) for _, t in labs), labs
print("tail bar %.0f px; labels %s: ok" % (tail[0], " ".join(t for _, t in labs)))
PY

echo "== equal latencies: log axes still get round ticks"
python3 - <<'PY' | bt_mktrace narrow
for i in range(300):
    t = 1000000 + i * 1000000
    for dt, a in ((0, "Q"), (2000, "D"), (1502000, "C")):
        print(t + dt, 0, "8,0", a, "R", 8 * i, 4096, 100)
PY
blkscope-analyze --btt-only --svg narrow-svg narrow >/dev/null
python3 - narrow-svg <<'PY'
import re, sys
for c in ("heatmap", "latency", "q2d-d2c"):
    svg = open("%s/%s.svg" % (sys.argv[1], c)).read()
    g = re.search(r'<g fill="#333" text-anchor="end">(.*?)</g>', svg, re.S).group(1)
    ticks = re.findall(r">([^<]+)</text>", g)
    assert len(ticks) >= 3 and all(re.fullmatch(r"[0-9]+(ns|µs|ms|s)", t) for t in ticks), (c, ticks)
    print(c, " ".join(ticks))
PY

echo "== 12 groups: the 8 busiest drawn, said so, in distinct colors"
python3 - <<'PY' | bt_mktrace groups
n = {0: 60, 10: 60}
t, s = 1000, 0
for rnd in range(60):
    for p in range(12):
        if rnd < n.get(p, 20 + p):
            for dt, a in ((0, "Q"), (5000, "D"), (50000 + p * 1000, "C")):
                print(t + dt, 0, "8,0", a, "R", s, 4096, 1000 + p)
            t += 20000
            s += 8
PY
blkscope-analyze --btt-only --group-by pid --html groups.html groups >/dev/null
python3 "$H" colors groups.html || fail "two groups share a color"
python3 "$H" note groups.html 8 12 || fail "the top-8 note is missing"
python3 "$H" titles groups.html
echo "ok"

echo "== -t/-T: the charts span the window"
bs-gen-trace -D . -n 100000 -d 2 -o two >/dev/null
blkscope-analyze --btt-only -t 0.05 -T 0.1 --html win.html two >/dev/null
python3 - win.html <<'PY'
import re, sys
doc = open(sys.argv[1]).read()
svgs = re.findall(r'<svg[^>]*data-t0="([0-9.]+)" data-t1="([0-9.]+)"[^>]*>(.*?)</svg>', doc, re.S)
assert len(svgs) >= 6, len(svgs)
for t0, t1, body in svgs:
    assert abs(float(t0) - 0.05) < 1e-9 and abs(float(t1) - 0.1) < 1e-9, (t0, t1)
    ticks = [float(v) for v in re.findall(r'<text x="[0-9.]+" y="[0-9.]+">([0-9.]+)</text>',
                                          re.search(r'<g class="xt".*?</g>', body, re.S).group(0))]
    assert ticks and min(ticks) >= 50 and max(ticks) <= 100, ticks
print("%d time charts from 50 ms to 100 ms: ok" % len(svgs))
PY

echo "== two devices: a device selector; offset map shows the writes"
grep -Eq '<select id=devsel><option value="">all</option>(<option>8,(0|16)</option>){2}</select>' win.html ||
	fail "no device selector"
grep -q '<figure id="chart-offsets-8-16" data-chart="offsets-8-16" data-dev="8,16">' win.html ||
	fail "offset map not tagged with its device"
bs-gen-trace -D . -n 100000 -o mixed >/dev/null
blkscope-analyze --btt-only --svg offsets-8-0=off.svg mixed >/dev/null
python3 - off.svg <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
reads = ("#c6dbef", "#6baed6", "#2171b5", "#08306b")
writes = ("#fcbba1", "#fb6a4a", "#cb181d", "#67000d")
area = {"r": 0, "w": 0}
for color, d in re.findall(r'<path fill="(#[0-9a-f]{6})" d="([^"]*)"', svg):
    cells = sum(int(w) for w in re.findall(r"h([0-9]+)v1", d))
    area["r" if color in reads else "w" if color in writes else "x"] = area.get("r" if color in reads else "w" if color in writes else "x", 0) + cells
share = area["w"] / (area["r"] + area["w"])
print("write cells: %.0f%% of the read and write cells" % (100 * share))
assert share >= 0.25, share
PY
echo "ok"
