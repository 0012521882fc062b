/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iom_priv.h - the per-I/O model's objects, shared by its files.
 *
 * An I/O (struct iom_io) is a queued bio.  Its sectors travel as
 * fragments (struct iom_frag): one at first, more after splits.  A
 * fragment is pending (in m->pending, by its start sector) until a G
 * gives it a request of its own or an M/F merges it into one; then it
 * belongs to a request (struct iom_rq), in sector order, until a C
 * covers it.  Requests are found by their current position (m->by_pos:
 * the start, advanced by partial completions) and, while they can still
 * take a back merge, by their end (m->by_end).
 */
#ifndef BLKSCOPE_IOM_PRIV_H
#define BLKSCOPE_IOM_PRIV_H

#include "bs_hash.h"
#include "iom.h"
#include "iom_tab.h"

#define IOM_MAX_SINKS 16
/* bios pending at one sector at once before the oldest is given up (a crafted trace's chain) */
#define IOM_MAX_SAME 64
/*
 * I/Os in flight at once, all devices: past it the oldest is given up
 * (counted).  A disk holds at most its queue depth (a few thousand; 64
 * hardware queues of 1024 requests at the most), so only a trace whose
 * completions are lost, or a crafted one, gets here; memory stays bounded
 * (about 300 bytes an I/O).
 */
#define IOM_MAX_LIVE (1u << 18)
#define IOM_FAST_CPUS 64
/* I/Os emitted last, kept for trigger notes (a power of two; a completion batch) */
#define IOM_RECENT 256

struct iom_dev {
	uint32_t device;
	uint32_t index;			/* dense: the tables' key */
	uint32_t loss_epoch;		/* bumped at every loss seen on this device */
	struct bs_dev_counters *ctr;	/* &m->ctrs[index] (moves: re-taken after growth) */
	/* the last remaps (A) seen, waiting for the Q they announce */
	struct iom_remap {
		uint64_t sector, from_sector, time;
		uint32_t from_dev;
		bool used;
	} remaps[4];
	unsigned int remap_next;
	/* empty flush requests waiting for the flush machinery (their D is the flush's) */
	struct iom_rq *flush_waiters;
	/*
	 * Each CPU's stream below IOM_FAST_CPUS (NULL: none yet); the others
	 * through m->cpu_idx.  Events of two CPUs interleave all the time,
	 * and a hash lookup per event shows in the run's time.
	 */
	struct iom_cpu *cpu_fast[IOM_FAST_CPUS];
};

struct iom_io;
struct iom_rq;

struct iom_frag {
	struct iom_hnode hn;		/* m->pending while pending */
	struct iom_io *io;
	struct iom_rq *rq;		/* NULL while pending */
	struct iom_frag *next;		/* in its request, by sector */
	struct iom_frag *sib;		/* the I/O's other fragments (from io->first) */
	uint64_t sector, end;
	uint64_t t_entry;		/* G, or M/F when merged */
	uint64_t t_i_own;		/* the I of a request that merged into another */
	bool merged;
};

struct iom_io {
	struct iom_dev *dev;
	uint64_t sector;
	uint32_t bytes, pid;
	uint32_t action, action_hi;
	uint64_t cgroup;
	struct bs_io_attr attr;		/* from the attribution source at the Q, or zeros */
	uint64_t t_q, t_a, t_s;
	/* the lead fragment's (dispatched first) */
	uint64_t t_g, t_i, t_m, t_d;
	uint32_t d_bytes;
	uint64_t t_c;			/* the latest completion so far */
	uint64_t done_sectors;
	uint32_t frags, open_frags;
	int requeues, tag;
	uint32_t epoch;			/* dev->loss_epoch when queued */
	uint16_t error;
	uint8_t flags;			/* BS_IO_* */
	bool zero;			/* no data (flush, zone management) */
	bool listed;			/* iom_finish.c: on the list of open I/Os */
	struct iom_io *older, *newer;	/* the I/Os in flight, in the order of their Qs */
	/* its first fragment, inside it: a bio that is not split costs one allocation */
	struct iom_frag first;
};

