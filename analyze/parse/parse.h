/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h - shared state of blkscope parse, the blkparse (Debian 1.2.0)
 * compatible text printer.  The pieces:
 *   parse.c        options, inputs, the event loop, the dump
 *   parse_line.c   the default event lines and message lines
 *   parse_fmt.c    the -f / -F format engine
 *   parse_stats.c  per-CPU, per-device and per-process accounting and summaries
 *   parse_track.c  -t: per-sector tracking of G/I/D/C times
 *   parse_names.c  pid -> command name, as blkparse's ppm hash
 *   parse_out.c    the output buffer
 */
#ifndef BS_PARSE_H
#define BS_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "bs_defs.h"
#include "parse_out.h"

#define NO_ELAPSED	(~0ULL)		/* blkparse's -1ULL: "no tracking value" */

/* blkparse's struct io_stats, with [0] = read, [1] = write */
struct ps_io {
	unsigned long queued[2], issued[2], completed[2], merged[2], requeued[2];
	unsigned long long queued_kb[2], issued_kb[2], completed_kb[2], merged_kb[2];
	unsigned long long queued_b[2], issued_b[2], completed_b[2], merged_b[2];
	unsigned long pc_queued[2], pc_issued[2], pc_completed[2], pc_requeued[2];
	unsigned long long pc_queued_kb[2], pc_issued_kb[2];
	unsigned long long pc_queued_b[2], pc_issued_b[2];
	unsigned long io_unplugs, timer_unplugs;
};

struct ps_cpu {
	unsigned long nelems;	/* events seen on this CPU (even masked ones) */
	struct ps_io io;
};

struct ps_track_tab;

struct ps_dev {
	uint32_t dev;		/* 0 in file mode, as in blkparse */
	char *name;		/* file mode: base name; stream mode: NULL ("maj,min") */
	struct ps_cpu *cpus;
	int ncpus;
	unsigned long long events;
	unsigned long long first_time, last_time;
	unsigned int cur_depth[2], max_depth[2];
	struct ps_track_tab *track;
};

/* One pid -> name entry (blkparse's process_pid_map). */
struct ps_name {
	uint32_t pid;
	uint8_t len;
	char comm[16];
	struct ps_name *next;
};

struct ps_proc;

struct parse {
	/* options */
	bool text;			/* !-O */
	bool track;			/* -t */
	bool per_process;		/* -s */
	bool by_name;			/* -h */
	bool dev_stats;			/* !-q */
	bool dump_msgs;			/* !-M */
	int verbose;
	uint32_t act_mask;		/* compared with action >> 16 */
	uint64_t stop_start, stop_end;	/* -w, ns */
	char *formats[256];		/* -f / -F, by action letter */

	bool file_mode;
	struct pout out;

	/* devices, in blkparse's order */
	struct ps_dev *devs;
	int ndevs;

	/* names and per-process stats */
	struct ps_name **names;		/* hash by pid */
	unsigned int names_mask;
	struct ps_name *last_name;	/* one-entry cache */
	uint32_t last_name_pid;
	bool last_name_valid;

	struct ps_proc **procs;		/* hash by pid or name */
	struct ps_proc *proc_list;
	int nprocs;

	/* TIMESTAMP note */
	uint64_t start_timestamp;
	struct timespec abs_start;
	bool abs_corrected;

	bool have_drv_data;
	uint32_t action_hi;		/* the event being printed: v8 action bits 32..63 */

	/* formatting caches of the event-line hot path */
	struct {
		uint32_t dev;
		int cpu;
		uint8_t len;
		char s[23];
		bool seq_ok;		/* seq_s holds "%8d" of seq */
		uint32_t seq;
		char seq_s[8];
	} hdr_cache[64];		/* "%3d,%-3d %2d " and the sequence, by cpu */
	struct {
		uint32_t action, hi;
		uint8_t has_bytes, len;
		const char *act;
		char s[22];
	} act_cache[64];		/* " %2s %3s " by action word */
	struct {
		uint64_t sector;
		uint32_t blocks;
		uint8_t len;
		char s[39];
	} sec_cache[256];		/* "sector + blocks": Q, G, I, D, C of one I/O repeat it */
	long long last_secs;		/* "%5d" of the seconds, cached */
	uint8_t secs_len;
	char secs_s[15];
	uint32_t last_pid;		/* "%5u" of the pid, cached */
	uint8_t pid_len;
	char pid_s[15];
};

/* parse_names.c */
void names_init(struct parse *ps);
void names_free(struct parse *ps);
void procs_free(struct parse *ps);	/* parse_stats.c */
struct ps_name *names_find(struct parse *ps, uint32_t pid);
struct ps_name *names_add(struct parse *ps, uint32_t pid, const char *comm, size_t len);

extern const char ps_null_name[16];

/*
 * "[name]" content: the comm, or "(null)" as glibc prints a NULL %s.  The
 * returned storage always has 16 readable bytes (fixed-size copies).
 */
static inline const char *ps_name_of(struct parse *ps, uint32_t pid, size_t *len)
{
	struct ps_name *n;

	if (ps->last_name_valid && ps->last_name_pid == pid) {
		n = ps->last_name;
	} else {
		n = names_find(ps, pid);
		/* cache hits only: a miss may turn into a hit later */
		if (n) {
			ps->last_name = n;
			ps->last_name_pid = pid;
			ps->last_name_valid = true;
		}
	}
	if (!n) {
		*len = 6;
		return ps_null_name;
	}
	*len = n->len;
	return n->comm;
}

/* parse_stats.c */
struct ps_cpu *ps_cpu_get(struct ps_dev *d, unsigned int cpu);
struct ps_io *proc_io(struct parse *ps, uint32_t pid);
void proc_note_wait(struct parse *ps, uint32_t pid, int kind, int w, unsigned long long elapsed);
void ps_show_stats(struct parse *ps, void *merge);

/* parse_track.c: each returns the elapsed ns or NO_ELAPSED */
void track_free(struct ps_dev *d);	/* the -t table of a device (the program leaves it to exit) */
void track_queue(struct parse *ps, struct ps_dev *d, const struct bs_trace *t);
void track_getrq(struct parse *ps, struct ps_dev *d, const struct bs_trace *t);
void track_frontmerge(struct parse *ps, struct ps_dev *d, const struct bs_trace *t);
unsigned long long track_insert(struct parse *ps, struct ps_dev *d, const struct bs_trace *t);
unsigned long long track_issue(struct parse *ps, struct ps_dev *d, const struct bs_trace *t);
unsigned long long track_complete(struct parse *ps, struct ps_dev *d, const struct bs_trace *t);

/* parse_line.c */
void line_event(struct parse *ps, const char *act, int cpu, struct bs_trace *t, unsigned long long elapsed,
		const uint8_t *pdu, int pdu_len, const uint8_t *raw_pdu);
void line_message(struct parse *ps, const struct bs_trace *t, const uint8_t *pdu);

/* parse_fmt.c */
int fmt_set_all(struct parse *ps, const char *fmt);
int fmt_set_one(struct parse *ps, const char *spec);
void fmt_event(struct parse *ps, const char *fmt, const char *act, int cpu, const struct bs_trace *t,
	       unsigned long long elapsed, const uint8_t *pdu, int pdu_len, const uint8_t *raw_pdu);

/* blkparse's helpers on records */
static inline unsigned int t_sec(const struct bs_trace *t) { return t->bytes >> 9; }
static inline unsigned int t_kb(const struct bs_trace *t) { return t->bytes >> 10; }
static inline unsigned int t_b(const struct bs_trace *t) { return t->bytes & 1023; }

#endif /* BS_PARSE_H */
