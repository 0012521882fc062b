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
};

struct iom_io {
	struct iom_dev *dev;
	uint64_t sector;
	uint32_t bytes, pid;
	uint32_t action, action_hi;
	uint64_t cgroup;
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
};

struct iom_frag {
	struct iom_hnode hn;		/* m->pending while pending */
	struct iom_io *io;
	struct iom_rq *rq;		/* NULL while pending */
	struct iom_frag *next;		/* in its request, by sector */
	uint64_t sector, end;
	uint64_t t_entry;		/* G, or M/F when merged */
	uint64_t t_i_own;		/* the I of a request that merged into another */
	bool merged;
};

enum iom_rq_state { RQ_BUILT, RQ_ISSUED, RQ_FLUSHSEQ };

struct iom_rq {
	struct iom_hnode pos, endn;	/* m->by_pos; m->by_end while mergeable */
	struct iom_dev *dev;
	struct iom_frag *head, *tail;
	uint64_t start, end;		/* sectors left: [start, end) */
	uint64_t t_i, t_d;
	uint32_t d_bytes, d_action;
	uint32_t op_action;		/* the action its operation is counted by (the G's, the D's) */
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

	/* devices, dense; dev_t -> index */
	struct iom_dev **devs;
	size_t ndevs, devs_cap;
	struct bs_hash dev_idx;
	struct iom_dev *last_dev;
	struct bs_dev_counters *ctrs;	/* [ndevs] */
	size_t ctrs_cap;

	/* streams: (device, cpu) -> index in cpus */
	struct iom_cpu *cpus;
	size_t ncpus, cpus_cap;
	struct bs_hash cpu_idx;
	struct iom_cpu *last_cpu;

	struct iom_tab pending, by_pos, by_end;
	struct iom_pool io_pool, frag_pool, rq_pool;

	/* process names (PROCESS notes): pid -> index in names */
	struct bs_hash pid_name;
	char (*names)[17];
	size_t nnames, names_cap;

	struct iom_health h;
	uint64_t last_time;
	bool stopped;			/* at damage: nothing more is followed */
	struct bs_io_sample sample;	/* the one being handed out */
};

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
/* Sequence numbers and coverage of the event's stream; bumps the loss epoch on a gap. */
void iom_stream_event(struct iom *m, struct iom_dev *d, const struct bs_trace *t);
void iom_count_event(struct iom *m, struct iom_dev *d, const struct bs_trace *t, uint32_t action_hi,
		     unsigned int act);

/* iom_emit.c: an I/O done or abandoned, to the sinks */
void iom_io_emit(struct iom *m, struct iom_io *io, uint8_t status);

/* iom_model.c: the event handlers (act: the basic action, cgroup flag off) */
void iom_model_event(struct iom *m, struct iom_dev *d, const struct bs_trace *t, uint32_t hi,
		     const uint8_t *pdu, uint64_t cgroup, int tag, unsigned int act);
void iom_io_release(struct iom *m, struct iom_io *io);
/* f (in rq, or pending: NULL) is the I/O's lead fragment if issued before the lead so far */
void iom_frag_lead(struct iom_io *io, const struct iom_frag *f, const struct iom_rq *rq);
/* iom_finish.c: every I/O still in flight to the sinks (BS_IO_OPEN), all freed */
void iom_flush_open(struct iom *m);

#endif /* BLKSCOPE_IOM_PRIV_H */
