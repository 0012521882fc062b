#!/usr/bin/env bash
# --html: one self-contained page whose charts really draw.  Headless
# Chromium (Debian package "chromium") renders the page to a PNG; every
# chart's plot area (found by its signature color strips, svg.c) must hold
# drawn data (tests/extras/pngcheck.py).  A page from a trace without any
# completion must fail that check (the check can fail).  The page size is
# bounded by binning: 10x the events must not mean a bigger page, and it
# stays far below 5 MiB.
set -euo pipefail
. "$TOP/tests/lib/extras.sh"
. "$TOP/tests/lib/analyze.sh"
extras_need_python
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || skip "needs headless Chromium to render the report (Debian: apt-get install chromium)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

shoot() {	# page.html out.png
	local profile
	profile=$(mktemp -d)
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --screenshot="$2" --window-size=1400,3000 "file://$1" \
		>chromium.log 2>&1 || { cat chromium.log >&2; rm -rf "$profile"; return 1; }
	rm -rf "$profile"
	[ -s "$2" ] || { echo "FAIL: chromium wrote no screenshot" >&2; cat chromium.log >&2; return 1; }
}

charts() {	# page.html -> NAME=RRGGBB per chart, in page order (signature 0xf0f0a0 + index)
	python3 - "$1" <<'PY'
import re, sys
names = re.findall(r'<figure id="chart-([^"]+)"', open(sys.argv[1]).read())
print(" ".join("%s=%06x" % (n, 0xf0f0a0 + i) for i, n in enumerate(names)))
PY
}

echo "== a busy trace, grouped by command"
bs-gen-trace -D . -n 200000 -o bulk
blkscope-analyze --btt-only --group-by comm --html "$tmp/page.html" bulk >/dev/null
read -r -a want <<<"$(charts page.html)"
echo "charts: ${want[*]}"
[ "${#want[@]}" -ge 11 ] || { echo "FAIL: expected at least 11 charts" >&2; exit 1; }
if grep -Eiq '<script|<link|<img|src=|@import|url\(|https?://[^"]*"[^>]*(src|href)' page.html; then
	echo "FAIL: the page is not self-contained" >&2
	exit 1
fi
shoot "$tmp/page.html" page.png
python3 "$EXTRAS_DIR/pngcheck.py" page.png "${want[@]}"

echo "== negative control: nothing completed, so nothing to draw"
bt_mktrace empty <<'TRACE'
1000 0 8,0 Q R 0 4096 7
2000 0 8,0 Q R 8 4096 7
3000 0 8,0 Q W 64 4096 7
TRACE
blkscope-analyze --btt-only --html "$tmp/empty.html" empty >/dev/null
read -r -a want <<<"$(charts empty.html)"
shoot "$tmp/empty.html" empty.png
if python3 "$EXTRAS_DIR/pngcheck.py" empty.png "${want[@]}" >empty.out; then
	cat empty.out
	echo "FAIL: charts of an empty trace were judged drawn" >&2
	exit 1
fi
grep -q "throughput .*EMPTY" empty.out
echo "empty page judged empty: ok"

echo "== size is bounded by binning"
bs-gen-trace -D . -n 2000000 -s 7 -o big
blkscope-analyze --btt-only --group-by comm --html "$tmp/big.html" big >/dev/null
small=$(stat -c %s page.html)
large=$(stat -c %s big.html)
echo "page: 200k events -> $small bytes, 2M events -> $large bytes"
if [ "$large" -gt $((5 << 20)) ] || [ "$large" -gt $((small * 3 / 2 + 65536)) ]; then
	echo "FAIL: the page grows with the trace" >&2
	exit 1
fi
