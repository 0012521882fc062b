/* SPDX-License-Identifier: GPL-2.0 */
/* bs_merge_impl.h - state shared by the two merge modes (internal). */
#ifndef BLKSCOPE_BS_MERGE_IMPL_H
#define BLKSCOPE_BS_MERGE_IMPL_H

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

int file_merge_open(struct bs_merge *m, const struct bs_input_set *in);
int file_merge_next(struct bs_merge *m, struct bs_event *ev);
int file_merge_next_ref(struct bs_merge *m, struct bs_event_ref *r);
void file_merge_free(struct bs_merge *m);

int pipe_merge_open(struct bs_merge *m, const char *path);
int pipe_merge_next(struct bs_merge *m, struct bs_event *ev);
void pipe_merge_free(struct bs_merge *m);

void merge_note(struct bs_merge *m, const struct bs_record *rec, int dev);

/*
 * Records that blkparse consumes when it reads them: every notify record
 * except a plain MESSAGE.  (A MESSAGE with the cgroup flag, 0x04000102,
 * is not equal to BLK_TN_MESSAGE, so blkparse 1.2.0 treats it as a note.)
 */
static inline bool merge_is_read_time_note(uint32_t action)
{
	return bs_is_note(action) && action != BS_NOTE_MESSAGE;
}

#endif
