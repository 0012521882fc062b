/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the report layer of `blkscope analyze`: what it reports
 * beyond btt (per-stage latency percentiles and log2 histograms,
 * breakdowns by device, operation, process and group or tagging-plugin
 * tag, time series) and the text, JSON, CSV, HTML and SVG writers.
 *
 * All of it lives in one struct bs_report, created and destroyed by the
 * report extension (report_ext.c, bs_report_ext), which owns the options
 * --stats --json --csv --html --svg --group --group-by --interval.  The
 * sample sink (report_state.c) files every bs_io_sample into the state
 * (one pass, memory O(in-flight + processes + groups + buckets)); the
 * writers (report_*.c, svg_*.c) only read it, at the end.
 */
#ifndef BLKSCOPE_REPORT_H
#define BLKSCOPE_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "analysis.h"
#include "bs_devname.h"
#include "bs_hash.h"
#include "iomodel/io_sample.h"
#include "cgroup_names.h"
#include "lat_set.h"
#include "report_attr.h"
#include "timeseries.h"
#include "ts_slots.h"

#define REPORT_SCHEMA_VERSION 2

/*
 * The finest slice we update per sample: one (device, op, process, group)
 * combination.  Devices, ops, processes, groups and the total are merged
 * from combos at the end (report_rollup), which is exact because sketches
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
	uint32_t comm_id;	/* report_attr.c: its name's index + 1 (0: not yet) */
	/*
	 * Its first combo, inside it (a trace may name 1M processes with
	 * one I/O each: one allocation and one slice per process, not two);
	 * report_rollup() merges the others into its set, which is then
	 * the process's: read it with proc_set().
	 */
	struct combo first;	/* first.proc is NULL until it is used */
};

/* A process's slice (after report_rollup()). */
static inline const struct lat_set *proc_set(const struct proc *p)
{
	return &p->first.set;
}

struct group {
	char *name;		/* NULL for a tag or cgroup group: named by its label */
	int tag;		/* tag number, -1 if not a tag group */
	bool is_cgroup;		/* --group-by cgroup: named by the cgroup's path */
	uint64_t cgroup;	/* its cgroup id (0: records without one) */
	int slot;		/* time-series slot: -1 none yet, 1..TS_SLOT_MAX, TS_GROUP_SLOTS - 1 "more" */
	struct lat_set set;	/* filled by report_rollup() */
};

struct dev_slot {
	uint32_t device;
	int offmap;		/* index in the time series' offset maps, -1 = none (cap) */
};

/*
 * Slices merged from the combos for reporting, computed once at the end;
 * also fills every proc's and group's set.
 */
struct rollup {
	struct lat_set all;
	struct lat_set *dev;		/* [ndev] */
	struct lat_set op[BS_OP_COUNT];
};

/*
 * Open-addressing table of indexes into one of the arrays below (slot =
 * index + 1, 0 = empty); the caller hashes and compares (report_state.c).
 */
struct idx_table {
	uint32_t *slot;
	size_t cap, len;
};

enum { GROUP_BY_NONE, GROUP_BY_COMM, GROUP_BY_PID, GROUP_BY_CGROUP, GROUP_BY_FILE, GROUP_BY_DIR };

/*
 * Where the time goes: every completed I/O's Q2C split once into the
 * parts it went through (a merged bio: Q2M, M2D, D2C; one with a request
 * of its own: Q2G, G2I and I2D, or G2D without an insert, then D2C; Q2D
 * or all of Q2C where the trace shows no G, M or D), summed over the
 * I/Os: the parts add up to the summed Q2C exactly.  (btt's Device
 * Overhead divides each stage's total over every bio that has it by the
 * Q2C total instead: its columns need not add up to 100%.)
 */
enum time_part { TP_Q2G, TP_Q2M, TP_G2I, TP_G2D, TP_I2D, TP_M2D, TP_Q2D, TP_D2C, TP_Q2C, TP_COUNT };
extern const char *const time_part_names[TP_COUNT];
/* What rankings (top N, busiest, tables) order by: --sort ios|bytes|time (report_rank.c). */
enum { SORT_IOS, SORT_BYTES, SORT_TIME };

