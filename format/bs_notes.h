/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_notes.h - blkscope's own notes beyond the kernel's (docs/format.md,
 * "blkscope's notes"): MESSAGE notes with the cgroup flag (0x04000102),
 * whose PDU is an 8-byte id slot (0: no cgroup) and then a text.
 * blkparse 1.2.0 does not print flagged messages and btt ignores them, so
 * these notes change no output of the existing tools.
 *
 * The end note closes one per-CPU file of one traced device:
 *
 *	"blkscope end events=N drops=D"
 *
 * N: event records the recorder wrote for this device on this CPU (notes
 * excluded); D: events of this device on this CPU it had to drop (their
 * sequence numbers are missing).  Its time is the recorder's stop, after
 * every event of the file.  A file that has no end note while the other
 * files of its set have one was cut short.  Readers ignore key=value
 * fields they do not know (later versions may append some).
 */
#ifndef BLKSCOPE_BS_NOTES_H
#define BLKSCOPE_BS_NOTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bs_defs.h"

#define BS_NOTE_FLAGGED_MESSAGE	(BS_NOTE_MESSAGE | BS_TA_CGROUP)

struct bs_end_note {
	uint64_t events;	/* event records written (notes excluded) */
	uint64_t drops;		/* events dropped: sequence numbers missing */
};

/* Longest end note: header + id slot + text. */
#define BS_END_NOTE_MAX	(sizeof(struct bs_trace) + BS_CGROUP_LEN + 80)

/*
 * Write the end note of (device, cpu) at `time` (absolute ns) into buf, a
 * host-order v7 record followed by its PDU; returns the bytes written
 * (at most BS_END_NOTE_MAX), 0 if size is too small.
 */
size_t bs_end_note_make(void *buf, size_t size, uint32_t device, uint32_t cpu, uint64_t time,
			const struct bs_end_note *n);

/*
 * Is (t, pdu) an end note?  1 and *out filled; 0 if not (any other
 * record, or a malformed text).  foreign: the stream is byte-swapped.
 */
int bs_end_note_parse(const struct bs_trace *t, const uint8_t *pdu, bool foreign,
		      struct bs_end_note *out);

/*
 * The kernel's own notes, as blkscope record writes them (docs/format.md,
 * "Notes"): sequence, sector, bytes and error 0.  Each writes a host-order
 * v7 record and its PDU into buf and returns the bytes written, 0 if size
 * is too small.
 */
#define BS_PROCESS_NOTE_SIZE	(sizeof(struct bs_trace) + BS_COMM_LEN)
#define BS_TIMESTAMP_NOTE_SIZE	(sizeof(struct bs_trace) + 8)

/* PROCESS: pid and its comm (at most 16 bytes, NUL-padded). */
size_t bs_process_note_make(void *buf, size_t size, uint32_t device, uint32_t cpu, uint64_t time,
			    uint32_t pid, const char comm[BS_COMM_LEN]);
/* TIMESTAMP: `time` (CLOCK_MONOTONIC) and the wall clock at that moment. */
size_t bs_timestamp_note_make(void *buf, size_t size, uint32_t device, uint32_t cpu,
			      uint64_t time, uint64_t real_sec, uint32_t real_nsec);

/*
 * Readers of the same notes.  PROCESS: the comm bytes (*len: at most
 * BS_COMM_LEN, not NUL-terminated), NULL if t is no PROCESS note.
 * TIMESTAMP: 1 and the wall clock (*sec, *nsec: the PDU's two u32 in the
 * writer's order; foreign: the stream is byte-swapped), 0 if t is none.
 */
const char *bs_process_note_comm(const struct bs_trace *t, const uint8_t *pdu, size_t *len);
int bs_timestamp_note_parse(const struct bs_trace *t, const uint8_t *pdu, bool foreign,
			    uint32_t *sec, uint32_t *nsec);

/*
 * The cgroup note (docs/format.md, "cgroup ids"): a flagged MESSAGE
 * "cgroup ID PATH" naming a cgroup id before the first record that carries
 * it; time, pid, device and cpu those of that record `ev`.  The text is cut
 * to fit: at most size - BS_TRACE_SIZE - BS_CGROUP_LEN - 1 bytes.  Returns
 * the bytes written, 0 if size cannot hold the header and the id.
 */
