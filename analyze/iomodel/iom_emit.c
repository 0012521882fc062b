// SPDX-License-Identifier: GPL-2.0
/*
 * iom_emit.c - an I/O of the per-I/O model, done or abandoned, as a
 * struct bs_io_sample to every sink, with its stages measured.
 */
#include <string.h>
#include "iom_priv.h"

#define NS BS_NOT_SEEN

static void tally(struct iom_tally *t, const struct iom_io *io)
{
	t->ios++;
	t->bytes += io->bytes;
}

/*
 * The I/O kept for a trigger note that may follow it (iom_trigger.c; its stages are worked out
 * there).
 */
static inline void remember(struct iom *m, const struct bs_io_sample *s)
{
	struct iom_trigger_io *r = &m->recent[m->recent_next++ & (IOM_RECENT - 1)];

	r->device = s->device;
	r->pid = s->pid;
	r->sector = s->sector;
	r->bytes = s->bytes;
	r->op = (uint8_t)s->op;
	r->status = s->status;
	r->flags = (uint16_t)s->flags;
	r->t_q = s->t_q;
	r->t_d = s->t_d;
	r->t_c = s->t_c;
	if (__builtin_expect(m->triggers_waiting != 0, 0))
		iom_trigger_check(m, r);
}

void iom_io_emit(struct iom *m, struct iom_io *io, uint8_t status)
{
	struct bs_io_sample *s = &m->sample;
	int i;

	if (io->epoch != io->dev->loss_epoch)
		io->flags |= BS_IO_LOSS;
	if (status == BS_IO_OPEN) {
		tally(&m->h.open, io);
		if (io->t_q + IOM_WARMUP_NS < m->last_time)
			tally(&m->h.open_stale, io);
	}
	else
		tally(&m->h.done, io);
	if (io->flags & BS_IO_LOSS)
		tally(&m->h.loss, io);
	if (io->frags > 1)
		tally(&m->h.split, io);
	if (!m->nsinks)
		return;
	s->device = io->dev->device;
	s->sector = io->sector;
	s->bytes = io->bytes;
	s->pid = io->pid;
	s->comm = iom_comm_cached(m, io->pid);
	s->op = bs_op_of2(io->action, io->action_hi);
	s->action = io->action;
	s->action_hi = io->action_hi;
	s->t_q = io->t_q;
	s->t_a = io->t_a;
	s->t_g = io->t_g;
	s->t_s = io->t_s;
	s->t_i = io->t_i;
	s->t_m = io->t_m;
	s->t_d = io->t_d;
	s->t_c = status == BS_IO_DONE ? io->t_c : NS;
	s->d_bytes = io->d_bytes;
	s->c_bytes =
		(uint32_t)(io->done_sectors << 9 < io->bytes ? io->done_sectors << 9 : io->bytes);
	s->error = io->error;
	s->status = status;
	s->flags = io->flags;
	s->requeues = io->requeues;
	s->splits = (int)io->frags - 1;
	s->tag = io->tag;
	s->cgroup = io->cgroup;
	s->attr = io->attr;
	m->h.negative_stages += bs_io_sample_stages(s);
	for (i = 0; i < m->nsinks; i++)
		if (m->sinks[i].io_done)
			m->sinks[i].io_done(m->sinks[i].ctx, s);
	remember(m, s);
}
