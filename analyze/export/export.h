/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export.h - `blkscope export`: the analysis (analysis.h) with an export
 * extension that turns what the engine computes into rows of a table
 * (docs/export.md): one row per I/O (the ios table, export_ios.c) or per
 * interval and breakdown (the intervals table, export_intervals.c),
 * written as Parquet, CSV or JSON lines (export_rows.c).
 *
 * A table is declared with the Parquet writer's column descriptions
 * (struct pq_column) and filled with its values (struct pq_value),
 * whatever the output format: one schema, three writers.
 */
#ifndef BLKSCOPE_EXPORT_H
#define BLKSCOPE_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "analysis.h"
#include "bs_msg.h"
#include "pq_writer.h"

#define EXPORT_SCHEMA_VERSION 5

/*
 * Rows per Parquet row group unless --row-group: a quarter of the writer's
 * default keeps the buffered group (about 35 bytes a row encoded, plus its
 * staging) well inside the RSS budget, and is still large for the engines.
 */
#define EXPORT_ROW_GROUP 262144

enum export_format { EXPORT_PARQUET, EXPORT_CSV, EXPORT_JSONL };
enum export_table { EXPORT_IOS, EXPORT_INTERVALS, EXPORT_STACKS };

/* The extension: --table, --format, --host, --row-group (export_ext.c). */
extern const struct analysis_ext export_ext;

/* ---- row writers (export_rows.c) ---- */

struct export_rows;

/*
 * A writer of rows with these columns to fd, in this format; the column
 * table must outlive it.  Its errors go to msg as they happen (one line
 * each, BS_MSG_ERROR; the caller prints them): NULL after one here.
 */
struct export_rows *export_rows_open(enum export_format fmt, int fd,
				     const struct pq_column *cols, unsigned ncols,
				     uint32_t row_group_rows, const char *table,
				     const struct bs_msg_sink *msg);
/* One row, a value per column; 0 or -1 (told to msg, sticky). */
int export_rows_put(struct export_rows *w, const struct pq_value *v);
/* Footer / flush; 0 or -1 (told to msg).  Frees the writer. */
int export_rows_close(struct export_rows *w);
/* A key/value pair of the file's metadata (Parquet's footer; CSV, JSON lines: none): 0 or -1. */
int export_rows_meta(struct export_rows *w, const char *key, const char *value);
/* Frees without finishing (after an error). */
void export_rows_abort(struct export_rows *w);
uint64_t export_rows_count(const struct export_rows *w);

/* ---- the ios table (export_ios.c) ---- */

/* The ios table's columns, in file order. */
enum {
	EXPORT_IOS_HOST, EXPORT_IOS_DEVICE, EXPORT_IOS_MAJOR, EXPORT_IOS_MINOR, EXPORT_IOS_SECTOR,
	EXPORT_IOS_BYTES, EXPORT_IOS_OP, EXPORT_IOS_RWBS,
	EXPORT_IOS_PID, EXPORT_IOS_COMM, EXPORT_IOS_GROUP, EXPORT_IOS_TAG,
	EXPORT_IOS_T_Q, EXPORT_IOS_T_G, EXPORT_IOS_T_I, EXPORT_IOS_T_M, EXPORT_IOS_T_D,
	EXPORT_IOS_T_C,
	EXPORT_IOS_Q2G, EXPORT_IOS_G2I, EXPORT_IOS_I2D, EXPORT_IOS_D2C, EXPORT_IOS_Q2C,
	EXPORT_IOS_MERGED, EXPORT_IOS_REQUEUES, EXPORT_IOS_ERROR,
	/* schema version 2 */
	EXPORT_IOS_CGROUP_ID,
	/* schema version 3 */
	EXPORT_IOS_DEVICE_NAME, EXPORT_IOS_SPLITS,
	/* schema version 4 */
	EXPORT_IOS_Q2M, EXPORT_IOS_M2D, EXPORT_IOS_Q2D, EXPORT_IOS_STATUS, EXPORT_IOS_LOST_EVENTS,
	/* schema version 5: record --files --stacks */
	EXPORT_IOS_FILE, EXPORT_IOS_FILE_CLASS, EXPORT_IOS_STACK_ID,
	EXPORT_IOS_NCOLS
};

extern const struct pq_column export_ios_cols[EXPORT_IOS_NCOLS];

