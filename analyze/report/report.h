/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the report layer of `blkscope analyze`: what it reports
 * beyond btt (per-stage latency percentiles and log2 histograms,
 * breakdowns by device, operation, process and group or tagging-plugin
 * tag, time series) and the text, JSON, CSV, HTML and SVG writers.
 *
 * All of it lives in one struct bs_report, created and destroyed by the
 * report extension (report_ext.c, report_ext), which owns the options
 * --stats --json --csv --html --svg --group --group-by --interval.  The
 * sample sink (report_state.c) files every bs_io_sample into the state
 * (one pass, memory O(in-flight + processes + groups + buckets)); the
 * writers (report_*.c, svg_*.c) only read it, at the end.
 *
 * This header is what other layers (compare, export, the tag extension)
 * use: struct bs_report itself is private to analyze/report/
 * (report_priv.h); they read it through the functions below.
 */
#ifndef BLKSCOPE_REPORT_H
#define BLKSCOPE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "analysis.h"
#include "bs_devname.h"
#include "iomodel/io_sample.h"
#include "report_cgroup_names.h"
#include "report_lat.h"
#include "ts_series.h"
#include "ts_slots.h"

#define REPORT_SCHEMA_VERSION 2

struct bs_report;	/* report_priv.h */
struct report_proc;	/* one process: report_proc_pid(), _comm(), _set() */

/* What rankings (top N, busiest, tables) order by: --sort ios|bytes|time (report_rank.c). */
enum { REPORT_SORT_IOS, REPORT_SORT_BYTES, REPORT_SORT_TIME };

/* Slices merged from the combos for reporting, computed once at the end (report_rollup()). */
struct report_rollup {
	struct report_lat all;
	struct report_lat *dev;		/* [report_ndevs()] */
	struct report_lat op[BS_OP_COUNT];
};

/* The trace's health (report_health.c), one line per finding. */
#define REPORT_MAX_FINDINGS 16
struct report_findings {
	char line[REPORT_MAX_FINDINGS][512];
	unsigned int n;
};
struct iom_health;
void report_health_findings(const struct iom_health *h, struct report_findings *f);
void report_health_text(const struct iom_health *h, FILE *out);
void report_health_html(const struct iom_health *h, FILE *out);
void report_health_json(const struct iom_health *h, uint64_t btt_open, FILE *f);
void report_btt_differs(const struct iom_health *h, uint64_t btt_open, FILE *out);
/*
 * A flight-recorder snapshot's triggers (report_trigger.c); nothing for other traces but the JSON's
 * empty array.
 */
void report_triggers_text(const struct iom_health *h, FILE *out);
void report_triggers_html(const struct iom_health *h, FILE *out);
void report_triggers_json(const struct iom_health *h, FILE *f);

/* The extension behind the options above (report_ext.c). */
extern const struct analysis_ext report_ext;

/*
 * Only --group, --group-by and --interval, for a front-end that reports
 * nothing itself (blkscope-export): same state (struct bs_report), no
 * start(); whoever wants the groups calls report_begin() and registers
 * report_on_io/report_on_finish as a sink, then reads last_group.
 */
extern const struct analysis_ext report_group_ext;

/* State (report_state.c). */
void report_init(struct bs_report *r);
void report_free(struct bs_report *r);
/*
 * Start collecting: the time series, the sink's lookup state; cgroups
 * labels --group-by cgroup's groups (analysis_cgroups(), may be NULL),
 * attr those of --group-by file and dir, and files and stacks
 * (analysis_attr(), may be NULL); msg is where the report's notes and
 * errors go (analysis_msg_sink()).  0, or -1 after a message.
 */
int report_begin(struct bs_report *r, const struct report_cgroup_names *cgroups,
		 const struct attr_dict *attr, const struct bs_msg_sink *msg);
void report_on_io(void *ctx, const struct bs_io_sample *s);
void report_on_finish(void *ctx, uint64_t end_time);
int report_group_find(struct bs_report *r, const char *name);
/* Called by whoever runs a tagging plugin: NEW_TAG labels. */
void report_tag_label(struct bs_report *r, int tag, const char *label);
/* The engine's counters for the writers (indexed once). */
void report_take_counters(struct bs_report *r, const struct bs_dev_counters *c, int n);

/*
 * For a library user that reads the state after the run (compare): the
 * sink is registered even when no output is asked for.  Before start().
 */
void report_collect(struct bs_report *r);

