// SPDX-License-Identifier: GPL-2.0
/*
 * btt_sinks.c - what the engine hands to report extensions: one
 * bs_io_sample per queued bio (io_sample.h) and raw per-device counters.
 */
#include <stdlib.h>
#include <string.h>
#include "btt_internal.h"

void bt_emit_sample(struct bt_engine *e, const struct bt_q *q, uint64_t t_c,
			uint32_t c_bytes, uint16_t error)
{
	struct bs_io_sample s;
	int i;

	if (!e->nsinks)
		return;
	s.device = q->dev->device;
	s.sector = q->sector;
	s.bytes = q->bytes;
	s.pid = q->pid;
	s.comm = q->proc && q->proc->named ? q->proc->name : NULL;
	s.op = bs_op_of2(q->action, q->action_hi);
	s.action = q->action;
	s.action_hi = q->action_hi;
	s.t_q = q->t_q;
	s.t_a = q->t_a;
	s.t_g = q->t_g;
	s.t_s = q->t_s;
	s.t_i = q->t_i;
	s.t_m = q->t_m;
	s.t_d = q->t_d;
	s.t_c = t_c;
	s.d_bytes = q->t_d != BT_NONE ? q->d_nsec << 9 : 0;
	s.c_bytes = c_bytes;
	s.error = error;
	s.requeues = q->requeues;
	s.splits = q->splits;
	s.tag = q->tag;
	s.cgroup = q->cgroup;
	for (i = 0; i < e->nsinks; i++)
		if (e->sinks[i].io_done)
			e->sinks[i].io_done(e->sinks[i].ctx, &s);
}

int bt_engine_add_sink(struct bt_engine *e, const struct bs_sample_sink *sink)
{
	if (e->nsinks == BT_MAX_SINKS)
		return -1;
	e->sinks[e->nsinks++] = *sink;
	if (sink->event)
		e->event_sinks = true;
	return 0;
}

/* The counters of a device other than the previous event's (a hash lookup; first sight: new). */
struct bs_dev_counters *bt_counters_slow(struct bt_engine *e, uint32_t device, uint64_t time)
{
	struct bs_dev_counters *c;
	bool fresh;
	uint64_t *i;

	i = bs_hash_put(&e->counters_idx, device, (uint64_t)e->ncounters, &fresh);
	if (!fresh)
		return e->last_counters = &e->counters[*i];
	BS_GROW(e->counters, e->counters_cap, (size_t)e->ncounters, 8);
	c = &e->counters[e->ncounters++];
	memset(c, 0, sizeof(*c));
	c->device = device;
	c->first_time = time;
	return e->last_counters = c;
}

/* bt_count_event()'s actions that are not one of Q, D, C (rarer) */
void bt_count_other(struct bs_dev_counters *c, const struct bs_trace *t, uint32_t action_hi)
{
	switch (bs_act_basic(t->action) & ~BS_TA_CGROUP) {
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

/*
 * A split (X) cuts the queued bio starting at its sector in two (the PDU
 * is where the rest starts); the sample counts them.  btt ignores X: no
 * device or process is made here, so its report cannot change.
 */
void bt_sample_split(struct bt_engine *e, const struct bs_trace *t)
{
	struct bt_dev *d;
	struct bt_q *q;

	if (!e->nsinks)
		return;
	d = bt_engine_find_dev(e, t->device);
	q = d ? q_find_sec(d, t->sector) : NULL;
	if (q)
		q->splits++;
}
