#!/usr/bin/env bash
# The Parquet writer's files read by DuckDB (the @duckdb/node-api npm
# package): row counts, sums, min/max, null counts, strings (repaired
# UTF-8), timestamp types, row-group statistics, encodings, compression,
# schema annotations; for the fixtures of bs-test-parquet and a generated
# trace-shaped table of 2.1M rows (more than one row group).
#
# DuckDB comes from tests/lib/duckdb.sh (installed and cached, or skip).
set -euo pipefail
. "$TOP/tests/lib/duckdb.sh"
duckdb_need
dir=$DUCKDB_DIR

tmp=$(mktemp -d /tmp/blkscope-parquet-duckdb.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$BIN/bs-test-parquet" --fixtures "$tmp"
"$BIN/bs-test-parquet" --bench 2100000 "$tmp/bench.parquet"
# through a pipe (as for -o -): the writer only appends, so the bytes are
# those of the same table written to a file
"$BIN/bs-test-parquet" --bench 100000 "$tmp/file.parquet" >/dev/null
"$BIN/bs-test-parquet" --bench 100000 - 2>/dev/null | cat >"$tmp/pipe.parquet"
cmp "$tmp/file.parquet" "$tmp/pipe.parquet"
cp "$tmp/file.parquet.expect.json" "$tmp/pipe.parquet.expect.json"
node "$TOP/tests/lib/parquet-duckdb.mjs" "$dir" "$tmp" "$tmp/bench.parquet" "$tmp/pipe.parquet"
