#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# compare reads like analyze (docs/compare.md, "Outputs"):
#  - a row holding the same I/Os as one above (the only device is the
#    total, every I/O a write) is named once ("total = device 8,0"), not
#    printed as a second identical table;
#  - a stage seen on one side only is "new"/"gone", not a change of 0%;
#  - the interval printed (text, HTML) is the joint, Bonferroni one the
#    verdict uses (--json's joint_ci), and it decides the '*';
#  - times read as analyze's: µs, never "us";
#  - the HTML page: analyze's style and grid, charts drawn with analyze's
#    axes (round ticks, no exponent), laid out by headless Chromium at
#    1280 and 1920 px: nothing scrolls sideways or is cut off, every chart
#    in view drew (tests/extras/pngcheck.py), and the page is self-contained.
set -euo pipefail
: "${BIN:?}" "${TOP:?}"
. "$TOP/tests/lib/extras.sh"
extras_need_python
work=$(mktemp -d /tmp/t-compare-report.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
C="$BIN/blkscope-compare"

# a pair whose D2C doubled, one device, writes only; before without G and I (a bio-based device)
python3 - <<'PY'
import random
for name, lat, gi in (("b", 40_000, False), ("a", 80_000, True)):
    rnd = random.Random(7)
    with open(name + ".script", "w") as f:
        for pid, comm in ((100, "fio"), (101, "tar"), (102, "dd")):
            print(500, 0, "8,0", "N", "-", 0, 0, pid, comm, file=f)
        t = 1000
        for k in range(3000):
            d = lat + rnd.randrange(20_000)
            acts = [(0, "Q")] + ([(300, "G"), (600, "I")] if gi else []) + [(1000, "D"), (1000 + d, "C")]
            for dt, a in acts:
                print(t + dt, 0, "8,0", a, "W", 8 * k, 4096, 100 + k % 3, file=f)
            t += 150_000
PY
for s in b a; do "$BIN/bs-gen-trace" -w script -o "$s" <"$s.script" >/dev/null; done
"$C" --json c.json --html c.html b a >c.txt || fail "compare failed"

grep -q "== device 8,0 ==  the same I/Os as total (table above)" c.txt || fail "the device's table is repeated"
grep -q "== operation write ==  the same I/Os as total (table above)" c.txt || fail "the write row's table is repeated"
[ "$(grep -c '^STAGE STAT' c.txt)" -lt "$(grep -c '^== ' c.txt)" ] || fail "as many tables as rows"
grep -q "^  total = device 8,0 = operation write: D2C p50" c.txt || { grep "^  total" c.txt; fail "headline: the equal rows are not named together"; }
grep -q "^G2I   N                0        3000        +3000  new: only after" c.txt || { grep "^G2I   N" c.txt; fail "G2I is not new"; }
! grep -q "^G2I .* 0.0%" c.txt || fail "a new stage shown as a change of 0%"
! grep -q "[0-9] us\b" c.txt || fail "'us' in the text"
grep -q "µs" c.txt || fail "no µs in the text"
python3 - c.json c.txt <<'PY'
import json, re, sys
j = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
m = j["method"]
assert m["z_significance"] > m["z_ci"], "Bonferroni's z is not larger"
total = [r for r in j["rows"] if r["kind"] == "total"][0]
d2c = total["stages"]["D2C"]["p50"]
lo, hi = d2c["joint_ci"]
assert lo <= d2c["ci"][0] and hi >= d2c["ci"][1], "the joint interval is not wider"
assert d2c["significant"] and lo > 0, d2c
line = re.search(r"^D2C   p50 .*$", text, re.M).group(0)
assert ("%+.1f..%+.1f%%" % (lo * 100, hi * 100)) in line and line.endswith("*"), (line, lo, hi)
for r in j["rows"]:
    for st in r["stages"].values():
        for p in ("p50", "p90", "p99", "p99.9"):
            q = st.get(p)
            if q and q["joint_ci"] and q["significant"]:
                assert q["joint_ci"][0] > 0 or q["joint_ci"][1] < 0, q
print("ok: the printed interval is the joint one (%+.1f..%+.1f%%) and decides the verdict" % (lo * 100, hi * 100))
PY

# the HTML: self-contained, analyze's axes, laid out at 1280 and 1920 px
if grep -Piq '<script[^>]+src|<link|<img|src=|@import|url\((?!#)|https?://(?!www\.w3\.org/2000/svg)' c.html; then
	fail "the page is not self-contained"
fi
grep -q 'class=grid' c.html || fail "no chart grid"
python3 - c.html <<'PY'
import re, sys
h = open(sys.argv[1]).read()
svg = re.search(r'<figure id="chart-q2c-time">(.*?)</figure>', h, re.S).group(1)
ticks = re.findall(r'<text x="\d+" y="[\d.]+">([^<]+)</text>', svg.split('class="xt"')[0])
assert len(ticks) >= 3, ticks
assert all(re.fullmatch(r"[0-9.]+(ns|µs|ms|s)", t) for t in ticks), ticks
assert "e+" not in svg, "an exponent in a label"
print("ok: Q2C time chart y ticks", " ".join(ticks))
PY
. "$TOP/tests/lib/chrome.sh"
chrome_need
for size in 1280x800 1920x1080 1280x3000; do
	layout c.html "${size%x*}" "${size#*x}" "w$size"
	fits "w$size"
	read -r -a want <<<"$(boxes "w$size" visible)"
	[ "${#want[@]}" -ge 1 ] || fail "no chart in view at $size"
	python3 "$EXTRAS_DIR/pngcheck.py" "w$size.png" "${want[@]}"
done
read -r -a all <<<"$(boxes w1280x3000)"
[ "${#all[@]}" -ge 7 ] || fail "expected 7 charts (Q2C over time, 6 CDFs), got ${#all[@]}"
echo OK
