// SPDX-License-Identifier: GPL-2.0
/*
 * btt_report.c - btt's text report (btt/output.c) with its exact formats:
 * All Devices, Device Overhead, Merge, Q2Q and D2D seeks, Plug, Active
 * Requests At Q, I/O Active Period, the -A tables, then the range data.
 * Quirks kept on purpose: BLKavg = total/#D, #Q raised to #D, the seek
 * "Overall" rows even for one device, the forced final unplug at the
 * device's last event, the range "base" advancing for every process.
 */
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_numfmt.h"
#include "btt_priv.h"

char *btt_dev_hdr(char *buf, size_t len, uint32_t device)
{
	snprintf(buf, len, "(%3d,%3d)", BS_DEV_MAJOR(device), BS_DEV_MINOR(device));
	return buf;
}

int btt_report_out_devs(struct btt_engine *e, struct btt_dev ***out)
{
	struct btt_dev **v;
	const char *p = e->o.devices;
	unsigned int mjr, mnr;
	int n = 0, cap = e->ndevs + 1;

	if (!p) {
		v = bs_xcalloc(cap, sizeof(*v));
		if (e->ndevs)
			memcpy(v, e->devs, e->ndevs * sizeof(*v));
		*out = v;
		return e->ndevs;
	}
	v = bs_xcalloc(cap, sizeof(*v));
	while (p && sscanf(p, "%u,%u", &mjr, &mnr) == 2) {
		struct btt_dev *d = btt_engine_find_dev(e, BS_MKDEV(mjr, mnr));

		if (d) {
			if (n == cap) {
				cap *= 2;
				v = bs_xreallocarray(v, cap, sizeof(*v));
			}
			v[n++] = d;
		}
		p = strchr(p, ';');
		if (p)
			p++;
	}
	*out = v;
	return n;
}

void btt_report_section(FILE *fp, const char *title)
{
	fprintf(fp, "==================== %s ====================\n\n", title);
}

static void avg_hdr(FILE *fp, const char *hdr)
{
	fprintf(fp, "%15s %13s %13s %13s %11s\n", hdr, "MIN", "AVG", "MAX", "N");
	fprintf(fp, "--------------- ------------- ------------- ------------- -----------\n");
}

static void avg_row_x(FILE *fp, const char *hdr, const struct btt_avg *a, FILE *easy)
{
	char mn[BS_SECS_BUF], mx[BS_SECS_BUF];

	if (a->n > 0) {
		double avg = btt_secs(a->total) / (double)a->n;

		bs_fmt_secs(mn, sizeof(mn), a->min, 13);
		bs_fmt_secs(mx, sizeof(mx), a->max, 13);
		fprintf(fp, "%-15s %s %13.9f %s %11d\n", hdr, mn, avg, mx, a->n);
		if (easy) {
			bs_fmt_secs(mn, sizeof(mn), a->min, 0);
			bs_fmt_secs(mx, sizeof(mx), a->max, 0);
			fprintf(easy, "%s %s %.9lf %s %d\n", hdr, mn, avg, mx, a->n);
		}
	}
}

static void avg_row(FILE *fp, const char *hdr, const struct btt_avg *a)
{
	avg_row_x(fp, hdr, a, NULL);
}

/* btt's make_dev_hdr() without parentheses, for the easy-parse lines */
char *btt_dev_plain(char *buf, size_t len, uint32_t device)
{
	snprintf(buf, len, "%d,%d", BS_DEV_MAJOR(device), BS_DEV_MINOR(device));
	return buf;
}

/* The latency rows, in btt's order, and where each lives in struct btt_avgs. */
static const struct {
	const char *name;
	size_t off;
} avg_rows[] = {
	{ "Q2Qdm", offsetof(struct btt_avgs, q2q_dm) },
	{ "Q2Adm", offsetof(struct btt_avgs, q2a_dm) },
	{ "Q2Cdm", offsetof(struct btt_avgs, q2c_dm) },
	{ NULL, 0 },		/* blank line */
	{ "Q2Q", offsetof(struct btt_avgs, q2q) },
	{ "Q2A", offsetof(struct btt_avgs, q2a) },
	{ "Q2G", offsetof(struct btt_avgs, q2g) },
	{ "S2G", offsetof(struct btt_avgs, s2g) },
	{ "G2I", offsetof(struct btt_avgs, g2i) },
	{ "Q2M", offsetof(struct btt_avgs, q2m) },
	{ "I2D", offsetof(struct btt_avgs, i2d) },
	{ "D2C", offsetof(struct btt_avgs, d2c) },
	{ "Q2C", offsetof(struct btt_avgs, q2c) },
};

