// SPDX-License-Identifier: GPL-2.0
/*
 * gen_hostile.c - valid but hostile traces for the btt engine (issue 13):
 * many distinct devices or many distinct process names, the shapes that
 * made per-device state and name lookups blow up.  One per-CPU file
 * (BASE.blktrace.0), times strictly increasing (1 us apart, from 1 us), one
 * sequence number across all devices.
 *
 *   -w hostile-devs -n N              Q, D, C on each of N devices
 *        --stamp-cpus C               ... whose records carry CPUs C-1, C-2, ...
 *                                     (one CPU per device; read as a stream,
 *                                     `-i -`, since a per-CPU file keeps only
 *                                     its own CPU's records)
 *   -w hostile-names -n N             N PROCESS notes, distinct names
 *        --names R --io-every K       N pids sharing R names; every K-th pid
 *                                     issues one IO (Q, D, C) on 8,0 (0: none)
 *   -w hostile-pending -n N           N requests queued and issued (Q, D) on
 *                                     8,0, never completed
 *   --span                            also an IO at time 0 and one at time 2^63
 *                                     (a span of 292 years)
 *
 * Process names come out in a scrambled order (the report sorts them).
 * Records go through gen_put() as built here: the CPU field and the
 * sequence are the workload's, not the emitter's per-(device, CPU) ones.
 */
#include <stdio.h>
#include "gen.h"

struct hostile {
	struct gen *g;
	uint32_t seq;
	uint32_t cpu;		/* the CPU field of the next records */
};

static void emit(struct hostile *h, uint32_t action, uint32_t dev, uint64_t sector,
		 uint32_t bytes, uint32_t pid, const void *pdu, uint16_t pdu_len)
{
	struct bs_trace t = {
		.magic = BS_TRACE_MAGIC_V7,
		.time = h->g->now,
		.sector = sector,
		.bytes = bytes,
		.action = action,
		.pid = pid,
		.device = dev,
		.cpu = h->cpu,
		.pdu_len = pdu_len,
	};

	if (!bs_is_note(action))
		t.sequence = ++h->seq;
	gen_advance(h->g, 1000);
	gen_put(h->g, 0, 0, &t, 0, pdu);
}

/* one read of 4 KiB: Q, D, C */
static void one_io(struct hostile *h, uint32_t dev, uint64_t sector, uint32_t pid)
{
	uint32_t rd = BS_TC_ACT(BS_TC_READ), fs = BS_TC_ACT(BS_TC_FS);

	emit(h, BS_ACT_QUEUE | rd, dev, sector, 4096, pid, NULL, 0);
	emit(h, BS_ACT_ISSUE | rd | fs, dev, sector, 4096, pid, NULL, 0);
	emit(h, BS_ACT_COMPLETE | rd | fs, dev, sector, 4096, 0, NULL, 0);
}

/* device number i: majors 8, 10, 11, ... (never a remapper's 9, 253, 254) */
static uint32_t nth_dev(uint64_t i)
{
	uint32_t major = 8 + (uint32_t)(i >> BS_MINORBITS);

	if (major >= 9)
		major++;
	if (major >= 253)
		major += 2;
	return BS_MKDEV(major, i & ((1u << BS_MINORBITS) - 1));
}

static void devices(struct hostile *h, uint64_t n, uint32_t ncpus)
{
	for (uint64_t i = 0; i < n; i++) {
		if (ncpus)
			h->cpu = ncpus - 1 - (uint32_t)(i % ncpus);
		one_io(h, nth_dev(i), (i % 4096) * 8, 1);
	}
	h->cpu = 0;
}

/* n requests queued and issued, never completed (distinct sectors) */
static void pending(struct hostile *h, uint64_t n)
{
	uint32_t rd = BS_TC_ACT(BS_TC_READ), fs = BS_TC_ACT(BS_TC_FS);

	for (uint64_t i = 0; i < n; i++) {
		uint32_t pid = 1 + (uint32_t)(i % 1000);

		emit(h, BS_ACT_QUEUE | rd, BS_MKDEV(8, 0), i * 8, 4096, pid, NULL, 0);
		emit(h, BS_ACT_ISSUE | rd | fs, BS_MKDEV(8, 0), i * 8, 4096, pid, NULL, 0);
	}
}

static void procs(struct hostile *h, uint64_t n, uint64_t names, uint64_t every)
{
	for (uint64_t i = 0; i < n; i++) {
		char comm[BS_COMM_LEN] = { 0 };
		/* an odd multiplier permutes 32-bit numbers: distinct, unordered */
		uint32_t k = (uint32_t)(i % names) * 2654435761u;

		snprintf(comm, sizeof(comm), "p%08x", k);
		emit(h, BS_NOTE_PROCESS, BS_MKDEV(8, 0), 0, 0, (uint32_t)(i + 1), comm,
		     sizeof(comm));
	}
	for (uint64_t i = 0; every && i < n; i += every)
		one_io(h, BS_MKDEV(8, 0), i * 8, (uint32_t)(i + 1));
}

void gen_hostile(struct gen *g, enum gen_hostile_kind kind, uint64_t n)
{
	struct hostile h = { .g = g };
	const struct gen_hostile_opts *o = &g->hostile;

	g->now = o->span ? 0 : 1000;	/* time 0 first with --span */
	if (o->span)
		one_io(&h, BS_MKDEV(8, 0), 0, 1);
	switch (kind) {
	case GEN_HOSTILE_DEVS:
		devices(&h, n, o->stamp_cpus);
		break;
	case GEN_HOSTILE_NAMES:
		procs(&h, n, o->names && o->names <= n ? o->names : n, o->every);
		break;
	case GEN_HOSTILE_PENDING:
		pending(&h, n);
		break;
	}
	if (o->span) {
		g->now = 1ull << 63;
		one_io(&h, BS_MKDEV(8, 0), 8, 1);
	}
}
