/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btt_engine.h - the btt-equivalent analysis engine: per-device and
 * per-process state, the in-flight queued bios, and the statistics btt
 * prints.  One call per event (bt_engine_event), in the merged time order
 * a blkparse -d dump has; memory is O(in-flight bios + devices +
 * processes + activity ranges + distinct seek distances), never O(events).
 */
#ifndef BLKSCOPE_BTT_ENGINE_H
#define BLKSCOPE_BTT_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "bs_hash.h"
#include "bs_merge.h"
#include "btt_rbtree.h"
#include "btt_qindex.h"
#include "btt_seek.h"
#include "btt_live.h"
#include "btt_iostat.h"

#define BT_NONE UINT64_MAX

/* min/avg/max/N of one latency, as btt's struct avg_info */
struct bt_avg {
	uint64_t min, max, total;
	int n;
};

struct bt_avgs {
	struct bt_avg q2q_dm, q2a_dm, q2c_dm;
	struct bt_avg q2q, q2a, q2g, s2g, g2i, q2m, i2d, m2d, d2c, q2c;
	struct bt_avg blks;
};

/* q/c activity ranges for btt's range data (coalesced by -d seconds) */
struct bt_range {
	uint64_t start, end;
};

/*
 * The first range lives inside (a trace may name 1M processes with one
 * I/O each: no allocation for them); v points at it or, past one range,
 * at an array.  So a struct bt_ranges is never copied.
 */
struct bt_ranges {
	struct bt_range *v;	/* &first, or an allocated array; NULL while n == 0 */
	uint32_t n, cap;
	struct bt_range first;
};

struct bt_region {
	struct bt_ranges q, c;
};

#define BT_PROC_NAME_LEN 17	/* BS_COMM_LEN + 1; "pid4294967295" fits too */

struct bt_proc {
	uint32_t pid;
	int index;		/* in bt_engine.procs (creation order) */
	bool named;		/* from a PROCESS note, not invented "pid%09u" (here: no padding) */
	/* a note's name (cut to BS_COMM_LEN), "kernel" or "pid%09u": inline, no allocation */
	char name[BT_PROC_NAME_LEN];
	struct bt_avgs *avgs;	/* only with -A (btt prints them nowhere else); else NULL */
	uint64_t last_q;
	struct bt_region regions;
};

/* A queued bio waiting for its completion (btt's Q iop). */
struct bt_q {
	struct bt_rb_node rb;
	uint64_t sector;
	uint64_t end;		/* sector + blocks: the tree searches compare it at every node */
	uint32_t bytes;
	uint32_t pid;
	uint32_t action, action_hi;
	uint64_t t_q, t_a, t_g, t_s, t_i, t_m, t_d;
	uint64_t d_sec;
	uint32_t d_nsec;	/* blocks of the D */
	struct bt_proc *proc;
	struct bt_dev *dev;
	struct bt_q *next_free;
};

#define BT_Q2D_BUCKETS 10
#define BT_HIST_BKTS 1025
enum { BT_PLAT_Q2D, BT_PLAT_Q2C, BT_PLAT_D2C };	/* 1..1024 blocks, and more */

struct bt_dev {
	uint32_t device;
	int index;		/* creation order */
	struct bt_avgs avgs;
	struct bt_rb_root qtree;
	struct bt_qindex qidx;	/* the same bios by start sector */
	/* the Q inserted last and its in-order successor, while both are queued (else NULL) */
	struct bt_q *q_last, *q_last_succ;
	uint64_t inflight;
	uint64_t last_q, n_qs, n_ds;
	uint64_t n_act_q, t_act_q;
	int pre_culling;
	int is_plugged, nplugs, nplugs_t;
	uint64_t nios_up, nios_upt;
	uint64_t start_ns, end_ns;	/* first event, last linked event (btt: start/end_time) */
	double last_plug, plugged_time;
	struct bt_seek q2q_seek, d2d_seek;
	struct bt_live live;
	struct bt_region regions;
	struct bt_iostat_dev iostat;
	FILE *d2c_fp, *q2c_fp, *q2d_fp;
	FILE *bno_fp[3];	/* -B: reads, writes, combined */
	FILE *aqd_fp;		/* -Q */
	FILE *pit_fp;		/* -P */
	int aqd_active;
	uint32_t *uhist;	/* -u: unplug depth / 5, 21 buckets */
	struct bt_plat {
		FILE *fp;
		long nl;
		double first_ts, last_ts, tl;
	} plat[3];		/* -L: q2d, q2c, d2c */
	uint64_t q2d_hist[BT_Q2D_BUCKETS];
	uint64_t q2d_n;
};

