// SPDX-License-Identifier: GPL-2.0
/*
 * btt_samples.c - the sample engine.  btt ignores every record with a
 * cgroup id (record --cgroup-ids, the kernel's blk_cgroup option); the
 * samples and everything built on them must count those records as
 * usual.  So at the first such record, btt's engine forks: the copy
 * (o.cgroup_as_usual, none of btt's output) takes the sinks and is fed
 * every later event as well, reading a flagged record as the same record
 * without the flag.
 *
 * Until that record both engines would have seen the same events the same
 * way, so the copy needs only what decides later samples: the processes
 * (pids and names), the devices (pre-culling) and their queued bios, the
 * Q trees copied node for node so that btt's pruned walks find the same
 * bios in the same order.  A trace without cgroup ids never forks: no
 * second engine, no cost.
 */
#include <stdlib.h>
#include <string.h>
#include "btt_internal.h"

static void copy_procs(struct bt_engine *ne, const struct bt_engine *e)
{
	int i;

	ne->procs = bs_xcalloc(e->nprocs ? (size_t)e->nprocs : 1, sizeof(*ne->procs));
	ne->procs_cap = e->nprocs ? (size_t)e->nprocs : 1;
	for (i = 0; i < e->nprocs; i++) {
		const struct bt_proc *p = e->procs[i];
		struct bt_proc *np = bs_xcalloc(1, sizeof(*np));

		np->pid = p->pid;
		np->index = p->index;
		memcpy(np->name, p->name, sizeof(np->name));
		np->named = p->named;
		np->last_q = BT_NONE;
		ne->procs[i] = np;
	}
	ne->nprocs = e->nprocs;
	ne->pid_tab = e->pid_tab;
	ne->pid_tab.v = bs_xcalloc(e->pid_tab.cap ? e->pid_tab.cap : 1, sizeof(*ne->pid_tab.v));
	if (e->pid_tab.cap)
		memcpy(ne->pid_tab.v, e->pid_tab.v, e->pid_tab.cap * sizeof(*ne->pid_tab.v));
	ne->name_tab = e->name_tab;
	ne->name_tab.proc1 = bs_xcalloc(e->name_tab.cap ? e->name_tab.cap : 1, sizeof(*ne->name_tab.proc1));
	if (e->name_tab.cap)
		memcpy(ne->name_tab.proc1, e->name_tab.proc1, e->name_tab.cap * sizeof(*ne->name_tab.proc1));
}

/* The subtree at n, same shape and colours, its bios now nd's in ne. */
static struct bt_rb_node *copy_tree(struct bt_engine *ne, struct bt_dev *nd,
				    const struct bt_rb_node *n, struct bt_rb_node *parent)
{
	const struct bt_q *q;
	struct bt_q *c;

	if (!n)
		return NULL;
	q = bt_rb_entry(n, const struct bt_q, rb);
	c = bt_q_alloc(ne);
	*c = *q;
	c->next_free = NULL;
	c->dev = nd;
	c->proc = q->proc ? ne->procs[q->proc->index] : NULL;
	c->rb.parent = parent;
	c->rb.black = n->black;
	c->rb.left = copy_tree(ne, nd, n->left, &c->rb);
	c->rb.right = copy_tree(ne, nd, n->right, &c->rb);
	return &c->rb;
}

static void copy_devs(struct bt_engine *ne, const struct bt_engine *e)
{
	int i;

	for (i = 0; i < e->ndevs; i++) {
		const struct bt_dev *d = e->devs[i];
		/* a Q creates it past pre-culling; then the original's state */
		struct bt_dev *nd = bt_dev_setup(ne, d->device, T_Q, d->start_ns);

		nd->pre_culling = d->pre_culling;
		nd->end_ns = d->end_ns;
		nd->qtree.node = copy_tree(ne, nd, d->qtree.node, NULL);
		bt_qindex_rebuild(&nd->qidx, &nd->qtree);
		nd->inflight = d->inflight;
	}
	ne->last_dev = NULL;
}

void bt_fork_samples(struct bt_engine *e)
{
	struct bt_opts o = e->o;
	struct bt_engine *ne;

	o.all_data = false;
	o.d2c_name = o.q2c_name = o.q2d_name = NULL;
	o.seek_name = o.bno_name = o.aqd_name = o.uhist_name = NULL;
	o.plat_freq = 0;
	o.live_files = o.pit_files = false;
	o.per_io = o.msgs = o.iostat = o.xvg = NULL;
	o.cgroup_as_usual = true;
	ne = bt_engine_new(&o);
	copy_procs(ne, e);
	copy_devs(ne, e);
	ne->last_time = e->last_time;
	memcpy(ne->sinks, e->sinks, sizeof(e->sinks));
	ne->nsinks = e->nsinks;
	ne->event_sinks = e->event_sinks;
	e->nsinks = 0;
	e->event_sinks = false;
	e->samples = ne;
	bt_engine_check_plain(ne);
	bt_engine_check_plain(e);
}
