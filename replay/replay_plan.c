// SPDX-License-Identifier: GPL-2.0
/*
 * replay_plan.c - from the trace's Qs to what is replayed, by whom, when.
 *
 * Submitters.  The Q's pid (a thread id) is the unit: its I/O keeps its
 * order.  pid 0 (I/O queued from interrupt or idle context) is one
 * submitter per CPU.  Kernel workers (kworker/..., io_uring's iou-wrk-...)
 * run unrelated work items one after the other on one pid: their I/O
 * keeps its order but waits for nothing.
 *
 * Dependencies.  A submitter never had more than D of its I/Os in flight
 * in the trace (its queue depth, find_waits()): D = 1 is a synchronous
 * submitter, which waited for each completion before its next
 * submission.  On replay an I/O is issued at its time, or later, once
 * fewer than D of its submitter's earlier I/Os are in flight: a faster
 * target never holds anything back; a slower one holds a submitter back
 * as it held the original program back.  Which I/Os were in flight comes
 * from the trace's completions (the per-I/O model's, replay_load.c); an I/O
 * never completed counts as in flight to the end.
 *
 * The schedule.  Time 0 is the first replayed Q; an I/O is due at its
 * trace time after that, divided by --speed.  All submitters share it.
 */
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_defs.h"
#include "bs_stream.h"
#include "replay.h"

const char *replay_op_name(unsigned int op)
{
	static const char *const names[REPLAY_NOPS] = {
		"read", "write", "flush", "discard", "write-zeroes"
	};

	return op < REPLAY_NOPS ? names[op] : "?";
}

/* A min-heap of completion times: one submitter's I/Os in flight. */
struct replay_heap {
	uint64_t *v;
	size_t n, cap;
};

static void heap_push(struct replay_heap *h, uint64_t x)
{
	size_t i;

	BS_GROW(h->v, h->cap, h->n + 1, 8);
	i = h->n++;
	while (i && h->v[(i - 1) / 2] > x) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
}

static void heap_pop(struct replay_heap *h)
{
	uint64_t x = h->v[--h->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1] < h->v[c])
			c++;
		if (h->v[c] >= x)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = x;
}

/* -d: the trace must have one device with I/O; it is the one mapped. */
static int resolve_single(const struct replay_trace *t, struct replay_opts *o)
{
	if (!o->single_dev)
		return 0;
	if (t->ndevs > 1) {
		fprintf(stderr, "%s: the trace has I/O on %zu devices (%u,%u, %u,%u%s): "
			"name each one to replay with --map MAJ,MIN=DEV instead of -d\n",
			bs_progname(), t->ndevs,
			BS_DEV_MAJOR(t->devs[0].dev), BS_DEV_MINOR(t->devs[0].dev),
			BS_DEV_MAJOR(t->devs[1].dev), BS_DEV_MINOR(t->devs[1].dev),
			t->ndevs > 2 ? ", ..." : "");
		return -1;
	}
	if (t->ndevs == 1)
		o->maps[0].dev = t->devs[0].dev;
	return 0;
}

static bool replayed_dev(const struct replay_opts *o, uint32_t dev)
{
	if (!o->nmaps)
		return true;	/* --dry-run without targets: every device */
	for (int i = 0; i < o->nmaps; i++)
		if (o->maps[i].dev == dev)
			return true;
	return false;
}

/* Drop what is not replayed, in place, keeping the order; counts the skips. */
static void filter(struct replay_plan *p, struct replay_trace *t, const struct replay_opts *o)
{
	uint64_t start = (uint64_t)(o->win_start * 1e9);
	uint64_t end = o->win_end < 0 ? UINT64_MAX : (uint64_t)(o->win_end * 1e9);
	size_t j = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct replay_io *io = &t->ios[i];

		if (o->window && (io->t < start || io->t >= end)) {
			t->skips.window++;
			continue;
		}
		if (!replayed_dev(o, io->dev)) {
			t->skips.unmapped++;
			continue;
		}
		if (io->remap_from && bs_hash_get(&t->dev_idx, io->remap_from) &&
		    replayed_dev(o, io->remap_from)) {
			t->skips.stacked++;
			continue;
		}
		if (o->reads_only && io->op != REPLAY_READ) {
			t->skips.writes++;
			continue;
		}
		t->ios[j] = *io;
		t->t_c[j++] = t->t_c[i];
	}
	p->ios = t->ios;
	p->n = j;
}