static inline const struct btt_avg *avg_at(const struct btt_avgs *a, size_t off)
{
	return (const struct btt_avg *)((const char *)a + off);
}

/* btt -e: the listed names, in the order given; else every process by name */
static struct btt_proc **out_procs(struct btt_engine *e, int *n)
{
	struct btt_proc **v = btt_engine_sorted_procs(e, n), **sel;
	const char *p = e->o.exes;
	int i, k = 0;

	if (!p)
		return v;
	/* the -e order, each name looked up exactly */
	sel = bs_xcalloc(*n + 1, sizeof(*sel));
	while (p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		for (i = 0; i < *n; i++)
			if (strlen(v[i]->name) == len && !strncmp(v[i]->name, p, len)) {
				sel[k++] = v[i];
				break;
			}
		p = comma ? comma + 1 : NULL;
	}
	free(v);
	*n = k;
	return sel;
}

static void per_process(struct btt_engine *e, FILE *fp)
{
	static const struct btt_avgs none;	/* processes have figures only with -A */
	int n, i, r;
	struct btt_proc **v = out_procs(e, &n);

	btt_report_section(fp, "Per Process");
	for (r = 0; r < (int)(sizeof(avg_rows) / sizeof(avg_rows[0])); r++) {
		if (!avg_rows[r].name) {
			fprintf(fp, "\n");
			continue;
		}
		avg_hdr(fp, avg_rows[r].name);
		for (i = 0; i < n; i++) {
			char name[15];	/* btt cuts the name to 14 */

			snprintf(name, sizeof(name), "%.*s", (int)sizeof(name) - 1, v[i]->name);
			avg_row(fp, name, avg_at(v[i]->avgs ? v[i]->avgs : &none, avg_rows[r].off));
		}
		fprintf(fp, "\n");
	}
	free(v);
}

static void per_device(FILE *fp, struct btt_dev **devs, int n)
{
	int i, r;

	btt_report_section(fp, "Per Device");
	for (r = 0; r < (int)(sizeof(avg_rows) / sizeof(avg_rows[0])); r++) {
		if (!avg_rows[r].name) {
			fprintf(fp, "\n");
			continue;
		}
		avg_hdr(fp, avg_rows[r].name);
		for (i = 0; i < n; i++) {
			char hdr[15];

			avg_row(fp, btt_dev_hdr(hdr, sizeof(hdr), devs[i]->device),
				avg_at(&devs[i]->avgs, avg_rows[r].off));
		}
		fprintf(fp, "\n");
	}
}

/* a's values into to: as if to had been updated with them all */
static void avg_merge(struct btt_avg *to, const struct btt_avg *a)
{
	if (!a->n)
		return;
	if (!to->n) {
		*to = *a;
		return;
	}
	to->min = a->min < to->min ? a->min : to->min;
	to->max = a->max > to->max ? a->max : to->max;
	to->total += a->total;
	to->n += a->n;
}

/*
 * btt's system-wide figures: every value went to the system and to one
 * device, so the devices' merged equal the system's (the engine updates
 * only the devices); but Q2Q runs from the previous Q of any device.
 */
static void all_avgs(const struct btt_engine *e, struct btt_avgs *all)
{
	static const size_t merged[] = {
		offsetof(struct btt_avgs, q2a_dm), offsetof(struct btt_avgs, q2c_dm),
		offsetof(struct btt_avgs, q2a), offsetof(struct btt_avgs, q2g),
		offsetof(struct btt_avgs, s2g), offsetof(struct btt_avgs, g2i),
		offsetof(struct btt_avgs, q2m), offsetof(struct btt_avgs, i2d),
		offsetof(struct btt_avgs, m2d), offsetof(struct btt_avgs, d2c),
		offsetof(struct btt_avgs, q2c),
	};
	size_t k;
	int i;

	memset(all, 0, sizeof(*all));
	for (i = 0; i < e->ndevs; i++)
		for (k = 0; k < sizeof(merged) / sizeof(merged[0]); k++)
			avg_merge((struct btt_avg *)((char *)all + merged[k]),
				  avg_at(&e->devs[i]->avgs, merged[k]));
	all->q2q = e->all_q2q;
	all->q2q_dm = e->all_q2q_dm;
}

