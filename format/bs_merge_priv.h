/* SPDX-License-Identifier: GPL-2.0 */
/* bs_merge_priv.h - state shared by the two merge modes (private to format/). */
#ifndef BLKSCOPE_BS_MERGE_PRIV_H
#define BLKSCOPE_BS_MERGE_PRIV_H

#include <stdbool.h>
#include "bs_merge.h"
#include "bs_merge_tree.h"

struct file_stream;
struct pipe_state;

struct bs_merge {
	struct bs_merge_opts opts;
	bool stream_mode;
	bool started;		/* genesis known */
	uint64_t genesis;
	int damaged;
	/* file mode */
	struct file_stream *streams;	/* array */
	int nstreams;
	struct bs_merge_tree tree;	/* the streams by (head time, seq) */
	uint64_t seq;			/* the last seq a stream's key was given */
	struct file_stream *pending;	/* stream whose head was handed out */
	struct bs_readahead *ra;	/* who reads the streams ahead (opts'), or NULL */
	/* stream mode */
	struct pipe_state *pipe;
};

int bs_merge_file_open(struct bs_merge *m, const struct bs_input_set *in);
int bs_merge_file_next(struct bs_merge *m, struct bs_event *ev);
int bs_merge_file_next_ref(struct bs_merge *m, struct bs_event_ref *r);
void bs_merge_file_free(struct bs_merge *m);

int bs_merge_pipe_open(struct bs_merge *m, const char *path);
int bs_merge_pipe_next(struct bs_merge *m, struct bs_event *ev);
void bs_merge_pipe_free(struct bs_merge *m);

void bs_merge_note(struct bs_merge *m, const struct bs_record *rec, int dev);

/*
 * Records that blkparse consumes when it reads them: every notify record
 * except a plain MESSAGE.  (A MESSAGE with the cgroup flag, 0x04000102,
 * is not equal to BLK_TN_MESSAGE, so blkparse 1.2.0 treats it as a note.)
 */
static inline bool bs_merge_is_read_time_note(uint32_t action)
{
	return bs_is_note(action) && action != BS_NOTE_MESSAGE;
}

#endif /* BLKSCOPE_BS_MERGE_PRIV_H */
