#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The HTML report's flame graph of the I/O (record --stacks), on crafted
# side files (tests/attr/gen-side.py) beside a generated trace:
#  - static: the SVG parses; the top bar holds every I/O; each frame's
#    width is its I/Os' share of 1200 and its <title> says its I/Os; the
#    frames under a frame fit inside it; each process's bar has the I/Os
#    --folded gives that process; the files table is there;
#  - bounded: a trace with 3000 distinct stacks draws at most 4000 frames
#    and says how many narrow ones it left out;
#  - zoom (headless Chromium): a click on a frame makes it 1200 wide, its
#    ancestors too, hides what is not under it; a click on the top bar
#    shows everything again.
set -euo pipefail
: "${BIN:?}" "${TOP:?}"
export TOP
. "$TOP/tests/lib/skip.sh"
need_tools python3
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || skip "needs headless Chromium to click through the flame graph (Debian: apt-get install chromium)"
work=$(mktemp -d /tmp/t-analyze-attr-html.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
PATH=$BIN:$PATH

bs-gen-trace -n 6000 -s 5 -o a >/dev/null
python3 "$TOP/tests/attr/gen-side.py" . a $((8 << 20)) 0 a.expect.json >/dev/null
blkscope analyze --html a.html --folded a.folded a >/dev/null

python3 - a.html a.folded <<'EOF'
import collections, re, sys
import xml.etree.ElementTree as ET
page = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"(<svg id=flame.*?</svg>)", page, re.S)
assert m, "no flame graph"
svg = ET.fromstring(m.group(1).replace("<svg id=flame", "<svg id=\"flame\""))
ns = "{http://www.w3.org/2000/svg}"
nodes = []
for g in svg.iter(ns + "g"):
    title = g.find(ns + "title").text
    name, rest = title.split("\n")
    ios = int(rest.split()[0])
    nodes.append(dict(name=name, ios=ios, x=float(g.get("data-x")), w=float(g.get("data-w")), d=int(g.get("data-d"))))
root = nodes[0]
assert root["d"] == 0 and root["name"] == "all I/O", root
fold = collections.Counter()
for line in open(sys.argv[2]):
    s, n = line.rsplit(" ", 1)
    fold[s.split(";")[0]] += int(n)
assert root["ios"] == sum(fold.values()), (root["ios"], sum(fold.values()))
for n in nodes:
    assert abs(n["w"] - 1200 * n["ios"] / root["ios"]) < 0.01, n
procs = {n["name"]: n["ios"] for n in nodes if n["d"] == 1}
assert procs == dict(fold), (procs, dict(fold))
# nesting: a frame at depth d+1 lies inside one frame at depth d
for n in nodes[1:]:
    parents = [p for p in nodes if p["d"] == n["d"] - 1 and p["x"] - 1e-3 <= n["x"] and n["x"] + n["w"] <= p["x"] + p["w"] + 1e-3]
    assert parents, n
assert "By file (record --files" in page
print("ok: static flame graph, %d frames, %d I/Os" % (len(nodes), root["ios"]))
EOF

# bounded: 3000 distinct stacks
python3 - <<'EOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP"], "tests", "lib"))
import attrside
data = open("a.blkscope-names", "rb").read()
extra = b"".join(attrside.stack_bytes(1000 + i, ["submit_bio_noacct_nocheck", "f%d" % i], ["user%d" % (i % 7)])
                 for i in range(3000))
open("b.blkscope-names", "wb").write(data + extra)
for name in os.listdir("."):
    if name.startswith("a.blkscope-attr."):
        d = bytearray(open(name, "rb").read())
        for k, off in enumerate(range(32, len(d), 32)):	# the records' stack ids: 1000 + k
            d[off + 24:off + 28] = (1000 + k % 3000).to_bytes(4, "little")
        open("b" + name[1:], "wb").write(bytes(d))
    if name.startswith("a.blktrace."):
        os.link(name, "b" + name[1:])
EOF
blkscope analyze --html b.html b >/dev/null
python3 - b.html <<'EOF'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
svg = re.search(r"<svg id=flame.*?</svg>", page, re.S).group(0)
n = svg.count("<g ")
assert 0 < n <= 4000, n
assert re.search(r"\d+ frames narrower than 0.1% are not drawn", page), "no note of the frames left out"
print("ok: bounded: %d frames drawn, %d bytes of page" % (n, len(page)))
EOF

# zoom: click a frame under the first process, then the top bar
cat >probe.js <<'EOF'
addEventListener('load', function () {
	var G = [].slice.call(document.querySelectorAll('#flame g[data-d]')), o = {};
	function w(g) { return +g.querySelector('rect').getAttribute('width'); }
	function shown() { return G.filter(function (g) { return g.style.display !== 'none'; }).length; }
	var t = G.filter(function (g) { return +g.dataset.d === 3 && +g.dataset.w < 600; })[0];
	var par = G.filter(function (g) { return +g.dataset.d === 1 && +g.dataset.x <= +t.dataset.x &&
		+g.dataset.x + +g.dataset.w >= +t.dataset.x + +t.dataset.w; })[0];
	o.before = { w: w(t), shown: shown(), all: G.length };
	t.dispatchEvent(new MouseEvent('click', { bubbles: true }));
	o.zoomed = { w: w(t), parent: w(par), root: w(G[0]), shown: shown() };
	G[0].dispatchEvent(new MouseEvent('click', { bubbles: true }));
	o.reset = { w: w(t), shown: shown() };
	var e = document.createElement('pre'); e.id = 'probe'; e.hidden = true;
	e.textContent = JSON.stringify(o); document.body.appendChild(e);
});
EOF
python3 -c 'import sys; p = open("a.html").read(); open("z.html", "w").write(p.replace("</body>", "<script>" + open("probe.js").read() + "</script></body>"))'
profile=$(mktemp -d)
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
	--user-data-dir="$profile" --virtual-time-budget=3000 --dump-dom "file://$work/z.html" >z.dom 2>chromium.log ||
	{ cat chromium.log; rm -rf "$profile"; echo "FAIL: chromium"; exit 1; }
rm -rf "$profile"
sed -n 's/.*<pre id="probe"[^>]*>\([^<]*\)<\/pre>.*/\1/p' z.dom >z.json
python3 - <<'EOF'
import json
o = json.load(open("z.json"))
b, z, r = o["before"], o["zoomed"], o["reset"]
assert b["w"] < 600 and b["shown"] == b["all"], o
assert abs(z["w"] - 1200) < 0.5 and abs(z["parent"] - 1200) < 0.5 and abs(z["root"] - 1200) < 0.5, o
assert z["shown"] < b["all"], o
assert abs(r["w"] - b["w"]) < 0.01 and r["shown"] == b["all"], o
print("ok: zoom", o)
EOF
echo "PASS"
