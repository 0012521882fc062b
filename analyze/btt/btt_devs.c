// SPDX-License-Identifier: GPL-2.0
/*
 * btt_devs.c - the devices of a trace, as btt's devs.c keeps them: created
 * by their first counted event (in that order they are reported), with
 * btt's "pre-culling": nothing counts before a device's first Q or A.
 */
#include <stdlib.h>
#include "btt_internal.h"

struct bt_dev *bt_dev_lookup(const struct bt_engine *e, uint32_t device)
{
	const uint64_t *i = bs_hash_get(&e->dev_idx, device);

	return i ? e->devs[*i] : NULL;
}

static struct bt_dev *dev_create(struct bt_engine *e, uint32_t device, uint64_t time)
{
	struct bt_dev *d = bs_xcalloc(1, sizeof(*d));

	d->device = device;
	d->index = e->ndevs;
	d->last_q = BT_NONE;
	d->start_ns = time;
	d->pre_culling = 1;
	bt_seek_init(&d->q2q_seek, e->o.seek_values ? &e->seek_budget : NULL);
	bt_seek_init(&d->d2d_seek, e->o.seek_values ? &e->seek_budget : NULL);
	bt_live_init(&d->live);
	if (e->o.live_files)
		bt_live_keep_all(&d->live);
	bt_open_latency_files(e, d);
	BS_GROW(e->devs, e->devs_cap, (size_t)e->ndevs, 8);
	bs_hash_put(&e->dev_idx, device, (uint64_t)e->ndevs, NULL);
	e->devs[e->ndevs++] = d;
	return d;
}

/*
 * btt's dip_alloc(): find or create the device; NULL while the device is
 * still pre-culling (nothing counts before its first Q or A).
 */
struct bt_dev *bt_dev_setup(struct bt_engine *e, uint32_t device, enum bt_type type,
				uint64_t time)
{
	struct bt_dev *d = bt_engine_find_dev(e, device);

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