enum iom_rq_state { RQ_BUILT, RQ_ISSUED, RQ_FLUSHSEQ };

struct iom_rq {
	struct iom_hnode pos, endn;	/* m->by_pos; m->by_end while mergeable */
	struct iom_dev *dev;
	struct iom_frag *head, *tail;
	uint64_t start, end;		/* sectors left: [start, end) */
	uint64_t t_i, t_d;
	uint32_t d_bytes, d_action;
	uint32_t op_action; /* the action its operation is counted by (the G's, the D's) */
	uint16_t error;			/* of a C before the last */
	uint32_t q_cats;		/* categories of its bios' Qs, ORed (FUA, FLUSH) */
	uint8_t state;			/* enum iom_rq_state */
	bool flush_op;			/* a flush of the flush machinery (no bio) */
	bool waits_flush;		/* an empty preflush: m->dev->flush_waiters */
	int requeues;
	struct iom_rq *next_waiter;
};

/* (device, cpu) stream state: sequence numbers, coverage */
struct iom_cpu {
	struct iom_cpu_cover c;
	uint32_t dev_index;
};

struct iom_pool {
	void *free;		/* free list, through each free object's first word */
	void **slabs;
	size_t nslabs, cap;
	size_t size;		/* object size */
};

struct iom {
	struct iom_opts o;
	struct bs_sample_sink sinks[IOM_MAX_SINKS];
	int nsinks;
	bool event_sinks;
	iom_attr_fn attr_fn;		/* iom_set_attr(), NULL: none */
	void *attr_ctx;

	/* devices, dense; dev_t -> index */
	struct iom_dev **devs;
	size_t ndevs, devs_cap;
	struct bs_hash dev_idx;
	struct iom_dev *last_dev;
	struct bs_dev_counters *ctrs;	/* [ndevs] */
	size_t ctrs_cap;

	/* streams: (device, cpu) -> index in cpus (each allocated: the pointers stay) */
	struct iom_cpu **cpus;
	size_t ncpus, cpus_cap;
	struct bs_hash cpu_idx;

	struct iom_tab pending, by_pos, by_end;
	struct iom_pool io_pool, frag_pool, rq_pool;
	/* the I/Os in flight, oldest first (IOM_MAX_LIVE) */
	struct iom_io *oldest, *newest;
	uint32_t nlive;

	/* process names (PROCESS notes): pid -> index in names */
	struct bs_hash pid_name;
	char (*names)[17];
	size_t nnames, names_cap;

	struct iom_health h;
	uint64_t last_time;
	uint64_t followed;	/* events past the gates (damage, -t/-T, health only) */
	/* no -t/-T, not health only, no damage: an I/O record takes the short way (iom_event) */
	bool plain;
	uint64_t cur_cgroup;		/* cgroup id of the record being followed (0: none) */
	/* names of recent pids, direct-mapped (emission names every I/O) */
	struct iom_name_slot {
		uint32_t pid;
		const char *name;	/* NULL: empty */
	} name_cache[64];
	struct bs_io_sample sample;	/* the one being handed out */
	/* the last IOM_RECENT I/Os emitted, for the trigger notes that follow them */
	struct iom_trigger_io recent[IOM_RECENT];
	uint64_t recent_next;
	uint32_t triggers_waiting;
	uint32_t max_n;			/* the highest trigger number read */
	uint64_t genesis;		/* absolute ns (iom_set_genesis) */
	bool genesis_set;
};

/* iom_trigger.c */
void iom_trigger_note(struct iom *m, const struct bs_trace *t, const struct bs_trigger_note *n);
void iom_trigger_check(struct iom *m, const struct iom_trigger_io *io);
void iom_trigger_finish(struct iom *m);

/* iom_pool.c */
void iom_pool_init(struct iom_pool *p, size_t size);
void *iom_pool_get(struct iom_pool *p);
void iom_pool_put(struct iom_pool *p, void *obj);
void iom_pool_free(struct iom_pool *p);

