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

static struct iom_cpu *cpu_slow(struct iom *m, uint32_t device, uint32_t cpu, uint32_t dev_index)
{
	uint64_t key = (uint64_t)device << 32 | cpu;
	bool fresh;
	uint64_t *i = bs_hash_put(&m->cpu_idx, key, m->ncpus, &fresh);
	struct iom_cpu *c;

	if (!fresh)
		return m->last_cpu = &m->cpus[*i];
	BS_GROW(m->cpus, m->cpus_cap, m->ncpus + 1, 8);
	c = &m->cpus[m->ncpus++];
	memset(c, 0, sizeof(*c));
	c->c.device = device;
	c->c.cpu = cpu;
	c->c.first_time = UINT64_MAX;
	c->dev_index = dev_index;
	return m->last_cpu = c;
}

static inline struct iom_cpu *cpu_of(struct iom *m, struct iom_dev *d, uint32_t cpu)
{
	struct iom_cpu *c = m->last_cpu;

	if (c && c->c.device == d->device && c->c.cpu == cpu)
		return c;
	return cpu_slow(m, d->device, cpu, d->index);
}

/*
 * Each (device, CPU) numbers its events from 1 (the kernel's per-trace,
 * per-CPU counter; blkscope record consumes a number for every event it
 * drops, as Linux 6.19 does).  A number skipped is an event lost: every
 * I/O of the device in flight may have lost one of its events, so the
 * device's loss epoch moves on (iom_io.epoch tells them apart later).
 * Sequence 0 (the kernel tracer's binary output) carries nothing.
 */
void iom_stream_event(struct iom *m, struct iom_dev *d, const struct bs_trace *t)
{
	struct iom_cpu *c = cpu_of(m, d, t->cpu);
	uint32_t seq = t->sequence;

	c->c.events++;
	if (t->time < c->c.first_time)
		c->c.first_time = t->time;
	if (t->time > c->c.last_time)
		c->c.last_time = t->time;
	if (!seq)
		return;
	if (!c->c.first_seq)
		c->c.first_seq = seq;
	else if (seq > c->c.last_seq + 1) {
		c->c.gaps++;
		c->c.missing += seq - c->c.last_seq - 1;
		d->loss_epoch++;
	}
	c->c.last_seq = seq;
}

static void count_other(struct bs_dev_counters *c, const struct bs_trace *t, uint32_t action_hi,
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

/* The raw counts of a record (act: its basic action, cgroup flag off). */
void iom_count_event(struct iom *m, struct iom_dev *d, const struct bs_trace *t, uint32_t action_hi,
		     unsigned int act)
{
	struct bs_dev_counters *c = d->ctr;
	struct bs_op_counts *oc;

	(void)m;
	c->last_time = t->time;
	switch (act) {
	case BS_TA_QUEUE:
		oc = bs_dev_op_get(c, bs_op_of2(t->action, action_hi));
		oc->queued++;
		oc->queued_bytes += t->bytes;
		break;
	case BS_TA_ISSUE:
		oc = bs_dev_op_get(c, bs_op_of2(t->action, action_hi));
		oc->issued++;
		oc->issued_bytes += t->bytes;
		break;
	case BS_TA_COMPLETE:
		oc = bs_dev_op_get(c, bs_op_of2(t->action, action_hi));
		oc->completed++;
		oc->completed_bytes += t->bytes;
		c->errors += t->error != 0;
		break;
	default:
		count_other(c, t, action_hi, act);
	}
}
