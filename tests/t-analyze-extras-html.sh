#!/usr/bin/env bash
# --html: one self-contained page whose charts really draw and fit the
# window.  Headless Chromium (Debian package "chromium") lays the page out:
# tests/extras/probe.js, appended to a copy of the page, reports through
# --dump-dom whether the page scrolls sideways and where each chart's plot
# area is; a screenshot at the same size must show drawn data in each
# (tests/extras/pngcheck.py).
#  - at 1280x800 and 1920x1080 nothing scrolls sideways or is cut off
#    (the old two fixed 680 px columns cut the right one off at 1280)
#  - a page from a trace without any completion must fail the ink check
#    (the check can fail)
#  - the page size is bounded by binning: 10x the events must not mean a
#    bigger page; a 10M-event trace's page stays under 200 KiB
set -euo pipefail
. "$TOP/tests/lib/extras.sh"
. "$TOP/tests/lib/analyze.sh"
extras_need_python
. "$TOP/tests/lib/chrome.sh"
chrome_need
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

echo "== a busy trace, grouped by command"
bs-gen-trace -D . -n 200000 -o bulk
blkscope-analyze --btt-only --group-by comm --html "$tmp/page.html" bulk >/dev/null
# inline style and script only: nothing fetched (url(#id) is a reference inside the page)
if grep -Piq '<script[^>]+src|<link|<img|src=|@import|url\((?!#)|https?://(?!www\.w3\.org/2000/svg)' page.html; then
	echo "FAIL: the page is not self-contained" >&2
	exit 1
fi
layout page.html 1280 4000 tall
fits tall
read -r -a want <<<"$(boxes tall)"
echo "charts: ${want[*]%%=*}"
[ "${#want[@]}" -ge 13 ] || { echo "FAIL: expected at least 13 charts" >&2; exit 1; }
python3 "$EXTRAS_DIR/pngcheck.py" tall.png "${want[@]}"

for size in 1280x800 1920x1080; do
	echo "== window $size: no sideways scrolling, the charts in view drew"
	layout page.html "${size%x*}" "${size#*x}" "w$size"
	fits "w$size"
	read -r -a want <<<"$(boxes "w$size" visible)"
	[ "${#want[@]}" -ge 2 ] || { echo "FAIL: fewer than 2 charts in the first screen" >&2; exit 1; }
	python3 "$EXTRAS_DIR/pngcheck.py" "w$size.png" "${want[@]}"
done

echo "== negative control: nothing completed, so nothing to draw"
bt_mktrace empty <<'TRACE'
1000 0 8,0 Q R 0 4096 7
2000 0 8,0 Q R 8 4096 7
3000 0 8,0 Q W 64 4096 7
TRACE
blkscope-analyze --btt-only --html "$tmp/empty.html" empty >/dev/null
layout empty.html 1280 3000 empty
read -r -a want <<<"$(boxes empty)"
if python3 "$EXTRAS_DIR/pngcheck.py" empty.png "${want[@]}" >empty.out; then
	cat empty.out
	echo "FAIL: charts of an empty trace were judged drawn" >&2
	exit 1
fi
grep -q "^throughput .*EMPTY" empty.out
echo "empty page judged empty: ok"

echo "== size is bounded by binning"
bs-gen-trace -D . -n 2000000 -s 7 -o big
blkscope-analyze --btt-only --group-by comm --html "$tmp/big.html" big >/dev/null
small=$(stat -c %s page.html)
large=$(stat -c %s big.html)
echo "page: 200k events -> $small bytes, 2M events -> $large bytes"
if [ "$large" -gt $((200 << 10)) ] || [ "$large" -gt $((small * 3 / 2 + 65536)) ]; then
	echo "FAIL: the page grows with the trace" >&2
	exit 1
fi