/* iom_dev.c: devices and streams */
struct iom_dev *iom_dev_slow(struct iom *m, uint32_t device, uint64_t time);
static inline struct iom_dev *iom_dev_of(struct iom *m, uint32_t device, uint64_t time)
{
	if (m->last_dev && m->last_dev->device == device)
		return m->last_dev;
	return iom_dev_slow(m, device, time);
}
struct iom_cpu *iom_cpu_slow(struct iom *m, struct iom_dev *d, uint32_t cpu);
struct iom_cpu *iom_cpu_get(struct iom *m, uint32_t device, uint32_t cpu, uint32_t dev_index);
void iom_stream_out_of_seq(struct iom_dev *d, struct iom_cpu *c, const struct bs_trace *t);
void iom_count_other(struct bs_dev_counters *c, const struct bs_trace *t, uint32_t action_hi,
		     unsigned int act);

static inline struct iom_cpu *cpu_of(struct iom *m, struct iom_dev *d, uint32_t cpu)
{
	if (cpu < IOM_FAST_CPUS && d->cpu_fast[cpu])
		return d->cpu_fast[cpu];
	return iom_cpu_slow(m, d, cpu);
}

/*
 * Each (device, CPU) numbers its events from 1 (the kernel's per-trace,
 * per-CPU counter; blkscope record consumes a number for every event it
 * drops, as Linux 6.19 does).  The common case is the next number: one
 * compare; the rest (the first event, a gap, sequence 0) out of line.
 */
static inline void iom_stream_event(struct iom *m, struct iom_dev *d, const struct bs_trace *t)
{
	struct iom_cpu *c = cpu_of(m, d, t->cpu);

	c->c.events++;
	if (t->time > c->c.last_time)
		c->c.last_time = t->time;
	if (__builtin_expect(t->sequence == c->c.last_seq + 1, 1))
		c->c.last_seq = t->sequence;
	else
		iom_stream_out_of_seq(d, c, t);
}

/* The raw counts of a record (act: its basic action, cgroup flag off). */
static inline void iom_count_event(struct iom *m, struct iom_dev *d, const struct bs_trace *t,
				   uint32_t action_hi, unsigned int act)
{
	struct bs_dev_counters *c = d->ctr;
	struct bs_op_counts *oc;

	(void)m;
	c->last_time = t->time;
	switch (act) {
	case BS_TA_QUEUE:
		oc = bs_dev_op_get(c, bs_op_of2(t->action, action_hi));
		oc->queued++;
		oc->queued_bytes += t->bytes;
		break;
	case BS_TA_ISSUE:
		oc = bs_dev_op_get(c, bs_op_of2(t->action, action_hi));
		oc->issued++;
		oc->issued_bytes += t->bytes;
		break;
	case BS_TA_COMPLETE:
		oc = bs_dev_op_get(c, bs_op_of2(t->action, action_hi));
		oc->completed++;
		oc->completed_bytes += t->bytes;
		c->errors += t->error != 0;
		break;
	default:
		iom_count_other(c, t, action_hi, act);
	}
}


/* iom.c: iom_comm() with a cache of the last pid */
const char *iom_comm_cached(struct iom *m, uint32_t pid);

/* iom_emit.c: an I/O done or abandoned, to the sinks */
void iom_io_emit(struct iom *m, struct iom_io *io, uint8_t status);

/* ---- small helpers of the model's files ---- */

static inline uint32_t iom_cats(uint32_t action)
{
	return action >> 16;
}

/* Sectors of a byte count, rounded up (a sub-sector tail still covers a sector). */
static inline uint64_t iom_sectors(uint32_t bytes)
{
	return ((uint64_t)bytes + 511) >> 9;
}

/* A flush of the flush machinery: FLUSH without WRITE (REQ_OP_FLUSH). */
static inline bool iom_is_flush_op(uint32_t action)
{
	return (iom_cats(action) & (BS_TC_FLUSH | BS_TC_WRITE)) == BS_TC_FLUSH;
}

/* A request's event (I, D, C, R, request merge) rather than a bio's. */
static inline bool iom_is_rq_event(uint32_t action)
{
	return iom_cats(action) & (BS_TC_FS | BS_TC_PC);
}

