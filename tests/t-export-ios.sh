#!/usr/bin/env bash
# blkscope export without an engine: the ios table as CSV and JSON lines
# against `blkscope analyze --json` of the same trace and options (rows =
# I/Os; per stage n, min, max exactly and nearest-rank p50/p99 within
# analyze's documented error; per-process and per-group counts); CSV and
# JSON lines hold the same rows; -o - writes to stdout; an existing output
# (or a symlink) is refused and left alone; the host column from the host
# note and from --host; the intervals table's rows = analyze's time series.
set -euo pipefail
. "$TOP/tests/lib/skip.sh"
need_tools python3
. "$TOP/tests/lib/export.sh"
tmp=$(mktemp -d /tmp/blkscope-export.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
"$BIN/bs-gen-trace" -n 120000 -s 7 -o t >/dev/null
"$BIN/bs-gen-trace" -o sda,sdb >/dev/null	# the every-feature scenario (remaps, requeues, errors...)

compare() {	# compare CSV JSONL ANALYZE_JSON [HOST]
	python3 - "$@" <<'PY'
import csv, json, math, sys
csvp, jsonlp, ap = sys.argv[1:4]
host = sys.argv[4] if len(sys.argv) > 4 else None
a = json.load(open(ap))
rows = list(csv.DictReader(open(csvp, newline='')))
fails = 0
def eq(got, want, what):
    global fails
    if str(got) != str(want):
        print(f'FAIL {what}: got {got!r}, want {want!r}'); fails += 1
eq(len(rows), a['trace']['samples'], 'rows')
jl = [json.loads(l) for l in open(jsonlp)]
eq(len(jl), len(rows), 'jsonl rows')
for i, (c, j) in enumerate(zip(rows, jl)):
    if list(c.keys()) != list(j.keys()):
        eq(list(j.keys()), list(c.keys()), 'columns'); break
    for k, v in j.items():
        want = '' if v is None else ('true' if v is True else 'false' if v is False else str(v))
        if c[k] != want:
            eq(c[k], want, f'row {i} {k}: csv vs jsonl'); break
err = a['percentiles']['max_relative_error']
def num(r, k):
    return int(r[k]) if r[k] != '' else None
def check_slice(rs, sl, what):
    eq(len(rs), sl['ios'], f'{what} ios')
    done = [r for r in rs if r['t_c'] != '']
    eq(len(done), sl['completed'], f'{what} completed')
    eq(sum(int(r['bytes']) for r in done), sl['bytes'], f'{what} bytes')
    eq(sum(r['merged'] == 'true' for r in rs), sl['merged'], f'{what} merged')
    eq(sum(int(r['requeues']) > 0 for r in rs), sl['requeued'], f'{what} requeued')
    eq(sum(int(r['error']) != 0 for r in done), sl['errors'], f'{what} errors')
    for st, s in sl['stages'].items():
        if st == 'Q2D':  # not a column: t_d - t_q
            continue
        v = sorted(x for x in (num(r, st.lower()) for r in rs) if x is not None)
        eq(len(v), s['n'] if s['observed'] else 0, f'{what} {st} n')
        if not s['observed']:
            continue
        eq(v[0], s['min'], f'{what} {st} min'); eq(v[-1], s['max'], f'{what} {st} max')
        for p, frac in (('p50', 0.5), ('p99', 0.99)):
            exact = v[max(1, math.ceil(len(v) * frac)) - 1]
            if abs(s[p] - exact) > err * exact + 1:
                eq(s[p], exact, f'{what} {st} {p} (error allowed {err})')
check_slice(rows, a['all'], 'all')
for d in a['devices']:  # X events: the generated traces split only queued bios
    eq(sum(int(r['splits']) for r in rows if r['device'] == d['device']), d['counters']['splits'], f"device {d['device']} splits")
eq(sum(r['device_name'] != '' for r in rows), 0, 'device_name without --device-name')
for p in a['processes']:
    eq(sum(r['pid'] == str(p['pid']) for r in rows), p['ios'], f"process {p['pid']}")
for g in a['groups']:
    check_slice([r for r in rows if r['group'] == g['name']], g, f"group {g['name']}")
eq(sum(r['group'] != '' for r in rows), sum(g['ios'] for g in a['groups']), 'grouped rows')
if host is not None:
    eq(sum(r['host'] != host for r in rows), 0, f'rows not of host {host}')
print(f'{csvp}: {fails} failures')
sys.exit(1 if fails else 0)
PY
}

run() {	# run NAME ANALYZE_OPTS... -- INPUT...: export csv + jsonl, analyze --json, compare
	local name=$1; shift
	local opts=() in
	while [ "$1" != -- ]; do opts+=("$1"); shift; done; shift
	# XOPTS: options of export only
	"$BIN/blkscope-export" "${opts[@]}" ${XOPTS:-} --format csv -o "$name.csv" "$@"
	"$BIN/blkscope-export" "${opts[@]}" ${XOPTS:-} --format jsonl -o - "$@" >"$name.jsonl"
	"$BIN/blkscope-analyze" "${opts[@]}" --json "$name.json" "$@" >/dev/null
	compare "$name.csv" "$name.jsonl" "$name.json" ${HOST+"$HOST"}
}
run plain -- t
run comm --group-by comm -- t
run grp --group db=2001,2002 -- t
run scen -- sda sdb
run filt -D '8,0' -t 0.05 -T 0.2 -- t
run tag --tag-plugin "$BIN/tag-by-comm" -- t

# the host: from the host note, and --host over it
mkdir h && cp t.blktrace.* h/ && export_add_host_note h/t.blktrace.0 web-01
HOST=web-01 run host -- h/t
HOST=db-7 XOPTS="--host db-7" run hostopt -- h/t
HOST= run nohost -- t

# the intervals table = analyze's time series
"$BIN/blkscope-export" --table intervals --group-by comm --interval 20ms --format jsonl -o iv.jsonl t
"$BIN/blkscope-analyze" --group-by comm --interval 20ms --json iv.json t >/dev/null
python3 - iv.jsonl iv.json <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
ts = json.load(open(sys.argv[2]))['timeseries']
n = 0
for s in ts['series']:
    kind = 'group' if s['kind'] == 'groups' else s['kind']
    got = [r for r in rows if r['breakdown'] == kind and r['key'] == s['name']]
    assert len(got) == ts['buckets'], (s['name'], len(got))
    for b, r in enumerate(got):
        assert r['start_ns'] == ts['start_ns'][b] and r['duration_ns'] == ts['duration_ns'][b]
        for k in ('ios', 'bytes', 'inflight_ns'):
            assert r[k] == s[k][b], (s['name'], b, k, r[k], s[k][b])
        for st in ('q2c', 'd2c'):
            for p in ('p50', 'p99', 'max'):
                assert r[f'{st}_{p}_ns'] == s[st][p][b], (s['name'], b, st, p)
    n += len(got)
assert n == sum(r['breakdown'] in ('all', 'op', 'group') for r in rows), n
# device and process rows: per interval they sum to "all"; per key the totals are analyze's
a = json.load(open(sys.argv[2]))
allr = {r['start_ns']: r for r in rows if r['breakdown'] == 'all'}
for kind, slices in (('device', {d['device']: d for d in a['devices']}),
                     ('process', {str(p['pid']): p for p in a['processes']})):
    mine = [r for r in rows if r['breakdown'] == kind]
    assert mine, kind
    for k in ('ios', 'bytes', 'inflight_ns'):
        per = {}
        for r in mine:
            per[r['start_ns']] = per.get(r['start_ns'], 0) + r[k]
        assert per == {t: r[k] for t, r in allr.items()}, (kind, k)
    for key in {r['key'] for r in mine} - {'other', 'more devices'}:
        assert sum(r['ios'] for r in mine if r['key'] == key) == slices[key]['completed'], (kind, key)
    n += len(mine)
assert n == len(rows), (n, len(rows))
print(f'intervals: {n} rows match')
PY

# refusals: an existing file is left alone, a symlink is not followed, no -o
echo keep >exists
if "$BIN/blkscope-export" -o exists t 2>err; then echo "FAIL: overwrote an existing file"; exit 1; fi
grep -q "cannot create exists: it exists.*pass --force" err && [ "$(cat exists)" = keep ]
"$BIN/blkscope-export" --force --format csv -o exists t 2>err
[ "$(head -c 5 exists)" != keep ] || { echo "FAIL: --force did not replace our own file"; exit 1; }
ln -s "$tmp/target" link
if "$BIN/blkscope-export" -o link t 2>err; then echo "FAIL: followed a symlink"; exit 1; fi
[ ! -e target ]
if "$BIN/blkscope-export" t 2>err; then echo "FAIL: ran without -o"; exit 1; fi
grep -q "no output given" err
# btt's side-file options are not export's
if "$BIN/blkscope-export" -A -o x.parquet t 2>/dev/null; then echo "FAIL: took -A"; exit 1; fi
[ ! -e x.parquet ]
# messages and --help name export, not analyze (shared option code: bs_progname)
if "$BIN/blkscope-export" --group-by bogus -o y.parquet t 2>err; then echo "FAIL: took --group-by bogus"; exit 1; fi
grep -q "^blkscope export: --group-by wants comm, pid, cgroup, file, dir" err || { cat err; echo "FAIL: message not export's"; exit 1; }
"$BIN/blkscope-export" --help >help
if grep -n -e '--stats' -e 'blkscope analyze --' -e 'blkscope-analyze' help; then echo "FAIL: --help speaks of analyze"; exit 1; fi
# a failed run leaves no partial file
if "$BIN/blkscope-export" -o bad.parquet nosuchtrace 2>/dev/null; then echo "FAIL: no input"; exit 1; fi
[ ! -e bad.parquet ]
# Parquet to stdout = Parquet to a file
"$BIN/blkscope-export" -o f.parquet t
"$BIN/blkscope-export" -o - t | cat >p.parquet
cmp f.parquet p.parquet
echo "ok"