static void all_devices(struct btt_engine *e, FILE *fp)
{
	FILE *x = e->o.xvg;
	struct btt_avgs all;

	all_avgs(e, &all);
	btt_report_section(fp, "All Devices");
	avg_hdr(fp, "ALL");
	avg_row(fp, "Q2Qdm", &all.q2q_dm);
	avg_row(fp, "Q2Adm", &all.q2a_dm);
	avg_row(fp, "Q2Cdm", &all.q2c_dm);
	fprintf(fp, "\n");
	avg_row_x(fp, "Q2Q", &all.q2q, x);
	avg_row_x(fp, "Q2A", &all.q2a, x);
	avg_row_x(fp, "Q2G", &all.q2g, x);
	avg_row_x(fp, "S2G", &all.s2g, x);
	avg_row_x(fp, "G2I", &all.g2i, x);
	avg_row_x(fp, "Q2M", &all.q2m, x);
	avg_row_x(fp, "I2D", &all.i2d, x);
	avg_row_x(fp, "M2D", &all.m2d, x);
	avg_row_x(fp, "D2C", &all.d2c, x);
	avg_row_x(fp, "Q2C", &all.q2c, x);
	fprintf(fp, "\n");
}

struct ohead_sum {
	uint64_t total;
	int n;
};

static void device_overhead(FILE *fp, struct btt_dev **devs, int n)
{
	struct ohead_sum q2g = { 0 }, g2i = { 0 }, q2m = { 0 }, i2d = { 0 }, d2c = { 0 },
			 q2c = { 0 };
	int i;

	btt_report_section(fp, "Device Overhead");
	fprintf(fp, "%10s | %9s %9s %9s %9s %9s\n", "DEV", "Q2G", "G2I", "Q2M", "I2D", "D2C");
	fprintf(fp, "---------- | --------- --------- --------- --------- ---------\n");
	for (i = 0; i < n; i++) {
		const struct btt_avgs *a = &devs[i]->avgs;
		double total = (double)a->q2c.total;
		char hdr[15];

		if (!(a->q2c.n > 0 && a->q2c.total > 0))
			continue;
		fprintf(fp, "%10s | %8.4lf%% %8.4lf%% %8.4lf%% %8.4lf%% %8.4lf%%\n",
			btt_dev_hdr(hdr, sizeof(hdr), devs[i]->device),
			100.0 * (double)a->q2g.total / total, 100.0 * (double)a->g2i.total / total,
			100.0 * (double)a->q2m.total / total, 100.0 * (double)a->i2d.total / total,
			100.0 * (double)a->d2c.total / total);
#define ACC(s, f) do { s.total += a->f.total; s.n += a->f.n; } while (0)
		ACC(q2g, q2g);
		ACC(g2i, g2i);
		ACC(q2m, q2m);
		ACC(i2d, i2d);
		ACC(d2c, d2c);
		ACC(q2c, q2c);
#undef ACC
	}
	if (q2g.n || g2i.n || q2m.n || i2d.n || d2c.n) {
		double tot = (double)q2c.total;

#define OD(s) ((s).n == 0 ? 0.0 : 100.0 * ((double)(s).total / tot))
		fprintf(fp, "---------- | --------- --------- --------- --------- ---------\n");
		fprintf(fp, "%10s | %8.4lf%% %8.4lf%% %8.4lf%% %8.4lf%% %8.4lf%%\n", "Overall",
			OD(q2g), OD(g2i), OD(q2m), OD(i2d), OD(d2c));
#undef OD
	}
	fprintf(fp, "\n");
}

