#!/usr/bin/env bash
# The queries of docs/fleet.md marked "<!-- tested: NAME -->", run as the
# page shows them (DuckDB, tests/lib/duckdb.sh; skipped without it) on the
# exports of two generated hosts in fleet/; their figures against each
# host's own `blkscope analyze --json`:
#   p99-by-host-device: ios = completed, max = D2C max exactly, p50/p99
#                       within analyze's documented error
#   worst-processes:    at most 10 rows, each a (host, pid) of analyze's
#                       processes with its completed count
#   latency-over-time:  per host the seconds' ios add up to completed
set -euo pipefail
. "$TOP/tests/lib/duckdb.sh"
. "$TOP/tests/lib/export.sh"
duckdb_need
tmp=$(mktemp -d /tmp/blkscope-export-fleet.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
mkdir fleet
for h in 1 2; do
	mkdir "t$h"
	"$BIN/bs-gen-trace" -n 200000 -s $((30 + h)) -D "t$h" -o sda >/dev/null
	export_add_host_note "t$h/sda.blktrace.0" "host-$h"
	"$BIN/blkscope-export" -o "fleet/host-$h.parquet" "t$h/sda"
	"$BIN/blkscope-analyze" --json "host-$h.json" "t$h/sda" >/dev/null
done

query() {	# NAME: the SQL block after <!-- tested: NAME --> in docs/fleet.md
	awk -v name="$1" '
		$0 == "<!-- tested: " name " -->" { want = 1; next }
		want && /^```sql/ { inside = 1; next }
		inside && /^```/ { exit }
		inside { print }' "$TOP/docs/fleet.md"
}
for q in p99-by-host-device worst-processes latency-over-time; do
	sql=$(query "$q")
	[ -n "$sql" ] || { echo "FAIL: no query '$q' in docs/fleet.md"; exit 1; }
	duckdb_sql "$sql" >"$q.jsonl"
	echo "$q: $(wc -l <"$q.jsonl") rows"
done

python3 - <<'PY'
import json
fails = 0
def eq(got, want, what):
    global fails
    if str(got) != str(want):
        print(f'FAIL {what}: got {got!r}, want {want!r}'); fails += 1
a = {f'host-{h}': json.load(open(f'host-{h}.json')) for h in (1, 2)}
rows = [json.loads(l) for l in open('p99-by-host-device.jsonl')]
eq(len(rows), sum(len(j['devices']) for j in a.values()), 'host/device rows')
p99s = [int(r['d2c_p99_ns']) for r in rows]
eq(p99s, sorted(p99s, reverse=True), 'ordered by p99')
for r in rows:
    j = a[r['host']]
    d = next(d for d in j['devices'] if d['device'] == r['device'])
    s = d['stages']['D2C']
    err = j['percentiles']['max_relative_error']
    eq(r['ios'], d['completed'], f"{r['host']} {r['device']} ios")
    eq(r['d2c_max_ns'], s['max'], f"{r['host']} {r['device']} max")
    for p in ('p50', 'p99'):
        got = int(r[f'd2c_{p}_ns'])
        if abs(got - s[p]) > err * got + 1:
            eq(got, s[p], f"{r['host']} {r['device']} {p} (error allowed {err})")
rows = [json.loads(l) for l in open('worst-processes.jsonl')]
if not 0 < len(rows) <= 10:
    eq(len(rows), '1..10', 'worst processes')
for r in rows:
    p = next((p for p in a[r['host']]['processes'] if str(p['pid']) == str(r['pid'])), None)
    eq(p and p['completed'], r['ios'], f"{r['host']} pid {r['pid']} ios")
rows = [json.loads(l) for l in open('latency-over-time.jsonl')]
for h, j in a.items():
    eq(sum(int(r['ios']) for r in rows if r['host'] == h), j['all']['completed'], f'{h}: ios over time')
print(f'fleet queries: {fails} failures')
raise SystemExit(1 if fails else 0)
PY
