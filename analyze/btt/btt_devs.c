// SPDX-License-Identifier: GPL-2.0
/*
 * btt_devs.c - the devices of a trace, as btt's devs.c keeps them: created
 * by their first counted event (in that order they are reported), with
 * btt's "pre-culling": nothing counts before a device's first Q or A.
 */
#include <stdlib.h>
#include "btt_internal.h"

static inline unsigned int dev_slot(uint32_t device, unsigned int size)
{
	return (device * 2654435761u) & (size - 1);
}

struct bt_dev *bt_dev_lookup(const struct bt_engine *e, uint32_t device)
{
	unsigned int i;

	for (i = dev_slot(device, e->dev_hash_size);; i = (i + 1) & (e->dev_hash_size - 1)) {
		struct bt_dev *d = e->dev_hash[i];

		if (!d || d->device == device)
			return d;
	}
}

static struct bt_dev *dev_create(struct bt_engine *e, uint32_t device, uint64_t time)
{
	struct bt_dev *d = bs_xcalloc(1, sizeof(*d));
	unsigned int i;

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

	if (e->ndevs == e->devs_cap) {
		e->devs_cap = e->devs_cap ? e->devs_cap * 2 : 8;
		e->devs = bs_xrealloc(e->devs, e->devs_cap * sizeof(*e->devs));
	}
	e->devs[e->ndevs++] = d;
	if ((unsigned int)e->ndevs * 2 > e->dev_hash_size) {
		unsigned int size = e->dev_hash_size * 2;
		struct bt_dev **h = bs_xcalloc(size, sizeof(*h));
		int k;

		for (k = 0; k < e->ndevs; k++) {
			for (i = dev_slot(e->devs[k]->device, size); h[i]; i = (i + 1) & (size - 1))
				;
			h[i] = e->devs[k];
		}
		free(e->dev_hash);
		e->dev_hash = h;
		e->dev_hash_size = size;
	} else {
		for (i = dev_slot(device, e->dev_hash_size); e->dev_hash[i];
		     i = (i + 1) & (e->dev_hash_size - 1))
			;
		e->dev_hash[i] = d;
	}
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
