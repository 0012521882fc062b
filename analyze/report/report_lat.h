/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report_lat.h - one slice of the analyzed I/Os (a device, an operation, a
 * process, a group...): a latency sketch per stage plus counts.  A
 * sample's stage latencies are computed once (report_stage_vals_of) and added to
 * every slice it belongs to (report_lat_add); slices merge exactly.
 */
#ifndef BLKSCOPE_REPORT_LAT_H
#define BLKSCOPE_REPORT_LAT_H

#include <stdint.h>
#include "iomodel/io_sample.h"
#include "sketch.h"

/*
 * The latency stages we give percentiles for (btt's names) are the model's BS_ST_* (io_sample.h).
 */
extern const char *const report_stage_names[BS_ST_COUNT];	/* "Q2G", ... */
extern const char *const report_op_names[BS_OP_COUNT];	/* "read", ... */

/* Percentiles we print, in ppm (nearest rank), with their labels. */
#define REPORT_N_PCT 5
extern const uint32_t report_pct_ppm[REPORT_N_PCT];
extern const char *const report_pct_names[REPORT_N_PCT];	/* "p50", ... "p99.99" */

/* One sample's stage latencies, computed once and added to several sets. */
struct report_stage_vals {
	unsigned int mask;		/* bit per stage seen */
	uint64_t ns[BS_ST_COUNT];
	unsigned int idx[BS_ST_COUNT];	/* sketch_index(ns) */
};

/*
 * Never-written empty sketches: the stages of a set that has no latency
 * yet, so readers need no NULL check (a trace naming 1M processes must
 * not pay BS_ST_COUNT sketches for each before it has a value).  Read-only
 * (it may sit in read-only memory): report_lat_own() gives a set its own
 * sketches before anything is written, so a set points at it through
 * REPORT_LAT_NO_STAGES, the same array without its const.  (A set of one
 * sample has no sketches at all: struct report_lat_one below.)
 */
extern const struct sketch report_lat_no_stages[BS_ST_COUNT];
#define REPORT_LAT_NO_STAGES ((struct sketch *)report_lat_no_stages)

/*
 * A set of exactly one sample keeps that sample's stage values, not
 * BS_ST_COUNT sketches: a trace naming 1M processes with an I/O each makes
 * 1M such sets (and as many after the rollup), and 56 bytes each instead
 * of 384 is most of the report's memory.  The second sample turns them
 * into sketches.
 */
struct report_lat_one {
	unsigned int mask;		/* bit per stage seen */
	uint64_t ns[BS_ST_COUNT];
};

/*
 * Everything we keep about one slice of the I/Os.  Which member of the
 * union is live follows from ios: read the stages with report_lat_stages().
 */
struct report_lat {
	union {
		/* ios != 1: BS_ST_COUNT sketches; report_lat_no_stages until the first value */
		struct sketch *st;
		/* ios == 1: the sample's values; NULL if it had none */
		struct report_lat_one *one;
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

void report_lat_init(struct report_lat *ls);
/* Give back the latencies (the counts stay). */
void report_lat_free(struct report_lat *ls);
void report_lat_merge(struct report_lat *dst, const struct report_lat *src);
/* Merge src into dst and free src's latencies; takes them over when dst is empty. */
void report_lat_move(struct report_lat *dst, struct report_lat *src);
/* Give the set its own sketches (ios != 1, before the first value goes in). */
void report_lat_own(struct report_lat *ls);
/* A one-sample set gets sketches (called as its second sample comes in). */
void report_lat_unpack(struct report_lat *ls);
/* A set's first sample: keep its values (ios is 1). */
void report_lat_keep_one(struct report_lat *ls, const struct report_stage_vals *sv);

/*
 * The BS_ST_COUNT stage sketches of a set, to read: its own, or for a set
 * of one sample, buf filled with one-value sketches (they own nothing).
 */
const struct sketch *report_lat_stages(const struct report_lat *ls, struct sketch buf[BS_ST_COUNT]);
/* One stage of it (buf: room for one sketch). */
const struct sketch *report_lat_stage(const struct report_lat *ls, int st, struct sketch *buf);

/*
 * A sample's stages as the model measured them (an I/O still open at the
 * end has those it went through, as btt counts them); none for an I/O
 * touched by lost events.  Inline: this and report_lat_add() are the
 * per-sample hot path.
 */
static inline void report_stage_vals_of(const struct bs_io_sample *s, struct report_stage_vals *sv)
{
	unsigned int m = s->flags & BS_IO_LOSS ? 0 : s->stage_mask;

	sv->mask = m;
	while (m) {
		int i = __builtin_ctz(m);

		sv->ns[i] = s->stage_ns[i];
		sv->idx[i] = sketch_index(s->stage_ns[i]);
		m &= m - 1;
	}
}

static inline void report_lat_add(struct report_lat *ls, const struct bs_io_sample *s,
				  const struct report_stage_vals *sv)
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
			report_lat_keep_one(ls, sv);
			return;
		}
		report_lat_unpack(ls);
	}
	if (__builtin_expect(m && ls->st == report_lat_no_stages, 0))
		report_lat_own(ls);
	while (m) {
		int i = __builtin_ctz(m);

		sketch_add_at(&ls->st[i], sv->ns[i], sv->idx[i]);
		m &= m - 1;
	}
}

/*
 * The average of a stage as btt prints it (%13.9f of the seconds total
 * over N, the total made seconds btt's way): rounded to the ns, so that
 * the percentile table's AVG equals btt's "All Devices" one.
 */
uint64_t report_lat_avg_ns(const struct sketch *sk);

/*
 * biolatency's log2 histogram of a sketch: bucket 0 = [0, 2) µs, i =
 * [2^i, 2^(i+1)) µs, the last up to UINT64_MAX ns (exclusive); each
 * sketch bucket counted whole by its middle value, as sketch_count_range().
 * One pass over the sketch.
 */
#define REPORT_LAT_US_BUCKETS 54
void report_lat_us_hist(const struct sketch *sk, uint64_t cnt[REPORT_LAT_US_BUCKETS]);

#endif /* BLKSCOPE_REPORT_LAT_H */
