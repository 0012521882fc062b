// Runs one SQL text (statements separated by ';') with DuckDB and prints
// the rows of the last statement as JSON lines (numbers as strings where
// DuckDB returns big integers).
//
//   node duckdb-sql.mjs DUCKDB_DIR SQL
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [duckdbDir, sql] = process.argv.slice(2);
const require = createRequire(duckdbDir.replace(/\/?$/, '/'));
const { DuckDBInstance } = await import(pathToFileURL(require.resolve('@duckdb/node-api')));
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const r = await con.runAndReadAll(sql);
for (const row of r.getRowObjectsJson())
	console.log(JSON.stringify(row));
