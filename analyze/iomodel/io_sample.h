/* SPDX-License-Identifier: GPL-2.0 */
/*
 * io_sample.h - the per-I/O interface between the per-I/O model
 * (analyze/iomodel/, docs/analyze.md "The per-I/O model") and every
 * consumer of analyzed I/Os beyond btt's sections: percentiles,
 * breakdowns, time series, JSON/CSV/HTML, compare, export.
 *
 * One sample per queued bio (Q), whatever happened to it: split (X) into
 * fragments that each went their own way, merged into a request (M/F),
 * requeued, remapped, failed.  It is delivered when its last fragment
 * completes (status BS_IO_DONE) or, for I/Os still in flight, at the end
 * of the analysis (BS_IO_OPEN).  The stages are the model's: each is
 * measured only when both of its ends were seen and the later end is not
 * earlier than the first; a sample's stage_mask says which it has.
 * Times are ns since genesis (the first event of the merged stream);
 * BS_NOT_SEEN marks a time the trace never showed for this I/O.
 *
 * Consumers register a struct bs_sample_sink (analysis_add_sink() in
 * analysis.h).  Callbacks run on the model's thread, in the order of the
 * completions; the sample is valid only for the duration of the call.
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
 * write before flush before read, as the kernel's disk statistics group
 * them.  Read or write is a coin toss on mixed I/O, so the four bits index
 * a table rather than pass a chain of tests.
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

/*
 * The stages of an I/O (docs/analyze.md, "The per-I/O model").  A bio
 * that got a request of its own goes Q -> G [-> I] -> D -> C; one merged
 * into an existing request goes Q -> M -> D -> C.  For a split bio the
 * G, I, M and D are those of its lead fragment (the one dispatched
 * first) and C is its last fragment's completion.
 */
enum bs_stage {
	BS_ST_Q2G,	/* queued -> got a request */
	BS_ST_G2I,	/* got a request -> inserted (scheduler, plug flush) */
	BS_ST_I2D,	/* inserted -> issued to the driver */
	BS_ST_Q2M,	/* queued -> merged into an existing request */
	BS_ST_M2D,	/* merged -> the request issued */
	BS_ST_D2C,	/* issued -> completed (the last fragment) */
	BS_ST_Q2C,	/* the whole life */
	BS_ST_Q2D,	/* queued -> issued */
	BS_ST_COUNT
};

enum bs_io_status {
	BS_IO_DONE,	/* every fragment completed */
	BS_IO_OPEN,	/* still in flight when the analysis ended (end of trace, -T, damage) */
};

/* bs_io_sample.flags */
/* events were lost during its life: stages unreliable, not counted */
#define BS_IO_LOSS	0x01u
#define BS_IO_CONT	0x02u	/* continues an I/O of another traced device (remap A) */
/* made up from a G/D/C whose Q was never seen (before the trace, lost) */
#define BS_IO_NO_Q	0x04u

/*
 * Who caused an I/O (record --files --stacks, analyze/attr/attr.h): the
 * analysis's file and stack ids (0: none) and the class (enum bs_fclass,
 * BS_FC_UNKNOWN when the trace has no attribution for it).
 */
struct bs_io_attr {
	uint32_t file;
	uint32_t stack;
	uint8_t cls;
	uint8_t flags;		/* BS_ATTR_R_* (format/bs_attr.h) */
};

/* One I/O: a queued bio and everything that happened to it. */
struct bs_io_sample {
	uint32_t device;	/* kernel dev_t (major << 20 | minor) */
	uint64_t sector;	/* start sector of the Q */
	uint32_t bytes;		/* bytes of the Q */
	uint32_t pid;		/* pid of the Q event */
	const char *comm;	/* the process name btt gives pid; NULL if unknown */
	enum bs_op op;		/* from the Q's action word */
	uint32_t action;	/* the Q's full action word (flags: SYNC, META, ...) */
	uint32_t action_hi;	/* the Q's v8 action bits 32..63 (zone categories), else 0 */
	uint64_t t_q;		/* queue (Q) */
	uint64_t t_a;		/* remap (A) of this bio, if any */
	uint64_t t_g;		/* get request (G), lead fragment */
	uint64_t t_s;		/* sleep request (S) */
	uint64_t t_i;		/* insert (I) of the lead fragment's request, last before D */
	uint64_t t_m;		/* merged into an existing request (M/F), lead fragment */
	uint64_t t_d; /* issue (D) of the lead fragment's request, the last (after requeues) */
	uint64_t t_c;		/* completion of the last fragment; BS_NOT_SEEN if open */
	uint32_t d_bytes;	/* bytes of the lead fragment's request when issued (0 if none) */
	uint32_t c_bytes;	/* bytes of this I/O seen completed */
	uint16_t error;		/* first completion error ((u16) -errno), 0 if none */
	uint8_t status;		/* enum bs_io_status */
	uint8_t flags;		/* BS_IO_* */
	int requeues;		/* R events that hit a request holding part of it */
	int splits;		/* X events that split it (fragments - 1) */
	int tag;		/* tagging plugin tag, -1 if none */
	uint64_t cgroup;	/* the Q's cgroup id (record --cgroup-ids), 0 if none */
	struct bs_io_attr attr;	/* its file and stack (record --files --stacks), or zeros */
	uint32_t stage_mask;	/* bit per enum bs_stage measured */
	uint64_t stage_ns[BS_ST_COUNT];
};