#define BS_CGROUP_NOTE_PDU_MAX	1024	/* id + "cgroup ID PATH", as blkscope record writes it */
#define BS_CGROUP_NOTE_MAX	(sizeof(struct bs_trace) + BS_CGROUP_NOTE_PDU_MAX)
size_t bs_cgroup_note_make(void *buf, size_t size, const struct bs_trace *ev, uint64_t id,
			   const char *path);

/*
 * The host note (docs/format.md, "The host note"): a plain MESSAGE
 * "blkscope host=NAME kernel=RELEASE boot_id=UUID"; blanks in the values
 * are replaced by '_' (the text is split on blanks), each value is cut to
 * 64 bytes.  BS_HOST_NOTE_MAX bytes are enough.
 */
#define BS_HOST_NOTE_MAX	(sizeof(struct bs_trace) + 256)
size_t bs_host_note_make(void *buf, size_t size, uint32_t device, uint32_t cpu, uint64_t time,
			 const char *host, const char *kernel, const char *boot_id);

/*
 * The trigger note (docs/format.md, "The trigger note"): a flagged MESSAGE
 * in a flight-recorder snapshot (record --ring) naming what made the
 * recorder write it and, for a trigger on an I/O, that I/O:
 *
 *	"blkscope trigger n=1 kind=latency expr=write.D2C>50ms dev=8,16
 *	 sector=2048 bytes=4096 rwbs=WS q=T d=T c=T latency=NS"
 *
 * n: 1 for the trigger that opened the snapshot, 2.. for triggers that
 * fired inside its window.  Times (q, d, c) are absolute nanoseconds on the
 * records' clock; a field is left out when unknown.  The record's device,
 * cpu and time are those of the event that fired it (the completion), so
 * the note follows that event in its file.
 */
enum bs_trigger_kind {
	BS_TRIGGER_LATENCY = 1,	/* a completed I/O crossed a Q2C/D2C/Q2D threshold */
	BS_TRIGGER_ERROR,	/* a completion with an error */
	BS_TRIGGER_DROP,	/* events were lost (a sequence gap) */
	BS_TRIGGER_SIGNAL,	/* SIGUSR1 */
	BS_TRIGGER_EXIT,	/* --dump-on-exit */
};

#define BS_TRIGGER_EXPR_MAX	64	/* with its NUL */

struct bs_trigger_note {
	enum bs_trigger_kind kind;
	uint32_t n;			/* 1: opened the snapshot */
	char expr[BS_TRIGGER_EXPR_MAX];	/* the trigger as given: "D2C>100ms", "signal" */
	/* the I/O (latency, error) or where events were lost (drop) */
	bool has_io;
	uint32_t device;		/* kernel dev_t */
	uint64_t sector;
	uint32_t bytes;
	char rwbs[8];
	uint64_t q, d, c;		/* absolute ns, 0: unknown */
	uint64_t latency;		/* ns of the interval that crossed the threshold */
	uint32_t error;			/* kind error: the completion's error */
	uint64_t lost;			/* kind drop: events missing before this one */
	uint32_t sender;		/* kind signal: pid that sent it (0: unknown) */
};

#define BS_TRIGGER_NOTE_MAX	(sizeof(struct bs_trace) + BS_CGROUP_LEN + 400)

const char *bs_trigger_kind_name(enum bs_trigger_kind k);

/* Write the note at (device, cpu, time, pid); bytes written, 0 if size is too small. */
size_t bs_trigger_note_make(void *buf, size_t size, uint32_t device, uint32_t cpu, uint64_t time,
			    uint32_t pid, const struct bs_trigger_note *n);

/* Is (t, pdu) a trigger note?  1 and *out filled, 0 if not (or malformed). */
int bs_trigger_note_parse(const struct bs_trace *t, const uint8_t *pdu, bool foreign,
			  struct bs_trigger_note *out);

#endif /* BLKSCOPE_BS_NOTES_H */
