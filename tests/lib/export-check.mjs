// Checks files of `blkscope export` with DuckDB against the numbers of
// `blkscope analyze --json` for the same trace and options.
//
//   node export-check.mjs DUCKDB_DIR ios FILE ANALYZE_JSON [HOST]
//       rows = I/Os; completed, bytes, merged, requeued, errors; per stage
//       n, min and max exactly and p50/p99 (nearest rank, in SQL) within
//       analyze's documented relative error; per device, process and group
//       counts; per device the splits (sum of the splits column = the
//       device's X count: the generated traces split only queued bios) and
//       the device_name (EXPORT_DEVNAMES="8,0=sda;8,16=sdb", as given to
//       --device-name; a device not listed has null); every row's host
//   node export-check.mjs DUCKDB_DIR hosts FILE1 JSON1 HOST1 FILE2 JSON2 HOST2
//       both files queried together: per-host figures = each host's analyze
//   node export-check.mjs DUCKDB_DIR intervals FILE ANALYZE_JSON
//       every all/op/group row = analyze's time series (same numbers
//       exactly); the device and process rows: per key the totals over the
//       intervals = analyze's per-device / per-process completed, bytes and
//       Q2C, D2C maxima; per interval the keys sum to the "all" row (ios,
//       bytes, in-flight time); the process keys are analyze's top 20
//       processes when they are at most 64 (else a subset of them), and
//       "other" holds the rest
//
// Exit 0: all checks pass.
import { readFileSync } from 'node:fs';
import { duckdbChecks } from './duckdb-check.mjs';

const [duckdbDir, mode, ...args] = process.argv.slice(2);
const { check, eq, rows, one, finish } = await duckdbChecks(duckdbDir);
const q = (s) => `'${s.replace(/'/g, "''")}'`;
const stages = ['Q2G', 'G2I', 'I2D', 'D2C', 'Q2C'];

// The nearest-rank percentile of a column over the rows matching where, in SQL.
async function nearestRank(src, col, frac, where = 'TRUE') {
	const r = await one(`WITH v AS (SELECT ${col} AS x FROM ${src} WHERE ${col} IS NOT NULL AND ${where}),
		k AS (SELECT greatest(1, ceil(count(*) * ${frac}))::BIGINT AS rank FROM v)
		SELECT x FROM (SELECT x, row_number() OVER (ORDER BY x) AS rn FROM v), k WHERE rn = k.rank`);
	return r ? Number(r.x) : null;
}

// analyze's percentiles are within max_relative_error of the nearest-rank value
function close(got, want, err, what) {
	check(want !== null && Math.abs(got - want) <= err * want + 1, `${what}: analyze ${got}, SQL ${want} (error allowed ${err})`);
}

async function checkSlice(src, where, slice, err, what) {
	const c = await one(`SELECT count(*) AS ios, count(t_c) AS completed,
		coalesce(sum(bytes) FILTER (WHERE t_c IS NOT NULL), 0) AS bytes,
		count(*) FILTER (WHERE merged) AS merged, count(*) FILTER (WHERE requeues > 0) AS requeued,
		count(*) FILTER (WHERE t_c IS NOT NULL AND error <> 0) AS errors FROM ${src} WHERE ${where}`);
	for (const k of ['ios', 'completed', 'bytes', 'merged', 'requeued', 'errors'])
		eq(c[k], slice[k], `${what}: ${k}`);
	for (const st of stages) {
		const a = slice.stages[st], col = st.toLowerCase();
		const s = await one(`SELECT count(${col}) AS n, min(${col}) AS mn, max(${col}) AS mx FROM ${src} WHERE ${where}`);
		eq(s.n, a.observed ? a.n : 0, `${what}: ${st} n`);
		if (!a.observed)
			continue;
		eq(s.mn, a.min, `${what}: ${st} min`);
		eq(s.mx, a.max, `${what}: ${st} max`);
		close(a.p50, await nearestRank(src, col, 0.5, where), err, `${what}: ${st} p50`);
		close(a.p99, await nearestRank(src, col, 0.99, where), err, `${what}: ${st} p99`);
	}
}