/* One stage from its two ends: 1 if the ends were seen backwards (not measured). */
static inline unsigned int bs_io_stage_put(struct bs_io_sample *s, enum bs_stage st, uint64_t from,
					   uint64_t to)
{
	if (from == BS_NOT_SEEN || to == BS_NOT_SEEN)
		return 0;
	if (to < from)
		return 1;
	s->stage_ns[st] = to > from ? to - from : 1;	/* one time stamp: 1 ns, as btt */
	s->stage_mask |= 1u << st;
	return 0;
}

/*
 * A sample's stages from its times: each measured only when both ends
 * were seen in order (ends with the same time stamp count 1 ns, as btt
 * counts them).  A merged bio has Q2M and M2D instead of Q2G, G2I, I2D.
 * Returns how many stages had their ends backwards (never reported).
 */
static inline unsigned int bs_io_sample_stages(struct bs_io_sample *s)
{
	unsigned int back = 0;

	s->stage_mask = 0;
	if (s->t_m != BS_NOT_SEEN) {
		back += bs_io_stage_put(s, BS_ST_Q2M, s->t_q, s->t_m);
		back += bs_io_stage_put(s, BS_ST_M2D, s->t_m, s->t_d);
	} else {
		back += bs_io_stage_put(s, BS_ST_Q2G, s->t_q, s->t_g);
		back += bs_io_stage_put(s, BS_ST_G2I, s->t_g, s->t_i);
		back += bs_io_stage_put(s, BS_ST_I2D, s->t_i, s->t_d);
	}
	back += bs_io_stage_put(s, BS_ST_D2C, s->t_d, s->t_c);
	back += bs_io_stage_put(s, BS_ST_Q2C, s->t_q, s->t_c);
	back += bs_io_stage_put(s, BS_ST_Q2D, s->t_q, s->t_d);
	return back;
}

/*
 * A sample's stage latencies count (and its bytes count as done): neither open nor touched by loss.
 */
static inline bool bs_io_clean(const struct bs_io_sample *s)
{
	return s->status == BS_IO_DONE && !(s->flags & BS_IO_LOSS);
}

/* Counts of one operation on one device. */
struct bs_op_counts {
	uint64_t queued, queued_bytes;		/* Q */
	uint64_t issued, issued_bytes;		/* D */
	uint64_t completed, completed_bytes;	/* C records and their bytes */
	uint64_t merges;			/* M + F: bios merged, and requests merged away */
	uint64_t requeues;			/* R */
	/*
	 * Requests that ended (the kernel's "I/Os completed" in
	 * /sys/block/DEV/stat counts requests; its sectors are
	 * completed_bytes / 512): a request ends at its last C, a request
	 * of the flush machinery counts as a flush.
	 */
	uint64_t rq_completed;
};

/*
 * Counters the model keeps per device and makes available at the end
 * (bs_analyze_counters() in analysis.h).  The per-operation counts exist
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
	/* one per queued bio, when it completes (or at the end, still open) */
	void (*io_done)(void *ctx, const struct bs_io_sample *s);
	/* every event of the merged stream (MESSAGE notes too), before the model sees it */
	void (*event)(void *ctx, const struct bs_event *ev);
	/* end of input: last event time (ns since genesis) */
	void (*finish)(void *ctx, uint64_t end_time);
	void *ctx;
	/*
	 * io_done touches nothing but ctx and the sample (no other
	 * extension's state, nothing of the analysis): the model and its
	 * sinks may then run on a thread of their own.
	 */
	bool own_state;
};

#endif /* BLKSCOPE_IO_SAMPLE_H */
