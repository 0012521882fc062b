// SPDX-License-Identifier: GPL-2.0
/*
 * report_csv.c - --csv DIR: the tables and the time series as CSV files
 * (RFC 4180 quoting, header line first, times in ns, sizes in bytes):
 *
 *   DIR/slices.csv      kind,name,ios,completed,bytes,merged,requeued,errors
 *   DIR/stages.csv      kind,name,stage,observed,n,min_ns,avg_ns,p50_ns,...,max_ns
 *   DIR/histograms.csv  kind,name,stage,usecs_lo,usecs_hi,count (biolatency's buckets)
 *   DIR/timeseries.csv  series,start_ns,duration_ns,ios,bytes,iops,mb_per_s,inflight_avg,
 *                       q2c_p50_ns,q2c_p99_ns,q2c_max_ns,d2c_p50_ns,d2c_p99_ns,d2c_max_ns
 *
 * kind is all, device, op, process or group.  An unobserved stage has
 * observed=0 and empty figures.
 *
 * --csv - writes one table to stdout, so that it parses as one CSV: the
 * stages table (every latency figure); the others need a DIR.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bs_stream.h"
#include "bs_escape.h"
#include "bs_numfmt.h"
#include "report_priv.h"

struct csv_out {
	FILE *slices, *stages, *hist;
};

/* ",v" at p (v decimal); returns the end */
static char *put_field(char *p, uint64_t v)
{
	*p++ = ',';
	return bs_put_u64(p, v);
}

/*
 * A slice's rows.  The numbers are built into a line and written at once:
 * a trace naming 1M processes makes 7M rows here.
 */
static void slice_rows(struct csv_out *o, const char *kind, const char *name,
		       const struct report_lat *ls)
{
	struct sketch one[BS_ST_COUNT];
	const struct sketch *st = report_lat_stages(ls, one);
	char line[64 + (REPORT_N_PCT + 6) * 21], *p;
	uint64_t hist[REPORT_LAT_US_BUCKETS];
	int s, i;

	fprintf(o->slices, "%s,", kind);
	bs_csv_field(o->slices, name);
	p = put_field(line, ls->ios);
	p = put_field(p, ls->completed);
	p = put_field(p, ls->bytes);
	p = put_field(p, ls->merged);
	p = put_field(p, ls->requeued);
	p = put_field(p, ls->errors);
	*p++ = '\n';
	fwrite(line, 1, (size_t)(p - line), o->slices);
	for (s = 0; s < BS_ST_COUNT; s++) {
		const struct sketch *sk = &st[s];

		fprintf(o->stages, "%s,", kind);
		bs_csv_field(o->stages, name);
		fprintf(o->stages, ",%s,", report_stage_names[s]);
		if (!sk->n) {
			fprintf(o->stages, "0,0,,,");	/* min, avg, then the percentiles, max */
			for (i = 0; i < REPORT_N_PCT; i++)
				fputc(',', o->stages);
			fprintf(o->stages, "\n");
			continue;
		}
		p = line;
		*p++ = '1';
		p = put_field(p, sk->n);
		p = put_field(p, sk->min);
		p = put_field(p, report_lat_avg_ns(sk));
		for (i = 0; i < REPORT_N_PCT; i++)
			p = put_field(p, sketch_quantile(sk, report_pct_ppm[i]));
		p = put_field(p, sk->max);
		*p++ = '\n';
		fwrite(line, 1, (size_t)(p - line), o->stages);

		report_lat_us_hist(sk, hist);
		for (i = 0; i < REPORT_LAT_US_BUCKETS; i++) {
			uint64_t n = hist[i];

			if (!n)
				continue;
			fprintf(o->hist, "%s,", kind);
			bs_csv_field(o->hist, name);
			fprintf(o->hist, ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
				report_stage_names[s], (uint64_t)(i ? 1ull << i : 0),
				(uint64_t)((1ull << (i + 1)) - 1), n);
		}
	}
}

/* One CSV field ",VALUE" holding a sketch's quantile, or an empty field when it is empty. */
static void put_quantile_field(FILE *f, const struct sketch *sk, uint32_t ppm)
{
	if (sk->n)
		fprintf(f, ",%" PRIu64, sketch_quantile(sk, ppm));
	else
		fputc(',', f);
}

static void series_rows(const struct bs_report *r, FILE *f, const char *name, int op_class,
			int slot)
{
	const struct ts_series *ts = &r->ts;
	size_t b;

	for (b = 0; b < ts->nb; b++) {
		uint64_t start = ts_bucket_start(ts, b), dur = ts->width;
		struct ts_cell c;

		if (r->end_time > start && r->end_time - start < dur)
			dur = r->end_time - start;
		ts_cell_sum(ts, b, op_class, slot, &c);
		bs_csv_field(f, name);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.3f,%.6f,%.4f", start,
			dur, c.ios, c.bytes, dur ? c.ios * 1e9 / dur : 0.0,
			dur ? c.bytes * 1e3 / dur : 0.0, dur ? (double)c.inflight_ns / dur : 0.0);
		put_quantile_field(f, &c.q2c, 500000);
		put_quantile_field(f, &c.q2c, 990000);
		put_quantile_field(f, &c.q2c, 1000000);
		put_quantile_field(f, &c.d2c, 500000);
		put_quantile_field(f, &c.d2c, 990000);
		put_quantile_field(f, &c.d2c, 1000000);
		fputc('\n', f);
		sketch_free(&c.q2c);
		sketch_free(&c.d2c);
	}
}

