// SPDX-License-Identifier: GPL-2.0
/*
 * btt_iostat.c - btt's iostat.c semantics, field for field: counters per
 * interval (stats) and for the whole run (all_stats); queue size and
 * idle time integrated in double seconds exactly as btt does so that the
 * printed values agree to the last digit.
 */
#include <stdlib.h>
#include <string.h>
#include "btt_priv.h"

static inline double to_sec(uint64_t ns)
{
	return (double)ns / 1.0e9;
}

static inline double to_msec(uint64_t ns)
{
	return 1000.0 * to_sec(ns);
}

static inline uint64_t tdelta(uint64_t from, uint64_t to)
{
	return from < to ? to - from : 1;
}

static void dump_hdr(FILE *fp)
{
	fprintf(fp, "Device:       rrqm/s   wrqm/s     r/s     w/s    rsec/s    wsec/s     rkB/s"
		"     wkB/s avgrq-sz avgqu-sz   await   svctm  %%util   Stamp\n");
}

void btt_iostat_init(struct btt_iostat *io, FILE *fp, uint64_t interval)
{
	memset(io, 0, sizeof(*io));
	io->fp = fp;
	io->interval = interval ? interval : 1000000000ull;
	io->last_start = UINT64_MAX;
	if (fp)
		dump_hdr(fp);
}

static void update_tot_qusz(struct btt_iostat_dev *s, double now)
{
	s->stats.tot_qusz += (now - s->stats.last_qu_change) * s->stats.cur_qusz;
	s->all_stats.tot_qusz += (now - s->all_stats.last_qu_change) * s->all_stats.cur_qusz;
	s->stats.last_qu_change = s->all_stats.last_qu_change = now;
}

static void update_idle_time(struct btt_iostat_dev *s, double now, int force)
{
	if (s->stats.cur_dev == 0 || force) {
		s->stats.idle_time += now - s->stats.last_dev_change;
		s->all_stats.idle_time += now - s->all_stats.last_dev_change;
	}
	s->stats.last_dev_change = s->all_stats.last_dev_change = now;
}

struct iostat_acc {
	double n;
	double rqm_s[2], ios_s[2], sec_s[2];
	double avgrq_sz, avgqu_sz, await, svctm, p_util;
};

static void dump_dev(struct btt_iostat *io, uint64_t stamp, int all, struct btt_dev *d,
		     struct iostat_acc *acc)
{
	FILE *fp = io->fp;
	struct btt_iostat_stats *sp;
	double dt, nios, nrqm, avgrq_sz, svctm, await, p_util;
	double now = to_sec(stamp);
	char hdr[16];
	int i;

	if (all) {
		dt = (double)stamp / 1.0e9;
		sp = &d->iostat.all_stats;
	} else {
		dt = (double)(stamp - io->last_start) / 1.0e9;
		sp = &d->iostat.stats;
	}
	nios = (double)(sp->ios[0] + sp->ios[1]);
	nrqm = (double)(sp->rqm[0] + sp->rqm[1]);
	update_idle_time(&d->iostat, now, 1);
	update_tot_qusz(&d->iostat, now);
	if (nios > 0.0) {
		avgrq_sz = (double)(sp->sec[0] + sp->sec[1]) / nios;
		svctm = to_msec(sp->svctm) / nios;
	} else {
		avgrq_sz = svctm = 0.0;
	}
	await = (nios + nrqm) > 0.0 ? to_msec(sp->wait) / (nios + nrqm) : 0.0;
	p_util = sp->idle_time <= dt ? 100.0 * (1.0 - sp->idle_time / dt) : 0.0;

	fprintf(fp, "%-11s ", btt_dev_hdr(hdr, 11, d->device));
	fprintf(fp, "%8.2lf ", (double)sp->rqm[1] / dt);
	fprintf(fp, "%8.2lf ", (double)sp->rqm[0] / dt);
	fprintf(fp, "%7.2lf ", (double)sp->ios[1] / dt);
	fprintf(fp, "%7.2lf ", (double)sp->ios[0] / dt);
	fprintf(fp, "%9.2lf ", (double)sp->sec[1] / dt);
	fprintf(fp, "%9.2lf ", (double)sp->sec[0] / dt);
	fprintf(fp, "%9.2lf ", (double)(sp->sec[1] / 2) / dt);
	fprintf(fp, "%9.2lf ", (double)(sp->sec[0] / 2) / dt);
	fprintf(fp, "%8.2lf ", avgrq_sz);
	fprintf(fp, "%8.2lf ", sp->tot_qusz / dt);
	fprintf(fp, "%7.2lf ", await);
	fprintf(fp, "%7.2lf ", svctm);
	fprintf(fp, "%6.2lf", p_util);
	if (all) {
		fprintf(fp, "%8s\n", "TOTAL");
	} else {
		fprintf(fp, "%8.2lf\n", to_sec(stamp));
		sp->rqm[0] = sp->rqm[1] = 0;
		sp->ios[0] = sp->ios[1] = 0;
		sp->sec[0] = sp->sec[1] = 0;
		sp->wait = sp->svctm = 0;
		sp->tot_qusz = sp->idle_time = 0.0;
	}

