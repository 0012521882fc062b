#!/usr/bin/env bash
# blkscope export's Parquet files in a real engine (DuckDB, through
# tests/lib/duckdb.sh; skipped without it), against `blkscope analyze
# --json` of the same trace and options (tests/lib/export-check.mjs):
#  - the ios table: rows = I/Os; completed, bytes, merged, requeued, errors;
#    per stage n, min and max exactly, p50/p99 computed in SQL (nearest
#    rank) within analyze's documented relative error; per device, op,
#    process and group counts; per device the splits and the device_name
#    (--device-name); plain, --group-by comm, --tag-plugin, the every-feature
#    scenario;
#  - two hosts' exports (host notes) queried together give each host's own
#    figures;
#  - the intervals table = analyze's time series; its device and process
#    breakdowns against analyze's devices and processes (3 devices; 30
#    processes: the top 20 and "other"; 90: past the 64 with a series);
#  - the file of a 10M-event trace (EXPORT_BIG_EVENTS) loads: its row count
#    is analyze's, and its row groups are bounded.
set -euo pipefail
. "$TOP/tests/lib/duckdb.sh"
. "$TOP/tests/lib/export.sh"
duckdb_need
check() { node "$TOP/tests/lib/export-check.mjs" "$DUCKDB_DIR" "$@"; }
tmp=$(mktemp -d /tmp/blkscope-export-duckdb.XXXXXX)
big=$(mktemp -d "$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp)/blkscope-export-big.XXXXXX")
trap 'rm -rf "$tmp" "$big"' EXIT
cd "$tmp"
"$BIN/bs-gen-trace" -n 300000 -s 11 -o t >/dev/null
"$BIN/bs-gen-trace" -o sda,sdb >/dev/null

ios() {	# NAME OPTS... -- INPUT...
	local name=$1; shift
	local opts=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done; shift
	# XOPTS: options of export only
	"$BIN/blkscope-export" "${opts[@]}" ${XOPTS:-} -o "$name.parquet" "$@"
	"$BIN/blkscope-analyze" "${opts[@]}" --json "$name.json" "$@" >/dev/null
	check ios "$name.parquet" "$name.json"
}
ios plain -- t
ios comm --group-by comm -- t
ios tag --tag-plugin "$BIN/tag-by-comm" -- t
ios scen -- sda sdb	# no --device-name: device_name is null
# the last --device-name of a device wins
EXPORT_DEVNAMES='8,0=sda;8,16=sdb' XOPTS='--device-name 8,16=sdx --device-name 8,16=sdb --device-name 8,0=sda' ios scen2 -- sda sdb

# two hosts, one query
for h in 1 2; do
	mkdir "h$h"
	"$BIN/bs-gen-trace" -n 200000 -s $((20 + h)) -D "h$h" -o t >/dev/null
	export_add_host_note "h$h/t.blktrace.0" "host-$h"
	"$BIN/blkscope-export" -o "h$h.parquet" "h$h/t"
	"$BIN/blkscope-analyze" --json "h$h.json" "h$h/t" >/dev/null
	check ios "h$h.parquet" "h$h.json" "host-$h"
done
check hosts h1.parquet h1.json host-1 h2.parquet h2.json host-2

# the intervals table
"$BIN/blkscope-export" --table intervals --group-by comm -o iv.parquet t
check intervals iv.parquet comm.json
iv() {	# NAME EXPORT_AND_ANALYZE_OPTS... -- INPUT
	local name=$1; shift
	local opts=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done; shift
	"$BIN/blkscope-export" --table intervals "${opts[@]}" -o "$name.parquet" "$@"
	"$BIN/blkscope-analyze" "${opts[@]}" --json "$name.json" "$@" >/dev/null
	check intervals "$name.parquet" "$name.json"
}
"$BIN/bs-gen-trace" -n 200000 -d 3 -s 5 -o d3 >/dev/null
iv d3 --interval 5ms -- d3
"$BIN/bs-gen-trace" -w tags -n 60000 -p 30 -u 3 -s 4 -o p30 >/dev/null
iv p30 -- p30
"$BIN/bs-gen-trace" -w tags -n 90000 -p 90 -s 6 -o p90 >/dev/null
iv p90 --group-by pid -- p90

# a 10M-event trace
n=${EXPORT_BIG_EVENTS:-10000000}
"$BIN/bs-gen-trace" -n "$n" -D "$big" -o b >/dev/null
"$BIN/blkscope-export" -o "$big/b.parquet" "$big/b"
"$BIN/blkscope-analyze" --json "$big/b.json" "$big/b" >/dev/null
samples=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["trace"]["samples"])' "$big/b.json")
rm -f "$big"/b.blktrace.*
got=$(duckdb_sql "SELECT count(DISTINCT row_group_id) AS n, max(row_group_num_rows) AS rg FROM parquet_metadata('$big/b.parquet')" | tr -d '{}"')
rows=$(duckdb_sql "SELECT count(*) AS n, count(DISTINCT pid) AS p FROM '$big/b.parquet'" | tr -d '{}"')
echo "big: $n events, $samples I/Os; file: $rows; row groups: $got"
case $rows in "n:$samples,"*) ;; *) echo "FAIL: $samples I/Os, the file has $rows"; exit 1 ;; esac
rg=${got##*rg:}
[ "$rg" -le 262144 ] || { echo "FAIL: a row group of $rg rows"; exit 1; }
echo ok
