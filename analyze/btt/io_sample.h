/* SPDX-License-Identifier: GPL-2.0 */
/*
 * io_sample.h - the per-I/O interface between the btt-equivalent engine
 * (analyze/btt_*.c) and every other consumer of analyzed I/Os (percentiles,
 * breakdowns, time series, JSON/CSV/HTML reports).
 *
 * The engine accounts I/Os exactly as btt does: one sample per queued bio
 * (Q), delivered when a C covering it is seen (range containment), or at
 * the end of the trace for Qs never completed (t_c == BS_NOT_SEEN).
 * Unlike btt's own sections, samples count the records that carry a
 * cgroup id (the BS_TA_CGROUP flag) as usual: btt ignores those records,
 * so at the first one the engine hands its sinks to a copy of itself that
 * does not (btt_samples.c).
 * Times are ns since genesis (the first event of the merged stream);
 * BS_NOT_SEEN marks a stage the trace never showed for this bio.
 *
 * Consumers register a struct bs_sample_sink with the engine
 * (bs_analyze_add_sink() in analyze.h).  Callbacks run synchronously on
 * the analysis thread, or on one worker thread for sinks that keep to
 * their own state (own_state below); the sample and event pointers are
 * valid only for the duration of the call (copy what you keep).
 */
#ifndef BLKSCOPE_IO_SAMPLE_H
#define BLKSCOPE_IO_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_merge.h"

#define BS_NOT_SEEN UINT64_MAX

enum bs_op {
	BS_OP_READ,
	BS_OP_WRITE,
	BS_OP_DISCARD,
	BS_OP_FLUSH,
	BS_OP_OTHER,
	/* version-8 zone operations (their category is in the action's high word) */
	BS_OP_ZONE_APPEND,
	BS_OP_ZONE_RESET,
	BS_OP_ZONE_RESET_ALL,
	BS_OP_ZONE_FINISH,
	BS_OP_ZONE_OPEN,
	BS_OP_ZONE_CLOSE,
	BS_OP_COUNT
};

/* The operations every trace can have; the zone ones only come from v8 input. */
#define BS_OP_V7_COUNT BS_OP_ZONE_APPEND

/*
 * Classify an action word (categories in the top 16 bits): discard before
 * write before flush before read.  Read or write is a coin toss on mixed
 * I/O, so the four bits index a table rather than pass a chain of tests.
 */
static inline enum bs_op bs_op_of(uint32_t action)
{
	static const uint8_t op_of_bits[16] = {	/* bit 0 read, 1 write, 2 flush, 3 discard */
		BS_OP_OTHER, BS_OP_READ,  BS_OP_WRITE, BS_OP_WRITE,
		BS_OP_FLUSH, BS_OP_FLUSH, BS_OP_WRITE, BS_OP_WRITE,
		BS_OP_DISCARD, BS_OP_DISCARD, BS_OP_DISCARD, BS_OP_DISCARD,
		BS_OP_DISCARD, BS_OP_DISCARD, BS_OP_DISCARD, BS_OP_DISCARD,
	};
	uint32_t cats = action >> 16;
	uint32_t bits = (cats & (BS_TC_READ | BS_TC_WRITE | BS_TC_FLUSH)) |
			((cats / BS_TC_DISCARD) & 1u) << 3;

	return (enum bs_op)op_of_bits[bits];
}

/* The same for a version-8 action: a zone category decides first. */
static inline enum bs_op bs_op_of2(uint32_t action, uint32_t action_hi)
{
	static const uint32_t zone_cat[] = {
		BS_TC_ZONE_APPEND, BS_TC_ZONE_RESET, BS_TC_ZONE_RESET_ALL,
		BS_TC_ZONE_FINISH, BS_TC_ZONE_OPEN,  BS_TC_ZONE_CLOSE,
	};

	if (action_hi & BS_TC_ZONE_MASK_HI)
		for (int i = 0; i < 6; i++)
			if (action_hi & BS_TC_HI(zone_cat[i]))
				return (enum bs_op)(BS_OP_ZONE_APPEND + i);
	return bs_op_of(action);
}