	acc->n += 1.0;
	for (i = 0; i < 2; i++) {
		acc->rqm_s[i] += (double)sp->rqm[i] / dt;
		acc->ios_s[i] += (double)sp->ios[i] / dt;
		acc->sec_s[i] += (double)sp->sec[i] / dt;
	}
	acc->avgrq_sz += avgrq_sz;
	acc->avgqu_sz += sp->tot_qusz / dt;
	acc->await += await;
	acc->svctm += svctm;
	acc->p_util += p_util;
}

/* btt prints the TOTAL row's read and write columns the other way round. */
static void dump_total(FILE *fp, uint64_t stamp, const struct iostat_acc *a, int all)
{
	if (a->n < 2.0)
		return;
	fprintf(fp, "%-11s ", "TOTAL");
	fprintf(fp, "%8.2lf ", a->rqm_s[0]);
	fprintf(fp, "%8.2lf ", a->rqm_s[1]);
	fprintf(fp, "%7.2lf ", a->ios_s[0]);
	fprintf(fp, "%7.2lf ", a->ios_s[1]);
	fprintf(fp, "%9.2lf ", a->sec_s[0]);
	fprintf(fp, "%9.2lf ", a->sec_s[1]);
	fprintf(fp, "%9.2lf ", a->sec_s[0] / 2.0);
	fprintf(fp, "%9.2lf ", a->sec_s[1] / 2.0);
	fprintf(fp, "%8.2lf ", a->avgrq_sz / a->n);
	fprintf(fp, "%8.2lf ", a->avgqu_sz / a->n);
	fprintf(fp, "%7.2lf ", a->await / a->n);
	fprintf(fp, "%7.2lf ", a->svctm / a->n);
	fprintf(fp, "%6.2lf", a->p_util / a->n);
	if (all)
		fprintf(fp, "%8s\n", "TOTAL");
	else
		fprintf(fp, "%8.2lf\n", to_sec(stamp));
}

static void dump_stats(struct btt_engine *e, uint64_t stamp, int all)
{
	struct btt_iostat *io = &e->iostat;
	struct iostat_acc acc;
	struct btt_dev **devs;
	int i, n;

	memset(&acc, 0, sizeof(acc));
	if (all)
		dump_hdr(io->fp);
	n = btt_report_out_devs(e, &devs);
	for (i = 0; i < n; i++)
		dump_dev(io, stamp, all, devs[i], &acc);
	free(devs);
	dump_total(io->fp, stamp, &acc, all);
	if (!all)
		fprintf(io->fp, "\n");
}

void btt_iostat_check_time(struct btt_engine *e, uint64_t stamp)
{
	struct btt_iostat *io = &e->iostat;

	if (!io->fp)
		return;
	if (io->last_start == UINT64_MAX) {
		io->last_start = stamp;
	} else if (stamp - io->last_start >= io->interval) {
		dump_stats(e, stamp, 0);
		io->last_start = stamp;
	}
	io->last_stamp = stamp;
}

void btt_iostat_getrq(struct btt_dev *d, uint64_t time)
{
	update_tot_qusz(&d->iostat, to_sec(time));
	d->iostat.stats.cur_qusz++;
	d->iostat.all_stats.cur_qusz++;
}

void btt_iostat_merge(struct btt_dev *d, int rw)
{
	d->iostat.stats.rqm[rw]++;
	d->iostat.all_stats.rqm[rw]++;
}

void btt_iostat_issue(struct btt_dev *d, uint64_t time, int rw, uint32_t bytes)
{
	struct btt_iostat_dev *s = &d->iostat;

	s->stats.ios[rw]++;
	s->all_stats.ios[rw]++;
	s->stats.sec[rw] += bytes >> 9;
	s->all_stats.sec[rw] += bytes >> 9;
	update_idle_time(s, to_sec(time), 0);
	s->stats.cur_dev++;
	s->all_stats.cur_dev++;
}

void btt_iostat_complete(struct btt_dev *qd, struct btt_dev *cd, uint64_t t_q, uint64_t t_i,
			uint64_t t_m, uint64_t t_c)
{
	double now = to_sec(t_c);
	struct btt_iostat_dev *s = &qd->iostat;
	uint64_t w;

	if (t_i != BTT_NONE) {
		w = tdelta(t_i, t_c);
		cd->iostat.stats.wait += w;
		cd->iostat.all_stats.wait += w;
	} else if (t_m != BTT_NONE) {
		w = tdelta(t_m, t_c);
		cd->iostat.stats.wait += w;
		cd->iostat.all_stats.wait += w;
	}
	update_tot_qusz(s, now);
	s->stats.cur_qusz--;
	s->all_stats.cur_qusz--;
	update_idle_time(s, now, 0);
	s->stats.cur_dev--;
	s->all_stats.cur_dev--;
	w = tdelta(t_q, t_c);
	s->stats.svctm += w;
	s->all_stats.svctm += w;
}

void btt_iostat_finish(struct btt_engine *e)
{
	if (!e->iostat.fp)
		return;
	fprintf(e->iostat.fp, "\n");
	dump_stats(e, e->iostat.last_stamp, 1);
}
