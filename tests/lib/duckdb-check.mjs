// What the DuckDB checks of the tests share (export-check.mjs,
// parquet-duckdb.mjs): DuckDB loaded from the npm directory the test
// installed it in, one in-memory connection, and counted checks.
//
//   const t = await duckdbChecks(DUCKDB_DIR);
//   t.eq(await t.one('SELECT 1 AS x').then((r) => r.x), 1, 'one');
//   t.finish('label');	// prints "label: N checks, M failures", exits 0 or 1
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export async function duckdbChecks(duckdbDir) {
	const require = createRequire(duckdbDir.replace(/\/?$/, '/'));
	const { DuckDBInstance } = await import(pathToFileURL(require.resolve('@duckdb/node-api')));
	const db = await DuckDBInstance.create(':memory:');
	const con = await db.connect();
	const t = { con, checks: 0, failures: 0 };

	t.check = (cond, what) => {
		t.checks++;
		if (!cond) {
			t.failures++;
			console.log(`FAIL ${what}`);
		}
	};
	t.eq = (got, want, what) =>
		t.check(String(got) === String(want), `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
	t.rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJson();
	t.one = async (sql) => (await t.rows(sql))[0];
	t.finish = (label) => {
		console.log(`${label ? label + ': ' : ''}${t.checks} checks, ${t.failures} failures`);
		process.exit(t.failures ? 1 : 0);
	};
	return t;
}
