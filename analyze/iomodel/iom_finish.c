// SPDX-License-Identifier: GPL-2.0
/*
 * iom_finish.c - the I/Os still in flight when the analysis ends (end of
 * the trace, -T, damage): each goes to the sinks once, as BS_IO_OPEN,
 * with what was seen of it, in the order of their Qs (the tables' order
 * depends on their random seeds; the output must not).
 */
#include <stdlib.h>
#include "bs_alloc.h"
#include "iom_priv.h"


struct open_list {
	struct iom_io **v;
	size_t n, cap;
};

static void take(struct open_list *l, struct iom_frag *f, const struct iom_rq *rq)
{
	struct iom_io *io = f->io;

	iom_frag_lead(io, f, rq);
	if (io->listed)
		return;
	BS_GROW(l->v, l->cap, l->n + 1, 64);
	l->v[l->n++] = io;
	io->listed = true;
}

static void each_rq(struct iom_hnode *n, void *ctx)
{
	const struct iom_rq *rq = IOM_RQ_OF_POS(n);
	struct iom_frag *f;

	for (f = rq->head; f; f = f->next)
		take(ctx, f, rq);
}

static void each_pending(struct iom_hnode *n, void *ctx)
{
	take(ctx, IOM_FRAG_OF(n), NULL);
}

static int by_queue(const void *a, const void *b)
{
	const struct iom_io *x = *(struct iom_io *const *)a, *y = *(struct iom_io *const *)b;

	if (x->t_q != y->t_q)
		return x->t_q < y->t_q ? -1 : 1;
	if (x->dev->index != y->dev->index)
		return x->dev->index < y->dev->index ? -1 : 1;
	if (x->sector != y->sector)
		return x->sector < y->sector ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

void iom_flush_open(struct iom *m)
{
	struct open_list l = { 0 };
	size_t i;

	iom_tab_each(&m->by_pos, each_rq, &l);
	iom_tab_each(&m->pending, each_pending, &l);
	if (l.n)	/* qsort(NULL, 0) is undefined */
		qsort(l.v, l.n, sizeof(*l.v), by_queue);
	for (i = 0; i < l.n; i++)
		iom_io_emit(m, l.v[i], BS_IO_OPEN);
	free(l.v);
	/* the objects stay in their pools (freed with the model); nothing is followed any more */
	iom_tab_free(&m->pending);
	iom_tab_free(&m->by_pos);
	iom_tab_free(&m->by_end);
	iom_tab_init(&m->pending);
	iom_tab_init(&m->by_pos);
	iom_tab_init(&m->by_end);
	for (i = 0; i < m->ndevs; i++)
		m->devs[i]->flush_waiters = NULL;
}
