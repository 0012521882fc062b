// SPDX-License-Identifier: GPL-2.0
/*
 * report_json.c - --json FILE: every figure of the report in one JSON
 * document, schema "blkscope-analyze" version REPORT_SCHEMA_VERSION,
 * documented in docs/json-schema.md and docs/analyze-schema.json.
 * Times are integer ns, sizes bytes; a stage never seen has
 * "observed": false and no figures (never 0).
 */
#include <inttypes.h>
#include <stdlib.h>
#include "bs_alloc.h"
#include "bs_escape.h"
#include "bs_numfmt.h"
#include "iomodel/iom.h"
#include "report_priv.h"

/*
 * Slices are written through a line buffer: a trace naming 1M processes
 * has 1M slice objects, and fprintf per number was most of the writing.
 * The keys are our own constants (nothing to escape).
 */
#define SLICE_BUF 4096

/* `"key":v` at p; returns the end */
static char *kv(char *p, const char *key, uint64_t v)
{
	*p++ = '"';
	while (*key)
		*p++ = *key++;
	*p++ = '"';
	*p++ = ':';
	return bs_put_u64(p, v);
}

static char *put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

/* biolatency buckets: 0 = [0, 2) µs, i = [2^i, 2^(i+1)) µs. */
static char *log2_us(char *p, const struct sketch *sk)
{
	uint64_t cnt[REPORT_LAT_US_BUCKETS];
	int i, last = -1;

	report_lat_us_hist(sk, cnt);
	for (i = 0; i < REPORT_LAT_US_BUCKETS; i++)
		if (cnt[i])
			last = i;
	*p++ = '[';
	for (i = 0; i <= last; i++) {
		if (i)
			*p++ = ',';
		p = bs_put_u64(p, cnt[i]);
	}
	*p++ = ']';
	return p;
}

/* one stage's object at p (at most ~1.6 KB); returns the end */
static char *stage_obj(char *p, const struct sketch *sk)
{
	int i;

	if (!sk->n)
		return put_str(p, "{\"observed\":false,\"n\":0}");
	p = put_str(p, "{\"observed\":true,");
	p = kv(p, "n", sk->n);
	*p++ = ',';
	p = kv(p, "min", sk->min);
	*p++ = ',';
	p = kv(p, "avg", report_lat_avg_ns(sk));
	for (i = 0; i < REPORT_N_PCT; i++) {
		*p++ = ',';
		p = kv(p, report_pct_names[i], sketch_quantile(sk, report_pct_ppm[i]));
	}
	*p++ = ',';
	p = kv(p, "max", sk->max);
	p = put_str(p, ",\"log2_us\":");
	p = log2_us(p, sk);
	*p++ = '}';
	return p;
}

/* The members of a slice object (no braces: callers add their keys). */
void report_json_slice(FILE *f, const struct report_lat *ls)
{
	struct sketch one[BS_ST_COUNT];
	const struct sketch *st = report_lat_stages(ls, one);
	char buf[SLICE_BUF], *p = buf;
	int s;

	p = kv(p, "ios", ls->ios);
	*p++ = ',';
	p = kv(p, "completed", ls->completed);
	*p++ = ',';
	p = kv(p, "bytes", ls->bytes);
	*p++ = ',';
	p = kv(p, "open", ls->open);
	*p++ = ',';
	p = kv(p, "lossy", ls->lossy);
	*p++ = ',';
	p = kv(p, "lossy_bytes", ls->lossy_bytes);
	*p++ = ',';
	p = kv(p, "merged", ls->merged);
	*p++ = ',';
	p = kv(p, "requeued", ls->requeued);
	*p++ = ',';
	p = kv(p, "errors", ls->errors);
	p = put_str(p, ",\"stages\":{");
	for (s = 0; s < BS_ST_COUNT; s++) {
		if (s)
			*p++ = ',';
		*p++ = '"';
		p = put_str(p, report_stage_names[s]);
		p = put_str(p, "\":");
		p = stage_obj(p, &st[s]);
		/* per stage: one stage object fits the buffer */
		fwrite(buf, 1, (size_t)(p - buf), f);
		p = buf;
	}
	fputc('}', f);
}

static void u64_array(FILE *f, const char *key, const uint64_t *v, size_t n)
{
	size_t i;

	fprintf(f, "\"%s\":[", key);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%" PRIu64, i ? "," : "", v[i]);
	fprintf(f, "]");
}

