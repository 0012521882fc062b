/* SPDX-License-Identifier: GPL-2.0 */
/*
 * extras.h - what `blkscope analyze` reports beyond btt: per-stage latency
 * percentiles and log2 histograms, breakdowns by device, operation,
 * process and group (or tagging-plugin tag), time series, and the JSON,
 * CSV, HTML and SVG outputs.
 *
 * extras.c registers one analyzer extension (analyze.h) that owns the
 * options --stats --json --csv --html --svg --group --group-by --interval,
 * feeds every bs_io_sample into the state below (one pass, memory
 * O(in-flight + processes + groups + buckets)), and calls the writers at
 * the end.  The writers (report_*.c, svg.c) only read the state.
 */
#ifndef BLKSCOPE_EXTRAS_H
#define BLKSCOPE_EXTRAS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "btt/io_sample.h"
#include "stats_sketch.h"

#define EXTRAS_SCHEMA_VERSION 1

/* The latency stages we give percentiles for (btt's names). */
enum stage { ST_Q2G, ST_G2I, ST_I2D, ST_D2C, ST_Q2C, ST_Q2D, ST_COUNT };
extern const char *const stage_names[ST_COUNT];	/* "Q2G", ... */
extern const char *const op_names[BS_OP_COUNT];	/* "read", ... */

/* One sample's stage latencies, computed once and added to several sets. */
struct stage_vals {
	unsigned int mask;		/* bit per stage seen */
	uint64_t ns[ST_COUNT];
	unsigned int idx[ST_COUNT];	/* sk_index(ns) */
};

/* Everything we keep about one slice of the I/Os (a device, a process...). */
struct lat_set {
	struct sketch st[ST_COUNT];
	uint64_t ios;		/* queued bios (samples) */
	uint64_t completed;	/* of which a C was seen */
	uint64_t bytes;		/* bytes of the completed ones */
	uint64_t merged;	/* bios merged into a request (M/F seen) */
	uint64_t requeued;	/* bios whose request was requeued */
	uint64_t errors;	/* completed with an error */
};

void lat_set_init(struct lat_set *ls);
void lat_set_free(struct lat_set *ls);
void lat_set_merge(struct lat_set *dst, const struct lat_set *src);

/* One stage of a sample: both ends seen; btt's tdelta() (at least 1 ns). */
static inline void stage_put(struct stage_vals *sv, int i, uint64_t from, uint64_t to)
{
	uint64_t d;

	if (from == BS_NOT_SEEN || to == BS_NOT_SEEN)
		return;
	d = to > from ? to - from : 1;
	sv->ns[i] = d;
	sv->idx[i] = sk_index(d);
	sv->mask |= 1u << i;
}

/* Inline: this and lat_set_add() are the per-sample hot path. */
static inline void stage_vals_of(const struct bs_io_sample *s, struct stage_vals *sv)
{
	sv->mask = 0;
	stage_put(sv, ST_Q2G, s->t_q, s->t_g);
	stage_put(sv, ST_G2I, s->t_g, s->t_i);
	stage_put(sv, ST_I2D, s->t_i, s->t_d);
	stage_put(sv, ST_D2C, s->t_d, s->t_c);
	stage_put(sv, ST_Q2C, s->t_q, s->t_c);
	stage_put(sv, ST_Q2D, s->t_q, s->t_d);
}

static inline void lat_set_add(struct lat_set *ls, const struct bs_io_sample *s, const struct stage_vals *sv)
{
	unsigned int m = sv->mask;

	ls->ios++;
	if (s->t_c != BS_NOT_SEEN) {
		ls->completed++;
		ls->bytes += s->bytes;
		ls->errors += s->error != 0;
	}
	ls->merged += s->t_m != BS_NOT_SEEN;
	ls->requeued += s->requeues > 0;
	while (m) {
		int i = __builtin_ctz(m);

		sk_add_at(&ls->st[i], sv->ns[i], sv->idx[i]);
		m &= m - 1;
	}
}

/* Percentiles we print, in ppm (nearest rank), with their labels. */
#define N_PCT 5
extern const uint32_t pct_ppm[N_PCT];
extern const char *const pct_names[N_PCT];	/* "p50", ... "p99.99" */

/*
 * The finest slice we update per sample: one (device, op, process, group)
 * combination.  Devices, ops, processes, groups and the total are merged
 * from combos at the end (extras_rollup), which is exact because sketches
 * merge exactly; one set update per sample keeps the hot path short.
 */
struct combo {
	struct lat_set set;
	int dev, op, group;	/* group -1 = none */
	struct proc *proc;
};

struct proc {
	uint32_t pid;
	char comm[24];
	int group;		/* from --group / --group-by, -1 = none */
	struct combo *last;	/* the combo of this pid's previous sample */
	size_t ncombo;
	struct combo **combos;
	struct lat_set set;	/* filled by extras_rollup() */
};