/* The whole state of one report. */
struct bs_report {
	/* options */
	bool text;		/* --stats */
	const char *json_path, *csv_dir, *html_path, *svg_dir;
	unsigned int create_flags;	/* for bs_create_output(): --force = BS_CREATE_REPLACE */
	int group_by;		/* GROUP_BY_* */
	int sort;		/* SORT_*: --sort */
	uint64_t interval_ns;	/* 0 = automatic */
	struct bs_hash explicit_pids;	/* --group NAME=PID,...: pid -> group */
	const struct bs_cgroup_names *cgroups;	/* the analysis's id -> path (labels) */
	uint64_t cgroup_records;	/* records with a cgroup id (btt ignores them) */
	bool collect;		/* report_collect(): fill the state without any output */
	/*
	 * The time series and offset maps are filled only when an output
	 * reads them (report_start, export_start): the default text report
	 * does not, and filing a sample into them was half of the report's
	 * work.
	 */
	bool timeline;

	/* devices, in order of first sample; device -> index */
	size_t ndev;
	struct dev_slot *devs;
	struct bs_hash dev_index;
	int last_dev;

	/*
	 * (device, op, process, group) slices past each process's first
	 * (struct proc.first: not in here), and their lookup table
	 */
	size_t ncombo;
	struct combo **combos;
	struct idx_table combo_tab;

	/* processes, in order of first sample; pid lookup table */
	size_t nproc;
	struct proc **proc_list;
	struct idx_table proc_tab;
	struct proc *last_proc;

	/* groups (by name lookup table), tags */
	size_t ngroup;
	struct group *groups;
	struct idx_table group_tab;	/* by name (tag groups are not in it) */
	int *tag_group;		/* tag -> group index, -1 unknown */
	char **tag_label;	/* tag -> label from the plugin */
	size_t ntag;
	bool groups_used;	/* grouping options given or a tag seen */
	int untagged_group;	/* -1 until the first tag is seen */
	struct bs_hash cgroup_group;	/* --group-by cgroup: cgroup id -> group */
	int last_cgroup_group;	/* group of the previous sample's cgroup, -1 = none */
	uint64_t last_cgroup;
	char name_buf[16][32];	/* rotating buffers of report_group_name() */
	unsigned int name_next;

	int last_group;		/* group of the last sample filed, -1 = none */
	/*
	 * Only the group of each sample (last_group) is wanted (export's ios
	 * table): report_on_io files no slice, sketch or time series.
	 */
	bool groups_only;

	struct timeseries ts;
	struct ts_slots group_slots;	/* which groups have a series of their own (report_rank.c) */
	uint64_t win_start, win_end;	/* -t/-T window in ns (win_end 0 = none): the charts' time axis */
	uint64_t end_time;
	uint64_t samples;
	uint64_t part_ns[TP_COUNT];	/* summed over the completed I/Os (time_part) */

	/* engine counters (copied at report time), device -> index */
	const struct bs_dev_counters *counters;
	int ncounters;
	struct bs_hash counter_index;

	struct rollup rollup;
	bool rolled_up;

	/* the analysis's health and btt's view of it, taken at report time */
	const struct iom_health *health;
	uint64_t btt_open;

