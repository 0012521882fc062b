#!/usr/bin/env bash
# Process names are untrusted (a PROCESS note holds whatever comm the
# traced task set).  A trace whose names are spreadsheet formulas, terminal
# escape sequences, invalid UTF-8 and XML metacharacters must leave every
# output of `blkscope analyze` and `blkscope compare` valid and harmless
# (docs/security.md, "Untrusted strings in outputs"): CSV formulas are
# neutralised with a ' prefix, JSON parses strictly as UTF-8, SVG/HTML are
# UTF-8 and the SVGs parse as XML, and the text report's own sections hold
# no control bytes (nor the tag table, labels from tag-by-comm).  `blkscope parse` still prints the names raw, as
# blkparse does.
set -euo pipefail
. "$TOP/tests/lib/skip.sh"
. "$TOP/tests/lib/analyze.sh"
need_tools python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# 8 processes named HOSTILE0..7, one write each; the names are replaced
# below with raw bytes a script line cannot carry.
for k in 0 1 2 3 4 5 6 7; do
	p=$((100 + k)) t=$((1000000 * (k + 1))) s=$((1000 * (k + 1)))
	echo "$((t - 500)) 0 8,0 N - 0 0 $p HOSTILE$k"
	echo "$t 0 8,0 Q W $s 4096 $p"
	echo "$((t + 10)) 0 8,0 G W $s 4096 $p"
	echo "$((t + 20)) 0 8,0 I W $s 4096 $p"
	echo "$((t + 30)) 0 8,0 D W $s 4096 $p"
	echo "$((t + 90000)) 0 8,0 C W $s 4096 $p"
done | bt_mktrace tr

TOP="$TOP" python3 - tr.blktrace.0 <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP"], "tests", "lib"))
import blktrace
NAMES = [b"=cmd|' /C calc'!A0", b"+1", b"-2", b"@SUM(A1)", b"\x1b]0;pwned\x07",
         b"\x1b[2J", b"bad\xff\xfeutf8", b"a<b>&\"'"]
data = open(sys.argv[1], "rb").read()
out = bytearray()
n = 0
for off, rec, pdu in blktrace.records(data):
    if blktrace.is_note(rec.action) and blktrace.basic(rec.action) == blktrace.TN_PROCESS:
        k = int(blktrace.comm(pdu)[len(b"HOSTILE"):])
        pdu = NAMES[k][:16].ljust(16, b"\0")
        n += 1
    out += blktrace.pack(rec, pdu)
assert n == 8, n
open(sys.argv[1], "wb").write(out)
PY

echo "== analyze: text, CSV, JSON, HTML, SVG"
"$BIN/blkscope" analyze --group-by comm --csv csv --json a.json --html a.html --svg svg tr >report.txt
"$BIN/blkscope" analyze --tag-plugin "$BIN/tag-by-comm" tr >tags.txt	# labels from a plugin
"$BIN/blkscope" compare --group-by comm tr tr >cmp.txt
"$BIN/blkscope" compare --group-by comm --json cmp.json tr tr >/dev/null
"$BIN/blkscope" compare --group-by comm --html cmp.html tr tr >/dev/null
"$BIN/blkscope" parse -i tr >parse.txt
# names whose multibyte character straddles the text tables' column cut
# (22 columns for groups and processes, 28 for tag labels): cut whole
"$BIN/blkscope" analyze --group "$(printf 'aaaaaaaaaaaaaaaaaaaaa\xc3\xa9\xc3\xa9')=100,101" tr >cut.txt
"$BIN/blkscope" analyze --tag-plugin "$BIN/tag-by-comm -g $(printf 'bbbbbbbbbbbbbbbbbbbbbbbbbbb\xc3\xa9\xc3\xa9'):+1" tr >cuttag.txt

python3 - <<'PY'
import csv, glob, io, json, sys
import xml.etree.ElementTree as ET
bad = []
def fail(msg):
    bad.append(msg)