static bool async_name(const char *comm)
{
	return comm && (!strncmp(comm, "kworker/", 8) || !strncmp(comm, "iou-wrk-", 8) ||
			!strncmp(comm, "iou-sqp-", 8));
}

/* Submitter index of every I/O (io->sub becomes it). */
static void find_submitters(struct replay_plan *p, const struct replay_trace *t,
			    const struct replay_opts *o)
{
	struct bs_hash idx = { 0 };
	size_t cap = 0;

	for (size_t i = 0; i < p->n; i++) {
		struct replay_io *io = &p->ios[i];
		bool added;
		uint64_t *s = bs_hash_put(&idx, io->sub, p->nsubs, &added);

		if (added) {
			struct replay_sub *sub;

			BS_GROW(p->subs, cap, p->nsubs + 1, 16);
			sub = &p->subs[p->nsubs++];
			memset(sub, 0, sizeof(*sub));
			sub->key = io->sub;
			sub->async = o->no_deps || (io->sub & REPLAY_PID0_CPU) ||
				     async_name(replay_comm(t, io->sub));
		}
		p->subs[*s].nios++;
		io->sub = (uint32_t)*s;
	}
	bs_hash_free(&idx);
}

/*
 * Each submitter's queue depth: the most of its I/Os the trace had in
 * flight at once (its I/Os queued while earlier ones had not completed).
 * Depth 1 is a synchronous submitter: every I/O waits for the one before.
 * Every I/O of a submitter of depth D waits until fewer than D are in
 * flight.  Per submitter, not per I/O: a submitter of depth 8 whose
 * device was fast had nothing in flight at most of its Qs, and held to
 * that on a slower device it would be replayed as synchronous, which it
 * is not.
 */
static void find_waits(struct replay_plan *p, const struct replay_trace *t)
{
	struct replay_heap *heaps = bs_xcalloc(p->nsubs ? p->nsubs : 1, sizeof(*heaps));
	uint32_t *depth = bs_xcalloc(p->nsubs ? p->nsubs : 1, sizeof(*depth));

	for (size_t i = 0; i < p->n; i++) {
		const struct replay_io *io = &p->ios[i];
		struct replay_heap *h = &heaps[io->sub];

		if (p->subs[io->sub].async)
			continue;
		while (h->n && h->v[0] <= io->t)
			heap_pop(h);
		heap_push(h, t->t_c[i]);
		if (h->n > depth[io->sub])
			depth[io->sub] = (uint32_t)(h->n < REPLAY_NO_WAIT ? h->n :
						    REPLAY_NO_WAIT - 1);
	}
	for (size_t i = 0; i < p->n; i++) {
		struct replay_io *io = &p->ios[i];

		if (p->subs[io->sub].async)
			continue;
		io->wait = depth[io->sub] - 1;
		p->with_wait++;
		p->sync_ios += !io->wait;
	}
	for (size_t s = 0; s < p->nsubs; s++) {
		p->subs[s].depth = depth[s];
		free(heaps[s].v);
	}
	free(heaps);
	free(depth);
}

/* Times after the start, scaled; what the plan holds, counted. */
static void schedule(struct replay_plan *p, const struct replay_opts *o)
{
	if (!p->n)
		return;
	p->first_t = p->ios[0].t;
	p->trace_span = p->ios[p->n - 1].t - p->first_t;
	for (size_t i = 0; i < p->n; i++) {
		struct replay_io *io = &p->ios[i];
		uint64_t rel = io->t - p->first_t;

		io->t = o->speed == 1.0 ? rel : (uint64_t)((double)rel / o->speed);
		p->ops[io->op]++;
		p->op_bytes[io->op] += io->bytes;
		if (io->op == REPLAY_READ && io->bytes > p->max_read)
			p->max_read = io->bytes;
		if (io->op == REPLAY_WRITE && io->bytes > p->max_write)
			p->max_write = io->bytes;
		if ((io->flags & REPLAY_F_SYNC) && io->op == REPLAY_READ)
			p->not_reproduced[0]++;
		if (!(io->flags & REPLAY_F_SYNC) && io->op == REPLAY_WRITE)
			p->not_reproduced[0]++;
		p->not_reproduced[1] += !!(io->flags & REPLAY_F_META);
		p->not_reproduced[2] += !!(io->flags & REPLAY_F_AHEAD);
		p->preflush_writes += !!(io->flags & REPLAY_F_PREFLUSH);
	}
	p->span = p->ios[p->n - 1].t;
}

