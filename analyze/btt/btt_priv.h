/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btt_priv.h - the engine's insides, for analyze/btt/ only (btt.h is
 * what the rest sees): per-device and per-process state, the in-flight
 * queued bios, the statistics btt prints, and the operations the engine's
 * files share (devices, processes, the Q tree, side files, the report's
 * helpers).  The per-event lookups are inline here.
 */
#ifndef BLKSCOPE_BTT_PRIV_H
#define BLKSCOPE_BTT_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "bs_alloc.h"
#include "bs_codec.h"
#include "bs_hash.h"
#include "bs_merge.h"
#include "btt.h"
#include "btt_rbtree.h"
#include "btt_qindex.h"
#include "btt_seek.h"
#include "btt_live.h"
#include "btt_iostat.h"

#define BTT_NONE UINT64_MAX

/* min/avg/max/N of one latency, as btt's struct avg_info */
struct btt_avg {
	uint64_t min, max, total;
	int n;
};

struct btt_avgs {
	struct btt_avg q2q_dm, q2a_dm, q2c_dm;
	struct btt_avg q2q, q2a, q2g, s2g, g2i, q2m, i2d, m2d, d2c, q2c;
	struct btt_avg blks;
};

/* q/c activity ranges for btt's range data (coalesced by -d seconds) */
struct btt_range {
	uint64_t start, end;
};

/*
 * The first range lives inside (a trace may name 1M processes with one
 * I/O each: no allocation for them); v points at it or, past one range,
 * at an array.  So a struct btt_ranges is never copied.
 */
struct btt_ranges {
	struct btt_range *v;	/* &first, or an allocated array; NULL while n == 0 */
	uint32_t n, cap;
	struct btt_range first;
};

struct btt_region {
	struct btt_ranges q, c;
};

#define BTT_PROC_NAME_LEN 17	/* BS_COMM_LEN + 1; "pid4294967295" fits too */

struct btt_proc {
	uint32_t pid;
	int index;		/* in btt_engine.procs (creation order) */
	bool named;		/* from a PROCESS note, not made up "pid%09u" (no padding) */
	/* a note's name (cut to BS_COMM_LEN), "kernel" or "pid%09u": inline, no allocation */
	char name[BTT_PROC_NAME_LEN];
	struct btt_avgs *avgs;	/* only with -A (btt prints them nowhere else); else NULL */
	uint64_t last_q;
	struct btt_region regions;
};

/* A queued bio waiting for its completion (btt's Q iop). */
struct btt_q {
	struct btt_rb_node rb;
	uint64_t sector;
	uint64_t end;		/* sector + blocks: tree searches compare it at every node */
	uint32_t bytes;
	uint32_t pid;
	uint32_t action, action_hi;
	uint64_t t_q, t_a, t_g, t_s, t_i, t_m, t_d;
	uint64_t d_sec;
	uint32_t d_nsec;	/* blocks of the D */
	struct btt_proc *proc;
	struct btt_dev *dev;
	struct btt_q *next_free;
};

#define BTT_Q2D_BUCKETS 10
#define BTT_HIST_BKTS 1025
enum { BTT_PLAT_Q2D, BTT_PLAT_Q2C, BTT_PLAT_D2C };	/* 1..1024 blocks, and more */

struct btt_dev {
	uint32_t device;
	int index;		/* creation order */
	struct btt_avgs avgs;
	struct btt_rb_root qtree;
	struct btt_qindex qidx;	/* the same bios by start sector */
	/* the Q inserted last and its in-order successor, while both are queued (else NULL) */
	struct btt_q *q_last, *q_last_succ;
	uint64_t inflight;
	uint64_t last_q, n_qs, n_ds;
	uint64_t n_act_q, t_act_q;
	int pre_culling;
	int is_plugged, nplugs, nplugs_t;
	uint64_t nios_up, nios_upt;
	uint64_t start_ns, end_ns;	/* first event, last linked event (btt: start/end_time) */
	double last_plug, plugged_time;
	struct btt_seek q2q_seek, d2d_seek;
	struct btt_live live;
	struct btt_region regions;
	struct btt_iostat_dev iostat;
	FILE *d2c_fp, *q2c_fp, *q2d_fp;
	FILE *bno_fp[3];	/* -B: reads, writes, combined */
	FILE *aqd_fp;		/* -Q */
	FILE *pit_fp;		/* -P */
	int aqd_active;
	uint32_t *uhist;	/* -u: unplug depth / 5, 21 buckets */
	struct btt_plat {
		FILE *fp;
		long nl;
		double first_ts, last_ts, tl;
	} plat[3];		/* -L: q2d, q2c, d2c */
	uint64_t q2d_hist[BTT_Q2D_BUCKETS];
	uint64_t q2d_n;
};

