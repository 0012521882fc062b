/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_tail.h - the end of a per-CPU file, read before the merge: did the
 * recorder close it (its end note, bs_notes.h), and when is its last
 * record.  A file that lacks the end note while the other files of its set
 * have one was cut short there; an analysis that knows it can stop where
 * the input stops being whole instead of taking that CPU's silence for
 * idleness.
 */
#ifndef BLKSCOPE_BS_TAIL_H
#define BLKSCOPE_BS_TAIL_H

#include <stdbool.h>
#include <stdint.h>
#include "bs_notes.h"

struct bs_tail {
	bool found;		/* the last record was found */
	uint64_t last_time;	/* its time (absolute, as recorded) */
	bool end_note;		/* it is the recorder's end note */
	struct bs_end_note end;	/* its counts */
};

/*
 * Probe PATH: 0 and *out filled, or -1 when nothing can be said (not a
 * regular file, compressed, no record chain reaching its end).  Only the
 * last 256 KiB are read.
 */
int bs_tail_probe(const char *path, struct bs_tail *out);

#endif /* BLKSCOPE_BS_TAIL_H */
