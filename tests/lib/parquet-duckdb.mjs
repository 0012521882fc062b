// Reads the Parquet files bs-test-parquet wrote with DuckDB and compares
// what DuckDB sees with the expectations bs-test-parquet computed from the
// values it handed to the writer (NAME.expect.json next to each file).
//
//   node parquet-duckdb.mjs DUCKDB_DIR FIXTURE_DIR BENCH_FILE...
//
// DUCKDB_DIR holds node_modules/@duckdb/node-api.  Exit 0: all checks pass.
import { readFileSync } from 'node:fs';
import { duckdbChecks } from './duckdb-check.mjs';

const [duckdbDir, fixtures, ...benchFiles] = process.argv.slice(2);
const { check, eq, rows, one, finish } = await duckdbChecks(duckdbDir);
const q = (s) => `'${s.replace(/'/g, "''")}'`;

// integer-like columns: name -> SQL expression turning the value into an integer
const intExpr = {
	id: 'id', ts: 'epoch_ns(ts)', i32: 'i32', u64: 'u64', i8: 'i8', u16: 'u16',
	flag: 'flag::INTEGER', allnull: 'allnull', sector: 'sector', mid: 'mid',
};
const types = {
	id: 'BIGINT', ts: 'TIMESTAMP_NS', ts_utc: 'TIMESTAMP WITH TIME ZONE', i32: 'INTEGER',
	u64: 'UBIGINT', i8: 'TINYINT', u16: 'USMALLINT', flag: 'BOOLEAN', comm: 'VARCHAR',
	uniq: 'VARCHAR', text: 'VARCHAR', raw: 'BLOB', allnull: 'BIGINT', sector: 'UBIGINT',
	mid: 'BIGINT',
};