static void merge_info(FILE *fp, struct btt_dev **devs, int n, FILE *x)
{
	unsigned long long nq = 0, nd = 0, blkmin = 0, blkmax = 0, total = 0;
	int i, n_merges = 0;

	btt_report_section(fp, "Device Merge Information");
	fprintf(fp, "%10s | %8s %8s %7s | %8s %8s %8s %8s\n", "DEV", "#Q", "#D", "Ratio",
		"BLKmin", "BLKavg", "BLKmax", "Total");
	fprintf(fp,
		"---------- | -------- -------- ------- | -------- -------- -------- --------\n");
	for (i = 0; i < n; i++) {
		struct btt_dev *d = devs[i];
		const struct btt_avg *b = &d->avgs.blks;
		double q2c_n, d2c_n, ratio, blks_avg;
		char hdr[15];

		if (d->n_qs == 0 || d->n_ds == 0)
			continue;
		if (d->n_qs < d->n_ds)
			d->n_qs = d->n_ds;
		q2c_n = (double)d->n_qs;
		d2c_n = (double)d->n_ds;
		ratio = q2c_n < d2c_n ? 1.0 : q2c_n / d2c_n;
		blks_avg = (double)b->total / d2c_n;
		fprintf(fp, "%10s | %8llu %8llu %7.1lf | %8llu %8llu %8llu %8llu\n",
			btt_dev_hdr(hdr, sizeof(hdr), d->device), (unsigned long long)d->n_qs,
			(unsigned long long)d->n_ds, ratio, (unsigned long long)b->min,
			(unsigned long long)blks_avg, (unsigned long long)b->max,
			(unsigned long long)b->total);
		if (x)
			fprintf(x, "DMI %s %llu %llu %.9lf %llu %llu %llu %llu\n",
				btt_dev_plain(hdr, sizeof(hdr), d->device),
				(unsigned long long)d->n_qs, (unsigned long long)d->n_ds, ratio,
				(unsigned long long)b->min, (unsigned long long)blks_avg,
				(unsigned long long)b->max, (unsigned long long)b->total);
		if (n_merges++ == 0) {
			blkmin = b->min;
			blkmax = b->max;
		}
		nq += d->n_qs;
		nd += d->n_ds;
		total += b->total;
		if (b->min < blkmin)
			blkmin = b->min;
		if (b->max > blkmax)
			blkmax = b->max;
	}
	if (n_merges > 1) {
		fprintf(fp, "---------- | -------- -------- ------- | -------- -------- -------- "
			    "--------\n");
		fprintf(fp, "%10s | %8s %8s %7s | %8s %8s %8s %8s\n", "DEV", "#Q", "#D", "Ratio",
			"BLKmin", "BLKavg", "BLKmax", "Total");
		fprintf(fp, "%10s | %8llu %8llu %7.1lf | %8llu %8llu %8llu %8llu\n", "TOTAL", nq,
			nd, (double)((float)nq / (float)nd), blkmin, total / nd, blkmax, total);
	}
	fprintf(fp, "\n");
}