struct bt_opts {
	bool no_ranges;		/* btt's range data are not printed: collect no activity ranges */
	bool seek_absolute;	/* -a */
	bool all_data;		/* -A */
	bool ignore_remaps;	/* -r */
	double range_delta;	/* -d, seconds (0.1) */
	bool time_bounded;
	double t_start, t_end;	/* -t / -T seconds */
	const char *devices;	/* -D "maj,min;maj,min" */
	const char *exes;	/* -e name,name */
	const char *d2c_name, *q2c_name, *q2d_name;	/* -l -q -z */
	const char *seek_name, *bno_name, *aqd_name, *uhist_name;	/* -s -B -Q -u */
	double plat_freq;	/* -L: average latencies per this many seconds, 0 = off */
	bool live_files;	/* -Z: <maj>,<min>_live.dat and sys_live.dat */
	bool pit_files;		/* -P: <maj>,<min>_pit.dat */
	FILE *per_io;		/* -p */
	FILE *msgs;		/* messages (stdout, or <o>.msg) */
	FILE *iostat;		/* -I */
	uint64_t iostat_interval;	/* -S, ns */
	FILE *xvg;		/* -X with -o: easy-parse lines, or NULL */
	uint64_t seek_values;	/* distinct seek distances kept, all devices; 0 = all */
};

/* the Qs a D, C or R covers, in btt's walk order */
struct q_list {
	struct bt_q **v;
	size_t n, cap;
};

#define BT_PID_CACHE 64

struct bt_engine {
	struct bt_opts o;
	/* devices in creation order (btt reports them so), hashed by dev_t */
	struct bt_dev **devs;
	int ndevs;
	size_t devs_cap;
	struct bs_hash dev_idx;		/* dev_t -> index in devs */
	struct bt_dev *last_dev;
	/* processes in creation order, hashed by pid and by name */
	struct bt_proc **procs;		/* distinct processes */
	int nprocs;
	size_t procs_cap;
	/*
	 * Open addressing, 1 + index in procs per slot (0 = empty): a trace
	 * may name a million processes, so 8 and 4 bytes a slot, not a
	 * struct bs_hash's 17 (btt_procs.c).
	 */
	struct bt_pid_tab {
		struct bt_pid_ent {
			uint32_t pid, proc1;
		} *v;
		size_t cap, len;
	} pid_tab;			/* pid -> process (pids with one name share it) */
	struct bt_name_tab {
		uint32_t *proc1;
		size_t cap, len;
	} name_tab;			/* name -> process */
	struct bt_proc *last_proc;	/* lookup cache: the pid of the previous event */
	uint32_t last_pid;
	struct bt_pid_slot {		/* and a direct-mapped one of recent pids */
		uint32_t pid;
		struct bt_proc *proc;
	} pid_cache[BT_PID_CACHE];
	/*
	 * system-wide: Q2Q from the previous Q of any device; btt's other
	 * "All Devices" figures are the devices' merged (btt_report.c)
	 */
	struct bt_avg all_q2q, all_q2q_dm;
	uint64_t last_q;
	struct bt_region all_regions;
	struct bt_live all_live;
	struct bt_iostat iostat;
	/* Q node pool */
	struct bt_q *free_q;
	void **q_slabs;
	int nq_slabs, q_slabs_cap;
	uint64_t q_histo[BT_HIST_BKTS], d_histo[BT_HIST_BKTS];	/* sizes, for -o */
	uint64_t range_gap_ns;	/* smallest gap bt_secs() puts at or above -d */
	uint64_t seek_budget;	/* distinct seek distances still allowed */
	struct q_list scratch;
	bool done;
	/*
	 * No -t/-T, no -I: an I/O record takes the short way (bt_engine_takes_record(),
	 * bt_engine_record()).  Kept by bt_engine_check_plain() where any
	 * changes.
	 */
	bool plain;
	uint64_t n_traces;
	uint64_t last_time;
	struct bt_seek_folder *seek_folder;	/* folds the seek logs (btt_seek_folder.c), or NULL */
	uint64_t cgroup_records;	/* events with a cgroup id seen (btt ignores them) */
};

