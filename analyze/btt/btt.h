/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btt.h - the btt-equivalent analysis engine (libbsbtt.a), as the
 * analysis layer sees it: options in, events in (in the merged time
 * order a blkparse -d dump has), btt's report out.  The engine itself is
 * opaque; its per-device and per-process state, the in-flight queued bios
 * and the statistics live in btt_priv.h, which only analyze/btt/ includes.
 * Memory is O(in-flight bios + devices + processes + activity ranges +
 * distinct seek distances), never O(events).
 *
 *	struct btt_engine *e = btt_engine_new(&opts);
 *	for each event: if (!btt_engine_record(e, t, hi, pdu)) btt_engine_event(e, ev);
 *	btt_report_avgs(e, fp); btt_report_ranges(e, fp); btt_iostat_finish(e);
 *	btt_engine_free(e);
 */
#ifndef BLKSCOPE_BTT_H
#define BLKSCOPE_BTT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "bs_merge.h"
#include "bs_msg.h"

struct btt_opts {
	bool no_ranges;		/* range data not printed: collect no activity ranges */
	bool seek_absolute;	/* -a */
	bool all_data;		/* -A */
	bool ignore_remaps;	/* -r */
	double range_delta;	/* -d, seconds (0.1) */
	bool time_bounded;
	double t_start, t_end;	/* -t / -T seconds */
	const char *devices;	/* -D "maj,min;maj,min" */
	const char *exes;	/* -e name,name */
	const char *d2c_name, *q2c_name, *q2d_name;	/* -l -q -z */
	const char *seek_name, *bno_name, *aqd_name, *uhist_name;	/* -s -B -Q -u */
	double plat_freq;	/* -L: average latencies per this many seconds, 0 = off */
	bool live_files;	/* -Z: <maj>,<min>_live.dat and sys_live.dat */
	bool pit_files;		/* -P: <maj>,<min>_pit.dat */
	FILE *per_io;		/* -p */
	FILE *msgs;		/* messages (stdout, or <o>.msg) */
	FILE *iostat;		/* -I */
	uint64_t iostat_interval;	/* -S, ns */
	FILE *xvg;		/* -X with -o: easy-parse lines, or NULL */
	uint64_t seek_values;	/* distinct seek distances kept, all devices; 0 = all */
	struct bs_msg_sink warn; /* warnings (a side file not created, seeks past the limit) */
};

struct btt_engine;

struct btt_engine *btt_engine_new(const struct btt_opts *o);
void btt_engine_free(struct btt_engine *e);

/*
 * Fold the seek logs on a second thread (btt_seek_folder.c): 0 if
 * started, -1 on one CPU or without a thread.  Before the first event.
 */
int btt_engine_thread_seeks(struct btt_engine *e);
/* A PROCESS note (btt: pid 0 is "kernel", the name is cut at '/'). */
void btt_engine_process_note(struct btt_engine *e, uint32_t pid, const char *comm, size_t len);

/* One event of the merged stream (time relative to genesis). */
void btt_engine_event(struct btt_engine *e, const struct bs_event *ev);

/*
 * The same for a record given by its parts, where it lies (the reader
 * thread's pipe), when the engine may take it so: true if taken.  false
 * (the engine has -t/-T or -I, or the record has a cgroup id, is a note
 * or a PC record: the rest of struct bs_event is needed): nothing done,
 * call btt_engine_event().  One call per event either way on the common
 * path.
 */
bool btt_engine_record(struct btt_engine *e, const struct bs_trace *t, uint32_t action_hi,
		      const uint8_t *pdu);

/*
 * Queued bios btt never saw complete (left in its trees at the end): a
 * split bio, for one, since btt completes a bio only with a C whose range
 * holds all of it.
 */
uint64_t btt_engine_never_completed(const struct btt_engine *e);

/* -T was passed and an event past it seen: the engine takes no more (btt stops reading there). */
bool btt_engine_done(const struct btt_engine *e);

/* Events btt's sections follow (past the notes, the -t/-T window): btt's trace count. */
uint64_t btt_engine_followed(const struct btt_engine *e);

/* Time of the last event seen, ns since genesis. */
uint64_t btt_engine_last_time(const struct btt_engine *e);

/* Events with a cgroup id seen (btt ignores them). */
uint64_t btt_engine_cgroup_records(const struct btt_engine *e);

/* btt's BIT_TIME(): seconds as a double, computed the way btt does. */
static inline double btt_secs(uint64_t t)
{
	return (double)(t / 1000000000ull) + (double)(t % 1000000000ull) / 1.0e9;
}

/* btt's default report (output_avgs) and its range data (output_ranges), on fp */
void btt_report_avgs(struct btt_engine *e, FILE *fp);
void btt_report_ranges(struct btt_engine *e, FILE *fp);

/* -o NAME: NAME_qhist.dat and NAME_dhist.dat, Q and D sizes (not md/dm); 0 or -1 */
int btt_report_histos(struct btt_engine *e, const char *name);

/* -I: the final "TOTAL" block of the iostat file */
void btt_iostat_finish(struct btt_engine *e);

#endif /* BLKSCOPE_BTT_H */