#define IOM_FRAG_OF(x) ((struct iom_frag *)((char *)(x) - offsetof(struct iom_frag, hn)))
#define IOM_RQ_OF_POS(x) ((struct iom_rq *)((char *)(x) - offsetof(struct iom_rq, pos)))
#define IOM_RQ_OF_END(x) ((struct iom_rq *)((char *)(x) - offsetof(struct iom_rq, endn)))

/* An I/O takes the first tag a plugin gives any of its events. */
static inline void iom_take_tag(struct iom_io *io, int tag)
{
	if (io->tag < 0)
		io->tag = tag;
}

/* iom_objs.c: fragments and requests, and their lookups */
void iom_io_live(struct iom *m,
		 struct iom_io *io); /* a new I/O in flight (may give up the oldest) */
struct iom_frag *iom_frag_new(struct iom *m, const struct iom_frag *like); /* a sibling of like */
void iom_frag_free(struct iom *m, struct iom_frag *f);
struct iom_rq *iom_rq_new(struct iom *m, struct iom_dev *d, uint64_t start, uint64_t end,
			  uint32_t op_action);
void iom_waiter_unlink(struct iom_rq *rq);
void iom_rq_free(struct iom *m, struct iom_rq *rq);
void iom_rq_move_pos(struct iom *m, struct iom_rq *rq, uint64_t pos);
void iom_rq_move_end(struct iom *m, struct iom_rq *rq, uint64_t end);
void iom_rq_append(struct iom_rq *rq, struct iom_frag *f);
void iom_take_pending(struct iom *m, struct iom_frag *f);
/* an event of no known bio or request (late: past the device's first second) */
void iom_unmatched(struct iom *m, struct iom_unmatched *u, const struct iom_dev *d,
		   const struct bs_trace *t);
/* a fragment given up (more than IOM_MAX_SAME pending at one sector): its I/O is lost */
void iom_supersede(struct iom *m, struct iom_frag *f);
struct iom_frag *iom_find_pending(struct iom *m, struct iom_dev *d, uint64_t sector, uint32_t pid,
				  bool any_pid);
struct iom_rq *iom_find_rq(struct iom *m, struct iom_dev *d, uint64_t pos, int state);
struct iom_rq *iom_find_rq_end(struct iom *m, struct iom_dev *d, uint64_t sector,
			       const struct iom_rq * not );
struct iom_rq *iom_find_flush_rq(struct iom *m, struct iom_dev *d, uint64_t pos);
struct iom_rq *iom_find_rq_ending(struct iom *m, struct iom_dev *d, uint64_t pos);
/* the pending fragments end to end from sector as the bios of a request never seen built */
struct iom_rq *iom_adopt(struct iom *m, struct iom_dev *d, uint64_t sector, uint64_t nsec);

/* iom_complete.c */
void iom_frag_done(struct iom *m, struct iom_frag *f, const struct iom_rq *rq, uint64_t t,
		   uint16_t error);
void iom_rq_done(struct iom *m, struct iom_rq *rq, uint64_t t, uint16_t error);
bool iom_rq_in_flush_seq(const struct iom_rq *rq);
void iom_on_complete(struct iom *m, struct iom_dev *d, const struct bs_trace *t, int tag);

/* iom_model.c: the event handlers (act: the basic action, cgroup flag off) */
void iom_model_event(struct iom *m, struct iom_dev *d, const struct bs_trace *t, uint32_t hi,
		     const uint8_t *pdu, int tag);
void iom_io_release(struct iom *m, struct iom_io *io);
/* f (in rq, or pending: NULL) is the I/O's lead fragment if issued before the lead so far */
void iom_frag_lead(struct iom_io *io, const struct iom_frag *f, const struct iom_rq *rq);
/* iom_finish.c: every I/O still in flight to the sinks (BS_IO_OPEN), all freed */
void iom_flush_open(struct iom *m);

#endif /* BLKSCOPE_IOM_PRIV_H */
