// SPDX-License-Identifier: GPL-2.0
/*
 * gen_merge.c - per-CPU files that stress the merge of format/ (-w merge):
 * three CPUs whose clocks start within 50 ns of each other and advance by
 * 0, 1, 5, 100 or 1000 ns (so times tie across CPUs and the tie order
 * shows), PROCESS and MESSAGE notes mixed in at the current time, 1500 to
 * 2500 records per CPU (longer than one batch), Q/D/C events and a few
 * unplugs with a depth PDU.  With --swap the records are big-endian.
 */
#include <stdio.h>
#include "bs_codec.h"
#include "gen.h"

#define MERGE_DEV	BS_MKDEV(7, 0)

static uint64_t pick(struct gen *g, uint64_t n)
{
	return gen_rand(g) % n;
}

static void merge_cpu(struct gen *g, int cpu)
{
	static const uint32_t acts[] = {
		BS_ACT_QUEUE | BS_TC_ACT(BS_TC_READ),
		BS_ACT_QUEUE | BS_TC_ACT(BS_TC_WRITE),
		BS_ACT_ISSUE | BS_TC_ACT(BS_TC_WRITE | BS_TC_FS),
		BS_ACT_COMPLETE | BS_TC_ACT(BS_TC_WRITE | BS_TC_FS),
	};
	static const uint64_t steps[] = { 0, 0, 1, 5, 100, 1000 };
	uint64_t n = 1500 + pick(g, 1001);

	g->now = 1000000 + pick(g, 51);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t r = pick(g, 100);
		uint32_t pid = 1 + (uint32_t)pick(g, 50);

		if (r < 5) {
			char comm[16];

			snprintf(comm, sizeof(comm), "proc%u", (unsigned int)pick(g, 10));
			gen_note_process(g, 0, cpu, MERGE_DEV, pid, comm);
		} else if (r < 7) {
			gen_note_message(g, 0, cpu, MERGE_DEV, pid, "hello msg", false);
		} else if (pick(g, 100) < 3) {
			uint8_t depth[8];

			gen_advance(g, steps[pick(g, 6)]);
			bs_put_be64(depth, 1 + pick(g, 9));
			gen_emit(g, 0, cpu, MERGE_DEV, pick(g, 1 << 20), 4096,
				 BS_ACT_UNPLUG_IO | BS_TC_ACT(BS_TC_READ), pid, 0, depth, 8);
		} else {
			gen_advance(g, steps[pick(g, 6)]);
			gen_emit(g, 0, cpu, MERGE_DEV, pick(g, 1 << 20), 4096, acts[pick(g, 4)],
				 pid, 0, NULL, 0);
		}
	}
}

void gen_merge(struct gen *g)
{
	for (int cpu = 0; cpu < g->ncpus; cpu++)
		merge_cpu(g, cpu);
}