	/* record --files --stacks: files, stacks, their groups (report_attr.h) */
	struct report_attr attr;
	struct attr_stats attr_stats;	/* the source's counts, at report time */
	bool have_attr_stats;
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
/* A flight-recorder snapshot's triggers (report_trigger.c); nothing for other traces but the JSON's empty array. */
void report_triggers_text(const struct iom_health *h, FILE *out);
void report_triggers_html(const struct iom_health *h, FILE *out);
void report_triggers_json(const struct iom_health *h, FILE *f);

/* The extension behind the options above (report_ext.c). */
extern const struct analysis_ext bs_report_ext;

/*
 * Only --group, --group-by and --interval, for a front-end that reports
 * nothing itself (blkscope-export): same state (struct bs_report), no
 * start(); whoever wants the groups calls report_begin() and registers
 * report_on_io/report_on_finish as a sink, then reads last_group.
 */
extern const struct analysis_ext bs_group_ext;

/* State (report_state.c). */
void report_init(struct bs_report *r);
void report_free(struct bs_report *r);
/*
 * Start collecting: the time series, the sink's lookup state; cgroups
 * labels --group-by cgroup's groups (analysis_cgroups(), may be NULL),
 * attr those of --group-by file and dir, and files and stacks
 * (analysis_attr(), may be NULL).  0, or -1 after a message.
 */
int report_begin(struct bs_report *r, const struct bs_cgroup_names *cgroups, const struct attr_dict *attr);
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

const struct rollup *report_rollup(struct bs_report *r);
/* Label of a group (or tag) for display; valid for the next 15 calls. */
const char *report_group_name(struct bs_report *r, int g);
/*
 * Rankings (report_rank.c), by the --sort measure, largest first, ties by
 * order of appearance.  Processes and groups (caller frees the arrays;
 * after report_rollup()).
 */
struct proc **report_procs_sorted(const struct bs_report *r);
int *report_groups_sorted(const struct bs_report *r);
/* A slice's measure, and the measure's name ("I/Os", "bytes", "summed Q2C time"). */
uint64_t report_measure(const struct bs_report *r, const struct lat_set *ls);
const char *report_sort_name(const struct bs_report *r);
/* --sort's argument; 0 or -1 (message printed). */
int report_parse_sort(struct bs_report *r, const char *arg, struct bs_err *err);

/*
 * A table's rows: ranked processes (or groups), where the one-I/O ones that
 * share a name are folded into one row ("dd (38 pids)", "dd (38 groups)")
 * when there are more of them than the table shows.
 */
struct rank_row {
	char label[96];
	const struct lat_set *set;	/* the slice's, or &merged */
	struct lat_set merged;		/* a folded row's (lat_set_init'ed otherwise) */
	size_t folded;			/* slices in the row: 1, or how many were folded */
};
struct rank_rows {
	struct rank_row *v;
	size_t n;
};
void report_proc_rows(struct bs_report *r, size_t shown, struct rank_rows *out);
void report_group_rows(struct bs_report *r, size_t shown, struct rank_rows *out);
void rank_rows_free(struct rank_rows *rows);

/*
 * The time-series slot of group g for a sample (ts_slots.h: assigned by
 * volume on its first sample; another group's series may move to "more").
 */
int report_group_slot(struct bs_report *r, int g, const struct bs_io_sample *s, const struct stage_vals *sv);
/* The same without a sample (the "untagged" group takes over the ungrouped series). */
int report_group_take_slot(struct bs_report *r, int g);
/* Group g has a time series of its own. */
static inline bool report_group_has_series(const struct bs_report *r, size_t g)
{
	return r->groups[g].slot >= 1 && r->groups[g].slot <= TS_SLOT_MAX;
}
/* Some group's samples are in the shared "more groups" series. */
bool report_more_groups(const struct bs_report *r);
const struct bs_dev_counters *report_counters_of(const struct bs_report *r, uint32_t device);
/* Device (index) has an offset map; how many have none (TS_MAX_OFFMAPS, TS_OFFMAP_BUDGET). */
bool report_dev_has_offmap(const struct bs_report *r, size_t dev);
size_t report_devs_without_offmap(const struct bs_report *r);

/* Table rows the writers share: a slice's I/Os, MB, Q2C and D2C p50/p99/max, merges... */
void report_text_row_head(FILE *out, const char *first);
void report_text_row(FILE *out, const char *name, const struct lat_set *ls);
void report_html_row_head(FILE *f, const char *first);
void report_html_row(FILE *f, const char *name, const char *color, const struct lat_set *ls);
/* A slice object's members (the schema's "slice"), without braces. */
void report_json_slice(FILE *f, const struct lat_set *ls);

/* Writers; 0 or -1 (message printed). */
void report_text(struct bs_report *r, FILE *out);
int report_json(struct bs_report *r, const char *path);
int report_csv(struct bs_report *r, const char *dir);
int report_html(struct bs_report *r, const char *path);
int report_svg(struct bs_report *r, const char *dir);
/* The HTML page's opening panel: worst interval, slowest process/group, stage shares. */
void report_summary(struct bs_report *r, FILE *f);

/* "8,0": a device as btt prints it (util/bs_devname.h). */
static inline void report_dev_name(uint32_t device, char *buf, size_t len)
{
	bs_devname(device, buf, len);
}

/*
 * Output helpers: create path safely (O_NOFOLLOW; an existing file only
 * with flags BS_CREATE_REPLACE, --force); "-" is stdout; NULL + message on error.
 */
FILE *report_create_file(const char *path, unsigned int flags);
int report_close_file(FILE *f, const char *path);

#endif /* BLKSCOPE_REPORT_H */