static int cmp_load(const void *a, const void *b)
{
	const struct replay_sub *const *x = a, *const *y = b;

	return ((*x)->nios < (*y)->nios) - ((*x)->nios > (*y)->nios);
}

/* Submitters to threads: the busiest first, each to the least loaded thread. */
/* The process name shared by all submitters of a worker, or "". */
static void name_workers(struct replay_plan *p, const struct replay_trace *t)
{
	bool *mixed = bs_xcalloc(p->nworkers, sizeof(*mixed));

	p->worker_name = bs_xcalloc(p->nworkers, sizeof(*p->worker_name));
	for (size_t s = 0; s < p->nsubs; s++) {
		const struct replay_sub *sub = &p->subs[s];
		const char *comm = sub->key & REPLAY_PID0_CPU ? NULL : replay_comm(t, sub->key);
		char *name = p->worker_name[sub->worker];

		if (mixed[sub->worker])
			continue;
		if (!comm || !*comm || (*name && strcmp(name, comm))) {
			mixed[sub->worker] = true;
			*name = 0;
		} else {
			snprintf(name, sizeof(p->worker_name[0]), "%s", comm);
		}
	}
	free(mixed);
}

static void assign_workers(struct replay_plan *p, const struct replay_trace *t,
			   const struct replay_opts *o)
{
	unsigned int w = o->threads ? o->threads : 1;
	struct replay_sub **order;
	uint64_t *load;

	if (w > p->nsubs)
		w = p->nsubs ? (unsigned int)p->nsubs : 1;
	p->nworkers = w;
	order = bs_xmalloc((p->nsubs ? p->nsubs : 1) * sizeof(*order));
	load = bs_xcalloc(w, sizeof(*load));
	for (size_t s = 0; s < p->nsubs; s++)
		order[s] = &p->subs[s];
	qsort(order, p->nsubs, sizeof(*order), cmp_load);
	for (size_t s = 0; s < p->nsubs; s++) {
		unsigned int best = 0;

		for (unsigned int k = 1; k < w; k++)
			if (load[k] < load[best])
				best = k;
		order[s]->worker = (uint16_t)best;
		load[best] += order[s]->nios;
	}
	p->worker_ios = bs_xcalloc(w, sizeof(*p->worker_ios));
	p->worker_n = bs_xcalloc(w, sizeof(*p->worker_n));
	p->worker_subs = bs_xcalloc(w, sizeof(*p->worker_subs));
	for (size_t s = 0; s < p->nsubs; s++)
		p->subs[s].local = p->worker_subs[p->subs[s].worker]++;
	name_workers(p, t);
	for (unsigned int k = 0; k < w; k++)
		p->worker_ios[k] = bs_xmalloc((load[k] ? load[k] : 1) * sizeof(uint32_t));
	for (size_t i = 0; i < p->n; i++) {
		unsigned int k = p->subs[p->ios[i].sub].worker;

		p->worker_ios[k][p->worker_n[k]++] = (uint32_t)i;
	}
	free(order);
	free(load);
}

/* A --map of a device without I/O in the trace is most likely a typo: say so. */
static void note_idle_maps(const struct replay_trace *t, const struct replay_opts *o)
{
	for (int i = 0; i < o->nmaps; i++)
		if (!bs_hash_get(&t->dev_idx, o->maps[i].dev) && !o->single_dev)
			fprintf(stderr, "%s: note: --map %u,%u=%s: "
				"the trace has no queued bio on %u,%u\n", bs_progname(),
				BS_DEV_MAJOR(o->maps[i].dev), BS_DEV_MINOR(o->maps[i].dev),
				o->maps[i].path,
				BS_DEV_MAJOR(o->maps[i].dev), BS_DEV_MINOR(o->maps[i].dev));
}

int replay_plan(struct replay_plan *p, struct replay_trace *t, struct replay_opts *o)
{
	memset(p, 0, sizeof(*p));
	if (resolve_single(t, o))
		return -1;
	note_idle_maps(t, o);
	filter(p, t, o);
	find_submitters(p, t, o);
	find_waits(p, t);
	free(t->t_c);	/* no longer needed: the waits hold what the completions said */
	t->t_c = NULL;
	schedule(p, o);
	assign_workers(p, t, o);
	return 0;
}

void replay_plan_free(struct replay_plan *p)
{
	for (unsigned int k = 0; k < p->nworkers; k++)
		free(p->worker_ios[k]);
	free(p->worker_ios);
	free(p->worker_n);
	free(p->worker_subs);
	free(p->worker_name);
	free(p->subs);
	memset(p, 0, sizeof(*p));
}
