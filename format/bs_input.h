/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_input.h - turning command-line input names into streams, the way
 * blkparse does: a base name ("loop0" -> loop0.blktrace.0, .1, ...), an
 * explicit per-CPU file (loop0.blktrace.1 -> base loop0), a directory
 * (every base in it), a single stream (a blkparse -d dump file, "-" for
 * stdin, a FIFO).  Per-CPU files may be zstd-compressed: X.blktrace.N.zst.
 */
#ifndef BLKSCOPE_BS_INPUT_H
#define BLKSCOPE_BS_INPUT_H

#include <stdbool.h>
#include "bs_msg.h"

struct bs_input_cpu {
	char *path;
	int cpu;
};

/* One "device" in blkparse's file mode: a base name and its per-CPU files. */
struct bs_input_dev {
	char *name;			/* base name without directory, e.g. "loop0" */
	struct bs_input_cpu *cpus;	/* sorted by cpu; empty files omitted */
	int ncpus;
};

struct bs_input_set {
	struct bs_input_dev *devs;
	int ndevs;
	char *stream_path;	/* single-stream mode: dump file, FIFO or "-" */
	/* warnings of bs_input_add() (a CPU's file missing, ...), set by the caller; may be empty */
	struct bs_msg_sink msg;
};

/*
 * Add one input argument; dir (may be NULL) is prepended to relative base
 * names (blkparse -D).  Returns 0, or -1 with the one error line in err
 * ("No input files found for X", ...; err may be NULL).
 */
int bs_input_add(struct bs_input_set *set, const char *arg, const char *dir, struct bs_err *err);

/* true if the set reads one stream (pipe semantics) rather than per-CPU files */
static inline bool bs_input_is_stream(const struct bs_input_set *set)
{
	return set->stream_path != 0;
}

void bs_input_free(struct bs_input_set *set);

#endif /* BLKSCOPE_BS_INPUT_H */
