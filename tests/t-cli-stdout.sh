#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A format sent to stdout is all that stdout holds: `analyze --json -`
# parses as JSON, `--csv -` as one CSV table (every row as wide as the
# header), `--html -` is the page alone; two formats on stdout are refused.
# The default text report leaves btt's range data (the "q activity" x/y
# pairs) out, --btt-only keeps btt's stdout layout, -o NAME writes them to
# NAME.dat byte for byte as btt -o NAME does; every section after btt's
# says its unit in its title.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/skip.sh"
need_tools python3
B="$BIN/blkscope"
[ -x "$BIN/blkscope-analyze" ] || { echo "FAIL: blkscope-analyze not built in $BIN"; exit 1; }
work=$(mktemp -d /tmp/blkscope-cli.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
S="$TOP/samples/rec-deadline-buffered/loop0"

"$B" analyze --json - "$S" >j.out 2>j.err || fail "--json - exited $?: $(cat j.err)"
python3 -m json.tool j.out >/dev/null || fail "--json - is not JSON alone: $(head -c 200 j.out)"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema"] == "blkscope-analyze"' j.out ||
	fail "--json -: not the analyze schema"
echo "ok: --json - is JSON alone"

"$B" analyze --csv - "$S" >c.out 2>c.err || fail "--csv - exited $?: $(cat c.err)"
python3 - c.out <<'PY' || fail "--csv - is not one CSV table"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows and rows[0][:3] == ["kind", "name", "stage"], rows[:1]
bad = [r for r in rows if len(r) != len(rows[0])]
assert not bad, "%d rows not %d wide: %r" % (len(bad), len(rows[0]), bad[:2])
assert len(rows) > 6
PY
echo "ok: --csv - is one CSV table"

"$B" analyze --html - "$S" >h.out 2>h.err || fail "--html - exited $?"
head -c 15 h.out | grep -q '^<!DOCTYPE html>' || fail "--html - does not start with the page"
grep -q "All Devices\|q activity" h.out && fail "--html -: the text report is in it"
echo "ok: --html - is the page alone"

rc=0; "$B" analyze --json - --csv - "$S" >two.out 2>two.err || rc=$?
[ "$rc" -ne 0 ] && [ ! -s two.out ] && [ "$(wc -l <two.err)" -eq 1 ] || fail "two formats on stdout: exit $rc"
echo "ok: two formats on stdout refused"

# range data: not in the default report; in --btt-only's; in NAME.dat
"$B" analyze "$S" >def.out
grep -q "Latency Percentiles" def.out || fail "no default report"
grep -q ": q activity" def.out && fail "range data in the default text report"
"$B" analyze --btt-only "$S" >btt.out
grep -q "Total System : q activity" btt.out || fail "--btt-only lost btt's range data"
"$B" analyze -o ours "$S" >o.out
[ ! -s o.out ] || fail "-o NAME: text left on stdout"
grep -q "Total System : q activity" ours.dat || fail "-o NAME: no range data in NAME.dat"
if command -v btt >/dev/null && command -v blkparse >/dev/null; then
	"$B" parse -q -O -d s.dump "$S" >/dev/null
	btt -i s.dump -o bt >/dev/null
	"$B" analyze --btt-only -o cmp s.dump >/dev/null
	cmp -s bt.dat cmp.dat || { diff bt.dat cmp.dat | head; fail "NAME.dat differs from btt's"; }
	cmp -s bt.avg cmp.avg || fail "NAME.avg differs from btt's"
	echo "ok: NAME.dat and NAME.avg equal btt -o NAME's"
fi

# units: every section title after btt's report names its unit
titles=$(sed -n '/^=* Latency Percentiles/,$p' def.out | grep -E '^=+ .* =+$')
[ -n "$titles" ] || fail "no extension sections"
echo "$titles" | grep -vE 'µs|in s|counts' && fail "a section title without its unit"
echo "ok: units in $(echo "$titles" | wc -l) section titles"
echo PASS