/* the Qs a D, C or R covers, in btt's walk order */
struct btt_q_list {
	struct btt_q **v;
	size_t n, cap;
};

#define BTT_PID_CACHE 64

struct btt_engine {
	struct btt_opts o;
	/* devices in creation order (btt reports them so), hashed by dev_t */
	struct btt_dev **devs;
	int ndevs;
	size_t devs_cap;
	struct bs_hash dev_idx;		/* dev_t -> index in devs */
	struct btt_dev *last_dev;
	/* processes in creation order, hashed by pid and by name */
	struct btt_proc **procs;		/* distinct processes */
	int nprocs;
	size_t procs_cap;
	/*
	 * Open addressing, 1 + index in procs per slot (0 = empty): a trace
	 * may name a million processes, so 8 and 4 bytes a slot, not a
	 * struct bs_hash's 17 (btt_procs.c).
	 */
	struct btt_pid_tab {
		struct btt_pid_ent {
			uint32_t pid, proc1;
		} *v;
		size_t cap, len;
	} pid_tab;			/* pid -> process (pids with one name share it) */
	struct btt_name_tab {
		uint32_t *proc1;
		size_t cap, len;
	} name_tab;			/* name -> process */
	struct btt_proc *last_proc;	/* lookup cache: the pid of the previous event */
	uint32_t last_pid;
	struct btt_pid_slot {		/* and a direct-mapped one of recent pids */
		uint32_t pid;
		struct btt_proc *proc;
	} pid_cache[BTT_PID_CACHE];
	/*
	 * system-wide: Q2Q from the previous Q of any device; btt's other
	 * "All Devices" figures are the devices' merged (btt_report.c)
	 */
	struct btt_avg all_q2q, all_q2q_dm;
	uint64_t last_q;
	struct btt_region all_regions;
	struct btt_live all_live;
	struct btt_iostat iostat;
	/* Q node pool */
	struct btt_q *free_q;
	void **q_slabs;
	int nq_slabs, q_slabs_cap;
	uint64_t q_histo[BTT_HIST_BKTS], d_histo[BTT_HIST_BKTS];	/* sizes, for -o */
	uint64_t range_gap_ns;	/* smallest gap btt_secs() puts at or above -d */
	uint64_t seek_budget;	/* distinct seek distances still allowed */
	struct btt_q_list scratch;
	bool done;
	/*
	 * No -t/-T, no -I: an I/O record takes the short way (btt_engine_takes_record(),
	 * btt_engine_record()).  Kept by btt_engine_check_plain() where any
	 * changes.
	 */
	bool plain;
	uint64_t n_traces;
	uint64_t last_time;
	struct btt_seek_folder *seek_folder; /* folds the seek logs (btt_seek_folder.c), or NULL */
	uint64_t cgroup_records;	/* events with a cgroup id seen (btt ignores them) */
};

/*
 * Whether btt_engine_record() may take record t: a plain engine (see
 * btt_engine.plain) and an I/O record without a cgroup id, note or PC bit,
 * for which the rest of struct bs_event is never read.
 */
static inline bool btt_engine_takes_record(const struct btt_engine *e, const struct bs_trace *t)
{
	return e->plain &&
	       !(t->action & (BS_TA_CGROUP | BS_TC_ACT(BS_TC_NOTIFY) | BS_TC_ACT(BS_TC_PC)));
}

static inline bool btt_remapper_dev(uint32_t dev)
{
	unsigned int mjr = dev >> 20;

	return mjr == 9 || mjr == 253 || mjr == 254;
}

struct btt_dev *btt_dev_lookup(const struct btt_engine *e, uint32_t device);

/* the device with this dev_t, or NULL (a one-entry cache first) */
static inline struct btt_dev *btt_engine_find_dev(const struct btt_engine *e, uint32_t device)
{
	if (e->last_dev && e->last_dev->device == device)
		return e->last_dev;
	return btt_dev_lookup(e, device);
}
const struct btt_proc *btt_engine_find_proc(const struct btt_engine *e, uint32_t pid);

/*
 * Create (or replace) an output file the way btt's side files are: a
 * regular file only, never through a symlink, never a FIFO or device;
 * close-on-exec.  NULL after one warning (e->o.warn) naming the file.
 */
FILE *btt_create_file(const struct btt_engine *e, const char *path);

/* Processes sorted by name (btt prints them in strcmp order). */
struct btt_proc **btt_engine_sorted_procs(struct btt_engine *e, int *n);

/* ---- btt_report.c ---- */

/* "(%3d,%3d)" into buf of len bytes */
char *btt_dev_hdr(char *buf, size_t len, uint32_t device);