async function checkIos(file, jsonPath, host) {
	const a = JSON.parse(readFileSync(jsonPath, 'utf8'));
	const src = `read_parquet(${q(file)})`;
	const err = a.percentiles.max_relative_error;

	eq((await one(`SELECT count(*) AS n FROM ${src}`)).n, a.trace.samples, 'rows = samples');
	await checkSlice(src, 'TRUE', a.all, err, 'all');
	const names = new Map((process.env.EXPORT_DEVNAMES || '').split(';').filter((x) => x).map((x) => x.split('=')));
	for (const d of a.devices) {
		const where = `major = ${d.major} AND minor = ${d.minor} AND device = ${q(d.device)}`;
		const r = await one(`SELECT count(*) AS n, coalesce(sum(splits), 0) AS splits,
			count(*) FILTER (WHERE device_name IS DISTINCT FROM ${names.has(d.device) ? q(names.get(d.device)) : 'NULL'}) AS badname
			FROM ${src} WHERE ${where}`);
		eq(r.n, d.ios, `device ${d.device}: ios`);
		eq(r.splits, d.counters.splits, `device ${d.device}: splits`);
		eq(r.badname, 0, `device ${d.device}: rows without device_name ${names.get(d.device) ?? 'null'}`);
	}
	for (const o of a.operations)
		eq((await one(`SELECT count(*) AS n FROM ${src} WHERE op = ${q(o.op)}`)).n, o.ios, `op ${o.op}: ios`);
	const procs = new Map((await rows(`SELECT pid, count(*) AS n, count(t_c) AS c FROM ${src} GROUP BY pid`))
		.map((r) => [String(r.pid), r]));
	eq(procs.size, a.processes.length, 'processes');
	for (const p of a.processes) {
		const r = procs.get(String(p.pid));
		eq(r ? r.n : 0, p.ios, `process ${p.pid}: ios`);
		eq(r ? r.c : 0, p.completed, `process ${p.pid}: completed`);
	}
	const groups = new Map((await rows(`SELECT "group" AS g, count(*) AS n FROM ${src} WHERE "group" IS NOT NULL GROUP BY 1`))
		.map((r) => [r.g, r.n]));
	// a group may have no I/O (the "untagged" group made at the first tag)
	eq(groups.size, a.groups.filter((g) => g.ios > 0).length, 'groups');
	for (const g of a.groups)
		eq(groups.get(g.name) ?? 0, g.ios, `group ${g.name}: ios`);
	if (a.groups.length)
		await checkSlice(src, `"group" = ${q(a.groups[0].name)}`, a.groups[0], err, `group ${a.groups[0].name}`);
	if (host !== undefined)
		eq((await one(`SELECT count(*) AS n FROM ${src} WHERE host IS DISTINCT FROM ${q(host)}`)).n, 0, 'rows of another host');
}

async function checkHosts(list) {
	const files = [list[0], list[3]].map(q).join(', ');
	const src = `read_parquet([${files}])`;
	const per = new Map((await rows(`SELECT host, count(*) AS ios, count(d2c) AS n, min(d2c) AS mn, max(d2c) AS mx
		FROM ${src} GROUP BY host`)).map((r) => [r.host, r]));
	eq(per.size, 2, 'hosts');
	for (let i = 0; i < 6; i += 3) {
		const a = JSON.parse(readFileSync(list[i + 1], 'utf8')), host = list[i + 2], r = per.get(host) || {};
		const d2c = a.all.stages.D2C;
		eq(r.ios, a.all.ios, `${host}: ios`);
		eq(r.n, d2c.n, `${host}: D2C n`);
		eq(r.mn, d2c.min, `${host}: D2C min`);
		eq(r.mx, d2c.max, `${host}: D2C max`);
		close(d2c.p99, await nearestRank(src, 'd2c', 0.99, `host = ${q(host)}`), a.percentiles.max_relative_error,
		      `${host}: D2C p99`);
	}
}