static void plug_info(FILE *fp, struct btt_dev **devs, int n, FILE *x)
{
	long all_plugs = 0, all_unplugs_t = 0;
	double all_pct = 0.0;
	uint64_t tot_up = 0, tot_upt = 0, n_up = 0, n_upt = 0;
	int i, n_plugs = 0;

	btt_report_section(fp, "Plug Information");
	fprintf(fp, "%10s | %10s %10s  | %s\n", "DEV", "# Plugs", "# Timer Us", "% Time Q Plugged");
	fprintf(fp, "---------- | ---------- ----------  | ----------------\n");
	for (i = 0; i < n; i++) {
		struct btt_dev *d = devs[i];
		char hdr[15];

		if (d->is_plugged) {
			/* btt unplugs a still-plugged device at its last event */
			d->nplugs++;
			d->is_plugged = 0;
			d->plugged_time += btt_secs(d->end_ns) - d->last_plug;
		}
		if (d->nplugs + d->nplugs_t > 0) {
			double delta = btt_secs(d->end_ns) - btt_secs(d->start_ns);
			double pct = 100.0 * (d->plugged_time / delta);

			fprintf(fp, "%10s | %10d(%10d) | %13.9lf%%\n",
				btt_dev_hdr(hdr, sizeof(hdr), d->device), d->nplugs, d->nplugs_t,
				pct);
			if (x)
				fprintf(x, "PLG %s %d %d %.9lf\n",
					btt_dev_plain(hdr, sizeof(hdr), d->device), d->nplugs,
					d->nplugs_t, pct);
			n_plugs++;
			all_plugs += d->nplugs;
			all_unplugs_t += d->nplugs_t;
			all_pct += pct;
		}
	}
	if (n_plugs > 1) {
		fprintf(fp, "---------- | ---------- ----------  | ----------------\n");
		fprintf(fp, "%10s | %10s %10s  | %s\n", "Overall", "# Plugs", "# Timer Us",
			"% Time Q Plugged");
		fprintf(fp, "%10s | %10ld(%10ld) | %13.9lf%%\n", "Average", all_plugs / n_plugs,
			all_unplugs_t / n_plugs, all_pct / n_plugs);
	}
	fprintf(fp, "\n");

	fprintf(fp, "%10s | %10s   %10s\n", "DEV", "IOs/Unp", "IOs/Unp(to)");
	fprintf(fp, "---------- | ----------   ----------\n");
	for (i = 0; i < n; i++) {
		struct btt_dev *d = devs[i];
		double a = 0.0, at = 0.0;
		char hdr[15];

		if (d->nios_up && d->nplugs) {
			a = (double)d->nios_up / (double)d->nplugs;
			n_up += d->nplugs;
			tot_up += d->nios_up;
		}
		if (d->nios_upt && d->nplugs_t) {
			at = (double)d->nios_upt / (double)d->nplugs_t;
			n_upt += d->nplugs_t;
			tot_upt += d->nios_upt;
		}
		fprintf(fp, "%10s | %10.1lf   %10.1lf\n", btt_dev_hdr(hdr, sizeof(hdr), d->device),
			a, at);
		if (x)
			fprintf(x, "UPG %s %.9lf %.9lf\n",
				btt_dev_plain(hdr, sizeof(hdr), d->device), a, at);
	}
	if (n_up || n_upt) {
		double a = n_up ? (double)tot_up / (double)n_up : 0.0;
		double at = n_upt ? (double)tot_upt / (double)n_upt : 0.0;

		fprintf(fp, "---------- | ----------   ----------\n");
		fprintf(fp, "%10s | %10s   %10s\n", "Overall", "IOs/Unp", "IOs/Unp(to)");
		fprintf(fp, "%10s | %10.1lf   %10.1lf\n", "Average", a, at);
	}
	fprintf(fp, "\n");
}

static void active_q(FILE *fp, struct btt_dev **devs, int n, FILE *x)
{
	uint64_t t_qs = 0, t_act_qs = 0;
	int i, n_act = 0;

	btt_report_section(fp, "Active Requests At Q Information");
	fprintf(fp, "%10s | %13s\n", "DEV", "Avg Reqs @ Q");
	fprintf(fp, "---------- | -------------\n");
	for (i = 0; i < n; i++) {
		struct btt_dev *d = devs[i];
		char hdr[15];

		if (d->n_qs == 0 || btt_remapper_dev(d->device))
			continue;
		fprintf(fp, "%10s | %13.1lf\n", btt_dev_hdr(hdr, sizeof(hdr), d->device),
			(double)d->t_act_q / (double)d->n_qs);
		if (x)
			fprintf(x, "ARQ %s %.9lf\n", btt_dev_plain(hdr, sizeof(hdr), d->device),
				(double)d->t_act_q / (double)d->n_qs);
		n_act++;
		t_qs += d->n_qs;
		t_act_qs += d->t_act_q;
	}
	if (n_act > 1) {
		fprintf(fp, "---------- | -------------\n");
		fprintf(fp, "%10s | %13s\n", "Overall", "Avgs Reqs @ Q");
		fprintf(fp, "%10s | %13.1lf\n", "Average", (double)t_act_qs / (double)t_qs);
	}
	fprintf(fp, "\n");
}

static void live_row(FILE *fp, const char *hdr, const struct btt_live *l)
{
	struct btt_live_info li;

	btt_live_get(l, &li);
	fprintf(fp, "%10s | %10lu %13.9lf %13.9lf %6.2lf\n", hdr, li.nlives, li.avg_live,
		li.avg_lull, li.p_live);
}

