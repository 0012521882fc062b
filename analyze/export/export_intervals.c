// SPDX-License-Identifier: GPL-2.0
/*
 * export_intervals.c - the intervals table: the report layer's time series
 * (report/ts_series.h), the numbers the HTML report's charts draw, one
 * row per interval and breakdown: "all", each op class (read, write,
 * other), each group (--group, --group-by, tags), each device and the top
 * processes (struct export_iv: series the report does not keep).  Rates
 * are not stored: they are ios or bytes over duration_ns.
 */
#include <stdlib.h>
#include <string.h>
#include "bs_devname.h"
#include "export.h"
#include "report/report.h"

enum {
	IV_HOST, IV_BREAKDOWN, IV_KEY, IV_TIME, IV_START, IV_DURATION, IV_IOS, IV_BYTES,
	IV_INFLIGHT, IV_Q2C_P50, IV_Q2C_P99, IV_Q2C_MAX, IV_D2C_P50, IV_D2C_P99, IV_D2C_MAX,
	IV_NCOLS,
};

#define STR(n, fl) { n, PQ_BYTE_ARRAY, PQ_STRING, 0, false, fl }
#define U64(n, fl) { n, PQ_INT64, PQ_INT, 64, false, fl }

const struct pq_column export_intervals_cols[] = {
	[IV_HOST] = STR("host", PQ_NULLABLE),
	[IV_BREAKDOWN] = STR("breakdown", 0),
	[IV_KEY] = STR("key", 0),
	[IV_TIME] = { "start", PQ_INT64, PQ_TIMESTAMP_NS, 0, false, PQ_UTC },
	[IV_START] = U64("start_ns", 0),
	[IV_DURATION] = U64("duration_ns", 0),
	[IV_IOS] = U64("ios", 0),
	[IV_BYTES] = U64("bytes", 0),
	[IV_INFLIGHT] = U64("inflight_ns", 0),
	[IV_Q2C_P50] = U64("q2c_p50_ns", PQ_NULLABLE),
	[IV_Q2C_P99] = U64("q2c_p99_ns", PQ_NULLABLE),
	[IV_Q2C_MAX] = U64("q2c_max_ns", PQ_NULLABLE),
	[IV_D2C_P50] = U64("d2c_p50_ns", PQ_NULLABLE),
	[IV_D2C_P99] = U64("d2c_p99_ns", PQ_NULLABLE),
	[IV_D2C_MAX] = U64("d2c_max_ns", PQ_NULLABLE),
};
const unsigned export_intervals_ncols = IV_NCOLS;

static void set_str(struct pq_value *v, const char *s)
{
	v->null = !s;
	v->s.p = s;
	v->s.len = s ? strlen(s) : 0;
}

static void set_q(struct pq_value *v, const struct sketch *sk, uint32_t ppm)
{
	v->null = !sk->n;
	v->i = sk->n ? (int64_t)sketch_quantile(sk, ppm) : 0;
}

/*
 * What one breakdown row sums: series of op_class (or TS_ANY) in slot, or in every slot not in
 * skip.
 */
struct iv_filter {
	const struct ts_series *ts;
	int op_class, slot;
	const bool *skip;	/* [TS_GROUP_SLOTS], or NULL: use slot */
};

static void cell_of(const struct iv_filter *f, size_t b, struct ts_cell *out)
{
	const struct ts_series *ts = f->ts;
	size_t s;

	if (!f->skip) {
		ts_cell_sum(ts, b, f->op_class, f->slot, out);
		return;
	}
	memset(out, 0, sizeof(*out));
	sketch_init(&out->q2c);
	sketch_init(&out->d2c);
	for (s = 0; s < ts->nseries && b < ts->nb; s++) {
		const struct ts_cell *c = &ts->series[s][b];

		if (f->skip[ts->series_slot[s]])
			continue;
		out->ios += c->ios;
		out->bytes += c->bytes;
		out->inflight_ns += c->inflight_ns;
		sketch_merge(&out->q2c, &c->q2c);
		sketch_merge(&out->d2c, &c->d2c);
	}
}

/* Every bucket of one breakdown; 0 or -1. */
static int series_rows(const struct iv_filter *f, uint64_t end_time, struct export_rows *w,
		       struct pq_value *v, uint64_t wall, const char *breakdown, const char *key)
{
	const struct ts_series *ts = f->ts;
	size_t b;
	int rc = 0;

