// SPDX-License-Identifier: GPL-2.0
/*
 * gen_tags.c - the tagging tests' workload (-w tags): one CPU, device 7,0,
 * time-sorted.  A TIMESTAMP note and one PROCESS note per named pid come
 * first, then a MESSAGE note, a plug and an unplug, then 4 KiB I/Os of
 * Q G I D C each (5 events per I/O), queued every 10 us by a pid picked at
 * random, several in flight, completed by pid 0.  Pids 1000..1000+PIDS-1
 * are named; the last UNNAMED of them get no note; pid 1000 has a full
 * 16-byte comm (no NUL) and pids 1001 and 1002 share the name "worker".
 * Uses the C library's random() seeded with --seed, as the former
 * tags-gen-trace did, so that its traces are unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include "gen.h"

#define TAGS_DEV	BS_MKDEV(7, 0)
#define MAX_INFLIGHT	16

struct pending {
	uint64_t time, sector;
	uint32_t cats;
};

/* A 4 KiB I/O event at TIME. */
static void put(struct gen *g, uint32_t action, uint64_t time, uint64_t sector, uint32_t pid)
{
	g->now = time;
	gen_emit(g, 0, 0, TAGS_DEV, sector, 4096, action, pid, 0, NULL, 0);
}

static void complete_at(struct gen *g, struct pending *v, int *n, int m)
{
	put(g, BS_ACT_COMPLETE | BS_TC_ACT(v[m].cats | BS_TC_FS), v[m].time, v[m].sector, 0);
	v[m] = v[--*n];
}

/* The completion due first (pid 0, interrupt context); returns its time. */
static uint64_t complete_oldest(struct gen *g, struct pending *v, int *n)
{
	int m = 0;
	uint64_t t;

	for (int j = 1; j < *n; j++)
		if (v[j].time < v[m].time)
			m = j;
	t = v[m].time;
	complete_at(g, v, n, m);
	return t;
}

/* Every completion due by `now`, in time order: the file stays time-sorted. */
static void complete_until(struct gen *g, struct pending *v, int *n, uint64_t now)
{
	for (;;) {
		int m = -1;

		for (int j = 0; j < *n; j++)
			if (v[j].time <= now && (m < 0 || v[j].time < v[m].time))
				m = j;
		if (m < 0)
			return;
		complete_at(g, v, n, m);
	}
}

static void names(struct gen *g)
{
	for (uint32_t k = 0; k + g->unnamed < g->npids; k++) {
		char comm[BS_COMM_LEN + 1];

		if (k == 0)
			snprintf(comm, sizeof(comm), "sixteen-chars-xx");
		else if (k == 1 || k == 2)
			snprintf(comm, sizeof(comm), "worker");
		else
			snprintf(comm, sizeof(comm), "proc%u", (unsigned int)(k % 100000));
		gen_note_process(g, 0, 0, TAGS_DEV, 1000 + k, comm);
	}
}

void gen_tags(struct gen *g, uint64_t nevents)
{
	struct pending inflight[MAX_INFLIGHT];
	uint64_t ios = nevents / 5 ? nevents / 5 : 1;
	uint8_t depth[8] = { 0 };
	int ninflight = 0;

	srandom((unsigned int)g->seed);
	g->now = 1000000;
	gen_note_timestamp(g, 0, 0, TAGS_DEV, 1700000000u, 0);
	names(g);
	/*
	 * the message keeps format/bs_merge_file.c's PDU arena non-NULL at its first copy
	 * (UBSan)
	 */
	g->now = 1400000;
	gen_note_message(g, 0, 0, TAGS_DEV, 0, "blkscope tag test", false);
	g->now = 1500000;
	gen_emit(g, 0, 0, TAGS_DEV, 0, 0, BS_ACT_PLUG | BS_TC_ACT(BS_TC_READ), 1000, 0, NULL, 0);
	g->now = 1600000;
	gen_emit(g, 0, 0, TAGS_DEV, 0, 0, BS_ACT_UNPLUG_IO | BS_TC_ACT(BS_TC_READ), 1000, 0, depth,
		 sizeof(depth));

	for (uint64_t i = 0; i < ios; i++) {
		uint64_t t = 2000000 + i * 10000, sector = 2048 + (i % 100000) * 8;
		uint32_t pid = 1000 + (uint32_t)(random() % g->npids);
		uint32_t rw = (random() & 1) ? BS_TC_WRITE | BS_TC_SYNC : BS_TC_READ;

		if (ninflight == MAX_INFLIGHT)	/* not at 10 us per Q and <= 40 us latency */
			t = complete_oldest(g, inflight, &ninflight);
		complete_until(g, inflight, &ninflight, t);
		put(g, BS_ACT_QUEUE | BS_TC_ACT(rw), t, sector, pid);
		complete_until(g, inflight, &ninflight, t + 1000);
		put(g, BS_ACT_GETRQ | BS_TC_ACT(rw), t + 1000, sector, pid);
		complete_until(g, inflight, &ninflight, t + 2000);
		put(g, BS_ACT_INSERT | BS_TC_ACT(rw | BS_TC_FS), t + 2000, sector, pid);
		complete_until(g, inflight, &ninflight, t + 3000);
		put(g, BS_ACT_ISSUE | BS_TC_ACT(rw | BS_TC_FS), t + 3000, sector, pid);
		inflight[ninflight++] = (struct pending){ t + 25000 + (uint64_t)(random() % 15000),
							  sector, rw };
	}
	while (ninflight)
		complete_oldest(g, inflight, &ninflight);
}
