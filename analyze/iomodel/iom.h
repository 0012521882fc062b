/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iom.h - the per-I/O model: every queued bio followed through whatever
 * the block layer does to it, as the kernel does it (docs/analyze.md,
 * "The per-I/O model"), with the trace's health (lost events, damage,
 * what each CPU file covers, what could not be matched).
 *
 * It reads the merged event stream (every record: zero-byte ones, splits,
 * records with a cgroup id) and hands one struct bs_io_sample per I/O to
 * its sinks (io_sample.h).  btt's sections do not use it: they keep btt's
 * own model (analyze/btt/).
 *
 *	struct iom *m = iom_new(&opts);
 *	iom_add_sink(m, &sink);
 *	for each note:  iom_note(m, &rec);
 *	for each event: iom_event(m, &t, action_hi, pdu, foreign, tag);
 *	iom_finish(m, end_time);	// open I/Os to the sinks, then finish()
 *	... iom_health(m), iom_counters(m, &n) ...
 *	iom_free(m);
 */
#ifndef BLKSCOPE_IOM_H
#define BLKSCOPE_IOM_H

#include <stdbool.h>
#include <stdint.h>
#include "bs_notes.h"
#include "bs_stream.h"
#include "io_sample.h"

struct iom_opts {
	/*
	 * Only the trace's health (sequences, end notes, coverage, damage):
	 * no I/O is followed (--btt-only, where no sink reads samples).
	 */
	bool health_only;
	/* -t/-T: events outside [t_start, t_end] (ns since genesis) are not followed */
	bool time_bounded;
	uint64_t t_start, t_end;
};

/* What one per-CPU stream of one device showed (health). */
struct iom_cpu_cover {
	uint32_t device, cpu;
	uint64_t events;		/* event records (notes excluded) */
	uint64_t first_time, last_time;	/* ns since genesis */
	uint32_t first_seq, last_seq;	/* 0: the trace carries no sequence numbers */
	uint64_t gaps, missing;		/* sequence gaps and the numbers missing in them */
	bool end_note;			/* the recorder's end note was read */
	uint64_t rec_events, rec_drops;	/* its counts */
};

/* Events of no known bio or request: all, and those past their device's first second. */
struct iom_unmatched {
	uint64_t n, late;
};

/* Grace at both ends of a trace: I/Os queued before the start, in flight at the stop. */
#define IOM_WARMUP_NS 1000000000ull

/* I/Os and bytes. */
struct iom_tally {
	uint64_t ios, bytes;
};

/*
 * A flight-recorder snapshot's trigger (docs/format.md, "The trigger
 * note") and, for a latency or error trigger, the model's own view of the
 * I/O that fired it (its times ns since genesis, BS_NOT_SEEN if not seen;
 * its stages BS_NOT_SEEN if not measured).
 */
struct iom_trigger_io {
	uint32_t device, pid;
	uint64_t sector;
	uint32_t bytes;
	uint8_t op, status;		/* enum bs_op, BS_IO_DONE / BS_IO_OPEN */
	uint16_t flags;			/* BS_IO_LOSS, ... */
	uint64_t t_q, t_d, t_c;
	uint64_t q2c, q2d, d2c;		/* worked out when the trigger takes it */
};

struct iom_trigger {
	struct bs_trigger_note note;
	uint64_t time;			/* the event that fired it, ns since genesis */
	bool found;			/* io: the I/O of the model it names */
	bool waiting;			/* fired on a D: its I/O has not completed yet */
	bool candidate;			/* io: another I/O of its request (waiting only) */
	struct iom_trigger_io io;
};

#define IOM_MAX_TRIGGERS 32

