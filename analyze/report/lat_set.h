/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lat_set.h - one slice of the analyzed I/Os (a device, an operation, a
 * process, a group...): a latency sketch per stage plus counts.  A
 * sample's stage latencies are computed once (stage_vals_of) and added to
 * every slice it belongs to (lat_set_add); slices merge exactly.
 */
#ifndef BLKSCOPE_LAT_SET_H
#define BLKSCOPE_LAT_SET_H

#include <stdint.h>
#include "iomodel/io_sample.h"
#include "stats_sketch.h"

/* The latency stages we give percentiles for (btt's names): the model's (io_sample.h). */
enum stage {
	ST_Q2G = BS_ST_Q2G, ST_G2I = BS_ST_G2I, ST_I2D = BS_ST_I2D, ST_Q2M = BS_ST_Q2M,
	ST_M2D = BS_ST_M2D, ST_D2C = BS_ST_D2C, ST_Q2C = BS_ST_Q2C, ST_Q2D = BS_ST_Q2D,
	ST_COUNT = BS_ST_COUNT
};
extern const char *const stage_names[ST_COUNT];	/* "Q2G", ... */
extern const char *const op_names[BS_OP_COUNT];	/* "read", ... */

/* Percentiles we print, in ppm (nearest rank), with their labels. */
#define N_PCT 5
extern const uint32_t pct_ppm[N_PCT];
extern const char *const pct_names[N_PCT];	/* "p50", ... "p99.99" */

/* One sample's stage latencies, computed once and added to several sets. */
struct stage_vals {
	unsigned int mask;		/* bit per stage seen */
	uint64_t ns[ST_COUNT];
	unsigned int idx[ST_COUNT];	/* sk_index(ns) */
};

/*
 * Never-written empty sketches: the stages of a set that has no latency
 * yet, so readers need no NULL check (a trace naming 1M processes must
 * not pay ST_COUNT sketches for each before it has a value).  Read-only
 * (it may sit in read-only memory): lat_set_own() gives a set its own
 * sketches before anything is written, so a set points at it through
 * LAT_NO_STAGES, the same array without its const.  (A set of one
 * sample has no sketches at all: struct lat_one below.)
 */
extern const struct sketch lat_no_stages[ST_COUNT];
#define LAT_NO_STAGES ((struct sketch *)lat_no_stages)

/*
 * A set of exactly one sample keeps that sample's stage values, not
 * ST_COUNT sketches: a trace naming 1M processes with an I/O each makes
 * 1M such sets (and as many after the rollup), and 56 bytes each instead
 * of 384 is most of the report's memory.  The second sample turns them
 * into sketches.
 */
struct lat_one {
	unsigned int mask;		/* bit per stage seen */
	uint64_t ns[ST_COUNT];
};

/*
 * Everything we keep about one slice of the I/Os.  Which member of the
 * union is live follows from ios: read the stages with lat_stages().
 */
struct lat_set {
	union {
		struct sketch *st;	/* ios != 1: ST_COUNT sketches; lat_no_stages until the first value */
		struct lat_one *one;	/* ios == 1: the sample's values; NULL if it had none */
	};
	uint64_t ios;		/* queued bios (samples) */
	uint64_t completed;	/* of which every fragment completed */
	uint64_t bytes;		/* bytes of the completed ones */
	uint64_t open;		/* still in flight at the end of the analysis */
	uint64_t lossy;		/* touched by lost events: in no latency */
	uint64_t lossy_bytes;
	uint64_t merged;	/* bios merged into a request (M/F seen) */
	uint64_t requeued;	/* bios whose request was requeued */
	uint64_t errors;	/* completed with an error */
};

void lat_set_init(struct lat_set *ls);
/* Give back the latencies (the counts stay). */
void lat_set_free(struct lat_set *ls);
void lat_set_merge(struct lat_set *dst, const struct lat_set *src);
/* Merge src into dst and free src's latencies; takes them over when dst is empty. */
void lat_set_move(struct lat_set *dst, struct lat_set *src);
/* Give the set its own sketches (ios != 1, before the first value goes in). */
void lat_set_own(struct lat_set *ls);
/* A one-sample set gets sketches (called as its second sample comes in). */
void lat_set_unpack(struct lat_set *ls);
/* A set's first sample: keep its values (ios is 1). */
void lat_set_keep_one(struct lat_set *ls, const struct stage_vals *sv);

/*
 * The ST_COUNT stage sketches of a set, to read: its own, or for a set
 * of one sample, buf filled with one-value sketches (they own nothing).
 */
const struct sketch *lat_stages(const struct lat_set *ls, struct sketch buf[ST_COUNT]);
/* One stage of it (buf: room for one sketch). */
const struct sketch *lat_stage(const struct lat_set *ls, int st, struct sketch *buf);

/*
 * A sample's stages as the model measured them (an I/O still open at the
 * end has those it went through, as btt counts them); none for an I/O
 * touched by lost events.  Inline: this and lat_set_add() are the
 * per-sample hot path.
 */
static inline void stage_vals_of(const struct bs_io_sample *s, struct stage_vals *sv)
{
	unsigned int m = s->flags & BS_IO_LOSS ? 0 : s->stage_mask;

	sv->mask = m;
	while (m) {
		int i = __builtin_ctz(m);

		sv->ns[i] = s->stage_ns[i];
		sv->idx[i] = sk_index(s->stage_ns[i]);
		m &= m - 1;
	}
}

static inline void lat_set_add(struct lat_set *ls, const struct bs_io_sample *s, const struct stage_vals *sv)
{
	unsigned int m = sv->mask;

	ls->ios++;
	if (s->status == BS_IO_DONE) {
		ls->completed++;
		ls->bytes += s->bytes;
		ls->errors += s->error != 0;
	} else {
		ls->open++;
	}
	if (__builtin_expect(s->flags & BS_IO_LOSS, 0)) {
		ls->lossy++;
		ls->lossy_bytes += s->bytes;
	}
	ls->merged += s->t_m != BS_NOT_SEEN;
	ls->requeued += s->requeues > 0;
	if (__builtin_expect(ls->ios <= 2, 0)) {
		if (ls->ios == 1) {
			lat_set_keep_one(ls, sv);
			return;
		}
		lat_set_unpack(ls);
	}
	if (__builtin_expect(m && ls->st == lat_no_stages, 0))
		lat_set_own(ls);
	while (m) {
		int i = __builtin_ctz(m);

		sk_add_at(&ls->st[i], sv->ns[i], sv->idx[i]);
		m &= m - 1;
	}
}

/*
 * The average of a stage as btt prints it (%13.9f of the seconds total
 * over N, the total made seconds btt's way): rounded to the ns, so that
 * the percentile table's AVG equals btt's "All Devices" one.
 */
uint64_t lat_avg_ns(const struct sketch *sk);

/*
 * biolatency's log2 histogram of a sketch: bucket 0 = [0, 2) µs, i =
 * [2^i, 2^(i+1)) µs, the last up to UINT64_MAX ns (exclusive); each
 * sketch bucket counted whole by its middle value, as sk_count_range().
 * One pass over the sketch.
 */
#define LAT_US_BUCKETS 54
void lat_us_hist(const struct sketch *sk, uint64_t cnt[LAT_US_BUCKETS]);

#endif /* BLKSCOPE_LAT_SET_H */
