/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report_priv.h - the report layer's state (struct bs_report) and the
 * functions its files share; included only by analyze/report/.  Other
 * layers read the state through report.h.
 */
#ifndef BLKSCOPE_REPORT_PRIV_H
#define BLKSCOPE_REPORT_PRIV_H

#include "bs_hash.h"
#include "report.h"
#include "report_attr_priv.h"

/*
 * The finest slice we update per sample: one (device, op, process, group)
 * combination.  Devices, ops, processes, groups and the total are merged
 * from combos at the end (report_rollup), which is exact because sketches
 * merge exactly; one set update per sample keeps the hot path short.
 */
struct combo {
	struct report_lat set;
	int dev, op, group;	/* group -1 = none */
	struct report_proc *proc;
};

struct report_proc {
	uint32_t pid;
	char comm[24];
	int group;		/* from --group / --group-by, -1 = none */
	struct combo *last;	/* the combo of this pid's previous sample */
	uint32_t comm_id;	/* report_attr.c: its name's index + 1 (0: not yet) */
	/*
	 * Its first combo, inside it (a trace may name 1M processes with
	 * one I/O each: one allocation and one slice per process, not two);
	 * report_rollup() merges the others into its set, which is then
	 * the process's: read it with report_proc_set().
	 */
	struct combo first;	/* first.proc is NULL until it is used */
};

/* A process's slice (after report_rollup()). */
static inline const struct report_lat *report_proc_set(const struct report_proc *p)
{
	return &p->first.set;
}

struct report_group {
	char *name;		/* NULL for a tag or cgroup group: named by its label */
	int tag;		/* tag number, -1 if not a tag group */
	bool is_cgroup;		/* --group-by cgroup: named by the cgroup's path */
	uint64_t cgroup;	/* its cgroup id (0: records without one) */
	int slot; /* time-series slot: -1 none yet, 1..TS_SLOT_MAX, TS_GROUP_SLOTS - 1 "more" */
	struct report_lat set;	/* filled by report_rollup() */
};

struct dev_slot {
	uint32_t device;
	int offmap;		/* index in the time series' offset maps, -1 = none (cap) */
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
extern const char *const report_time_part_names[TP_COUNT];

/* The whole state of one report. */
struct bs_report {
	struct bs_msg_sink msg;	/* notes and errors (the analysis's sink) */
	/* options */
	bool text;		/* --stats */
	const char *json_path, *csv_dir, *html_path, *svg_dir;
	unsigned int create_flags;	/* for bs_create_output(): --force = BS_CREATE_REPLACE */
	int group_by;		/* GROUP_BY_* */
	int sort;		/* SORT_*: --sort */
	uint64_t interval_ns;	/* 0 = automatic */
	struct bs_hash explicit_pids;	/* --group NAME=PID,...: pid -> group */
	const struct report_cgroup_names *cgroups;	/* the analysis's id -> path (labels) */
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
	 * (struct report_proc.first: not in here), and their lookup table
	 */
	size_t ncombo;
	struct combo **combos;
	struct idx_table combo_tab;

	/* processes, in order of first sample; pid lookup table */
	size_t nproc;
	struct report_proc **proc_list;
	struct idx_table proc_tab;
	struct report_proc *last_proc;

	/* groups (by name lookup table), tags */
	size_t ngroup;
	struct report_group *groups;
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

	struct ts_series ts;
	/* which groups have a series of their own (report_rank.c) */
	struct ts_slots group_slots;
	/* -t/-T window in ns (win_end 0 = none): the charts' time axis */
	uint64_t win_start, win_end;
	uint64_t end_time;
	uint64_t samples;
	uint64_t part_ns[TP_COUNT];	/* summed over the completed I/Os (time_part) */

	/* engine counters (copied at report time), device -> index */
	const struct bs_dev_counters *counters;
	int ncounters;
	struct bs_hash counter_index;

	struct report_rollup rollup;
	bool rolled_up;

	/* the analysis's health and btt's view of it, taken at report time */
	const struct iom_health *health;
	uint64_t btt_open;

	/* record --files --stacks: files, stacks, their groups (report_attr.h) */
	struct report_attr attr;
	struct attr_stats attr_stats;	/* the source's counts, at report time */
	bool have_attr_stats;
};

/*
 * Where the report's notes during the run go (report_ext.c): stderr as "PROGRAM: TEXT", the
 * one place that prints them, until the analysis hands its extensions a sink of its own.
 */

/* State (report_state.c). */
void report_init(struct bs_report *r);
void report_free(struct bs_report *r);
int report_group_find(struct bs_report *r, const char *name);
/* A slice's measure, and the measure's name ("I/Os", "bytes", "summed Q2C time"). */
uint64_t report_measure(const struct bs_report *r, const struct report_lat *ls);
const char *report_sort_name(const struct bs_report *r);
/* --sort's argument; 0 or -1 (why in err). */
int report_parse_sort(struct bs_report *r, const char *arg, struct bs_err *err);

/*
 * A table's rows: ranked processes (or groups), where the one-I/O ones that
 * share a name are folded into one row ("dd (38 pids)", "dd (38 groups)")
 * when there are more of them than the table shows.
 */
struct rank_row {
	char label[96];
	const struct report_lat *set;	/* the slice's, or &merged */
	struct report_lat merged;		/* a folded row's (lat_set_init'ed otherwise) */
	size_t folded;			/* slices in the row: 1, or how many were folded */
};
struct rank_rows {
	struct rank_row *v;
	size_t n;
};
void report_proc_rows(struct bs_report *r, size_t shown, struct rank_rows *out);
void report_group_rows(struct bs_report *r, size_t shown, struct rank_rows *out);
void report_rank_rows_free(struct rank_rows *rows);

/*
 * The time-series slot of group g for a sample (ts_slots.h: assigned by
 * volume on its first sample; another group's series may move to "more").
 */
int report_group_slot(struct bs_report *r, int g, const struct bs_io_sample *s,
		      const struct report_stage_vals *sv);
/* The same without a sample (the "untagged" group takes over the ungrouped series). */
int report_group_take_slot(struct bs_report *r, int g);
const struct bs_dev_counters *report_counters_of(const struct bs_report *r, uint32_t device);
/* Device (index) has an offset map; how many have none (TS_MAX_OFFMAPS, TS_OFFMAP_BUDGET). */
bool report_dev_has_offmap(const struct bs_report *r, size_t dev);
size_t report_devs_without_offmap(const struct bs_report *r);

/* Table rows the writers share: a slice's I/Os, MB, Q2C and D2C p50/p99/max, merges... */
void report_text_row_head(FILE *out, const char *first);
void report_text_row(FILE *out, const char *name, const struct report_lat *ls);
void report_html_row_head(FILE *f, const char *first);
void report_html_row(FILE *f, const char *name, const char *color, const struct report_lat *ls);
/* A slice object's members (the schema's "slice"), without braces. */
void report_json_slice(FILE *f, const struct report_lat *ls);

/* Writers; 0 or -1 (message printed). */
void report_text(struct bs_report *r, FILE *out);
int report_json(struct bs_report *r, const char *path);
int report_csv(struct bs_report *r, const char *dir);
int report_html(struct bs_report *r, const char *path);
int report_svg(struct bs_report *r, const char *dir);
/* The HTML page's opening panel: worst interval, slowest process/group, stage shares. */
void report_summary(struct bs_report *r, FILE *f);

#endif /* BLKSCOPE_REPORT_PRIV_H */
