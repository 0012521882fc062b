/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_merge.h - the time-ordered merge of an input set, with blkparse's
 * semantics so that consumers print byte-identical output:
 *
 * File mode (per-CPU files): each CPU stream is read in batches of `batch`
 * events (blkparse -b, default 512); PROCESS and TIMESTAMP notes are handed
 * to on_note() when they are READ (with their original absolute time), not
 * when they would sort; the streams are merged by time only, with
 * blkparse's tie order; genesis = the head time after the first batches.
 *
 * Stream mode (dump, stdin, FIFO): blkparse's pipe algorithm: batches are
 * sorted by (time, device, sequence), per-(device, cpu) sequence gaps are
 * waited for and finally reported as skips.
 *
 * Events come out with time already made genesis-relative.  MESSAGE notes
 * are events (they sort).  The -w window and action mask are the
 * consumer's business, except that stream mode drops out-of-window events
 * before sorting as blkparse does (set window_start/window_end).
 */
#ifndef BLKSCOPE_BS_MERGE_H
#define BLKSCOPE_BS_MERGE_H

#include <stdint.h>
#include "bs_input.h"
#include "bs_stream.h"

struct bs_event {
	struct bs_trace t;	/* host order, time relative to genesis */
	uint32_t action_hi;	/* version 8: bits 32..63 of the action (zone categories); else 0 */
	const uint8_t *pdu;	/* valid until the next bs_merge_next() */
	int dev;		/* file mode: index in the input set's devs; stream mode: -1 */
	int cpu;		/* file mode: the file's cpu; stream mode: t.cpu */
	bool foreign;		/* read from a byte-swapped stream */
	uint64_t cgroup;	/* BS_TA_CGROUP: the bio's cgroup id (bs_cgroup_id()); else 0 */
};

/*
 * An event handed out in place (bs_merge_next_ref): the record as read,
 * its time absolute (subtract bs_merge_genesis()); valid until the next call.
 */
struct bs_event_ref {
	const struct bs_trace *t;
	uint32_t action_hi;
	const uint8_t *pdu;
	int dev, cpu;
	bool foreign;		/* read from a byte-swapped stream (the PDU is raw) */
};

/* A PROCESS/TIMESTAMP note at read time (absolute time). */
typedef void (*bs_note_fn)(void *ctx, const struct bs_record *rec, int dev);

/*
 * A stream stopped at damage: its name, the damage's byte offset, and the
 * time of its last good event (ns since genesis; 0 if it had none).
 * Called before any event later than that is handed out, so a consumer
 * can stop where the input stops being whole.
 */
typedef void (*bs_damage_fn)(void *ctx, const char *name, uint64_t offset, uint64_t last_time);

struct bs_merge_opts {
	unsigned int batch;		/* 0 = 512 */
	uint64_t window_start;		/* stream mode only: ns since genesis */
	uint64_t window_end;		/* 0 = no end */
	/*
	 * Stream mode only.  A blkparse -d dump (its first event has time 0:
	 * blkparse made the times genesis-relative) is handed out in file
	 * order with its times as stored, which is how `btt -i DUMP` reads it;
	 * a raw stream (kernel times) still goes through the pipe merge.
	 */
	bool dumps_in_file_order;
	/*
	 * File mode: who reads the files ahead (bs_readahead.h), or NULL.
	 * The caller's: freed after the merge is closed.
	 */
	struct bs_readahead *read_ahead;
	bs_note_fn on_note;		/* may be NULL */
	bs_damage_fn on_damage;		/* may be NULL */
	void *ctx;
	/*
	 * Warnings and errors, each one line without the program's name: a
	 * file that cannot be opened, damage, records skipped, no memory.
	 * Without a sink they are dropped.
	 */
	struct bs_msg_sink msg;
};

/* Per (device, cpu) skip counts, stream mode only (blkparse's "Skips"). */
struct bs_skip_stats {
	uint32_t device;
	unsigned long skips;		/* gap ranges */
	unsigned long long seq_skips;	/* missing sequence numbers */
};

struct bs_merge;

struct bs_merge *bs_merge_open(const struct bs_input_set *in, const struct bs_merge_opts *opts);

/* 1 = *ev filled, 0 = end (every stream drained or stopped at damage). */
int bs_merge_next(struct bs_merge *m, struct bs_event *ev);
/*
 * File mode only: bs_merge_next() without copying the event (for loops
 * that only pass records on, like `parse -O -d`).  1, 0 at the end, -1 in
 * stream mode (use bs_merge_next() there).
 */
int bs_merge_next_ref(struct bs_merge *m, struct bs_event_ref *r);

/* Absolute time of the first event (valid once the first event is out). */
uint64_t bs_merge_genesis(const struct bs_merge *m);

/* true if any stream stopped at damage */
int bs_merge_damaged(const struct bs_merge *m);

/* Stream mode: skip statistics for device dev (zeros if none). */
struct bs_skip_stats bs_merge_skips(const struct bs_merge *m, uint32_t device);

/*
 * Stream mode: the devices in the order blkparse creates its per-device
 * state (first READ, not first printed); returns how many, fills up to max.
 */
int bs_merge_devices(const struct bs_merge *m, uint32_t *out, int max);

/* Stream mode: "(maj,min): skipping a -> b" lines for -v, to f. */
void bs_merge_print_skips(const struct bs_merge *m, void *file);

void bs_merge_close(struct bs_merge *m);

#endif /* BLKSCOPE_BS_MERGE_H */