/* btt -Z: a file per device that had live periods, numbered from 1, and sys */
static void live_files(const struct btt_engine *e, struct btt_dev **devs, int n,
		       const struct btt_live *all)
{
	char path[64];
	int i, base = 1;
	FILE *fp;

	for (i = 0; i < n; i++) {
		if (devs[i]->live.n == 0)
			continue;
		snprintf(path, sizeof(path), "%d,%d_live.dat", BS_DEV_MAJOR(devs[i]->device),
			 BS_DEV_MINOR(devs[i]->device));
		fp = btt_create_file(e, path);
		if (!fp)
			continue;
		btt_live_write(&devs[i]->live, fp, base++);
		fclose(fp);
	}
	if (all->n) {
		fp = btt_create_file(e, "sys_live.dat");
		if (!fp)
			return;
		btt_live_write(all, fp, 0);
		fclose(fp);
	}
}

static void active_periods(struct btt_engine *e, FILE *fp, struct btt_dev **devs, int n)
{
	int i;

	btt_report_section(fp, "I/O Active Period Information");
	fprintf(fp, "%10s | %10s %13s %13s %6s\n", "DEV", "# Live", "Avg. Act", "Avg. !Act",
		"% Live");
	fprintf(fp, "---------- | ---------- ------------- ------------- ------\n");
	for (i = 0; i < n; i++) {
		char hdr[15];

		live_row(fp, btt_dev_hdr(hdr, sizeof(hdr), devs[i]->device), &devs[i]->live);
	}
	fprintf(fp, "---------- | ---------- ------------- ------------- ------\n");
	live_row(fp, "Total Sys", &e->all_live);
	fprintf(fp, "\n");
	if (e->o.live_files)
		live_files(e, devs, n, &e->all_live);
}

static void q2d_histo(FILE *fp, struct btt_dev **devs, int n)
{
	static const char *const labels[BTT_Q2D_BUCKETS] = {
		"<.005", "<.010", "<.025", "<.050", "<.075",
		"<.100", "<.250", "<.500", "< 1.0", ">=1.0\n",
	};
	uint64_t all[BTT_Q2D_BUCKETS] = { 0 }, all_n = 0;
	int i, k, shown = 0;

	btt_report_section(fp, "Q2D Histogram");
	fprintf(fp, "%10s | ", "DEV");
	for (k = 0; k < BTT_Q2D_BUCKETS; k++)
		fprintf(fp, "%5s ", labels[k]);
	fprintf(fp, "--------- | ");
	for (k = 0; k < BTT_Q2D_BUCKETS; k++)
		fprintf(fp, "===== ");
	fprintf(fp, "\n");
	for (i = 0; i < n; i++) {
		struct btt_dev *d = devs[i];
		char hdr[15];

		if (!d->q2d_n)
			continue;
		fprintf(fp, "%10s | ", btt_dev_hdr(hdr, sizeof(hdr), d->device));
		for (k = 0; k < BTT_Q2D_BUCKETS; k++) {
			fprintf(fp, "%5.1lf ", 100.0 * (double)d->q2d_hist[k] / (double)d->q2d_n);
			all[k] += d->q2d_hist[k];
		}
		fprintf(fp, "\n");
		all_n += d->q2d_n;
		shown++;
	}
	if (shown) {
		fprintf(fp, "========== | ");
		for (k = 0; k < BTT_Q2D_BUCKETS; k++)
			fprintf(fp, "===== ");
		fprintf(fp, "\n");
		fprintf(fp, "%10s | ", "AVG");
		for (k = 0; k < BTT_Q2D_BUCKETS; k++)
			fprintf(fp, "%5.1lf ", 100.0 * (double)all[k] / (double)all_n);
		fprintf(fp, "\n");
		fprintf(fp, "\n");
	}
}

