# chrome.sh - an HTML page laid out by headless Chromium (source me after
# extras.sh: EXTRAS_DIR, python3).  Used by t-analyze-extras-html and
# t-compare-html: both pages must fit a 1280 and a 1920 px window and
# draw in every chart.
#
# chrome_need               skips unless chromium is installed; sets $chromium
# layout PAGE W H OUT       OUT.json (tests/extras/probe.js' report: scroll
#                           width, chart plot areas) and OUT.png, at W x H
# fits OUT                  the page does not scroll sideways, no chart is cut off
# boxes OUT [visible]       NAME=X,Y,W,H per chart (only those in the window)

chrome_need() {
	chromium=$(command -v chromium || command -v chromium-browser || true)
	[ -n "$chromium" ] || skip "needs headless Chromium to render the page (Debian package chromium)"
}

chrome() {	# chromium ARGS... (a fresh profile each time)
	local profile rc=0
	profile=$(mktemp -d)
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" "$@" 2>chromium.log || rc=$?
	rm -rf "$profile"
	[ "$rc" = 0 ] || { cat chromium.log >&2; return 1; }
}

layout() {
	python3 - "$1" "$EXTRAS_DIR/probe.js" "$4.html" <<'PY'
import sys
page, js = open(sys.argv[1]).read(), open(sys.argv[2]).read()
open(sys.argv[3], "w").write(page.replace("</body>", "<script>" + js + "</script></body>"))
PY
	chrome --window-size="$2,$3" --virtual-time-budget=3000 --dump-dom "file://$PWD/$4.html" >"$4.dom"
	sed -n 's/.*<pre id="probe"[^>]*>\([^<]*\)<\/pre>.*/\1/p' "$4.dom" >"$4.json"
	[ -s "$4.json" ] || { echo "FAIL: the probe did not run" >&2; return 1; }
	chrome --window-size="$2,$3" --screenshot="$PWD/$4.png" "file://$PWD/$4.html" >/dev/null
	[ -s "$4.png" ] || { echo "FAIL: chromium wrote no screenshot" >&2; return 1; }
}

boxes() {
	python3 - "$1.json" "${2:-}" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
h = None
if sys.argv[2]:
    import struct
    with open(sys.argv[1][:-5] + ".png", "rb") as f:
        h = struct.unpack(">II", f.read(24)[16:24])[1]
print(" ".join("%s=%d,%d,%d,%d" % tuple(c[:5]) for c in o["charts"] if h is None or c[2] + c[4] <= h))
PY
}

fits() {
	python3 - "$1.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
print("scroll width %d, window %d, %d charts" % (o["sw"], o["iw"], len(o["charts"])))
bad = [c[0] for c in o["charts"] if c[5] > o["iw"]]
if o["sw"] > o["iw"] or bad or not o["charts"]:
    sys.exit("FAIL: the page scrolls sideways / charts cut off: %s" % (" ".join(bad) or "-"))
PY
}