/* One completed (or, at end of trace, abandoned) I/O, per queued bio. */
struct bs_io_sample {
	uint32_t device;	/* kernel dev_t (major << 20 | minor) */
	uint64_t sector;	/* start sector of the Q */
	uint32_t bytes;		/* bytes of the Q */
	uint32_t pid;		/* pid of the Q event */
	const char *comm;	/* btt's process name for pid; NULL if unknown */
	enum bs_op op;		/* from the Q's action word */
	uint32_t action;	/* the Q's full action word (flags: SYNC, META, ...) */
	uint32_t action_hi;	/* the Q's v8 action bits 32..63 (zone categories), else 0 */
	uint64_t t_q;		/* queue (Q) */
	uint64_t t_a;		/* remap (A) onto this device, if any */
	uint64_t t_g;		/* get request (G) */
	uint64_t t_s;		/* sleep request (S) */
	uint64_t t_i;		/* insert (I) */
	uint64_t t_m;		/* merged into an existing request (M/F) */
	uint64_t t_d;		/* issue (D) of the request containing it */
	uint64_t t_c;		/* completion (C); BS_NOT_SEEN if never completed */
	uint32_t d_bytes;	/* bytes of the D that issued it (0 if none) */
	uint32_t c_bytes;	/* bytes of the C that completed it (0 if none) */
	uint16_t error;		/* C's error field ((u16) -errno), 0 if none */
	int requeues;		/* R events that hit the request holding this bio */
	int splits;		/* X events that split this bio (its start sector) */
	int tag;		/* tagging plugin tag, -1 if none */
	uint64_t cgroup;	/* the Q's cgroup id (record --cgroup-ids), 0 if none */
};

/* Counts of one operation on one device. */
struct bs_op_counts {
	uint64_t queued, queued_bytes;
	uint64_t issued, issued_bytes;
	uint64_t completed, completed_bytes;
	uint64_t merges;	/* M + F */
	uint64_t requeues;	/* R */
};

/*
 * Counters the engine keeps per device and makes available at the end
 * (bs_analyze_counters() in analyze.h).  The per-operation counts exist
 * only for the operations the device saw (a trace may name 100k devices:
 * all BS_OP_COUNT of them would be 700 bytes a device); read them with
 * bs_dev_op(), which gives zeros for the others.
 */
struct bs_dev_counters {
	uint32_t device;
	uint8_t op_slot[BS_OP_COUNT];	/* 1 + index in ops[] of each op seen, 0 = none */
	uint8_t nops;
	struct bs_op_counts *ops;	/* in order of the ops' first events */
	uint64_t splits;		/* X */
	uint64_t remaps;		/* A */
	uint64_t plugs, unplugs, unplug_timers;
	uint64_t errors;		/* C with error != 0 */
	uint64_t first_time, last_time;	/* ns since genesis, any event */
};

/* The counts of op on the device (zeros if it never saw op). */
static inline const struct bs_op_counts *bs_dev_op(const struct bs_dev_counters *c, enum bs_op op)
{
	static const struct bs_op_counts none;

	return c->op_slot[op] ? &c->ops[c->op_slot[op] - 1] : &none;
}

/* The same, for counting: made at the op's first event. */
static inline struct bs_op_counts *bs_dev_op_get(struct bs_dev_counters *c, enum bs_op op)
{
	if (!c->op_slot[op]) {
		c->ops = bs_xreallocarray(c->ops, c->nops + 1u, sizeof(*c->ops));
		memset(&c->ops[c->nops], 0, sizeof(*c->ops));
		c->op_slot[op] = ++c->nops;
	}
	return &c->ops[c->op_slot[op] - 1];
}

static inline void bs_dev_counters_free(struct bs_dev_counters *c)
{
	free(c->ops);
	c->ops = NULL;
	c->nops = 0;
	memset(c->op_slot, 0, sizeof(c->op_slot));
}

struct bs_sample_sink {
	/* one per queued bio, on completion (or at end with t_c == BS_NOT_SEEN) */
	void (*io_done)(void *ctx, const struct bs_io_sample *s);
	/* every event of the merged stream, notes excluded, before the engine sees it */
	void (*event)(void *ctx, const struct bs_event *ev);
	/* end of input: last event time (ns since genesis) */
	void (*finish)(void *ctx, uint64_t end_time);
	void *ctx;
	/*
	 * io_done touches nothing but ctx and the sample (no other
	 * extension's state, nothing of the analysis): the samples may then
	 * be filed on another thread, in the same order (bt_engine_thread_sinks).
	 */
	bool own_state;
};

#endif /* BLKSCOPE_IO_SAMPLE_H */