static void counters_obj(FILE *f, const struct bs_dev_counters *c)
{
	int o;

#define PER_OP(name, field)                                                        \
	do {                                                                       \
		fprintf(f, "\"%s\":{", name);                                      \
		for (o = 0; o < BS_OP_COUNT; o++)  /* zone ops: only if nonzero */ \
			if (o < BS_OP_V7_COUNT || bs_dev_op(c, o)->field)          \
				fprintf(f, "%s\"%s\":%" PRIu64, o ? "," : "", report_op_names[o], \
					bs_dev_op(c, o)->field);                   \
		fprintf(f, "},");                                                  \
	} while (0)
	fprintf(f, "{");
	PER_OP("queued", queued);
	PER_OP("queued_bytes", queued_bytes);
	PER_OP("issued", issued);
	PER_OP("issued_bytes", issued_bytes);
	PER_OP("completed", completed);
	PER_OP("completed_bytes", completed_bytes);
	PER_OP("merges", merges);
	PER_OP("requeues", requeues);
	PER_OP("requests_completed", rq_completed);
#undef PER_OP
	fprintf(f,
		"\"splits\":%" PRIu64 ",\"remaps\":%" PRIu64 ",\"plugs\":%" PRIu64
		",\"unplugs\":%" PRIu64 ",\"unplug_timers\":%" PRIu64 ",\"errors\":%" PRIu64
		",\"first_time_ns\":%" PRIu64 ",\"last_time_ns\":%" PRIu64 "}",
		c->splits, c->remaps, c->plugs, c->unplugs, c->unplug_timers, c->errors,
		c->first_time, c->last_time);
}

/* One time series: per-bucket arrays; null where a bucket had no completion. */
static void series_obj(const struct bs_report *r, FILE *f, const char *name, const char *kind,
		       int op_class, int slot)
{
	const struct ts_series *ts = &r->ts;
	uint64_t *ios = bs_xcalloc(ts->nb + 1, sizeof(uint64_t)),
		 *bytes = bs_xcalloc(ts->nb + 1, sizeof(uint64_t));
	uint64_t *infl = bs_xcalloc(ts->nb + 1, sizeof(uint64_t));
	struct sketch *q2c = bs_xcalloc(ts->nb + 1, sizeof(struct sketch));
	struct sketch *d2c = bs_xcalloc(ts->nb + 1, sizeof(struct sketch));
	static const uint32_t lat_ppm[] = { 500000, 900000, 990000, 999000, 1000000 };
	static const char *const lat_names[] = { "p50", "p90", "p99", "p99.9", "max" };
	size_t b, i, k;

	for (b = 0; b < ts->nb; b++) {
		struct ts_cell c;

		ts_cell_sum(ts, b, op_class, slot, &c);
		ios[b] = c.ios;
		bytes[b] = c.bytes;
		infl[b] = c.inflight_ns;
		q2c[b] = c.q2c;
		d2c[b] = c.d2c;
	}
	fprintf(f, "{\"name\":");
	bs_json_string(f, name);
	fprintf(f, ",\"kind\":\"%s\",", kind);
	u64_array(f, "ios", ios, ts->nb);
	fprintf(f, ",");
	u64_array(f, "bytes", bytes, ts->nb);
	fprintf(f, ",");
	u64_array(f, "inflight_ns", infl, ts->nb);
	for (k = 0; k < 2; k++) {
		const struct sketch *sk = k ? d2c : q2c;

		fprintf(f, ",\"%s\":{", k ? "d2c" : "q2c");
		for (i = 0; i < sizeof(lat_ppm) / sizeof(lat_ppm[0]); i++) {
			fprintf(f, "%s\"%s\":[", i ? "," : "", lat_names[i]);
			for (b = 0; b < ts->nb; b++) {
				if (b)
					fputc(',', f);
				if (sk[b].n)
					fprintf(f, "%" PRIu64, sketch_quantile(&sk[b], lat_ppm[i]));
				else
					fputs("null", f);
			}
			fputc(']', f);
		}
		fputc('}', f);
	}
	fputc('}', f);
	for (b = 0; b < ts->nb; b++) {
		sketch_free(&q2c[b]);
		sketch_free(&d2c[b]);
	}
	free(ios);
	free(bytes);
	free(infl);
	free(q2c);
	free(d2c);
}

static void timeseries_obj(struct bs_report *r, FILE *f)
{
	const struct ts_series *ts = &r->ts;
	size_t b, g;
	int *rank;

	fprintf(f, "{\"interval_ns\":%" PRIu64 ",\"automatic\":%s,\"buckets\":%zu,\"start_ns\":[",
		ts->width, ts->fixed ? "false" : "true", ts->nb);
	for (b = 0; b < ts->nb; b++)
		fprintf(f, "%s%" PRIu64, b ? "," : "", ts_bucket_start(ts, b));
	fprintf(f, "],\"duration_ns\":[");
	for (b = 0; b < ts->nb; b++) {
		uint64_t start = ts_bucket_start(ts, b), dur = ts->width;

		if (r->end_time > start && r->end_time - start < dur)
			dur = r->end_time - start;
		fprintf(f, "%s%" PRIu64, b ? "," : "", dur);
	}
	fprintf(f, "],\"series\":[");
	series_obj(r, f, "all", "all", TS_ANY, TS_ANY);
	fputc(',', f);
	series_obj(r, f, "read", "op", TS_READ, TS_ANY);
	fputc(',', f);
	series_obj(r, f, "write", "op", TS_WRITE, TS_ANY);
	fputc(',', f);
	series_obj(r, f, "other", "op", TS_OTHER, TS_ANY);
	/*
	 * the groups with a series of their own (the most volume: ts_slots.h), ranked, then the
	 * rest
	 */
	rank = report_groups_sorted(r);
	for (g = 0; g < r->ngroup; g++) {
		if (!report_group_has_series(r, (size_t)rank[g]))
			continue;
		fputc(',', f);
		series_obj(r, f, report_group_name(r, rank[g]), "group", TS_ANY,
			   r->groups[rank[g]].slot);
	}
	free(rank);
	if (report_more_groups(r)) {
		fputc(',', f);
		series_obj(r, f, "more groups", "groups", TS_ANY, TS_GROUP_SLOTS - 1);
	}
	fprintf(f, "]}");
}