static FILE *open_in(const struct bs_report *r, const char *dir, const char *name, char *path,
		     size_t len)
{
	if (!strcmp(dir, "-")) {	/* stdout: the stages table alone */
		snprintf(path, len, "%s", strcmp(name, "stages.csv") ? "/dev/null" : "-");
		return strcmp(path, "-") ? fopen(path, "w") : stdout;
	}
	snprintf(path, len, "%s/%s", dir, name);
	return report_create_file(path, r->create_flags, &r->msg);
}

int report_csv(struct bs_report *r, const char *dir)
{
	char p[4][4096], name[64];
	struct csv_out o;
	const struct report_rollup *ru;
	struct report_proc **pv;
	FILE *ts;
	size_t i;
	int k, rc = 0, *rank;

	if (strcmp(dir, "-") && mkdir(dir, 0755) && errno != EEXIST) {
		bs_msg(&r->msg, BS_MSG_ERROR, "cannot create directory %s: %s", dir,
		       strerror(errno));
		return -1;
	}
	o.slices = open_in(r, dir, "slices.csv", p[0], sizeof(p[0]));
	o.stages = open_in(r, dir, "stages.csv", p[1], sizeof(p[1]));
	o.hist = open_in(r, dir, "histograms.csv", p[2], sizeof(p[2]));
	ts = open_in(r, dir, "timeseries.csv", p[3], sizeof(p[3]));
	if (!o.slices || !o.stages || !o.hist || !ts) {
		FILE *all[4] = { o.slices, o.stages, o.hist, ts };

		for (k = 0; k < 4; k++)
			if (all[k])
				fclose(all[k]);
		return -1;
	}
	fprintf(o.slices, "kind,name,ios,completed,bytes,merged,requeued,errors\n");
	fprintf(o.stages, "kind,name,stage,observed,n,min_ns,avg_ns");
	for (k = 0; k < REPORT_N_PCT; k++)
		fprintf(o.stages, ",%s_ns", report_pct_names[k]);
	fprintf(o.stages, ",max_ns\n");
	fprintf(o.hist, "kind,name,stage,usecs_lo,usecs_hi,count\n");

	ru = report_rollup(r);
	slice_rows(&o, "all", "all", &ru->all);
	for (i = 0; i < r->ndev; i++) {
		report_dev_name(r->devs[i].device, name, sizeof(name));
		slice_rows(&o, "device", name, &ru->dev[i]);
	}
	for (k = 0; k < BS_OP_COUNT; k++)
		if (ru->op[k].ios)
			slice_rows(&o, "op", report_op_names[k], &ru->op[k]);
	pv = report_procs_sorted(r);
	for (i = 0; i < r->nproc; i++) {
		snprintf(name, sizeof(name), "%s (%u)", pv[i]->comm[0] ? pv[i]->comm : "?",
			 pv[i]->pid);
		slice_rows(&o, "process", name, report_proc_set(pv[i]));
	}
	free(pv);
	rank = report_groups_sorted(r);	/* the most --sort measure first, as the processes */
	for (i = 0; i < r->ngroup; i++)
		slice_rows(&o, "group", report_group_name(r, rank[i]), &r->groups[rank[i]].set);

	fprintf(ts,
		"series,start_ns,duration_ns,ios,bytes,iops,mb_per_s,inflight_avg,q2c_p50_ns,q2c_"
		"p99_ns,"
		"q2c_max_ns,d2c_p50_ns,d2c_p99_ns,d2c_max_ns\n");
	series_rows(r, ts, "all", TS_ANY, TS_ANY);
	series_rows(r, ts, "read", TS_READ, TS_ANY);
	series_rows(r, ts, "write", TS_WRITE, TS_ANY);
	series_rows(r, ts, "other", TS_OTHER, TS_ANY);
	/* those with a series of their own, ranked, then the rest */
	for (i = 0; i < r->ngroup; i++) {
		char sname[300];

		if (!report_group_has_series(r, (size_t)rank[i]))
			continue;
		snprintf(sname, sizeof(sname), "group:%s", report_group_name(r, rank[i]));
		series_rows(r, ts, sname, TS_ANY, r->groups[rank[i]].slot);
	}
	free(rank);
	if (report_more_groups(r))
		series_rows(r, ts, "more groups", TS_ANY, TS_GROUP_SLOTS - 1);
	rc |= report_close_file(o.slices, p[0], &r->msg);
	rc |= report_close_file(o.stages, p[1], &r->msg);
	rc |= report_close_file(o.hist, p[2], &r->msg);
	rc |= report_close_file(ts, p[3], &r->msg);
	if (strcmp(dir, "-") && report_attr_csv(r, dir))	/* record --files: DIR/files.csv */
		rc = -1;
	return rc ? -1 : 0;
}
