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
	struct bs_io_sample local, *sp = &local;
	char *comm = NULL;
	int i;

	if (!e->nsinks)
		return;
	if (e->sink_thread)	/* into the batch: no copy */
		sp = bt_sink_thread_slot(e->sink_thread, &comm);
	sp->device = q->dev->device;
	sp->sector = q->sector;
	sp->bytes = q->bytes;
	sp->pid = q->pid;
	sp->comm = q->proc && q->proc->named ? q->proc->name : NULL;
	if (sp->comm && comm)	/* the engine's names move (realloc): the batch holds a copy */
		sp->comm = memcpy(comm, q->proc->name, BT_PROC_NAME_LEN);
	sp->op = bs_op_of2(q->action, q->action_hi);
	sp->action = q->action;
	sp->action_hi = q->action_hi;
	sp->t_q = q->t_q;
	sp->t_a = q->t_a;
	sp->t_g = q->t_g;
	sp->t_s = q->t_s;
	sp->t_i = q->t_i;
	sp->t_m = q->t_m;
	sp->t_d = q->t_d;
	sp->t_c = t_c;
	sp->d_bytes = q->t_d != BT_NONE ? q->d_nsec << 9 : 0;
	sp->c_bytes = c_bytes;
	sp->error = error;
	sp->requeues = q->requeues;
	sp->splits = q->splits;
	sp->tag = q->tag;
	sp->cgroup = q->cgroup;
	if (e->sink_thread)	/* already in the batch */
		return;
	for (i = 0; i < e->nsinks; i++)
		if (e->sinks[i].io_done)
			e->sinks[i].io_done(e->sinks[i].ctx, sp);
}

int bt_engine_add_sink(struct bt_engine *e, const struct bs_sample_sink *sink)
{
	if (e->nsinks == BT_MAX_SINKS)
		return -1;
	e->sinks[e->nsinks++] = *sink;
	if (sink->event)
		e->event_sinks = true;
	bt_engine_check_plain(e);
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
