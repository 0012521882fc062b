/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse_priv.h - the context of blkscope parse, the blkparse (Debian 1.2.0)
 * compatible text printer, shared by the files of libbsparse.a.  Callers
 * use parse.h; this header is the library's inside.  The pieces:
 *   parse_run.c    create / run / destroy: inputs, outputs, the loop, the end
 *   parse_event.c  per-event dispatch (blkparse's dump_trace) and the dump
 *   parse_opts.c   option values (masks, stopwatch, formats, tag timeout)
 *   parse_line.c   the default event lines and message lines
 *   parse_fmt.c    the -f / -F format engine
 *   parse_stats.c  per-CPU, per-device and per-process accounting and summaries
 *   parse_track.c  -t: per-sector tracking of G/I/D/C times
 *   parse_names.c  pid -> command name, as blkparse's ppm hash
 *   parse_out.c    the output buffer
 *   parse_tags.c   --tag-plugin: records through a tagging plugin first
 *
 * Everything a run owns hangs off one struct parse_ctx: no file-scope
 * mutable state, so runs can follow each other in one process (the fuzz
 * harness does) and parse_destroy() frees all of it.
 */
#ifndef BLKSCOPE_ANALYZE_PARSE_PARSE_PRIV_H
#define BLKSCOPE_ANALYZE_PARSE_PARSE_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "bs_defs.h"
#include "bs_hash.h"
#include "bs_input.h"
#include "bs_merge.h"
#include "parse.h"
#include "bs_writer.h"
#include "parse_out_priv.h"

#define PARSE_NO_ELAPSED	(~0ULL)		/* blkparse's -1ULL: "no tracking value" */

/* blkparse's struct io_stats, with [0] = read, [1] = write */
struct parse_io {
	unsigned long queued[2], issued[2], completed[2], merged[2], requeued[2];
	unsigned long long queued_kb[2], issued_kb[2], completed_kb[2], merged_kb[2];
	unsigned long long queued_b[2], issued_b[2], completed_b[2], merged_b[2];
	unsigned long pc_queued[2], pc_issued[2], pc_completed[2], pc_requeued[2];
	unsigned long long pc_queued_kb[2], pc_issued_kb[2];
	unsigned long long pc_queued_b[2], pc_issued_b[2];
	unsigned long io_unplugs, timer_unplugs;
};

struct parse_cpu {
	unsigned int cpu;
	unsigned long nelems;	/* events seen on this CPU (even masked ones) */
	struct parse_io io;
};

struct parse_track_tab;

struct parse_dev {
	uint32_t dev;		/* 0 in file mode, as in blkparse */
	char *name;		/* file mode: base name; stream mode: NULL ("maj,min") */
	/*
	 * Per-CPU statistics in order of first appearance, found through
	 * cpu_index, so memory follows the CPUs a device really has (a damaged
	 * trace may give each of many devices CPU 65535); cpu_cache keeps the
	 * per-event lookup to one compare.
	 */
	struct parse_cpu *cpus;
	int ncpus;
	size_t cpus_cap;
	struct bs_hash cpu_index;	/* cpu -> index in cpus */
	struct {
		uint32_t cpu1;		/* cpu + 1; 0 = empty */
		uint32_t idx;
	} cpu_cache[8];
	unsigned long long events;
	unsigned long long first_time, last_time;
	unsigned int cur_depth[2], max_depth[2];
	struct parse_track_tab *track;
};

/* One pid -> name entry (blkparse's process_pid_map). */
struct parse_name {
	uint32_t pid;
	uint8_t len;
	char comm[16];
};

struct parse_proc;
struct parse_iot;
struct parse_tags;

/*
 * -t nodes freed by a C, reused in glibc's order (parse_track.c): a tcache
 * of 7, then a LIFO fastbin.  Nodes that failed to go into the table are
 * kept on `lost` so that they are freed with the run.
 */
#define PARSE_TCACHE_COUNT 7
struct parse_track_pool {
	struct parse_iot *tcache[PARSE_TCACHE_COUNT];
	int tcache_n;
	struct parse_iot *fastbin;
	struct parse_iot *lost;
};

/* entries of the per-pid lookup caches in front of the hashes */
#define PARSE_PID_CACHE 64

/* Why a run stopped early. */
enum parse_stop {
	PARSE_RUNNING,
	PARSE_FATAL_FORMAT,	/* blkparse exit(1)s in a format: what was printed is flushed */
	PARSE_FATAL_DAMAGE,	/* damaged input we refuse: buffered output is dropped */
	PARSE_FATAL_NOMEM,		/* the tagging host ran out of memory: same */
};

struct parse_ctx {
	uint64_t nevents;		/* events read: none is an error (parse_exec) */
	const char *first_input;	/* for "no events in X" */
	/* options */
	bool text;			/* !-O */
	bool track;			/* -t */
	bool force;			/* --force */
	bool per_process;		/* -s */
	bool by_name;			/* -h */
	bool dev_stats;			/* !-q */
	bool dump_msgs;			/* !-M */
	int verbose;
	struct bs_msg_sink msg;		/* every stderr line (parse.h: PARSE_MSG_BLKPARSE) */
	uint32_t act_mask;		/* compared with action >> 16 */
	uint64_t stop_start, stop_end;	/* -w, ns */
	char *formats[256];		/* -f / -F, by action letter (copies) */
	unsigned int batch;

	/* inputs, the merge, outputs */
	struct bs_input_set in;
	struct bs_merge *merge;
	struct bs_readahead *ra;	/* who reads the per-CPU files ahead, or NULL */
	bool file_mode;
	struct parse_out out;		/* the text (-o or stdout) */
	bool out_open;
	struct parse_out added;		/* "Input file X added" lines: stdout, own buffer */
	bool added_open;
	char *output_name;
	char *dump_name;
	struct bs_writer dump;
	bool dump_open;			/* the writer holds a buffer and maybe an fd */
	bool dumping;			/* false after a write error */
	enum parse_stop stop;

	/* devices, in blkparse's order */
	struct parse_dev *devs;
	int ndevs;
	size_t devs_cap;
	struct bs_hash dev_index;	/* stream mode: dev_t -> index in devs */
	uint32_t last_dev;		/* stream mode: one-entry cache */
	struct parse_dev *last_pdi;

	/* names and per-process stats */
	struct bs_hash names;		/* pid -> struct parse_name * */
	struct {			/* direct-mapped by pid: found names only */
		uint32_t pid;
		struct parse_name *n;
	} name_cache[PARSE_PID_CACHE];

	struct bs_hash procs;		/* pid, or name hash (-h) -> chain of struct parse_proc */
	struct {			/* without -h: direct-mapped by pid */
		uint32_t pid;
		struct parse_proc *p;
	} proc_cache[PARSE_PID_CACHE];
	struct parse_proc *proc_list;
	int nprocs;

	struct parse_track_pool track_pool;	/* -t */
	struct parse_tags *tags;		/* --tag-plugin session, or NULL */

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
void parse_names_free(struct parse_ctx *ps);
struct parse_name *parse_names_find(struct parse_ctx *ps, uint32_t pid);
struct parse_name *parse_names_add(struct parse_ctx *ps, uint32_t pid, const char *comm,
				   size_t len);

extern const char parse_null_name[16];

/*
 * "[name]" content: the comm, or "(null)" as glibc prints a NULL %s.  The
 * returned storage always has 16 readable bytes (fixed-size copies).
 */
static inline const char *parse_name_of(struct parse_ctx *ps, uint32_t pid, size_t *len)
{
	__typeof__(ps->name_cache[0]) *c = &ps->name_cache[pid % PARSE_PID_CACHE];
	struct parse_name *n;

	if (c->n && c->pid == pid) {
		n = c->n;
	} else {
		n = parse_names_find(ps, pid);
		/* hits only: a miss may turn into a hit later; a name never changes */
		if (n) {
			c->pid = pid;
			c->n = n;
		}
	}
	if (!n) {
		*len = 6;
		return parse_null_name;
	}
	*len = n->len;
	return n->comm;
}

/* parse_stats.c */
/* NULL: cpu out of range */
struct parse_cpu *parse_cpu_lookup(struct parse_ctx *ps, struct parse_dev *d, unsigned int cpu);
void parse_cpus_free(struct parse_dev *d);

/* The statistics of cpu on d (created if new), or NULL for an absurd cpu. */
static inline struct parse_cpu *parse_cpu_get(struct parse_ctx *ps, struct parse_dev *d,
					       unsigned int cpu)
{
	if (d->cpu_cache[cpu & 7].cpu1 == cpu + 1)
		return &d->cpus[d->cpu_cache[cpu & 7].idx];
	return parse_cpu_lookup(ps, d, cpu);
}
void parse_procs_free(struct parse_ctx *ps);
struct parse_io *parse_proc_io(struct parse_ctx *ps, uint32_t pid);
void parse_proc_note_wait(struct parse_ctx *ps, uint32_t pid, int kind, int w,
			  unsigned long long elapsed);
void parse_show_stats(struct parse_ctx *ps, void *merge);

/* parse_track.c: each returns the elapsed ns or PARSE_NO_ELAPSED */
void parse_track_free(struct parse_dev *d);	/* the -t table of a device */
void parse_track_pool_free(struct parse_track_pool *pool);
void parse_track_queue(struct parse_ctx *ps, struct parse_dev *d, const struct bs_trace *t);
void parse_track_getrq(struct parse_ctx *ps, struct parse_dev *d, const struct bs_trace *t);
void parse_track_frontmerge(struct parse_ctx *ps, struct parse_dev *d, const struct bs_trace *t);
unsigned long long parse_track_insert(struct parse_ctx *ps, struct parse_dev *d,
				      const struct bs_trace *t);
unsigned long long parse_track_issue(struct parse_ctx *ps, struct parse_dev *d,
				     const struct bs_trace *t);
unsigned long long parse_track_complete(struct parse_ctx *ps, struct parse_dev *d,
					const struct bs_trace *t);

/* parse_event.c */
void parse_note_now(struct parse_ctx *ps, const struct bs_record *rec, int dev);
bool parse_one_event(struct parse_ctx *ps, struct bs_event *ev);	/* false: stop reading */
/* the dump, blkparse -d (sets the dump's format from the first record) */
void parse_dump_record(struct parse_ctx *ps, const struct bs_trace *t, uint32_t action_hi,
		       const uint8_t *pdu);
/* parse_dump.c: -O -d on per-CPU files without a plugin, a loop of its own */
bool parse_dump_only(const struct parse_ctx *ps);
void parse_run_dump(struct parse_ctx *ps);
void parse_order_stream_devs(struct parse_ctx *ps);	/* stream mode, after the last event */

/* parse_line.c; parse_line_event returns -1 on a fatal format error (ps->stop set) */
int parse_line_event(struct parse_ctx *ps, const char *act, int cpu, struct bs_trace *t,
		     unsigned long long elapsed, const uint8_t *pdu, int pdu_len,
		     const uint8_t *raw_pdu);
void parse_line_message(struct parse_ctx *ps, const struct bs_trace *t, const uint8_t *pdu);

char *parse_put_pdu_hex(char *p, const uint8_t *pdu, int len);

/* parse_fmt.c: -1 after a fatal format error (message printed, ps->stop set) */
int parse_fmt_event(struct parse_ctx *ps, const char *fmt, const char *act, int cpu,
		    const struct bs_trace *t, unsigned long long elapsed, const uint8_t *pdu,
		    int pdu_len, const uint8_t *raw_pdu);

/* blkparse's helpers on records */
static inline unsigned int parse_t_sectors(const struct bs_trace *t) { return t->bytes >> 9; }
static inline unsigned int parse_t_kb(const struct bs_trace *t) { return t->bytes >> 10; }
static inline unsigned int parse_t_kb_rest(const struct bs_trace *t) { return t->bytes & 1023; }

#endif /* BLKSCOPE_ANALYZE_PARSE_PARSE_PRIV_H */