# CSV: every name field that would start a formula carries the ' prefix
formula_seen = 0
for path in sorted(glob.glob("csv/*.csv")):
    raw = open(path, "rb").read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        fail("%s: not UTF-8 (%s)" % (path, e)); continue
    for row in csv.reader(io.StringIO(text, newline="")):
        for f in row:
            if f[:1] in ("=", "+", "@", "\t", "\r") or (f[:1] == "-" and not f.lstrip("-").replace(".", "").isdigit()):
                fail("%s: formula field %r" % (path, f))
            if f.startswith("'") and f[1:2] in ("=", "+", "-", "@"):
                formula_seen += 1
if formula_seen < 4:
    fail("CSV: expected the hostile names with a ' prefix, saw %d" % formula_seen)

# JSON: strict UTF-8, strict parse, the names are there (U+FFFD for bad bytes)
for path in ("a.json", "cmp.json"):
    try:
        doc = json.loads(open(path, "rb").read().decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        fail("%s: %s" % (path, e)); continue
    s = json.dumps(doc, ensure_ascii=False)
    for want in ("@SUM(A1)", "\\u001b]0;pwned\\u0007", "bad\ufffd\ufffdutf8", "a<b>&\\\"'"):
        if want not in s:
            fail("%s: name %r missing" % (path, want))

# SVG / HTML: UTF-8; each SVG is well-formed XML
svgs = sorted(glob.glob("svg/*.svg"))
if not svgs:
    fail("no SVG written")
for path in svgs + ["a.html", "cmp.html"]:
    raw = open(path, "rb").read()
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as e:
        fail("%s: not UTF-8 (%s)" % (path, e))
    if any(b < 0x20 and b not in (9, 10, 13) for b in raw):
        fail("%s: holds a control byte" % path)
    if path.endswith(".svg"):
        try:
            ET.fromstring(raw)
        except ET.ParseError as e:
            fail("%s: %s" % (path, e))

# text: blkscope's own sections (btt's stay as btt prints them) and compare
rep = open("report.txt", "rb").read()
start = rep.find(b"==================== Latency Percentiles (all devices)")
if start < 0 or b"@SUM(A1)" not in rep[start:]:
    fail("report.txt: the percentile sections or the names are missing")
tags = open("tags.txt", "rb").read()
tstart = tags.find(b"==================== Tags (plugin:")
if tstart < 0 or b"@SUM(A1)" not in tags[tstart:]:
    fail("tags.txt: the tag table or the labels are missing")
for path, text in (("report.txt", rep[start:]), ("tags.txt", tags[tstart:]),
                   ("cmp.txt", open("cmp.txt", "rb").read())):
    for b in text:
        if (b < 0x20 and b not in (9, 10)) or b == 0x7f:
            fail("%s: control byte 0x%02x" % (path, b)); break

# a multibyte character at the column cut: whole, valid UTF-8, columns aligned
for path, name, width, sect in (("cut.txt", "a" * 21 + "\u00e9", 22, b"==================== Latency Percentiles"),
                                ("cuttag.txt", "b" * 27 + "\u00e9", 28, b"==================== Tags (plugin:")):
    raw = open(path, "rb").read()
    try:
        text = raw[raw.find(sect):].decode("utf-8")	# btt's own sections print names raw
    except UnicodeDecodeError as e:
        fail("%s: a name cut inside a character (%s)" % (path, e)); continue
    rows = [l for l in text.splitlines() if name in l and not l.startswith("=")]
    if not rows:
        fail("%s: no row with %r" % (path, name)); continue
    for l in rows:
        cell = l[l.index(name):]
        if not cell.startswith(name + " ") or cell.startswith(name + "\u00e9"):
            fail("%s: not cut after %d columns: %r" % (path, width, l))

# parse: raw names, as blkparse prints them
p = open("parse.txt", "rb").read()
for name in (b"\x1b]0;pwned\x07", b"bad\xff\xfeutf8", b"a<b>&\"'"):
    if name not in p:
        fail("parse.txt: raw name %r missing" % name)

for m in bad:
    print("FAIL:", m, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
echo "ok: hostile names are escaped in every analyze/compare output, raw in parse"