void btt_report_avgs(struct btt_engine *e, FILE *fp)
{
	struct btt_dev **devs;
	int n = btt_report_out_devs(e, &devs);

	if (e->o.all_data) {
		if (!e->o.exes || *e->o.exes)
			per_process(e, fp);
		per_device(fp, devs, n);
	}
	all_devices(e, fp);
	device_overhead(fp, devs, n);
	merge_info(fp, devs, n, e->o.xvg);
	btt_report_seek_info(e, fp, "Device Q2Q Seek Information", devs, n, 1);
	btt_report_seek_info(e, fp, "Device D2D Seek Information", devs, n, 0);
	plug_info(fp, devs, n, e->o.xvg);
	active_q(fp, devs, n, e->o.xvg);
	active_periods(e, fp, devs, n);
	if (e->o.all_data)
		q2d_histo(fp, devs, n);
	free(devs);
}

/*
 * Four points per range, as btt draws them; the y values are btt's floats
 * (formatted once), the times go through bs_fmt_secs (a trace naming 1M
 * processes has 4M of them).
 */
static void output_ranges(FILE *fp, const struct btt_ranges *r, float base)
{
	char lo[BS_SECS_BUF], hi[BS_SECS_BUF], t0[BS_SECS_BUF], t1[BS_SECS_BUF];
	float limit = base + 0.4;
	size_t i;

	bs_fmt_tenths(lo, sizeof(lo), base, 5);
	bs_fmt_tenths(hi, sizeof(hi), limit, 5);
	for (i = 0; i < r->n; i++) {
		bs_fmt_secs(t0, sizeof(t0), r->v[i].start, 13);
		bs_fmt_secs(t1, sizeof(t1), r->v[i].end, 13);
		fprintf(fp, "%s %s\n%s %s\n%s %s\n%s %s\n", t0, lo, t0, hi, t1, hi, t1, lo);
	}
}

static int output_region(FILE *fp, const char *header, const struct btt_region *reg, float base)
{
	if (reg->q.n == 0 && reg->c.n == 0)
		return 0;
	fprintf(fp, "# %16s : q activity\n", header);
	output_ranges(fp, &reg->q, base);
	fprintf(fp, "\n");
	fprintf(fp, "# %16s : c activity\n", header);
	output_ranges(fp, &reg->c, base + 0.5);
	fprintf(fp, "\n");
	return 1;
}

void btt_report_ranges(struct btt_engine *e, FILE *fp)
{
	float base = 0.0;
	struct btt_proc **procs;
	int i, n;

	fprintf(fp, "# %s\n", "Total System");
	if (output_region(fp, "Total System", &e->all_regions, base))
		base += 1.0;
	if (e->ndevs > 1) {
		struct btt_dev **devs;
		int nd = btt_report_out_devs(e, &devs);

		fprintf(fp, "# Per device\n");
		for (i = 0; i < nd; i++) {
			char header[64];

			snprintf(header, sizeof(header), "%d,%d", BS_DEV_MAJOR(devs[i]->device),
				 BS_DEV_MINOR(devs[i]->device));
			if (output_region(fp, header, &devs[i]->regions, base))
				base += 1.0;
		}
		free(devs);
	}
	fprintf(fp, "# Per process\n");
	procs = out_procs(e, &n);
	for (i = 0; i < n; i++) {
		output_region(fp, procs[i]->name, &procs[i]->regions, base);
		base += 1.0;
	}
	free(procs);
}

static int write_histo(const struct btt_engine *e, const char *path, const char *head,
		       const char *what, const uint64_t *h)
{
	FILE *fp = btt_create_file(e, path);
	int i;

	if (!fp)
		return -1;
	fprintf(fp, "%s# %s buckets\n", head, what);
	for (i = 0; i < BTT_HIST_BKTS - 1; i++)
		fprintf(fp, "%4d %lld\n", i + 1, (long long)h[i]);
	fprintf(fp, "\n# %s bucket for > %d\n%4d %lld\n", what, BTT_HIST_BKTS - 1,
		BTT_HIST_BKTS - 1, (long long)h[BTT_HIST_BKTS - 1]);
	return fclose(fp) ? -1 : 0;
}

int btt_report_histos(struct btt_engine *e, const char *name)
{
	char path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s_qhist.dat", name);
	ret = write_histo(e, path, "# BTT histogram data\n", "Q", e->q_histo);
	snprintf(path, sizeof(path), "%s_dhist.dat", name);
	return write_histo(e, path, "", "D", e->d_histo) || ret;
}
