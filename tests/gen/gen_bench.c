// SPDX-License-Identifier: GPL-2.0
/*
 * gen_bench.c - the btt benchmark workload (-w bench): several processes
 * issue sequential runs and random I/Os; consecutive bios back-merge into
 * one request whose D and C cover them all (as the kernel traces it), up
 * to 32 requests are in flight, a plug and an unplug wrap each batch.
 * Unlike bulk (gen_bulk.c), every queued bio is completed, so btt's Q2C
 * covers the whole trace.  Its own xorshift stream keeps the output of
 * the former bs-btt-benchgen byte for byte (seed 1).
 */
#include "bs_codec.h"
#include "gen.h"
#include "../unit/rng.h"

#define BENCH_DEV	BS_MKDEV(8, 0)
#define MAX_INFLIGHT	32

struct req {
	uint64_t sector;
	uint32_t bytes;
	uint32_t action;
	uint32_t pid;
	int cpu;
	uint64_t done_at;
};

struct bench {
	struct gen *g;
	uint64_t rng;
};

/* One record at the current time, then 0.2..2 us later for the next. */
static void emit(struct bench *b, int cpu, uint32_t action, uint64_t sector, uint32_t bytes,
		 uint32_t pid, const void *pdu, uint16_t pdu_len)
{
	gen_emit(b->g, 0, cpu, BENCH_DEV, sector, bytes, action, pid, 0, pdu, pdu_len);
	gen_advance(b->g, 200 + rng_next(&b->rng) % 1800);
}

static void complete(struct bench *b, const struct req *r)
{
	emit(b, r->cpu, BS_ACT_COMPLETE | (r->action & ~0xffffu) | BS_TC_ACT(BS_TC_FS), r->sector,
	     r->bytes, 0, NULL, 0);
}

/* A plugged batch of 1..3 back-merged bios by one process, inserted and issued. */
static struct req submit(struct bench *b, uint64_t stream_pos[4])
{
	struct gen *g = b->g;
	int who = (int)(rng_next(&b->rng) % 4), cpu = who % g->ncpus;
	int nbios = 1 + (int)(rng_next(&b->rng) % 3);
	uint32_t pid = 1000 + (uint32_t)who;
	uint32_t rw = (rng_next(&b->rng) % 3) ? BS_TC_READ : (BS_TC_WRITE | BS_TC_SYNC);
	uint32_t bio = (uint32_t)(8 << (rng_next(&b->rng) % 4)) * 512;
	uint8_t depth[8];
	struct req r;

	if (rng_next(&b->rng) % 4 == 0)	/* random I/O; else continue the process's stream */
		stream_pos[who] = (rng_next(&b->rng) % (1ull << 30)) & ~7ull;
	r.sector = stream_pos[who];
	r.bytes = 0;
	r.action = BS_TC_ACT(rw);
	r.pid = pid;
	r.cpu = cpu;
	emit(b, cpu, BS_ACT_PLUG | BS_TC_ACT(BS_TC_READ), 0, 0, pid, NULL, 0);
	for (int i = 0; i < nbios; i++) {
		uint64_t s = r.sector + (r.bytes >> 9);

		emit(b, cpu, BS_ACT_QUEUE | r.action, s, bio, pid, NULL, 0);
		emit(b, cpu, (i == 0 ? BS_ACT_GETRQ : BS_ACT_BACKMERGE) | r.action, s, bio, pid,
		     NULL, 0);
		r.bytes += bio;
	}
	bs_put_be64(depth, 1);
	emit(b, cpu, BS_ACT_UNPLUG_IO | BS_TC_ACT(BS_TC_READ), 0, 0, pid, depth, 8);
	emit(b, cpu, BS_ACT_INSERT | r.action | BS_TC_ACT(BS_TC_FS), r.sector, r.bytes, pid,
	     NULL, 0);
	emit(b, cpu, BS_ACT_ISSUE | r.action | BS_TC_ACT(BS_TC_FS), r.sector, r.bytes, pid,
	     NULL, 0);
	stream_pos[who] = r.sector + (r.bytes >> 9);
	r.done_at = g->now + 20000 + rng_next(&b->rng) % 200000;
	return r;
}

void gen_bench(struct gen *g, uint64_t nevents)
{
	static const char *const comms[] = { "fio", "postgres", "kworker/0:1H", "dd" };
	struct bench b = { .g = g,
			   .rng = 88172645463325252ull ^ ((g->seed - 1) * 0x9E3779B97F4A7C15ull) };
	uint64_t stream_pos[4] = { 2048, 1 << 20, 1 << 24, 1 << 28 };
	struct req inflight[MAX_INFLIGHT];
	int ninflight = 0;

	g->now = 0;
	for (int i = 0; i < 4; i++) {
		gen_note_process(g, 0, i % g->ncpus, BENCH_DEV, 1000 + (uint32_t)i, comms[i]);
		gen_advance(g, 200 + rng_next(&b.rng) % 1800);
	}
	while (g->records < nevents) {
		inflight[ninflight++] = submit(&b, stream_pos);
		/* complete whatever is due, and the oldest when the queue is full */
		for (int i = 0; i < ninflight;) {
			if (inflight[i].done_at <= g->now || ninflight == MAX_INFLIGHT) {
				complete(&b, &inflight[i]);
				inflight[i] = inflight[--ninflight];
			} else {
				i++;
			}
		}
	}
	for (int i = 0; i < ninflight; i++)
		complete(&b, &inflight[i]);
}