async function kinds(name, compressed) {
	const file = `${fixtures}/${name}`;
	const exp = JSON.parse(readFileSync(`${file}.expect.json`, 'utf8'));
	const src = `read_parquet(${q(file)})`;
	const n = exp.rows;

	eq((await one(`SELECT count(*) AS n FROM ${src}`)).n, n, `${name}: rows`);
	// column types, also for a file without rows
	for (const r of await rows(`DESCRIBE SELECT * FROM ${src}`))
		eq(r.column_type, types[r.column_name], `${name}: type of ${r.column_name}`);

	for (const [col, e] of Object.entries(exp.columns)) {
		const c = `"${col}"`;
		const r = await one(`SELECT count(${c}) AS nn FROM ${src}`);
		eq(r.nn, e.nonnull, `${name}: ${col} non-null count`);
		if (col in intExpr && e.nonnull > 0) {
			const x = intExpr[col];
			const s = await one(`SELECT sum(${x}::HUGEINT)::VARCHAR AS s, min(${x})::VARCHAR AS lo,
					     max(${x})::VARCHAR AS hi FROM ${src}`);
			eq(s.s, e.sum, `${name}: ${col} sum`);
			eq(s.lo, e.min, `${name}: ${col} min`);
			eq(s.hi, e.max, `${name}: ${col} max`);
		} else if (col === 'ts_utc' && e.nonnull > 0) {
			// TIMESTAMP WITH TIME ZONE is microseconds in DuckDB
			const s = await one(`SELECT epoch_us(min(ts_utc))::VARCHAR AS lo, epoch_us(max(ts_utc))::VARCHAR AS hi FROM ${src}`);
			eq(s.lo, (BigInt(e.min) / 1000n).toString(), `${name}: ts_utc min`);
			eq(s.hi, (BigInt(e.max) / 1000n).toString(), `${name}: ts_utc max`);
		} else if (col === 'raw') {
			eq((await one(`SELECT coalesce(sum(octet_length(raw)), 0) AS b FROM ${src}`)).b, e.bytes, `${name}: raw bytes`);
		} else if (['comm', 'uniq', 'text'].includes(col)) {
			eq((await one(`SELECT coalesce(sum(strlen(${c})), 0) AS b FROM ${src}`)).b, e.bytes, `${name}: ${col} bytes`);
		}
	}
	// single rows, by their position in the file
	for (const s of exp.samples.filter((x) => x)) {
		const r = await one(`SELECT text, strlen(text) AS tl, substr(hex(raw), 1, 128) AS rh,
				     epoch_ns(ts)::VARCHAR AS ts, u64::VARCHAR AS u64, comm
				     FROM read_parquet(${q(file)}, file_row_number = true)
				     WHERE file_row_number = ${s.row}`);
		if (s.text !== null)
			eq(r.text, s.text, `${name}: row ${s.row} text`);
		eq(r.tl ?? 0, s.text_len, `${name}: row ${s.row} text length`);
		eq(r.rh ?? '', s.raw_hex, `${name}: row ${s.row} raw bytes`);
		eq(r.ts, s.ts, `${name}: row ${s.row} ts`);
		eq(r.u64, s.u64, `${name}: row ${s.row} u64`);
		eq(r.comm, s.comm, `${name}: row ${s.row} comm`);
	}
	if (n === 0)
		return;

	// footer: statistics in every row group, consistent with the data
	const meta = `parquet_metadata(${q(file)})`;
	const groups = (await one(`SELECT count(DISTINCT row_group_id) AS g FROM ${meta}`)).g;
	check(Number(groups) >= 1, `${name}: row groups`);
	for (const [col, e] of Object.entries(exp.columns)) {
		const r = await one(`SELECT sum(stats_null_count) AS nulls, count(*) AS chunks,
				     count(stats_min_value) AS mins, count(stats_max_value) AS maxs
				     FROM ${meta} WHERE path_in_schema = ${q(col)}`);
		eq(r.chunks, groups, `${name}: ${col} chunks`);
		eq(r.nulls, n - e.nonnull, `${name}: ${col} null_count`);
		if (e.nonnull === n) {
			eq(r.mins, groups, `${name}: ${col} min_value in every row group`);
			eq(r.maxs, groups, `${name}: ${col} max_value in every row group`);
		}
	}
	// min/max statistics against the data: signed, unsigned and byte order
	for (const [col, cast] of [['i32', 'INTEGER'], ['u64', 'UBIGINT'], ['i8', 'TINYINT'],
				   ['u16', 'USMALLINT'], ['id', 'BIGINT'], ['sector', 'UBIGINT'],
				   ['comm', 'VARCHAR'], ['uniq', 'VARCHAR']]) {
		const st = await one(`SELECT min(stats_min_value::${cast})::VARCHAR AS lo,
				      max(stats_max_value::${cast})::VARCHAR AS hi
				      FROM ${meta} WHERE path_in_schema = ${q(col)}`);
		const d = await one(`SELECT min("${col}")::VARCHAR AS lo, max("${col}")::VARCHAR AS hi FROM ${src}`);
		eq(st.lo, d.lo, `${name}: ${col} statistics min`);
		eq(st.hi, d.hi, `${name}: ${col} statistics max`);
	}
	// schema annotations, key/value metadata, created_by
	const sch = {};
	for (const r of await rows(`SELECT name, converted_type, logical_type, repetition_type FROM parquet_schema(${q(file)})`))
		sch[r.name] = r;
	eq(sch.u64.converted_type, 'UINT_64', `${name}: u64 converted type`);
	eq(sch.comm.converted_type, 'UTF8', `${name}: comm converted type`);
	check(/NANOS/.test(sch.ts.logical_type), `${name}: ts logical type ${sch.ts.logical_type}`);
	eq(sch.i32.repetition_type, 'OPTIONAL', `${name}: i32 repetition`);
	eq(sch.id.repetition_type, 'REQUIRED', `${name}: id repetition`);
	const kv = await one(`SELECT value::VARCHAR AS v FROM parquet_kv_metadata(${q(file)}) WHERE key::VARCHAR = 'blkscope.test'`);
	eq(kv?.v, 'kinds', `${name}: key/value metadata`);
	const fm = await one(`SELECT created_by, num_rows FROM parquet_file_metadata(${q(file)})`);
	check(/^blkscope/.test(fm.created_by), `${name}: created_by ${fm.created_by}`);
	eq(fm.num_rows, n, `${name}: num_rows`);
	// one.parquet is written with zstd_always: every chunk compressed
	if (name === 'one.parquet' && exp.zstd) {
		const c = await one(`SELECT count(*) FILTER (WHERE compression = 'ZSTD') AS z, count(*) AS n FROM ${meta}`);
		eq(c.z, c.n, `${name}: every chunk ZSTD (zstd_always)`);
	}
	// encodings and compression (a file of a row or two has no reason to use them)
	if (n < 1000)
		return;
	const enc = async (col) => (await rows(`SELECT DISTINCT unnest(string_split(encodings, ', ')) AS e
					     FROM ${meta} WHERE path_in_schema = ${q(col)}`)).map((r) => r.e);
	check((await enc('comm')).includes('RLE_DICTIONARY'), `${name}: comm is dictionary-encoded`);
	check((await enc('sector')).includes('DELTA_BINARY_PACKED'), `${name}: sector is DELTA_BINARY_PACKED`);
	check((await enc('ts')).includes('DELTA_BINARY_PACKED'), `${name}: ts is DELTA_BINARY_PACKED`);
	check((await enc('uniq')).includes('PLAIN'), `${name}: uniq fell back to PLAIN`);
	const codecs = (await rows(`SELECT DISTINCT compression AS c FROM ${meta}`)).map((r) => r.c);
	if (compressed && exp.zstd)
		check(codecs.includes('ZSTD'), `${name}: some chunks are ZSTD (${codecs})`);
	else
		eq(codecs.join(), 'UNCOMPRESSED', `${name}: codecs`);
}