/* "%d,%d" (btt's make_dev_hdr() without parentheses), for -X lines */
char *btt_dev_plain(char *buf, size_t len, uint32_t device);

/* "==================== title ====================" and a blank line */
void btt_report_section(FILE *fp, const char *title);

/*
 * The devices btt reports on: all, in order of first appearance, or
 * those of -D in the order given (unknown ones skipped).  *out is
 * malloc'ed; returns the count.
 */
int btt_report_out_devs(struct btt_engine *e, struct btt_dev ***out);

/* One "Device Q2Q/D2D Seek Information" section (q2q: 1 Q2Q, 0 D2D); -X lines to e->o.xvg */
void btt_report_seek_info(const struct btt_engine *e, FILE *fp, const char *title,
			  struct btt_dev **devs, int n, int q2q);

/* which of btt's trace types an event is, for pre-culling */
enum btt_type { T_Q, T_A, T_G, T_S, T_I, T_M, T_D, T_C, T_R, T_MSG };

/* btt_devs.c */
struct btt_dev *btt_dev_setup(struct btt_engine *e, uint32_t device, enum btt_type type,
			      uint64_t time);
void btt_dev_q2d_add(struct btt_dev *d, uint64_t q2d_ns);

/* btt_dev_setup() for the common case: the previous event's device, past pre-culling */
static inline struct btt_dev *dev_setup(struct btt_engine *e, uint32_t device, enum btt_type type,
				       uint64_t time)
{
	struct btt_dev *d = e->last_dev;

	if (d && d->device == device && !d->pre_culling) {
		d->end_ns = time;
		return d;
	}
	return btt_dev_setup(e, device, type, time);
}

/* btt_procs.c */
struct btt_proc *btt_add_process(struct btt_engine *e, uint32_t pid, const char *name, bool named);
struct btt_proc *btt_find_process_slow(struct btt_engine *e, uint32_t pid);
/* A PROCESS note (btt: pid 0 is "kernel", the name cut at '/'). */
void btt_process_note(struct btt_engine *e, uint32_t pid, const char *comm, size_t len);

static inline struct btt_proc *find_process(struct btt_engine *e, uint32_t pid)
{
	if (!e->last_proc || e->last_pid != pid) {
		e->last_proc = btt_find_process_slow(e, pid);
		e->last_pid = pid;
	}
	return e->last_proc;
}

/* Whether btt_engine_event may take its short way (the conditions of btt_engine.plain). */
static inline void btt_engine_check_plain(struct btt_engine *e)
{
	e->plain = !e->done && !e->o.time_bounded && !e->iostat.fp;
}

/* btt_qtree.c */
struct btt_q *btt_q_alloc(struct btt_engine *e);
struct btt_q *btt_q_insert(struct btt_dev *d, struct btt_q *q);
void btt_q_collect(const struct btt_rb_node *n, uint64_t s, uint64_t e, struct btt_q_list *out);
void btt_q_list_grow(struct btt_q_list *out);
void btt_q_remove(struct btt_dev *d, struct btt_q *q);

static inline void q_free(struct btt_engine *e, struct btt_q *q)
{
	q->next_free = e->free_q;
	e->free_q = q;
}

static inline uint64_t q_end(const struct btt_q *q)
{
	return q->end;
}

/*
 * Built with -DBT_QINDEX_CHECK (CFLAGS=-DBT_QINDEX_CHECK make BUILD=build-chk,
 * then the tests with BUILD=build-chk), every answer of the start-sector
 * index is checked against the tree's and the run aborts on a difference;
 * tests/unit/test_qindex.c makes the same comparison on random steps.
 */
#ifdef BTT_QINDEX_CHECK
#define QINDEX_CHECK(cond) do { if (!(cond)) abort(); } while (0)
#else
#define QINDEX_CHECK(cond) do { } while (0)
#endif

/* btt's rb_find_sec(): the Q met first whose [start, end) holds sec */
static inline struct btt_q *q_find_sec_tree(const struct btt_dev *d, uint64_t sec)
{
	const struct btt_rb_node *n = d->qtree.node;

	while (n) {
		struct btt_q *q = btt_rb_entry(n, struct btt_q, rb);

		if (sec < q->sector)
			n = n->left;
		else if (sec >= q_end(q))
			n = n->right;
		else
			return q;
	}
	return NULL;
}

/*
 * With ranges overlapping somewhere on the device the index may still
 * answer for q, the bio starting at s, when no other queued range reaches
 * s from before it: btt's descent and walk then pass every other node on
 * the way to q by its start alone, whatever the tree's shape.  A range
 * reaching s starts less than the longest range ever queued before s;
 * the bios starting there are q's predecessors in start order, looked at
 * up to a few (else the tree answers).  On random I/O a bio btt's rules
 * leave queued overlaps others for much of a run, where the tree alone
 * would answer (docs/analyze.md, "Measurements").
 */
