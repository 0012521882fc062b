#!/usr/bin/env bash
# blkscope compare's command line and outputs: bad --fail-if expressions
# and option values are rejected before any input is read; options that
# make btt write side files are refused; --help/--version; --json - puts
# only JSON on stdout; --html writes a page with the CDFs and the time
# series; --pair matches devices recorded under different numbers; a side
# read from a stream (stdin) gives the same comparison as from its dump;
# analysis options (-T) reach both sides; the dispatcher runs it.
set -euo pipefail
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/skip.sh"
need_tools python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
c="$BIN/blkscope-compare"
"$BIN/bs-gen-trace" -n 60000 -s 1 -o a
"$BIN/bs-gen-trace" -n 60000 -s 2 --delay D2C=50000 -o b

echo "== bad expressions: exit 2 (a bad command line) before reading anything (the inputs do not exist)"
for e in 'D2C.p98>+1%' 'X2Y.p50>1ms' 'D2C.p50=3' 'D2C.p50>+10%%' 'D2C.p50>' '>1%' 'D2C>1%' \
	'D2C.p50>1parsec' '.D2C.p50>1%'; do
	rc=0; "$c" --fail-if "$e" nosuch1 nosuch2 >out 2>err || rc=$?
	[ $rc -eq 2 ] || { echo "'$e': exit $rc"; exit 1; }
	grep -q "bad --fail-if" err || { echo "'$e': $(cat err)"; exit 1; }
	[ ! -s out ]
done
for o in '--pair 8,0' '--pair 8,0=x' '--pair 4096,0=8,0'; do
	rc=0; $c $o nosuch1 nosuch2 2>err || rc=$?
	[ $rc -eq 2 ] && grep -q -- "--pair wants" err
done
echo "== refused options"
for o in '-o x' '--output=x' '-p x' '--iostat=x' '--csv d' '--svg d' '--stats' '-X' '--per-io-dump=f'; do
	rc=0; $c $o a b >/dev/null 2>err || rc=$?
	[ $rc -eq 2 ] && grep -q "not with compare" err || { echo "$o: $rc $(cat err)"; exit 1; }
done
# a bad command line: exit 2, one line pointing to --help (not the usage text)
rc=0; "$c" a 2>err || rc=$?
[ $rc -eq 2 ] && grep -q "try 'blkscope compare --help'" err && [ "$(wc -l <err)" -eq 1 ]
rc=0; "$c" --no-such-option a b >/dev/null 2>err || rc=$?
[ $rc -eq 2 ]
"$c" --help | grep -q '^Usage: blkscope-compare'
"$c" -V | grep -q .
"$BIN/blkscope" compare --help | grep -q -- '--fail-if'

echo "== outputs"
"$c" --json - a b >out.json 2>err
python3 -c "import json,sys; d=json.load(open('out.json')); assert d['where']['top_stage']=='D2C', d['where']"
"$c" --html page.html --json cmp.json a b >out.txt
head -1 out.txt | grep -q '^before: a: '
cmp <(python3 -m json.tool cmp.json) <(python3 -m json.tool out.json)
grep -q '<svg' page.html && grep -q 'latency CDF, before and after' page.html && grep -q 'id="chart-q2c-time"' page.html
[ "$(grep -c '<path fill="none"' page.html)" -ge 14 ]	# 2 per stage CDF + 4 time lines
rc=0; "$c" --json cmp.json a b >/dev/null 2>err || rc=$?	# every command's rule: an earlier file needs --force
[ $rc -eq 1 ] && grep -q "cannot create cmp.json: it exists.*--force" err
rc=0; "$c" --force --json cmp.json a b >/dev/null 2>err || rc=$?
[ $rc -eq 0 ]
ln -s /nonexistent/target link.json
rc=0; "$c" --json link.json a b >/dev/null 2>err || rc=$?
[ $rc -eq 1 ] && grep -q "cannot create link.json" err

echo "== a stream on stdin equals its dump"
"$BIN/blkscope-parse" -q -d a.dump a >/dev/null
"$c" --json f.json a.dump b >/dev/null
"$c" --json s.json - b <a.dump >/dev/null
python3 - <<'PY'
import json
f, s = json.load(open("f.json")), json.load(open("s.json"))
for d in (f, s):
    d["sides"][0]["input"] = "x"
assert f["rows"] == s["rows"] and f["where"] == s["where"], "stream differs"
PY

echo "== analysis options reach both sides: -T 0.05"
"$c" -T 0.05 --json t.json a b >/dev/null
python3 - <<'PY'
import json
d = json.load(open("t.json"))
for s in d["sides"]:
    assert s["last_ns"] <= 50_000_000 + 5_000_000, s
PY

echo "== --pair: sda (8,0) against sdb (8,16)"
"$BIN/bs-gen-trace" -o sda,sdb
"$c" --json nopair.json sda sdb >/dev/null
"$c" --pair 8,0=8,16 --json pair.json sda sdb >/dev/null
python3 - <<'PY'
import json
n, p = json.load(open("nopair.json")), json.load(open("pair.json"))
dn = [r for r in n["rows"] if r["kind"] == "device"]
dp = [r for r in p["rows"] if r["kind"] == "device"]
assert len(dn) == 2 and all(r["before"]["ios"] == 0 or r["after"]["ios"] == 0 for r in dn), dn
assert len(dp) == 1 and dp[0]["name"] == "8,0" and dp[0]["after_name"] == "8,16", dp
assert dp[0]["before"]["ios"] > 0 and dp[0]["after"]["ios"] > 0
PY
echo "== groups and tags apply to both sides"
"$BIN/bs-gen-trace" -n 60000 -s 1 -P 2003=200000 -o slow
"$c" --group-by comm --json g.json a slow >/dev/null
"$c" --force --tag-plugin "$BIN/tag-by-comm" --json t.json a slow >/dev/null
python3 - <<'PY'
import json
g, t = json.load(open("g.json")), json.load(open("t.json"))
kinds = lambda d, k: {r["name"] for r in d["rows"] if r["kind"] == k}
assert {"fio", "postgres"} <= kinds(g, "group"), kinds(g, "group")
assert {"fio", "postgres"} <= kinds(t, "tag"), kinds(t, "tag")
for d, k in ((g, "group"), (t, "tag")):
    r = [r for r in d["rows"] if r["kind"] == k and r["name"] == "postgres"][0]
    assert r["stages"]["D2C"]["p50"]["significant"] and r["stages"]["D2C"]["p50"]["rel"] > 1, r
PY
rc=0; "$c" --group-by comm --fail-if 'postgres.D2C.p90>+50%' a slow >/dev/null 2>err || rc=$?
[ $rc -eq 3 ]
echo ok
