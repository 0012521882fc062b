// SPDX-License-Identifier: GPL-2.0
/*
 * export_intervals.c - the intervals table: the report layer's time series
 * (report/timeseries.h), the numbers the HTML report's charts draw, one
 * row per interval and breakdown: "all", each op class (read, write,
 * other) and each group (--group, --group-by, tags).  Rates are not
 * stored: they are ios or bytes over duration_ns.
 */
#include <string.h>
#include "export.h"
#include "report/report.h"

enum {
	IV_HOST, IV_BREAKDOWN, IV_KEY, IV_TIME, IV_START, IV_DURATION, IV_IOS, IV_BYTES, IV_INFLIGHT,
	IV_Q2C_P50, IV_Q2C_P99, IV_Q2C_MAX, IV_D2C_P50, IV_D2C_P99, IV_D2C_MAX,
	IV_NCOLS
};

#define STR(n, fl) { n, BS_PQ_BYTE_ARRAY, BS_PQ_STRING, 0, false, fl }
#define U64(n, fl) { n, BS_PQ_INT64, BS_PQ_INT, 64, false, fl }

const struct bs_pq_column export_intervals_cols[] = {
	[IV_HOST] = STR("host", BS_PQ_NULLABLE),
	[IV_BREAKDOWN] = STR("breakdown", 0),
	[IV_KEY] = STR("key", 0),
	[IV_TIME] = { "start", BS_PQ_INT64, BS_PQ_TIMESTAMP_NS, 0, false, BS_PQ_UTC },
	[IV_START] = U64("start_ns", 0),
	[IV_DURATION] = U64("duration_ns", 0),
	[IV_IOS] = U64("ios", 0),
	[IV_BYTES] = U64("bytes", 0),
	[IV_INFLIGHT] = U64("inflight_ns", 0),
	[IV_Q2C_P50] = U64("q2c_p50_ns", BS_PQ_NULLABLE),
	[IV_Q2C_P99] = U64("q2c_p99_ns", BS_PQ_NULLABLE),
	[IV_Q2C_MAX] = U64("q2c_max_ns", BS_PQ_NULLABLE),
	[IV_D2C_P50] = U64("d2c_p50_ns", BS_PQ_NULLABLE),
	[IV_D2C_P99] = U64("d2c_p99_ns", BS_PQ_NULLABLE),
	[IV_D2C_MAX] = U64("d2c_max_ns", BS_PQ_NULLABLE),
};
const unsigned export_intervals_ncols = IV_NCOLS;

static void set_str(struct bs_pq_value *v, const char *s)
{
	v->null = !s;
	v->s.p = s;
	v->s.len = s ? strlen(s) : 0;
}

static void set_q(struct bs_pq_value *v, const struct sketch *sk, uint32_t ppm)
{
	v->null = !sk->n;
	v->i = sk->n ? (int64_t)sk_quantile(sk, ppm) : 0;
}

/* Every bucket of one breakdown; 0 or -1. */
static int series_rows(const struct bs_report *r, struct export_rows *w, struct bs_pq_value *v, uint64_t wall,
		       const char *breakdown, const char *key, int op_class, int slot)
{
	const struct timeseries *ts = &r->ts;
	size_t b;
	int rc = 0;

	set_str(&v[IV_BREAKDOWN], breakdown);
	set_str(&v[IV_KEY], key);
	for (b = 0; b < ts->nb && !rc; b++) {
		uint64_t start = b * ts->width, dur = ts->width;
		struct ts_cell c;

		if (r->end_time > start && r->end_time - start < dur)
			dur = r->end_time - start;
		ts_cell_sum(ts, b, op_class, slot, &c);
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

int export_intervals_write(struct bs_report *r, struct export_rows *w, const char *host, uint64_t wall)
{
	static const char *const ops[TS_OPS] = { "read", "write", "other" };
	struct bs_pq_value v[IV_NCOLS];
	size_t i;
	int op, rc;

	memset(v, 0, sizeof(v));
	set_str(&v[IV_HOST], host);
	rc = series_rows(r, w, v, wall, "all", "all", TS_ANY, TS_ANY);
	for (op = 0; op < TS_OPS && !rc; op++)
		rc = series_rows(r, w, v, wall, "op", ops[op], op, TS_ANY);
	for (i = 0; i < r->ngroup && i < TS_GROUP_SLOTS - 2 && !rc; i++) {
		char name[300];

		snprintf(name, sizeof(name), "%s", report_group_name(r, (int)i));
		rc = series_rows(r, w, v, wall, "group", name, TS_ANY, r->groups[i].slot);
	}
	if (!rc && r->ngroup > TS_GROUP_SLOTS - 2)
		rc = series_rows(r, w, v, wall, "group", "(more groups)", TS_ANY, TS_GROUP_SLOTS - 1);
	return rc;
}