struct iom_health {
	/* per (device, cpu), in order of first sight */
	struct iom_cpu_cover *cpus;
	uint32_t ncpus;
	/* events lost: max(sequence numbers missing, the recorder's drops), summed */
	uint64_t lost_events;
	bool any_end_note;		/* some stream carried the recorder's end note */
	/*
	 * The per-I/O figures stop early: at damage, or (cut) where a file
	 * without the recorder's end note ends; damage_time is the last good
	 * event there, damage_offset the damage's byte (or the file's size).
	 */
	bool damaged;
	bool cut;
	uint64_t damage_time;		/* ns since genesis */
	char damage_file[256];
	uint64_t damage_offset;
	uint64_t after_damage;		/* events of other streams after it, not followed */
	/* what the model could not pair */
	struct iom_unmatched c_unmatched;	/* completions of no known request or bio */
	struct iom_unmatched
		d_unmatched; /* dispatches of no known request (flush requests excluded) */
	struct iom_unmatched other_unmatched;	/* X, G, M, I, R of no known bio or request */
	uint64_t negative_stages;	/* stage ends seen in the wrong order (not measured) */
	uint64_t superseded;		/* bios dropped: too many in flight at one sector */
	uint64_t evicted;		/* I/Os given up: more than IOM_MAX_LIVE in flight */
	struct iom_tally done, open, loss; /* I/Os: complete, open at the end, touched by loss */
	struct iom_tally open_stale; /* open at the end, queued over IOM_WARMUP_NS before it */
	struct iom_tally split;		/* I/Os split (X) into fragments */
	uint64_t flush_requests;	/* flush requests of the flush machinery completed */
	uint64_t passthrough;		/* passthrough (PC) records: not followed, as btt */
	/* a snapshot's triggers, in the order read (IOM_MAX_TRIGGERS kept, the rest counted) */
	struct iom_trigger *triggers;
	uint32_t ntriggers;
	uint64_t triggers_more;
};

struct iom;

struct iom *iom_new(const struct iom_opts *o);
/* Change the options (before the first event). */
void iom_set_opts(struct iom *m, const struct iom_opts *o);
void iom_free(struct iom *m);

/*
 * Attribution (record --files --stacks): fn fills an I/O's attr at its Q
 * (the record as read, time since genesis).  Before the first event.
 */
typedef void (*iom_attr_fn)(void *ctx, const struct bs_trace *q, struct bs_io_attr *out);
void iom_set_attr(struct iom *m, iom_attr_fn fn, void *ctx);

/* Add a sink (copied); up to 16.  Before the first event. */
int iom_add_sink(struct iom *m, const struct bs_sample_sink *sink);
/* Every sink keeps to its own state (bs_sample_sink.own_state): the model may run on any thread. */
bool iom_sinks_own_state(const struct iom *m);
/* Some sink wants every event (sink.event): the caller passes events as struct bs_event. */
bool iom_wants_events(const struct iom *m);

/* A PROCESS note (the name btt gives: pid 0 "kernel", cut at '/'). */
void iom_process_note(struct iom *m, uint32_t pid, const char *comm, size_t len);

/*
 * A flagged MESSAGE note (the recorder's end note, a trigger note), as
 * read: its time absolute (the merge hands such notes out when it reads
 * them, bs_merge.h).
 */
void iom_message(struct iom *m, const struct bs_trace *t, const uint8_t *pdu, bool foreign);

/*
 * One event of the merged stream (time relative to genesis; the record as
 * read, cgroup prefix included).  tag: a tagging plugin's tag, -1 none.
 */
void iom_event(struct iom *m, const struct bs_trace *t, uint32_t action_hi, const uint8_t *pdu,
	       bool foreign, int tag);

/* The same for a struct bs_event (also handed to sinks that want events). */
void iom_event_ev(struct iom *m, const struct bs_event *ev, int tag);

/*
 * A stream of the input stopped at damage, its last good event at
 * last_time (ns since genesis): the model stops there (events after it,
 * from any stream, are not followed).
 */
void iom_damage(struct iom *m, const char *file, uint64_t offset, uint64_t last_time);
/* The same for a file cut short (no end note; bs_tail.h): known before the first event. */
void iom_cut(struct iom *m, const char *file, uint64_t size, uint64_t last_time);

/* The merge's genesis (absolute ns), once known: trigger notes' times become relative to it. */
void iom_set_genesis(struct iom *m, uint64_t genesis);

/* End of input: open I/Os to the sinks, then their finish(). */
void iom_finish(struct iom *m, uint64_t end_time);

const struct iom_health *iom_health(const struct iom *m);
/* Per-device counters; *n devices (in order of first event). */
const struct bs_dev_counters *iom_counters(const struct iom *m, int *n);
/* The process name of pid, NULL if never named. */
const char *iom_comm(const struct iom *m, uint32_t pid);
/* Time of the last event followed. */
uint64_t iom_last_time(const struct iom *m);
/* Events followed: past the damage, -t/-T and health-only gates. */
uint64_t iom_followed(const struct iom *m);

/*
 * Anything a reader must be told: lost events, damage, a file cut short,
 * I/Os that never completed although queued long before the end, events
 * of no known I/O past the first second?
 */
bool iom_health_off(const struct iom_health *h);
/* Per (device, cpu) stream: cut short (no end note where others of the trace have one). */
static inline bool iom_cover_cut(const struct iom_health *h, const struct iom_cpu_cover *c)
{
	return h->any_end_note && !c->end_note && c->events;
}

#endif /* BLKSCOPE_IOM_H */
