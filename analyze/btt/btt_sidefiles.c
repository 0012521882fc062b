// SPDX-License-Identifier: GPL-2.0
/*
 * btt_sidefiles.c - btt's per-IO side outputs: -l/-q/-z latency files
 * (NAME_<maj>,<min>_{d2c,q2c,q2d}.dat, "%lf %lf" per bio) and the -p trace
 * of each completed bio's Q/G/I/M/D/C.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bs_outfile.h"
#include "bs_numfmt.h"
#include "btt_priv.h"
#include "bs_stream.h"

/*
 * btt replaces its side files; so do we, but only a regular file of our
 * own (format/bs_outfile.h: removed, then created with O_EXCL|O_NOFOLLOW|
 * O_CLOEXEC): a symlink, FIFO, device or someone else's file at the path
 * is never followed, opened or written, and a tag plugin does not inherit
 * the descriptor.
 */
FILE *btt_create_file(const struct btt_engine *e, const char *path)
{
	int fd = bs_create_path(path, BS_CREATE_REPLACE), err = errno;
	char why[192];
	FILE *fp;

	if (fd >= 0) {
		fp = fdopen(fd, "w");
		if (fp)
			return fp;
		err = errno;
		close(fd);
		snprintf(why, sizeof(why), ": %s", strerror(err));
	} else {
		bs_create_path_explain(path, err, why, sizeof(why));
	}
	bs_msg(&e->o.warn, BS_MSG_WARN, "side file %s%s%s", path,
	       why[0] == ':' ? "" : " ", why);
	return NULL;
}

static FILE *latency_open(const struct btt_engine *e, uint32_t device, const char *name,
			  const char *post)
{
	char path[4096];

	if (!name)
		return NULL;
	snprintf(path, sizeof(path), "%s_%d,%d_%s.dat", name, BS_DEV_MAJOR(device),
		 BS_DEV_MINOR(device), post);
	return btt_create_file(e, path);
}

static FILE *side_open(const struct btt_engine *e, const char *fmt, const char *name,
		       uint32_t device, const char *post)
{
	char path[4096];

	snprintf(path, sizeof(path), fmt, name, BS_DEV_MAJOR(device), BS_DEV_MINOR(device), post);
	return btt_create_file(e, path);
}

/* a device's side files, opened when btt creates the device */
void btt_open_latency_files(struct btt_engine *e, struct btt_dev *d)
{
	static const char *const rwc[3] = { "r", "w", "c" };
	int i;

	d->q2d_fp = latency_open(e, d->device, e->o.q2d_name, "q2d");
	d->d2c_fp = latency_open(e, d->device, e->o.d2c_name, "d2c");
	d->q2c_fp = latency_open(e, d->device, e->o.q2c_name, "q2c");
	if (e->o.seek_name) {
		d->q2q_seek.rfp =
			side_open(e, "%s_%d,%d_q2q_%s.dat", e->o.seek_name, d->device, "r");
		d->q2q_seek.wfp =
			side_open(e, "%s_%d,%d_q2q_%s.dat", e->o.seek_name, d->device, "w");
		d->q2q_seek.cfp =
			side_open(e, "%s_%d,%d_q2q_%s.dat", e->o.seek_name, d->device, "c");
		d->d2d_seek.rfp =
			side_open(e, "%s_%d,%d_d2d_%s.dat", e->o.seek_name, d->device, "r");
		d->d2d_seek.wfp =
			side_open(e, "%s_%d,%d_d2d_%s.dat", e->o.seek_name, d->device, "w");
		d->d2d_seek.cfp =
			side_open(e, "%s_%d,%d_d2d_%s.dat", e->o.seek_name, d->device, "c");
	}
	if (e->o.bno_name)
		for (i = 0; i < 3; i++)
			d->bno_fp[i] =
				side_open(e, "%s_%d,%d_%s.dat", e->o.bno_name, d->device, rwc[i]);
	if (e->o.aqd_name)
		d->aqd_fp = side_open(e, "%s_%d,%d_%s.dat", e->o.aqd_name, d->device, "aqd");
	if (e->o.pit_files)	/* btt ignores -P's argument for the name */
		d->pit_fp = side_open(e, "%s%d,%d%s.dat", "", d->device, "_pit");
	if (e->o.plat_freq > 0) {
		static const char *const post[3] = { "_q2d", "_q2c", "_d2c" };

		for (i = 0; i < 3; i++) {
			d->plat[i].fp = side_open(e, "%s%d,%d%s_plat.dat", "", d->device, post[i]);
			d->plat[i].first_ts = d->plat[i].last_ts = d->plat[i].tl = -1.0;
		}
	}
	if (e->o.uhist_name) {
		d->uhist = bs_xcalloc(21, sizeof(*d->uhist));
	}
}

/* -B: every D's blocks; -Q: the active queue depth before and after */
void btt_side_issue(struct btt_dev *d, const struct bs_trace *t)
{
	if (d->bno_fp[2]) {
		FILE *fp = d->bno_fp[t->action & BS_TC_ACT(BS_TC_READ) ? 0 : 1];
		char ts[BS_SECS_BUF];
		long long s = (long long)t->sector, e = (long long)(t->sector + (t->bytes >> 9));

		bs_fmt_secs(ts, sizeof(ts), t->time, 15);
		if (fp)
			fprintf(fp, "%s %lld %lld\n", ts, s, e);
		fprintf(d->bno_fp[2], "%s %lld %lld\n", ts, s, e);
	}
	if (d->aqd_fp) {
		double ts = btt_secs(t->time);

		fprintf(d->aqd_fp, "%lf %d\n%lf %d\n", ts, d->aqd_active, ts, d->aqd_active + 1);
		d->aqd_active++;
	}
}