struct bt_engine *bt_engine_new(const struct bt_opts *o);
void bt_engine_free(struct bt_engine *e);

/*
 * Fold the seek logs on a second thread (btt_seek_folder.c): 0 if
 * started, -1 on one CPU or without a thread.  Before the first event.
 */
int bt_engine_thread_seeks(struct bt_engine *e);
/* A PROCESS note (btt: pid 0 is "kernel", the name is cut at '/'). */
void bt_engine_process_note(struct bt_engine *e, uint32_t pid, const char *comm, size_t len);

/* One event of the merged stream (time relative to genesis). */
void bt_engine_event(struct bt_engine *e, const struct bs_event *ev);

/*
 * Whether bt_engine_record() may take record t: a plain engine (see
 * bt_engine.plain) and an I/O record without a cgroup id, note or PC bit,
 * for which the rest of struct bs_event is never read.
 */
static inline bool bt_engine_takes_record(const struct bt_engine *e, const struct bs_trace *t)
{
	return e->plain &&
	       !(t->action & (BS_TA_CGROUP | BS_TC_ACT(BS_TC_NOTIFY) | BS_TC_ACT(BS_TC_PC)));
}

/* bt_engine_event() for a record bt_engine_takes_record() takes, given by its parts. */
void bt_engine_record(struct bt_engine *e, const struct bs_trace *t, uint32_t action_hi,
		      const uint8_t *pdu);

/*
 * Queued bios btt never saw complete (left in its trees at the end): a
 * split bio, for one, since btt completes a bio only with a C whose range
 * holds all of it.
 */
uint64_t bt_engine_never_completed(const struct bt_engine *e);

/* -T was passed: the engine takes no more events (btt stops reading there). */
static inline bool bt_engine_done(const struct bt_engine *e)
{
	return e->done;
}

/* Time of the last event seen, ns since genesis. */
static inline uint64_t bt_engine_last_time(const struct bt_engine *e)
{
	return e->last_time;
}

/* Events with a cgroup id seen (btt ignores them). */
static inline uint64_t bt_engine_cgroup_records(const struct bt_engine *e)
{
	return e->cgroup_records;
}

static inline bool bt_remapper_dev(uint32_t dev)
{
	unsigned int mjr = dev >> 20;

	return mjr == 9 || mjr == 253 || mjr == 254;
}

/* btt's BIT_TIME(): seconds as a double, computed the way btt does. */
static inline double bt_secs(uint64_t t)
{
	return (double)(t / 1000000000ull) + (double)(t % 1000000000ull) / 1.0e9;
}

struct bt_dev *bt_dev_lookup(const struct bt_engine *e, uint32_t device);

/* the device with this dev_t, or NULL (a one-entry cache first) */
static inline struct bt_dev *bt_engine_find_dev(const struct bt_engine *e, uint32_t device)
{
	if (e->last_dev && e->last_dev->device == device)
		return e->last_dev;
	return bt_dev_lookup(e, device);
}
const struct bt_proc *bt_engine_find_proc(const struct bt_engine *e, uint32_t pid);

/*
 * Create (or replace) an output file the way btt's side files are: a
 * regular file only, never through a symlink, never a FIFO or device;
 * close-on-exec.  NULL after one message naming the file.
 */
FILE *bt_create_file(const char *path);

/* Processes sorted by name (btt prints them in strcmp order). */
struct bt_proc **bt_engine_sorted_procs(struct bt_engine *e, int *n);

#endif /* BLKSCOPE_BTT_ENGINE_H */