	set_str(&v[IV_BREAKDOWN], breakdown);
	set_str(&v[IV_KEY], key);
	for (b = 0; b < ts->nb && !rc; b++) {
		uint64_t start = b * ts->width, dur = ts->width;
		struct ts_cell c;

		if (end_time > start && end_time - start < dur)
			dur = end_time - start;
		cell_of(f, b, &c);
		v[IV_TIME].i = (int64_t)(wall + start);
		v[IV_START].i = (int64_t)start;
		v[IV_DURATION].i = (int64_t)dur;
		v[IV_IOS].i = (int64_t)c.ios;
		v[IV_BYTES].i = (int64_t)c.bytes;
		v[IV_INFLIGHT].i = (int64_t)c.inflight_ns;
		set_q(&v[IV_Q2C_P50], &c.q2c, 500000);
		set_q(&v[IV_Q2C_P99], &c.q2c, 990000);
		set_q(&v[IV_Q2C_MAX], &c.q2c, 1000000);
		set_q(&v[IV_D2C_P50], &c.d2c, 500000);
		set_q(&v[IV_D2C_P99], &c.d2c, 990000);
		set_q(&v[IV_D2C_MAX], &c.d2c, 1000000);
		rc = export_rows_put(w, v);
		ts_cell_free(&c);
	}
	return rc;
}

