// SPDX-License-Identifier: GPL-2.0
/*
 * gen_random.c - random I/O (-w random): the workload of the analyzer
 * performance issue.  Each request starts at a random 4 KiB-aligned sector
 * of an 8 GiB region (so D2D and Q2Q distances repeat, and several
 * distances tie for btt's seek mode), its first bio is queued and gets a
 * request (Q G), each following bio back-merges (Q M) with probability
 * 15%; then I and D.  About 50 requests are in flight and complete in
 * random order.  Requests come from 4 processes spread over the CPUs:
 * about 5.5 events per request.
 */
#include "bs_codec.h"
#include "gen.h"

#define RND_DEV		BS_MKDEV(8, 0)
#define RND_INFLIGHT	50
#define RND_REGION	(1ull << 24)	/* sectors: 8 GiB */

struct rreq {
	uint64_t sector;
	uint32_t bytes;
	uint32_t action;
	int cpu;
};

static void emit(struct gen *g, int cpu, uint32_t action, uint64_t sector, uint32_t bytes,
		 uint32_t pid)
{
	gen_emit(g, 0, cpu, RND_DEV, sector, bytes, action, pid, 0, NULL, 0);
	gen_advance(g, 100 + gen_rand(g) % 900);
}

static struct rreq submit(struct gen *g)
{
	int who = (int)(gen_rand(g) % 4), cpu = who % g->ncpus;
	uint32_t pid = 2000 + (uint32_t)who, bio = 4096u << (gen_rand(g) % 3);
	uint32_t rw = (gen_rand(g) % 3) ? BS_TC_READ : BS_TC_WRITE;
	struct rreq r = {
		.sector = (gen_rand(g) % RND_REGION) & ~7ull,
		.action = BS_TC_ACT(rw),
		.cpu = cpu,
	};

	do {
		uint64_t s = r.sector + (r.bytes >> 9);

		emit(g, cpu, BS_ACT_QUEUE | r.action, s, bio, pid);
		emit(g, cpu, (r.bytes ? BS_ACT_BACKMERGE : BS_ACT_GETRQ) | r.action, s, bio, pid);
		r.bytes += bio;
	} while (gen_rand(g) % 100 < 15);
	emit(g, cpu, BS_ACT_INSERT | r.action | BS_TC_ACT(BS_TC_FS), r.sector, r.bytes, pid);
	emit(g, cpu, BS_ACT_ISSUE | r.action | BS_TC_ACT(BS_TC_FS), r.sector, r.bytes, pid);
	return r;
}

void gen_random(struct gen *g, uint64_t nevents)
{
	static const char *const comms[] = { "fio", "postgres", "mysqld", "dd" };
	struct rreq inflight[RND_INFLIGHT];
	int n = 0;

	g->now = 0;
	for (int i = 0; i < 4; i++)
		gen_note_process(g, 0, i % g->ncpus, RND_DEV, 2000 + (uint32_t)i, comms[i]);
	while (g->records < nevents) {
		inflight[n++] = submit(g);
		if (n == RND_INFLIGHT) {	/* a random one completes */
			int k = (int)(gen_rand(g) % n);
			struct rreq *r = &inflight[k];

			emit(g, r->cpu, BS_ACT_COMPLETE | r->action | BS_TC_ACT(BS_TC_FS),
			     r->sector, r->bytes, 0);
			inflight[k] = inflight[--n];
		}
	}
	for (int i = 0; i < n; i++)
		emit(g, inflight[i].cpu, BS_ACT_COMPLETE | inflight[i].action | BS_TC_ACT(BS_TC_FS),
		     inflight[i].sector, inflight[i].bytes, 0);
}