async function checkIntervals(file, jsonPath) {
	const a = JSON.parse(readFileSync(jsonPath, 'utf8')), ts = a.timeseries;
	const src = `read_parquet(${q(file)})`;
	const cols = { q2c: ['q2c_p50_ns', 'q2c_p99_ns', 'q2c_max_ns'], d2c: ['d2c_p50_ns', 'd2c_p99_ns', 'd2c_max_ns'] };
	let n = 0;

	for (const s of ts.series) {
		// analyze's kind of the groups past the 64th is "groups"; export's breakdown stays "group"
		const kind = s.kind === 'groups' ? 'group' : s.kind;
		const got = await rows(`SELECT * FROM ${src} WHERE breakdown = ${q(kind)} AND key = ${q(s.name)} ORDER BY start_ns`);
		eq(got.length, ts.buckets, `${s.kind} ${s.name}: intervals`);
		n += got.length;
		for (let b = 0; b < got.length && b < ts.buckets; b++) {
			const r = got[b], w = `${s.kind} ${s.name} [${b}]`;
			eq(r.start_ns, ts.start_ns[b], `${w} start`);
			eq(r.duration_ns, ts.duration_ns[b], `${w} duration`);
			eq(r.ios, s.ios[b], `${w} ios`);
			eq(r.bytes, s.bytes[b], `${w} bytes`);
			eq(r.inflight_ns, s.inflight_ns[b], `${w} inflight`);
			for (const st of ['q2c', 'd2c'])
				['p50', 'p99', 'max'].forEach((p, i) => eq(r[cols[st][i]], s[st][p][b], `${w} ${st} ${p}`));
		}
	}
	eq((await one(`SELECT count(*) AS n FROM ${src} WHERE breakdown IN ('all', 'op', 'group')`)).n, n, 'no other all/op/group rows');
	await checkBreakdown(src, a, 'device', a.devices.map((d) => [d.device, d]));
	const active = a.processes.filter((p) => p.completed > 0);
	const procs = await checkBreakdown(src, a, 'process', active.map((p) => [String(p.pid), p]));
	if (a.processes.length <= 64) {	// every process has a series: exactly the report's top 20
		const want = active.slice(0, 20).map((p) => String(p.pid)).sort();
		eq(procs.filter((k) => k !== 'other').sort().join(' '), want.join(' '), 'process keys = top 20');
	}
	check(procs.filter((k) => k !== 'other').length <= 20, 'at most 20 process keys');
	eq(procs.includes('other'), active.length > procs.filter((k) => k !== 'other').length, 'an other row iff more processes');
}

// The rows of one breakdown against analyze's slices (by key) and the "all" rows; its keys.
async function checkBreakdown(src, a, kind, slices) {
	const by = new Map(slices);
	const keys = (await rows(`SELECT key, sum(ios) AS ios, sum(bytes) AS bytes, max(q2c_max_ns) AS q2c, max(d2c_max_ns) AS d2c,
		count(*) AS n FROM ${src} WHERE breakdown = ${q(kind)} GROUP BY key`));
	const buckets = a.timeseries.buckets;
	let other = { ios: 0, bytes: 0 };
	for (const k of keys) {
		eq(k.n, buckets, `${kind} ${k.key}: intervals`);
		if (k.key === 'other' || k.key.startsWith('more ')) {
			other.ios += Number(k.ios);
			other.bytes += Number(k.bytes);
			continue;
		}
		const sl = by.get(k.key);
		check(sl !== undefined, `${kind} ${k.key}: a key analyze has`);
		if (!sl)
			continue;
		eq(k.ios, sl.completed, `${kind} ${k.key}: ios = completed`);
		eq(k.bytes, sl.bytes, `${kind} ${k.key}: bytes`);
		eq(k.q2c, sl.stages.Q2C.observed ? sl.stages.Q2C.max : null, `${kind} ${k.key}: Q2C max`);
		eq(k.d2c, sl.stages.D2C.observed ? sl.stages.D2C.max : null, `${kind} ${k.key}: D2C max`);
		by.delete(k.key);
	}
	// the rest of analyze's slices are in other / (more ...)
	let rest = { ios: 0, bytes: 0 };
	for (const sl of by.values()) {
		rest.ios += sl.completed;
		rest.bytes += sl.bytes;
	}
	eq(other.ios, rest.ios, `${kind} other: ios`);
	eq(other.bytes, rest.bytes, `${kind} other: bytes`);
	// per interval, the keys add up to "all"
	const bad = await one(`WITH k AS (SELECT start_ns, sum(ios) AS ios, sum(bytes) AS bytes, sum(inflight_ns) AS inf
			FROM ${src} WHERE breakdown = ${q(kind)} GROUP BY start_ns),
		al AS (SELECT start_ns, ios, bytes, inflight_ns AS inf FROM ${src} WHERE breakdown = 'all')
		SELECT count(*) AS n FROM al FULL JOIN k USING (start_ns)
		WHERE k.ios IS DISTINCT FROM al.ios OR k.bytes IS DISTINCT FROM al.bytes OR k.inf IS DISTINCT FROM al.inf`);
	eq(bad.n, 0, `${kind}: intervals whose keys do not sum to all`);
	return keys.map((k) => k.key);
}

if (mode === 'ios')
	await checkIos(args[0], args[1], args[2]);
else if (mode === 'hosts')
	await checkHosts(args);
else if (mode === 'intervals')
	await checkIntervals(args[0], args[1]);
else
	throw new Error(`unknown mode ${mode}`);
finish(mode);
