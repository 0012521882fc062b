// SPDX-License-Identifier: GPL-2.0
/*
 * btt_engine_life.c - the engine's life around its events (btt_engine.c):
 * making it from the options, what it left queued at the end, and
 * freeing everything it made.
 */
#include <stdlib.h>
#include "btt_priv.h"
#include "btt_seek_folder.h"

/*
 * btt coalesces activity when BIT_TIME(gap) < -d.  BIT_TIME never
 * decreases with its argument, so the test is gap < the smallest gap
 * whose BIT_TIME reaches -d: found once, then compared as integers.
 */
static uint64_t range_gap(double delta)
{
	uint64_t lo = 0, hi = UINT64_MAX;

	if (btt_secs(hi) < delta)
		return hi;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (btt_secs(mid) < delta)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct btt_engine *btt_engine_new(const struct btt_opts *o)
{
	struct btt_engine *e = bs_xcalloc(1, sizeof(*e));

	e->o = *o;
	if (e->o.range_delta == 0)
		e->o.range_delta = 0.1;
	e->last_q = BTT_NONE;
	e->seek_budget = e->o.seek_values;
	btt_live_init(&e->all_live);
	if (e->o.live_files)
		btt_live_keep_all(&e->all_live);
	e->range_gap_ns = range_gap(e->o.range_delta);
	btt_iostat_init(&e->iostat, o->iostat, o->iostat_interval);
	btt_engine_check_plain(e);
	return e;
}

int btt_engine_thread_seeks(struct btt_engine *e)
{
	if (e->seek_folder || e->ndevs)	/* the tables know their folder from the start */
		return -1;
	e->seek_folder = btt_seek_folder_new();
	return e->seek_folder ? 0 : -1;
}

uint64_t btt_engine_never_completed(const struct btt_engine *e)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < e->ndevs; i++)
		n += e->devs[i]->inflight;
	return n;
}

static void free_region(struct btt_region *r)
{
	if (r->q.v != &r->q.first)
		free(r->q.v);
	if (r->c.v != &r->c.first)
		free(r->c.v);
}

bool btt_engine_done(const struct btt_engine *e)
{
	return e->done;
}

uint64_t btt_engine_followed(const struct btt_engine *e)
{
	return e->n_traces;
}

uint64_t btt_engine_last_time(const struct btt_engine *e)
{
	return e->last_time;
}

uint64_t btt_engine_cgroup_records(const struct btt_engine *e)
{
	return e->cgroup_records;
}

void btt_engine_free(struct btt_engine *e)
{
	int i;

	if (!e)
		return;
	btt_seek_folder_free(e->seek_folder);	/* before the tables it folds into */
	for (i = 0; i < e->ndevs; i++) {
		struct btt_dev *d = e->devs[i];

		btt_qindex_free(&d->qidx);
		btt_seek_free(&d->q2q_seek);
		btt_seek_free(&d->d2d_seek);
		btt_live_free(&d->live);
		free_region(&d->regions);
		btt_close_side_files(e, d);
		free(d);
	}
	for (i = 0; i < e->nprocs; i++) {
		free_region(&e->procs[i]->regions);
		free(e->procs[i]->avgs);
		free(e->procs[i]);
	}
	for (i = 0; i < e->nq_slabs; i++)
		free(e->q_slabs[i]);
	free(e->q_slabs);
	free(e->procs);
	free(e->devs);
	bs_hash_free(&e->dev_idx);
	free(e->pid_tab.v);
	free(e->name_tab.proc1);
	free_region(&e->all_regions);
	btt_live_free(&e->all_live);
	free(e->scratch.v);
	free(e);
}