void btt_side_complete(struct btt_dev *d, uint64_t time)
{
	if (d->aqd_fp && d->aqd_active > 0) {
		double ts = btt_secs(time);

		fprintf(d->aqd_fp, "%lf %d\n%lf %d\n", ts, d->aqd_active, ts, d->aqd_active - 1);
		d->aqd_active--;
	}
}

/* -u: btt counts every IO unplug's depth in buckets of 5, the last for 100 and up */
void btt_side_unplug(struct btt_dev *d, const struct bs_trace *t, const uint8_t *pdu)
{
	int n = (int)bs_pdu_be64(t, pdu), idx = n / 5;

	if (!d->uhist)
		return;
	if (idx > 20)
		idx = 20;
	if (idx >= 0)
		d->uhist[idx]++;
}

/*
 * -P: after a C's bio start times, the D time of the last dispatched one
 * and the C time.  With none dispatched btt prints its "no time" (~0)
 * through the same casts: kept.
 */
void btt_pit_line(FILE *fp, uint64_t d_time, uint64_t c_time)
{
	fprintf(fp, "| %d.%09lu | %d.%09lu\n", (int)(d_time / 1000000000ull),
		(unsigned long)(d_time % 1000000000ull), (int)(c_time / 1000000000ull),
		(unsigned long)(c_time % 1000000000ull));
}

/* -L: btt's plat.c, averages over windows of -L seconds */
void btt_plat_add(struct btt_plat *p, double freq, uint64_t ts, uint64_t latency)
{
	double now = (double)ts / 1.0e9, lat = (double)latency / 1.0e9;

	if (p->first_ts == -1.0) {
		p->first_ts = p->last_ts = now;
		p->nl = 1;
		p->tl = lat;
	} else if (now - p->first_ts >= freq) {
		fprintf(p->fp, "%lf %lf\n", p->first_ts + (p->last_ts - p->first_ts) / 2,
			p->tl / p->nl);
		p->first_ts = p->last_ts = now;
		p->nl = 1;
		p->tl = lat;
	} else {
		p->last_ts = now;
		p->nl += 1;
		p->tl += lat;
	}
}

void btt_close_side_files(struct btt_engine *e, struct btt_dev *d)
{
	int k;

	for (k = 0; k < 3; k++) {
		struct btt_plat *p = &d->plat[k];

		if (!p->fp)
			continue;
		if (p->first_ts != -1.0)
			fprintf(p->fp, "%lf %lf\n", p->first_ts + (p->last_ts - p->first_ts) / 2,
				p->tl / p->nl);
		fclose(p->fp);
	}
	FILE *fps[] = { d->q2d_fp, d->d2c_fp, d->q2c_fp, d->bno_fp[0], d->bno_fp[1], d->bno_fp[2],
			d->aqd_fp, d->pit_fp, d->q2q_seek.rfp, d->q2q_seek.wfp, d->q2q_seek.cfp,
			d->d2d_seek.rfp, d->d2d_seek.wfp, d->d2d_seek.cfp };
	size_t i;

	for (i = 0; i < sizeof(fps) / sizeof(fps[0]); i++)
		if (fps[i])
			fclose(fps[i]);
	if (d->uhist) {
		FILE *fp = side_open(e, "%s_%d,%d%s.dat", e->o.uhist_name, d->device, "");

		if (fp) {
			for (i = 0; i < 21; i++)
				fprintf(fp, "%d %d\n", (int)i, (int)d->uhist[i]);
			fclose(fp);
		}
		free(d->uhist);
	}
}

static void out_stage(FILE *fp, uint64_t t, char type, uint64_t sec, uint32_t nblks, int indent)
{
	if (t == BTT_NONE)
		return;
	if (indent)
		fprintf(fp, "         ");
	fprintf(fp, "%5d.%09lu %c %10llu+%-4u\n", (int)(t / 1000000000ull),
		(unsigned long)(t % 1000000000ull), type, (unsigned long long)sec, nblks);
}

/* btt -p: one block per completed bio */
void btt_per_io_track(FILE *fp, const struct btt_q *q, uint64_t t_c, uint64_t c_sec,
			 uint32_t c_nblks)
{
	uint32_t nblks = q->bytes >> 9;

	fprintf(fp, "%3d,%-3d: ", BS_DEV_MAJOR(q->dev->device), BS_DEV_MINOR(q->dev->device));
	out_stage(fp, q->t_q, 'Q', q->sector, nblks, 0);
	if (q->t_g != BTT_NONE)
		out_stage(fp, q->t_g, 'G', q->sector, nblks, 1);
	if (q->t_i != BTT_NONE)
		out_stage(fp, q->t_i, 'I', q->sector, nblks, 1);
	if (q->t_m != BTT_NONE)
		out_stage(fp, q->t_m, 'M', q->sector, nblks, 1);
	out_stage(fp, q->t_d, 'D', q->d_sec, q->d_nsec, 1);
	out_stage(fp, t_c, 'C', c_sec, c_nblks, 1);
	fprintf(fp, "\n");
}
