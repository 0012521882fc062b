// SPDX-License-Identifier: GPL-2.0
/*
 * btt_sidefiles.c - btt's per-IO side outputs: -l/-q/-z latency files
 * (NAME_<maj>,<min>_{d2c,q2c,q2d}.dat, "%lf %lf" per bio) and the -p trace
 * of each completed bio's Q/G/I/M/D/C.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "btt_internal.h"

static FILE *latency_open(uint32_t device, const char *name, const char *post)
{
	char path[4096];
	FILE *fp;

	if (!name)
		return NULL;
	snprintf(path, sizeof(path), "%s_%d,%d_%s.dat", name, BS_DEV_MAJOR(device),
		 BS_DEV_MINOR(device), post);
	fp = fopen(path, "w");
	if (!fp)
		fprintf(stderr, "blkscope-analyze: %s: %s\n", path, strerror(errno));
	return fp;
}

void bt_open_latency_files(struct bt_engine *e, struct bt_dev *d)
{
	d->q2d_fp = latency_open(d->device, e->o.q2d_name, "q2d");
	d->d2c_fp = latency_open(d->device, e->o.d2c_name, "d2c");
	d->q2c_fp = latency_open(d->device, e->o.q2c_name, "q2c");
}

static void out_stage(FILE *fp, uint64_t t, char type, uint64_t sec, uint32_t nblks, int indent)
{
	if (t == BT_NONE)
		return;
	if (indent)
		fprintf(fp, "         ");
	fprintf(fp, "%5d.%09lu %c %10llu+%-4u\n", (int)(t / 1000000000ull),
		(unsigned long)(t % 1000000000ull), type, (unsigned long long)sec, nblks);
}

/* btt -p: one block per completed bio */
void bt_per_io_track(FILE *fp, const struct bt_q *q, uint64_t t_c, uint64_t c_sec,
			 uint32_t c_nblks)
{
	uint32_t nblks = q->bytes >> 9;

	fprintf(fp, "%3d,%-3d: ", BS_DEV_MAJOR(q->dev->device), BS_DEV_MINOR(q->dev->device));
	out_stage(fp, q->t_q, 'Q', q->sector, nblks, 0);
	if (q->t_g != BT_NONE)
		out_stage(fp, q->t_g, 'G', q->sector, nblks, 1);
	if (q->t_i != BT_NONE)
		out_stage(fp, q->t_i, 'I', q->sector, nblks, 1);
	if (q->t_m != BT_NONE)
		out_stage(fp, q->t_m, 'M', q->sector, nblks, 1);
	out_stage(fp, q->t_d, 'D', q->d_sec, q->d_nsec, 1);
	out_stage(fp, t_c, 'C', c_sec, c_nblks, 1);
	fprintf(fp, "\n");
}
