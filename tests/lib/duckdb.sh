# DuckDB for the tests (source me): the @duckdb/node-api npm package in a
# cache directory (BLKSCOPE_DUCKDB_DIR, default /var/tmp/blkscope-duckdb;
# .ci/run fills it).  When it is not there it is installed with npm;
# without node/npm, or when that fails, the calling test skips (exit 77).
#
# duckdb_need               sets DUCKDB_DIR or exits 77 with the reason
# duckdb_sql SQL            runs SQL, prints the rows as JSON lines

duckdb_need() {
	DUCKDB_DIR=${BLKSCOPE_DUCKDB_DIR:-/var/tmp/blkscope-duckdb}
	command -v node >/dev/null 2>&1 ||
		{ echo "SKIP: needs node (Debian package nodejs; make deps installs it and @duckdb/node-api)"; exit 77; }
	if [ ! -d "$DUCKDB_DIR/node_modules/@duckdb/node-api" ]; then
		command -v npm >/dev/null 2>&1 ||
			{ echo "SKIP: needs npm (Debian package npm) to install @duckdb/node-api (make deps)"; exit 77; }
		mkdir -p "$DUCKDB_DIR"
		if ! timeout 300 npm install --prefix "$DUCKDB_DIR" --no-audit --no-fund @duckdb/node-api \
			>"$DUCKDB_DIR/npm.log" 2>&1; then
			echo "skip: @duckdb/node-api cannot be installed:"; tail -5 "$DUCKDB_DIR/npm.log"; exit 77
		fi
	fi
	node -e "require(require.resolve('@duckdb/node-api', { paths: ['$DUCKDB_DIR'] }))" 2>/dev/null ||
		{ echo "skip: @duckdb/node-api does not load"; exit 77; }
}

duckdb_sql() {
	node "$TOP/tests/lib/duckdb-sql.mjs" "$DUCKDB_DIR" "$1"
}
