/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btt_seek_folder.h - btt's seek logs folded on a second thread.
 *
 * Sorting a full seek log into a table's distinct distances (btt_seek.c)
 * was a third of the engine thread's time on random I/O, and needs
 * nothing back from the engine.  With a folder, a table hands its full
 * log over and goes on with a second buffer; the folder folds the logs
 * one at a time, in the order they were handed over, so a --seek-values
 * budget is spent exactly as when the engine folds them itself.
 */
#ifndef BLKSCOPE_BTT_SEEK_FOLDER_H
#define BLKSCOPE_BTT_SEEK_FOLDER_H

#include "btt_seek.h"

struct btt_seek_folder;

/* A folder and its thread, or NULL (one CPU, no thread): fold inline then. */
struct btt_seek_folder *btt_seek_folder_new(void);
/* Stop the thread (logs not yet folded are left: nobody reads them any more). */
void btt_seek_folder_free(struct btt_seek_folder *f);

/*
 * Engine: s's log is full.  Waits for s's previous fold (long done as a
 * rule), hands the log over and gives s the other buffer, sized by
 * btt_seek_next_log_cap().
 */
void btt_seek_folder_hand_over(struct btt_seek_folder *f, struct btt_seek *s);
/* Engine: wait until every log handed over is folded. */
void btt_seek_folder_drain(struct btt_seek_folder *f);

#endif /* BLKSCOPE_BTT_SEEK_FOLDER_H */