async function bench(file) {
	const exp = JSON.parse(readFileSync(`${file}.expect.json`, 'utf8'));
	const src = `read_parquet(${q(file)})`;
	const meta = `parquet_metadata(${q(file)})`;
	const r = await one(`SELECT count(*) AS n, sum(sector::HUGEINT)::VARCHAR AS ss, min(sector)::VARCHAR AS slo,
			     max(sector)::VARCHAR AS shi, sum(bytes::HUGEINT)::VARCHAR AS bs,
			     epoch_ns(min(q_time))::VARCHAR AS qlo, epoch_ns(max(q_time))::VARCHAR AS qhi,
			     count(i_time) AS ni, sum(i_time::HUGEINT)::VARCHAR AS si,
			     typeof(any_value(q_time)) AS qt FROM ${src}`);
	const c = exp.columns;
	eq(r.n, exp.rows, 'bench: rows');
	eq(r.ss, c.sector.sum, 'bench: sector sum');
	eq(r.slo, c.sector.min, 'bench: sector min');
	eq(r.shi, c.sector.max, 'bench: sector max');
	eq(r.bs, c.bytes.sum, 'bench: bytes sum');
	eq(r.qlo, c.q_time.min, 'bench: q_time min');
	eq(r.qhi, c.q_time.max, 'bench: q_time max');
	eq(r.ni, c.i_time.nonnull, 'bench: i_time non-null');
	eq(r.si, c.i_time.sum, 'bench: i_time sum');
	eq(r.qt, 'TIMESTAMP_NS', 'bench: q_time type');
	const g = await one(`SELECT count(DISTINCT row_group_id) AS g, count(*) FILTER (WHERE path_in_schema = 'sector' AND stats_min_value IS NOT NULL) AS st FROM ${meta}`);
	eq(g.g, Math.ceil(exp.rows / 1048576), 'bench: row groups');
	eq(g.st, g.g, 'bench: sector statistics in every row group');
	const st = await one(`SELECT min(stats_min_value::UBIGINT)::VARCHAR AS lo, max(stats_max_value::UBIGINT)::VARCHAR AS hi FROM ${meta} WHERE path_in_schema = 'sector'`);
	eq(st.lo, c.sector.min, 'bench: sector statistics min');
	eq(st.hi, c.sector.max, 'bench: sector statistics max');
	for (const [col, want] of [['sector', 'DELTA_BINARY_PACKED'], ['q_time', 'DELTA_BINARY_PACKED'],
				   ['pid', 'RLE_DICTIONARY'], ['comm', 'RLE_DICTIONARY']]) {
		const e = await one(`SELECT count(*) FILTER (WHERE contains(encodings, ${q(want)})) AS y, count(*) AS n FROM ${meta} WHERE path_in_schema = ${q(col)}`);
		eq(e.y, e.n, `bench: ${col} is ${want} in every row group`);
	}
	if (!exp.zstd)
		return;
	const z = await one(`SELECT count(*) AS n, count(*) FILTER (WHERE total_compressed_size < total_uncompressed_size) AS smaller FROM ${meta} WHERE compression = 'ZSTD'`);
	check(Number(z.n) > 0, 'bench: some chunks are ZSTD');
	eq(z.smaller, z.n, 'bench: ZSTD chunks are smaller than uncompressed');
}

await kinds('kinds.parquet', true);
await kinds('plain.parquet', false);
await kinds('one.parquet', true);
await kinds('empty.parquet', true);
for (const f of benchFiles)
	await bench(f);
finish();
