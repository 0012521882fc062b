// SPDX-License-Identifier: GPL-2.0
/*
 * notes.c - the notes the recorder adds to the records of the kernel side:
 * the end note that closes each per-CPU file (format/bs_notes.h).
 */
#include <stdlib.h>
#include <string.h>
#include "bs_notes.h"
#include "record.h"

int rec_add_end_notes(struct rec_stage *stages, const struct rec_trace *traces, int ntraces,
		      int ncpus, struct rec_bpf *b, uint64_t time)
{
	uint64_t *drops = calloc(ncpus, sizeof(*drops)), note_drops;
	union {
		struct bs_trace t;	/* aligned for rec_stage_add() */
		uint8_t bytes[BS_END_NOTE_MAX];
	} note;
	int i, cpu;

	if (!drops)
		return -1;
	for (i = 0; i < ntraces; i++) {
		if (rec_bpf_drops(b, i, drops, &note_drops) < 0)
			memset(drops, 0, ncpus * sizeof(*drops));
		for (cpu = 0; cpu < ncpus; cpu++) {
			struct rec_stage *st = &stages[i * ncpus + cpu];
			struct bs_end_note n = { .events = st->events, .drops = drops[cpu] };
			size_t len = bs_end_note_make(note.bytes, sizeof(note), traces[i].dev, cpu, time, &n);

			if (!len || rec_stage_add(st, &note.t, note.bytes + BS_TRACE_SIZE) < 0) {
				free(drops);
				return -1;
			}
		}
	}
	free(drops);
	return 0;
}
