#!/usr/bin/env bash
# The Parquet writer's files read by DuckDB (the @duckdb/node-api npm
# package): row counts, sums, min/max, null counts, strings (repaired
# UTF-8), timestamp types, row-group statistics, encodings, compression,
# schema annotations; for the fixtures of bs-test-parquet and a generated
# trace-shaped table of 2.1M rows (more than one row group).
#
# The package lives in a cache directory (BLKSCOPE_DUCKDB_DIR, default
# /var/tmp/blkscope-duckdb; .ci/run fills it).  When it is not there it is
# installed with npm; without node/npm, or when that fails, the test skips.
set -euo pipefail
dir=${BLKSCOPE_DUCKDB_DIR:-/var/tmp/blkscope-duckdb}
command -v node >/dev/null 2>&1 || { echo "skip: no node"; exit 77; }
if [ ! -d "$dir/node_modules/@duckdb/node-api" ]; then
	command -v npm >/dev/null 2>&1 || { echo "skip: no npm"; exit 77; }
	mkdir -p "$dir"
	if ! timeout 300 npm install --prefix "$dir" --no-audit --no-fund @duckdb/node-api >"$dir/npm.log" 2>&1; then
		echo "skip: @duckdb/node-api cannot be installed:"; tail -5 "$dir/npm.log"; exit 77
	fi
fi
node -e "require(require.resolve('@duckdb/node-api', { paths: ['$dir'] }))" 2>/dev/null ||
	{ echo "skip: @duckdb/node-api does not load"; exit 77; }

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
