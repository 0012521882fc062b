// SPDX-License-Identifier: GPL-2.0
/*
 * gen_bulk.c - N events of a realistic request workload for benchmarks:
 * 16 I/Os in flight, each Q -> G -> I -> D -> C (some Qs back-merge
 * instead, some are plugged), submitted on one CPU and completed on any.
 * With --devices N the I/Os spread over devices 8,0, 8,16, ... (each with
 * its own notes and sequence numbers); with one device the trace is the
 * same as it always was.
 *
 * --delay / --slow-pid make an I/O wait a fixed time before the event that
 * ends a stage: a step that picks it earlier emits nothing.  Which I/O a
 * step serves is memoryless (uniform), so the stage's latency becomes the
 * delay plus (up to one step of overshoot) the same distribution as
 * without it: the true change of every quantile is known (compare tests).
 */
#include "bs_codec.h"
#include "gen.h"

#define INFLIGHT	16

enum stage { ST_NEW, ST_MERGE, ST_GETRQ, ST_INSERT, ST_ISSUE, ST_COMPLETE };

struct bulk_io {
	enum stage stage;
	uint32_t dev;
	uint64_t sector;
	uint32_t bytes;
	uint32_t rw;
	uint32_t pid;
	int cpu;
	uint64_t ready;		/* not before this time (--delay, --slow-pid) */
};

/* The I/O enters a stage: how long it must wait at least. */
static void wait_for(struct gen *g, struct bulk_io *io, int stage)
{
	uint64_t d = g->delay[stage];

	if (stage == GEN_D2C && g->slow_pid && io->pid == g->slow_pid)
		d += g->slow_ns;
	io->ready = g->now + d;
}

static const uint32_t bulk_pids[] = { 2001, 2002, 2003, 2004 };
static const char *const bulk_comms[] = { "fio", "fio", "postgres", "kworker/0:1H" };

static uint32_t bulk_dev(int i)
{
	return BS_MKDEV(8, 16 * (unsigned int)i);
}

static void start_io(struct gen *g, struct bulk_io *io, uint64_t *next_sector)
{
	uint64_t r = gen_rand(g);

	io->pid = bulk_pids[r % 4];
	io->cpu = (int)((r >> 8) % (uint64_t)g->ncpus);
	io->rw = ((r >> 16) % 10 < 7) ? BS_TC_ACT(BS_TC_READ) : BS_TC_ACT(BS_TC_WRITE);
	if ((r >> 24) % 4 == 0)
		io->rw |= BS_TC_ACT(BS_TC_SYNC);
	io->bytes = 4096u << ((r >> 32) % 6);
	if ((r >> 40) % 3 == 0)
		*next_sector = (r >> 20) % 200000000ULL;
	io->sector = *next_sector;
	io->dev = bulk_dev((int)((r >> 56) % (uint64_t)g->ndevs));
	*next_sector += io->bytes >> 9;
}

void gen_bulk(struct gen *g, uint64_t nevents)
{
	struct bulk_io ios[INFLIGHT] = { 0 };
	uint64_t next_sector = 2048, n = 0;
	uint8_t depth[8];

	g->now = 5000000000ULL;
	for (int d = 0; d < g->ndevs; d++) {
		gen_note_timestamp(g, 0, 0, bulk_dev(d), 1700000000u, 0);
		for (int cpu = 0; cpu < g->ncpus; cpu++)
			for (int p = 0; p < 4; p++)
				gen_note_process(g, 0, cpu, bulk_dev(d), bulk_pids[p],
						 bulk_comms[p]);
	}
	bs_put_be64(depth, 1);

	while (n < nevents) {
		uint64_t r = gen_rand(g);
		struct bulk_io *io = &ios[r % INFLIGHT];
		uint32_t fs = BS_TC_ACT(BS_TC_FS);

		gen_advance(g, 1 + (r >> 8) % 4000);
		if (io->stage != ST_NEW && g->now < io->ready)
			continue;
		switch (io->stage) {
		case ST_NEW:
			start_io(g, io, &next_sector);
			gen_emit(g, 0, io->cpu, io->dev, io->sector, io->bytes,
				 BS_ACT_QUEUE | io->rw, io->pid, 0, NULL, 0);
			io->stage = ((r >> 20) % 8 == 0) ? ST_MERGE : ST_GETRQ;
			if (io->stage == ST_GETRQ)
				wait_for(g, io, GEN_Q2G);
			break;
		case ST_MERGE:
			gen_emit(g, 0, io->cpu, io->dev, io->sector, io->bytes,
				 BS_ACT_BACKMERGE | io->rw, io->pid, 0, NULL, 0);
			io->stage = ST_NEW;
			break;
		case ST_GETRQ:
			gen_emit(g, 0, io->cpu, io->dev, io->sector, io->bytes,
				 BS_ACT_GETRQ | io->rw, io->pid, 0, NULL, 0);
			io->stage = ST_INSERT;
			wait_for(g, io, GEN_G2I);
			break;
		case ST_INSERT:
			gen_emit(g, 0, io->cpu, io->dev, io->sector, io->bytes,
				 BS_ACT_INSERT | io->rw | fs, io->pid, 0, NULL, 0);
			io->stage = ST_ISSUE;
			wait_for(g, io, GEN_I2D);
			if ((r >> 24) % 16 == 0 && n + 2 < nevents) {
				/* a plug/unplug pair around this insert */
				gen_emit(g, 0, io->cpu, io->dev, 0, 0,
					 BS_ACT_PLUG | BS_TC_ACT(BS_TC_READ), io->pid, 0, NULL, 0);
				gen_emit(g, 0, io->cpu, io->dev, 0, 0,
					 BS_ACT_UNPLUG_IO | BS_TC_ACT(BS_TC_READ), io->pid, 0,
					 depth, 8);
				n += 2;
			}
			break;
		case ST_ISSUE:
			gen_emit(g, 0, io->cpu, io->dev, io->sector, io->bytes,
				 BS_ACT_ISSUE | io->rw | fs, io->pid, 0, NULL, 0);
			io->stage = ST_COMPLETE;
			wait_for(g, io, GEN_D2C);
			break;
		case ST_COMPLETE:
			gen_emit(g, 0, (int)((r >> 28) % (uint64_t)g->ncpus), io->dev, io->sector,
				 io->bytes, BS_ACT_COMPLETE | io->rw | fs, 0, 0, NULL, 0);
			io->stage = ST_NEW;
			break;
		}
		n++;
	}
}
