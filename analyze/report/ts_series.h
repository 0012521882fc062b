/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ts_series.h - per-interval IOPS, MB/s, latency sketches and in-flight
 * depth, per (op class, group slot) series, and per-device offset maps,
 * built in one streaming pass with memory independent of the trace length
 * (see ts_series.c).
 */
#ifndef BLKSCOPE_TS_SERIES_H
#define BLKSCOPE_TS_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bs_msg.h"
#include "report_lat.h"

struct ts_cell {
	uint64_t ios, bytes;
	uint64_t inflight_ns;	/* ∫ bios between D and C dt, within the bucket */
	/* ∫ bios between Q and D dt (in the block layer: plugged, scheduler) */
	uint64_t queued_ns;
	struct sketch q2c, d2c;
	struct sketch q2d;	/* only ts_cell_sum_all() sums it */
};

/*
 * A series is one (op class, group slot) pair, created on first use; a
 * sample updates one cell.  "all", "read", a group... are sums of series
 * (ts_cell_sum with a filter).  Group slots: 0 = no group, 1 + g for the
 * first TS_GROUP_SLOTS - 2 groups, the last slot for all further groups
 * (their time series are merged, so memory stays bounded).
 */
#define TS_READ		0
#define TS_WRITE	1
#define TS_OTHER	2
#define TS_OPS		3
#define TS_GROUP_SLOTS	66
#define TS_ANY		(-1)

#define TS_OFF_ROWS	256	/* sector bins per device offset map (before cropping) */
/*
 * An offset map costs buckets x TS_OFF_ROWS x 12 bytes: only the first
 * TS_MAX_OFFMAPS devices seen get one, fewer when the maps would pass
 * TS_OFFMAP_BUDGET (a trace naming thousands of devices must not need
 * gigabytes); the others have none (cnt NULL or no map), and the HTML
 * report says so.
 */
#define TS_MAX_OFFMAPS	64
/* and all maps together stay under this (--interval can mean 20000 buckets: 61 MB a map) */
#define TS_OFFMAP_BUDGET	(256u << 20)

struct ts_offmap {
	uint32_t device;
	unsigned int row_shift;	/* sectors per row = 1 << row_shift */
	uint32_t *cnt;		/* [bucket][row][3]: reads, writes, other (saturating) */
	/*
	 * Buckets [b_lo, b_hi) may hold counts, the rest are zero: widening
	 * touches only those, so the pages of a device with a few I/Os stay
	 * unmapped (64 maps of 200 buckets are 39 MB).
	 */
	size_t b_lo, b_hi;
	uint64_t max_sector;
};

struct ts_series {
	uint64_t origin;	/* time of bucket 0's start (-t), ns */
	bool fixed;		/* --interval: fixed width, grows (up to 20000 buckets) */
	bool widened;		/* fixed width had to double */
	uint64_t width;		/* ns per bucket */
	unsigned int shift;	/* width == 1 << shift when !fixed */
	unsigned int target;	/* auto mode: aim for this many buckets */
	size_t nb, cap;		/* buckets used / allocated per series */
	size_t nseries;
	struct ts_cell **series;	/* [series][bucket] */
	int *series_op, *series_slot;	/* what each series holds */
	/* buckets [lo, hi) may hold something, the rest are empty */
	size_t *series_lo, *series_hi;
	int series_of[TS_GROUP_SLOTS][TS_OPS];	/* -1 until used */
	size_t noff;
	struct ts_offmap *off;	/* cnt NULL: dropped to stay under the budget */
	bool off_dropped;	/* some were: make no new ones */
	/* notes (a too-fine --interval widened), or NULL: the owner sets it after ts_init() */
	const struct bs_msg_sink *msg;
};

void ts_init(struct ts_series *ts, uint64_t fixed_width, unsigned int target);
/* Bucket 0 starts at origin (before the first ts_add); earlier times count at origin. */
void ts_set_origin(struct ts_series *ts, uint64_t origin);
static inline uint64_t ts_bucket_start(const struct ts_series *ts, size_t b)
{
	return ts->origin + b * ts->width;
}
int ts_series_index(struct ts_series *ts, int op_class, int slot);	/* index, created if new */
/*
 * Slot from's series added to slot to's (exact: counts add, sketches
 * merge); from's are left empty, for a new holder of the slot.  Costs the
 * buckets from's series used, not all of them (ts_slots.h: a key evicted).
 */
void ts_merge_slot(struct ts_series *ts, int from, int to);
/* A new offset map for device: its index, or -1 past TS_MAX_OFFMAPS or the budget. */
int ts_add_offmap(struct ts_series *ts, uint32_t device);
void ts_add(struct ts_series *ts, const struct bs_io_sample *s, const struct report_stage_vals *sv,
	    int series, int offmap);
void ts_finish(struct ts_series *ts, uint64_t end_time);
void ts_free(struct ts_series *ts);
/*
 * Sum of bucket b over the series matching op_class and slot (TS_ANY for
 * either) into out (initialized here; free its sketches with ts_cell_free).
 */
void ts_cell_sum(const struct ts_series *ts, size_t b, int op_class, int slot, struct ts_cell *out);
void ts_cell_free(struct ts_cell *c);
/* ts_cell_sum() plus the Q2D sketch (callers that free only q2c and d2c use ts_cell_sum). */
void ts_cell_sum_all(const struct ts_series *ts, size_t b, int op_class, int slot,
		     struct ts_cell *out);

#endif /* BLKSCOPE_TS_SERIES_H */
