// SPDX-License-Identifier: GPL-2.0
/*
 * btt_devs.c - the devices of a trace, as btt's devs.c keeps them: created
 * by their first counted event (in that order they are reported), with
 * btt's "pre-culling": nothing counts before a device's first Q or A.
 */
#include <stdlib.h>
#include "btt_priv.h"

struct btt_dev *btt_dev_lookup(const struct btt_engine *e, uint32_t device)
{
	const uint64_t *i = bs_hash_get(&e->dev_idx, device);

	return i ? e->devs[*i] : NULL;
}

static struct btt_dev *dev_create(struct btt_engine *e, uint32_t device, uint64_t time)
{
	struct btt_dev *d = bs_xcalloc(1, sizeof(*d));

	d->device = device;
	d->index = e->ndevs;
	d->last_q = BTT_NONE;
	d->start_ns = time;
	d->pre_culling = 1;
	btt_seek_init(&d->q2q_seek, e->o.seek_values ? &e->seek_budget : NULL, e->seek_folder);
	btt_seek_init(&d->d2d_seek, e->o.seek_values ? &e->seek_budget : NULL, e->seek_folder);
	btt_live_init(&d->live);
	if (e->o.live_files)
		btt_live_keep_all(&d->live);
	btt_open_latency_files(e, d);
	BS_GROW(e->devs, e->devs_cap, (size_t)e->ndevs, 8);
	bs_hash_put(&e->dev_idx, device, (uint64_t)e->ndevs, NULL);
	e->devs[e->ndevs++] = d;
	return d;
}

/*
 * btt's dip_alloc(): find or create the device; NULL while the device is
 * still pre-culling (nothing counts before its first Q or A).
 */
struct btt_dev *btt_dev_setup(struct btt_engine *e, uint32_t device, enum btt_type type,
				uint64_t time)
{
	struct btt_dev *d = btt_engine_find_dev(e, device);

	if (!d)
		d = dev_create(e, device, time);
	e->last_dev = d;
	if (d->pre_culling) {
		if (type != T_Q && type != T_A)
			return NULL;
		d->pre_culling = 0;
	}
	d->end_ns = time;
	return d;
}

/* -A: btt's Q2D histogram of a device (<5, <10, <25 ... ms, >= 1 s) */
void btt_dev_q2d_add(struct btt_dev *d, uint64_t q2d_ns)
{
	double q2d = btt_secs(q2d_ns);
	long msec = (long)(q2d / 0.001);
	int b;

	if (msec < 0 || msec >= 1000)
		b = 9;
	else if (msec >= 500)
		b = 8;
	else if (msec >= 250)
		b = 7;
	else if (msec >= 100)
		b = 6;
	else if (msec >= 75)
		b = 5;
	else if (msec >= 50)
		b = 4;
	else if (msec >= 25)
		b = 3;
	else if (msec >= 10)
		b = 2;
	else if (msec >= 5)
		b = 1;
	else
		b = 0;
	d->q2d_hist[b]++;
	d->q2d_n++;
}