/* The slots of keys, largest volume first (ties: the older slot). */
static void slots_ranked(const struct ts_slots *sl, int *order)
{
	int i, j;

	for (i = 0; i < sl->n; i++) {	/* insertion: at most TS_SLOT_MAX */
		for (j = i; j > 0 && sl->weight[order[j - 1]] < sl->weight[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}

/*
 * One row set per device with a series (the most volume first), then "more devices" for the
 * shared one if used.
 */
static int device_rows(const struct export_iv *iv, uint64_t end, struct export_rows *w,
		       struct pq_value *v, uint64_t wall)
{
	struct iv_filter f = { .ts = &iv->dev.ts, .op_class = TS_ANY };
	char name[BS_DEVNAME_LEN];
	int order[TS_SLOT_MAX], i, rc = 0;

	slots_ranked(&iv->dev.slots, order);
	for (i = 0; i < iv->dev.slots.n && !rc; i++) {
		f.slot = order[i];
		rc = series_rows(
			&f, end, w, v, wall, "device",
			bs_devname((uint32_t)iv->dev.slots.key[order[i]], name, sizeof(name)));
	}
	f.slot = EXPORT_IV_OTHER;
	if (!rc && iv->dev.ts.series_of[EXPORT_IV_OTHER][0] >= 0)
		rc = series_rows(&f, end, w, v, wall, "device", "more devices");
	return rc;
}

/*
 * The report's top processes (its order: the --sort measure, then pid)
 * that have a series, EXPORT_IV_TOP_PROCS at most, a row set each (key:
 * the pid); every other process summed as "other".
 */
static int process_rows(struct bs_report *r, const struct export_iv *iv, uint64_t end,
			struct export_rows *w, struct pq_value *v, uint64_t wall)
{
	struct iv_filter f = { .ts = &iv->proc.ts, .op_class = TS_ANY };
	bool top[TS_GROUP_SLOTS] = { false };
	struct report_proc **pv;
	size_t nproc = report_nprocs(r);
	size_t i;
	int ntop = 0, rc = 0;
	bool rest = iv->proc.ts.series_of[EXPORT_IV_OTHER][0] >= 0;

	report_rollup(r);	/* the processes' measures */
	pv = report_procs_sorted(r);
	for (i = 0; i < nproc && ntop < EXPORT_IV_TOP_PROCS && !rc; i++) {
		const uint64_t *slot = bs_hash_get(&iv->proc.slot_of, report_proc_pid(pv[i]));
		char key[16];

		/* no completed I/O, or in the shared series */
		if (!slot || *slot - 1 >= TS_SLOT_MAX)
			continue;
		top[*slot - 1] = true;
		ntop++;
		f.slot = (int)*slot - 1;
		snprintf(key, sizeof(key), "%u", report_proc_pid(pv[i]));
		rc = series_rows(&f, end, w, v, wall, "process", key);
	}
	free(pv);
	rest |= ntop < iv->proc.slots.n;
	f.skip = top;
	if (!rc && rest)
		rc = series_rows(&f, end, w, v, wall, "process", "other");
	return rc;
}

int export_intervals_write(struct bs_report *r, struct export_iv *iv, struct export_rows *w,
			   const char *host, uint64_t wall)
{
	static const char *const ops[TS_OPS] = { "read", "write", "other" };
	struct iv_filter f = { .ts = report_series(r), .op_class = TS_ANY, .slot = TS_ANY };
	struct pq_value v[IV_NCOLS];
	uint64_t end = report_end_time(r);
	size_t i;
	int op, rc, *rank;

	memset(v, 0, sizeof(v));
	set_str(&v[IV_HOST], host);
	rc = series_rows(&f, end, w, v, wall, "all", "all");
	for (op = 0; op < TS_OPS && !rc; op++) {
		f.op_class = op;
		rc = series_rows(&f, end, w, v, wall, "op", ops[op]);
	}
	f.op_class = TS_ANY;
	/* those with a series of their own (the most volume), ranked */
	rank = report_groups_sorted(r);
	for (i = 0; i < report_ngroups(r) && !rc; i++) {
		char name[300];

		if (!report_group_has_series(r, (size_t)rank[i]))
			continue;
		snprintf(name, sizeof(name), "%s", report_group_name(r, rank[i]));
		f.slot = report_group_series(r, (size_t)rank[i]);
		rc = series_rows(&f, end, w, v, wall, "group", name);
	}
	free(rank);
	f.slot = TS_GROUP_SLOTS - 1;
	if (!rc && report_more_groups(r))
		rc = series_rows(&f, end, w, v, wall, "group", "more groups");
	if (!rc)
		rc = device_rows(iv, end, w, v, wall);
	if (!rc)
		rc = process_rows(r, iv, end, w, v, wall);
	return rc;
}

/* ---- the device and process series ---- */

static void keys_init(struct export_iv_keys *k, uint64_t interval_ns)
{
	memset(k, 0, sizeof(*k));
	/* as report_begin(): the same width rule, so the buckets line up */
	ts_init(&k->ts, interval_ns, 100);
	/* the report's series says it once if --interval is too fine */
	k->ts.widened = true;
	ts_slots_init(&k->slots);
	k->last_slot = -1;
}

void export_iv_init(struct export_iv *iv, uint64_t interval_ns, int sort)
{
	memset(iv, 0, sizeof(*iv));
	keys_init(&iv->dev, interval_ns);
	keys_init(&iv->proc, interval_ns);
	iv->sort = sort;
}

/*
 * The slot of key (taken at its first sample, by volume: ts_slots.h), cached; EXPORT_IV_OTHER when
 * shared.
 */
static int slot_of(struct export_iv_keys *k, uint64_t key)
{
	uint64_t *slot;
	int64_t evicted;
	bool fresh;
	int s;

	if (k->last_slot >= 0 && k->last_key == key)
		return k->last_slot;
	slot = bs_hash_put(&k->slot_of, key, 0, &fresh);
	if (fresh) {
		s = ts_slots_take(&k->slots, (int64_t)key, &evicted);
		*slot = (uint64_t)(s == TS_SLOT_MORE ? EXPORT_IV_OTHER : s) + 1;
		if (evicted >= 0) {	/* its series join the shared one; it stays there */
			uint64_t *ev = bs_hash_get(&k->slot_of, (uint64_t)evicted);

			ts_merge_slot(&k->ts, s, EXPORT_IV_OTHER);
			if (ev)
				*ev = EXPORT_IV_OTHER + 1;
		}
	}
	k->last_key = key;
	return k->last_slot = (int)*slot - 1;
}

static void add_to(struct export_iv_keys *k, uint64_t key, uint64_t weight,
		   const struct bs_io_sample *s, const struct report_stage_vals *sv)
{
	int slot = slot_of(k, key), series = k->ts.series_of[slot][0];

	ts_slots_add(&k->slots, slot < TS_SLOT_MAX ? slot : TS_SLOT_MORE, weight);
	if (series < 0)
		series = ts_series_index(&k->ts, 0, slot);
	ts_add(&k->ts, s, sv, series, -1);
}

void export_iv_add(struct export_iv *iv, const struct bs_io_sample *s)
{
	struct report_stage_vals sv;
	uint64_t w;

	if (s->t_c == BS_NOT_SEEN)	/* the series count completions only */
		return;
	report_stage_vals_of(s, &sv);
	w = iv->sort == REPORT_SORT_BYTES      ? s->bytes
		: iv->sort == REPORT_SORT_TIME ? sv.ns[BS_ST_Q2C] * !!(sv.mask & (1u << BS_ST_Q2C))
					       : 1;
	add_to(&iv->dev, s->device, w, s, &sv);
	add_to(&iv->proc, s->pid, w, s, &sv);
}

void export_iv_finish(struct export_iv *iv, uint64_t end_time)
{
	ts_finish(&iv->dev.ts, end_time);
	ts_finish(&iv->proc.ts, end_time);
}

void export_iv_free(struct export_iv *iv)
{
	ts_free(&iv->dev.ts);
	ts_free(&iv->proc.ts);
	bs_hash_free(&iv->dev.slot_of);
	bs_hash_free(&iv->proc.slot_of);
}
