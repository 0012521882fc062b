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

#endif /* BLKSCOPE_BS_NOTES_H */