const struct report_rollup *report_rollup(struct bs_report *r);
/* Label of a group (or tag) for display; valid for the next 15 calls. */
const char *report_group_name(struct bs_report *r, int g);
/*
 * Rankings (report_rank.c), by the --sort measure, largest first, ties by
 * order of appearance.  Processes and groups (caller frees the arrays;
 * after report_rollup()).
 */
struct report_proc **report_procs_sorted(const struct bs_report *r);
int *report_groups_sorted(const struct bs_report *r);

/*
 * Reading the state (report_view.c), for compare, export and the tag
 * extension; the slices are whole after report_rollup().
 */
/* Options */
uint64_t report_interval_ns(const struct bs_report *r);	/* --interval, 0 = automatic */
int report_sort(const struct bs_report *r);			/* --sort: REPORT_SORT_* */
/* grouping options given or a tag seen */
bool report_groups_used(const struct bs_report *r);
bool report_grouping_given(const struct bs_report *r);	/* --group or --group-by */
/* With no output asked for, print the text report (--stats): a tagging plugin's default. */
void report_default_to_text(struct bs_report *r);
/*
 * export: the sink files only each sample's group (report_last_group()); or also the time series.
 */
void report_set_groups_only(struct bs_report *r, bool on);
void report_set_timeline(struct bs_report *r, bool on);
/* The trace's end (the sink's end-of-trace call sets it); set it when no sink ran. */
uint64_t report_end_time(const struct bs_report *r);
void report_set_end_time(struct bs_report *r, uint64_t end_time);
/* The group of the last sample filed, -1 = none (read per sample: an inline-cheap field read). */
int report_last_group(const struct bs_report *r);
/* Devices, in order of first sample. */
size_t report_ndevs(const struct bs_report *r);
uint32_t report_dev(const struct bs_report *r, size_t i);
/* Processes, in order of first sample. */
size_t report_nprocs(const struct bs_report *r);
const struct report_proc *report_proc_at(const struct bs_report *r, size_t i);
uint32_t report_proc_pid(const struct report_proc *p);
const char *report_proc_comm(const struct report_proc *p);	/* "" when unknown */
const struct report_lat *report_proc_slice(const struct report_proc *p);
/* Groups, in order of appearance; the tag groups of a tagging plugin. */
size_t report_ngroups(const struct bs_report *r);
bool report_group_is_tag(const struct bs_report *r, size_t g);
const struct report_lat *report_group_slice(const struct bs_report *r, size_t g);
/* Its time-series slot (ts_slots.h; TS_SLOT_MORE, TS_SLOT_NONE). */
int report_group_series(const struct bs_report *r, size_t g);
/* Group g has a time series of its own. */
bool report_group_has_series(const struct bs_report *r, size_t g);
/* Some group's samples are in the shared "more groups" series. */
bool report_more_groups(const struct bs_report *r);
/*
 * Tag number tag (0..): its slice, NULL when no I/O got it; its label (the
 * group's name, else the plugin's label, else "").  The untagged I/Os'
 * slice once a tag was seen, else NULL (then every I/O is untagged).
 */
const struct report_lat *report_tag_slice(const struct bs_report *r, int tag);
const char *report_tag_name(struct bs_report *r, int tag);
const struct report_lat *report_untagged_slice(const struct bs_report *r);
/* The time series, the analysis's health, the engine's counters. */
const struct ts_series *report_series(const struct bs_report *r);
const struct iom_health *report_health(const struct bs_report *r);
const struct bs_dev_counters *report_counters(const struct bs_report *r, int *n);
/*
 * record --files: how many file rows; row i's label (its path or class, in
 * buf) and its slice, every operation merged into all (report_lat_init'ed).
 */
size_t report_nfiles(const struct bs_report *r);
const char *report_file_slice(const struct bs_report *r, size_t i, char *buf, size_t len,
			      struct report_lat *all);

/* "8,0": a device as btt prints it (util/bs_devname.h). */
static inline void report_dev_name(uint32_t device, char *buf, size_t len)
{
	bs_devname(device, buf, len);
}

/*
 * Output helpers: create path safely (O_NOFOLLOW; an existing file only
 * with flags BS_CREATE_REPLACE, --force); "-" is stdout; NULL + message on error.
 */
FILE *report_create_file(const char *path, unsigned int flags, const struct bs_msg_sink *msg);
int report_close_file(FILE *f, const char *path, const struct bs_msg_sink *msg);

#endif /* BLKSCOPE_REPORT_H */