int report_json(struct bs_report *r, const char *path)
{
	FILE *f = report_create_file(path, r->create_flags, &r->msg);
	const struct report_rollup *ru;
	struct report_proc **pv;
	char name[32];
	size_t i;
	int o, *rank;

	if (!f)
		return -1;
	ru = report_rollup(r);
	fprintf(f, "{\"schema\":\"blkscope-analyze\",\"version\":%d,", REPORT_SCHEMA_VERSION);
	fprintf(f,
		"\"units\":{\"time\":\"ns\",\"size\":\"bytes\"},\"percentiles\":{\"method\":"
		"\"nearest-rank\","
		"\"max_relative_error\":0.0079},");
	fprintf(f, "\"trace\":{\"end_time_ns\":%" PRIu64 ",\"samples\":%" PRIu64 "},", r->end_time,
		r->samples);
	{
		/* a run without the model (a test harness) */
		static const struct iom_health none;

		report_health_json(r->health ? r->health : &none, r->btt_open, f);
		fputs(",\n", f);
		report_triggers_json(r->health, f);
		fputs(",\n", f);
	}
	fprintf(f, "\"all\":{");
	report_json_slice(f, &ru->all);
	fprintf(f, ",\"time_parts\":{");
	for (o = 0; o < TP_COUNT; o++)
		fprintf(f, "%s\"%s\":%" PRIu64, o ? "," : "", report_time_part_names[o],
			r->part_ns[o]);
	fprintf(f, "}},\n\"devices\":[");
	for (i = 0; i < r->ndev; i++) {
		const struct bs_dev_counters *c = report_counters_of(r, r->devs[i].device);

		report_dev_name(r->devs[i].device, name, sizeof(name));
		fprintf(f, "%s{\"device\":\"%s\",\"major\":%u,\"minor\":%u,", i ? ",\n" : "", name,
			r->devs[i].device >> 20, r->devs[i].device & 0xfffff);
		report_json_slice(f, &ru->dev[i]);
		fprintf(f, ",\"counters\":");
		if (c)
			counters_obj(f, c);
		else
			fputs("null", f);
		fputc('}', f);
	}
	fprintf(f, "],\n\"operations\":[");
	for (o = 0, i = 0; o < BS_OP_COUNT; o++) {
		if (!ru->op[o].ios)
			continue;
		fprintf(f, "%s{\"op\":\"%s\",", i++ ? ",\n" : "", report_op_names[o]);
		report_json_slice(f, &ru->op[o]);
		fputc('}', f);
	}
	fprintf(f, "],\n\"processes\":[");
	pv = report_procs_sorted(r);
	for (i = 0; i < r->nproc; i++) {
		fprintf(f, "%s{\"pid\":%u,\"comm\":", i ? ",\n" : "", pv[i]->pid);
		if (pv[i]->comm[0])
			bs_json_string(f, pv[i]->comm);
		else
			fputs("null", f);
		fprintf(f, ",\"group\":");
		if (pv[i]->group >= 0)
			bs_json_string(f, report_group_name(r, pv[i]->group));
		else
			fputs("null", f);
		fputc(',', f);
		report_json_slice(f, report_proc_set(pv[i]));
		fputc('}', f);
	}
	free(pv);
	fprintf(f, "],\n\"groups\":[");
	rank = report_groups_sorted(r);	/* as the processes: the most --sort measure first */
	for (i = 0; i < r->ngroup; i++) {
		const struct report_group *g = &r->groups[rank[i]];

		fprintf(f, "%s{\"name\":", i ? ",\n" : "");
		bs_json_string(f, report_group_name(r, rank[i]));
		if (g->tag >= 0)
			fprintf(f, ",\"tag\":%d,", g->tag);
		else
			fprintf(f, ",\"tag\":null,");
		report_json_slice(f, &g->set);
		fputc('}', f);
	}
	free(rank);
	fprintf(f, "],\n\"timeseries\":");
	timeseries_obj(r, f);
	report_attr_json(r, f);	/* record --files --stacks: attribution, files, stacks */
	fprintf(f, "}\n");
	return report_close_file(f, path, &r->msg);
}