#define Q_ALONE_STEPS 4
static inline bool q_alone_from_left(const struct btt_dev *d, const struct btt_q *q, uint64_t s)
{
	const struct btt_rb_node *n = &q->rb;
	int k;

	if (d->qidx.off || d->qidx.n_empty_or_wrapped)
		return false;
	for (k = 0; k < Q_ALONE_STEPS; k++) {
		const struct btt_q *p;

		n = btt_rb_prev(n);
		if (!n)
			return true;
		p = btt_rb_entry(n, const struct btt_q, rb);
		if (s - p->sector >= d->qidx.max_len)	/* p starts before s */
			return true;	/* it and all before it end by s */
		if (p->end > s)
			return false;
	}
	return false;
}

/*
 * q, the bio starting at s, is the only one in [s, e): none starts inside after it, none reaches s
 */
static inline bool q_alone(const struct btt_dev *d, const struct btt_q *q, uint64_t s, uint64_t e)
{
	const struct btt_rb_node *n;

	if (btt_qindex_exact(&d->qidx))
		return true;
	n = btt_rb_next(&q->rb);
	return (!n || btt_rb_entry(n, const struct btt_q, rb)->sector >= e) &&
	       q_alone_from_left(d, q, s);
}

/* the bio starting at sec, from the start-sector index, or NULL (off, none there, merged) */
static inline struct btt_q *q_at(const struct btt_dev *d, uint64_t sec)
{
	return btt_qindex_get(&d->qidx, sec);
}

/* the same, through the start-sector index when it may answer */
static inline struct btt_q *q_find_sec(const struct btt_dev *d, uint64_t sec)
{
	struct btt_q *q = q_at(d, sec);

	/* no other range holding sec: the one starting there is btt's answer */
	if (q && (btt_qindex_exact(&d->qidx) || q_alone_from_left(d, q, sec))) {
		QINDEX_CHECK(q == q_find_sec_tree(d, sec));
		return q;
	}
	return q_find_sec_tree(d, sec);
}

/*
 * The Qs within [s, e), in btt's walk order (btt_q_collect), into out.
 * With disjoint, non-empty ranges a Q spanning exactly [s, e) is the only
 * one inside it: the request of one bio, the common case.
 */
static inline void q_collect(const struct btt_dev *d, uint64_t s, uint64_t e,
			     struct btt_q_list *out)
{
	out->n = 0;
	struct btt_q *q = q_at(d, s);

	if (q && q->end == e && q_alone(d, q, s, e)) {
		if (!out->cap)
			btt_q_list_grow(out);
#ifdef BTT_QINDEX_CHECK
		btt_q_collect(d->qtree.node, s, e, out);
		QINDEX_CHECK(out->n == 1 && out->v[0] == q);
		out->n = 0;
#endif
		out->v[out->n++] = q;
		return;
	}
	btt_q_collect(d->qtree.node, s, e, out);
}

/* btt_sidefiles.c */
void btt_open_latency_files(struct btt_engine *e, struct btt_dev *d);
void btt_per_io_track(FILE *fp, const struct btt_q *q, uint64_t t_c, uint64_t c_sec,
		      uint32_t c_nblks);
void btt_side_issue(struct btt_dev *d, const struct bs_trace *t);	/* -B, -Q at a D */
void btt_side_complete(struct btt_dev *d, uint64_t time);		/* -Q at a C */
/* -u */
void btt_side_unplug(struct btt_dev *d, const struct bs_trace *t, const uint8_t *pdu);
void btt_close_side_files(struct btt_engine *e, struct btt_dev *d);	/* writes -u */

void btt_plat_add(struct btt_plat *p, double freq, uint64_t stamp, uint64_t latency);
void btt_pit_line(FILE *fp, uint64_t d_time, uint64_t c_time);	/* -P */

static inline void latency_out(FILE *fp, uint64_t stamp, uint64_t latency)
{
	if (fp)
		fprintf(fp, "%lf %lf\n", (double)stamp / 1.0e9, (double)latency / 1.0e9);
}

/* one per-IO latency: the -l/-q/-z file and the -L averages */
static inline void latency_x2c(struct btt_engine *e, FILE *fp, struct btt_plat *p, uint64_t stamp,
			       uint64_t latency)
{
	latency_out(fp, stamp, latency);
	if (p->fp)
		btt_plat_add(p, e->o.plat_freq, stamp, latency);
}

#endif /* BLKSCOPE_BTT_PRIV_H */