struct group {
	char *name;		/* NULL for a tag group: named by its label */
	int tag;		/* tag number, -1 if not a tag group */
	int slot;		/* time-series group slot (TS_GROUP_SLOTS caps them) */
	struct lat_set set;	/* filled by extras_rollup() */
};

struct dev_slot {
	uint32_t device;
	int offmap;		/* index in the time series' offset maps */
};

/* Time series (timeseries.c). */
struct ts_cell {
	uint64_t ios, bytes;
	uint64_t inflight_ns;	/* ∫ bios between D and C dt, within the bucket */
	struct sketch q2c, d2c;
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

#define OFF_ROWS	256	/* sector bins per device offset map (before cropping) */

struct offmap {
	uint32_t device;
	unsigned int row_shift;	/* sectors per row = 1 << row_shift */
	uint32_t *cnt;		/* [bucket][row][3]: reads, writes, other (saturating) */
	uint64_t max_sector;
};

struct timeseries {
	bool fixed;		/* --interval: fixed width, grows (up to 20000 buckets) */
	bool widened;		/* fixed width had to double */
	uint64_t width;		/* ns per bucket */
	unsigned int shift;	/* width == 1 << shift when !fixed */
	unsigned int target;	/* auto mode: aim for this many buckets */
	size_t nb, cap;		/* buckets used / allocated per series */
	size_t nseries;
	struct ts_cell **series;	/* [series][bucket] */
	int *series_op, *series_slot;	/* what each series holds */
	int series_of[TS_GROUP_SLOTS][TS_OPS];	/* -1 until used */
	size_t noff;
	struct offmap *off;
};

void ts_init(struct timeseries *ts, uint64_t fixed_width, unsigned int target);
int ts_series(struct timeseries *ts, int op_class, int slot);	/* index, created if new */
int ts_add_offmap(struct timeseries *ts, uint32_t device);
void ts_add(struct timeseries *ts, const struct bs_io_sample *s, const struct stage_vals *sv,
	    int series, int offmap);
void ts_finish(struct timeseries *ts, uint64_t end_time);
void ts_free(struct timeseries *ts);
/*
 * Sum of bucket b over the series matching op_class and slot (TS_ANY for
 * either) into out (initialized here; free its sketches with ts_cell_free).
 */
void ts_cell_sum(const struct timeseries *ts, size_t b, int op_class, int slot, struct ts_cell *out);
void ts_cell_free(struct ts_cell *c);

/* The whole state. */
struct extras {
	/* options */
	bool text;		/* --stats */
	const char *json_path, *csv_dir, *html_path, *svg_dir;
	int group_by;		/* 0 none, 1 comm, 2 pid */
	uint64_t interval_ns;	/* 0 = automatic */

	/* explicit --group NAME=PID,...: pid -> group */
	size_t nexplicit;
	struct { uint32_t pid; int group; } *explicit_pids;

	/* devices (few: linear search with a one-entry cache) */
	size_t ndev;
	struct dev_slot *devs;
	int last_dev;

	size_t ncombo;
	struct combo **combos;

	/* processes: open-addressing hash on pid */
	size_t nproc, proc_cap;
	struct proc **procs;	/* hash slots */
	struct proc **proc_list; /* insertion order */

	/* groups, tags */
	size_t ngroup;
	struct group *groups;
	int *tag_group;		/* tag -> group index, -1 unknown */
	char **tag_label;	/* tag -> label from the plugin */
	size_t ntag;
	bool groups_used;	/* grouping options given or a tag seen */

	struct timeseries ts;
	uint64_t end_time;
	uint64_t samples;
	uint64_t genesis_abs;	/* unknown (0) unless the host tells us */

	/* engine counters (copied at report time) */
	const struct bs_dev_counters *counters;
	int ncounters;
};

extern struct extras extras;

/*
 * Slices merged from the combos for reporting, computed once at the end;
 * also fills every proc's and group's set.
 */
struct rollup {
	struct lat_set all;
	struct lat_set *dev;		/* [ndev] */
	struct lat_set op[BS_OP_COUNT];
};
const struct rollup *extras_rollup(void);

/* Label of a group (or tag) for display. */
const char *group_name(int g);
/* Processes sorted by descending I/O count (caller frees the array). */
struct proc **procs_sorted(void);
const struct bs_dev_counters *counters_of(uint32_t device);
void dev_name(uint32_t device, char *buf, size_t len);	/* "8,0" */

/* Called by whoever runs a tagging plugin: NEW_TAG labels. */
void bs_extras_tag_label(int tag, const char *label);

/* Writers; 0 or -1 (message printed). */
void report_text_extra(FILE *out);
int report_json(const char *path);
int report_csv(const char *dir);
int report_html(const char *path);
int report_svg(const char *dir);

/* Output helpers: create path safely (O_NOFOLLOW); NULL + message on error. */
FILE *extras_create(const char *path);
int extras_close(FILE *f, const char *path);

#endif /* BLKSCOPE_EXTRAS_H */
