// SPDX-License-Identifier: GPL-2.0
/*
 * iom_dev.c - the per-I/O model's devices, their counters, and the health
 * of each (device, CPU) stream: sequence gaps (lost events) and the time
 * each covers.
 */
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "iom_priv.h"

struct iom_dev *iom_dev_slow(struct iom *m, uint32_t device, uint64_t time)
{
	struct iom_dev *d;
	bool fresh;
	uint64_t *i = bs_hash_put(&m->dev_idx, device, m->ndevs, &fresh);
	size_t k;

	if (!fresh)
		return m->last_dev = m->devs[*i];
	BS_GROW(m->devs, m->devs_cap, m->ndevs + 1, 8);
	if (m->ndevs + 1 > m->ctrs_cap) {
		BS_GROW(m->ctrs, m->ctrs_cap, m->ndevs + 1, 8);
		for (k = 0; k < m->ndevs; k++)	/* the array moved */
			m->devs[k]->ctr = &m->ctrs[k];
	}
	d = bs_xcalloc(1, sizeof(*d));
	d->device = device;
	d->index = (uint32_t)m->ndevs;
	d->ctr = &m->ctrs[m->ndevs];
	memset(d->ctr, 0, sizeof(*d->ctr));
	d->ctr->device = device;
	d->ctr->first_time = time;
	m->devs[m->ndevs++] = d;
	return m->last_dev = d;
}

/* The stream of (device, cpu), made at its first sight. */
struct iom_cpu *iom_cpu_get(struct iom *m, uint32_t device, uint32_t cpu, uint32_t dev_index)
{
	uint64_t key = (uint64_t)device << 32 | cpu;
	bool fresh;
	uint64_t *i = bs_hash_put(&m->cpu_idx, key, m->ncpus, &fresh);
	struct iom_cpu *c;

	if (!fresh)
		return m->cpus[*i];
	BS_GROW(m->cpus, m->cpus_cap, m->ncpus + 1, 8);
	c = bs_xcalloc(1, sizeof(*c));
	c->c.device = device;
	c->c.cpu = cpu;
	c->c.first_time = UINT64_MAX;
	c->c.last_seq = UINT32_MAX;	/* the first event takes the out-of-line way */
	c->dev_index = dev_index;
	m->cpus[m->ncpus++] = c;
	return c;
}

struct iom_cpu *iom_cpu_slow(struct iom *m, struct iom_dev *d, uint32_t cpu)
{
	struct iom_cpu *c = iom_cpu_get(m, d->device, cpu, d->index);

	if (cpu < IOM_FAST_CPUS)
		d->cpu_fast[cpu] = c;
	return c;
}

/*
 * A stream's first event, a gap, or a trace without numbers (sequence 0:
 * the kernel tracer's binary output).  A number skipped is an event
 * lost: every I/O of the device in flight may have lost one of its
 * events, so the device's loss epoch moves on (iom_io.epoch tells them
 * apart later).
 */
void iom_stream_out_of_seq(struct iom_dev *d, struct iom_cpu *c, const struct bs_trace *t)
{
	uint32_t seq = t->sequence;

	if (t->time < c->c.first_time)
		c->c.first_time = t->time;
	if (!seq)
		return;
	if (!c->c.first_seq) {
		c->c.first_seq = seq;
	} else if (seq > c->c.last_seq + 1) {
		c->c.gaps++;
		c->c.missing += seq - c->c.last_seq - 1;
		d->loss_epoch++;
	}
	c->c.last_seq = seq;
}

void iom_count_other(struct bs_dev_counters *c, const struct bs_trace *t, uint32_t action_hi,
			unsigned int act)
{
	switch (act) {
	case BS_TA_BACKMERGE:
	case BS_TA_FRONTMERGE:
		bs_dev_op_get(c, bs_op_of2(t->action, action_hi))->merges++;
		break;
	case BS_TA_REQUEUE:
		bs_dev_op_get(c, bs_op_of2(t->action, action_hi))->requeues++;
		break;
	case BS_TA_SPLIT:
		c->splits++;
		break;
	case BS_TA_REMAP:
		c->remaps++;
		break;
	case BS_TA_PLUG:
		c->plugs++;
		break;
	case BS_TA_UNPLUG_IO:
		c->unplugs++;
		break;
	case BS_TA_UNPLUG_TIMER:
		c->unplug_timers++;
		break;
	}
}