/* --device-name MAJ,MIN=NAME: the names given, as dev_t -> name. */
struct export_devnames {
	uint32_t *dev;
	char **name;
	size_t n;
};

/* Parse and add "MAJ,MIN=NAME"; 0, or -1 on a bad argument (no message). */
int export_devnames_add(struct export_devnames *m, const char *arg);
const char *export_devnames_find(const struct export_devnames *m, uint32_t dev);
void export_devnames_free(struct export_devnames *m);

/* One row of the ios table in the making; caches the strings of the last device/action. */
struct attr_dict;
struct export_ios {
	struct pq_value v[EXPORT_IOS_NCOLS];
	const struct attr_dict *attr;	/* the trace's files and stacks, NULL: none */
	uint64_t wall;		/* wall clock at the trace's time 0 (ns since the epoch), or 0 */
	const struct export_devnames *names;	/* the device_name column */
	uint32_t last_dev, last_action;
	bool have_dev, have_action, last_zero;
	char dev[24], rwbs[8];
};

/* Host (NULL = unknown), group label (NULL = none): set once per change. */
void export_ios_init(struct export_ios *x, const struct export_devnames *names);
void export_ios_set_host(struct export_ios *x, const char *host);
/* The row of one sample (group: label or NULL). */
void export_ios_fill(struct export_ios *x, const struct bs_io_sample *s, const char *group);

/* ---- the intervals table (export_intervals.c) ---- */

#include "bs_hash.h"
#include "report/ts_series.h"
#include "report/ts_slots.h"

/*
 * The device and process breakdowns, which the report's time series does
 * not keep: two more time series of the same width (the same --interval,
 * or the same automatic widening: the buckets line up with the report's),
 * a series per device and per process.  Bounded like the report's groups:
 * EXPORT_IV_SLOTS devices and processes have a series each, given by
 * volume (the --sort measure, report/ts_slots.h), the rest share one.
 */
#define EXPORT_IV_SLOTS TS_SLOT_MAX
#define EXPORT_IV_OTHER (TS_GROUP_SLOTS - 1)	/* the shared slot */
/* Processes with a row of their own: the text report's process table (its top 20). */
#define EXPORT_IV_TOP_PROCS 20

/* One breakdown's keys (devices or pids): key -> slot (+ 1; EXPORT_IV_OTHER + 1 = shared). */
struct export_iv_keys {
	struct ts_series ts;
	struct ts_slots slots;
	struct bs_hash slot_of;
	uint64_t last_key;
	int last_slot;		/* of last_key, -1 = none */
};

struct export_iv {
	struct export_iv_keys dev, proc;
	/* REPORT_SORT_* of the report (report/report.h): what the slots weigh */
	int sort;
};

void export_iv_init(struct export_iv *iv, uint64_t interval_ns, int sort);
void export_iv_add(struct export_iv *iv, const struct bs_io_sample *s);
void export_iv_finish(struct export_iv *iv, uint64_t end_time);
void export_iv_free(struct export_iv *iv);

struct bs_report;
extern const struct pq_column export_intervals_cols[];
extern const unsigned export_intervals_ncols;
/* Every row of the intervals table from the time series; 0 or -1. */
int export_intervals_write(struct bs_report *r, struct export_iv *iv, struct export_rows *w,
			   const char *host, uint64_t wall);

/* ---- the stacks table (export_stacks.c): record --stacks ---- */

struct export_stacks {
	const struct attr_dict *attr;
	uint64_t *ios, *bytes;	/* [stack id]: the I/Os queued from each */
};

extern const struct pq_column export_stacks_cols[];
extern const unsigned export_stacks_ncols;
/* 0, or -1 (the trace has no stacks: why in err) */
int export_stacks_init(struct export_stacks *x, const struct attr_dict *attr,
		       struct bs_err *err);
void export_stacks_add(struct export_stacks *x, const struct bs_io_sample *s);
/* One row per stack of the trace; 0 or -1. */
int export_stacks_write(struct export_stacks *x, struct export_rows *w);
void export_stacks_free(struct export_stacks *x);

/* ---- the host note (export_host.c) ---- */

/*
 * The host note `record` writes at start (docs/format.md): a MESSAGE whose
 * text is "blkscope host=NAME kernel=RELEASE boot_id=UUID".  Copies NAME
 * into host (size len) and returns true when msg is one.
 */
bool export_host_note(const char *msg, size_t n, char *host, size_t len);

#endif /* BLKSCOPE_EXPORT_H */
