/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h - the context of blkscope parse, the blkparse (Debian 1.2.0)
 * compatible text printer, shared by the files of libbsparse.a.  Callers
 * use bs_parse.h; this header is the library's inside.  The pieces:
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
 * Everything a run owns hangs off one struct bs_parse: no file-scope
 * mutable state, so runs can follow each other in one process (the fuzz
 * harness does) and bs_parse_destroy() frees all of it.
 */
#ifndef BS_PARSE_H
#define BS_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "bs_defs.h"
#include "bs_hash.h"
#include "bs_input.h"
#include "bs_merge.h"
#include "bs_parse.h"
#include "bs_writer.h"
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
	unsigned int cpu;
	unsigned long nelems;	/* events seen on this CPU (even masked ones) */
	struct ps_io io;
};

struct ps_track_tab;

struct ps_dev {
	uint32_t dev;		/* 0 in file mode, as in blkparse */
	char *name;		/* file mode: base name; stream mode: NULL ("maj,min") */
	/*
	 * Per-CPU statistics in order of first appearance, found through
	 * cpu_index, so memory follows the CPUs a device really has (a damaged
	 * trace may give each of many devices CPU 65535); cpu_cache keeps the
	 * per-event lookup to one compare.
	 */
	struct ps_cpu *cpus;
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
	struct ps_track_tab *track;
};

/* One pid -> name entry (blkparse's process_pid_map). */
struct ps_name {
	uint32_t pid;
	uint8_t len;
	char comm[16];
};

struct ps_proc;
struct ps_iot;
struct ptag;

/*
 * -t nodes freed by a C, reused in glibc's order (parse_track.c): a tcache
 * of 7, then a LIFO fastbin.  Nodes that failed to go into the table are
 * kept on `lost` so that they are freed with the run.
 */
#define PS_TCACHE_COUNT 7
struct ps_track_pool {
	struct ps_iot *tcache[PS_TCACHE_COUNT];
	int tcache_n;
	struct ps_iot *fastbin;
	struct ps_iot *lost;
};

/* entries of the per-pid lookup caches in front of the hashes */
#define PS_PID_CACHE 64

/* Why a run stopped early. */
enum ps_stop {
	PS_RUNNING,
	PS_FATAL_FORMAT,	/* blkparse exit(1)s in a format: what was printed is flushed */
	PS_FATAL_DAMAGE,	/* damaged input we refuse: buffered output is dropped */
	PS_FATAL_NOMEM,		/* the tagging host ran out of memory: same */
};

struct bs_parse {
	uint64_t nevents;		/* events read: none is an error (bs_parse_exec) */
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
	uint32_t act_mask;		/* compared with action >> 16 */
	uint64_t stop_start, stop_end;	/* -w, ns */
	char *formats[256];		/* -f / -F, by action letter (copies) */
	unsigned int batch;

	/* inputs, the merge, outputs */
	struct bs_input_set in;
	struct bs_merge *merge;
	struct bs_readahead *ra;	/* who reads the per-CPU files ahead, or NULL */
	bool file_mode;
	struct pout out;		/* the text (-o or stdout) */
	bool out_open;
	struct pout added;		/* "Input file X added" lines: stdout, own buffer */
	bool added_open;
	char *output_name;
	char *dump_name;
	struct bs_writer dump;
	bool dump_open;			/* the writer holds a buffer and maybe an fd */
	bool dumping;			/* false after a write error */
	enum ps_stop stop;

	/* devices, in blkparse's order */
	struct ps_dev *devs;
	int ndevs;
	size_t devs_cap;
	struct bs_hash dev_index;	/* stream mode: dev_t -> index in devs */
	uint32_t last_dev;		/* stream mode: one-entry cache */
	struct ps_dev *last_pdi;

	/* names and per-process stats */
	struct bs_hash names;		/* pid -> struct ps_name * */
	struct {			/* direct-mapped by pid: found names only */
		uint32_t pid;
		struct ps_name *n;
	} name_cache[PS_PID_CACHE];

	struct bs_hash procs;		/* pid, or name hash (-h) -> chain of struct ps_proc */
	struct {			/* without -h: direct-mapped by pid */
		uint32_t pid;
		struct ps_proc *p;
	} proc_cache[PS_PID_CACHE];
	struct ps_proc *proc_list;
	int nprocs;

	struct ps_track_pool track_pool;	/* -t */
	struct ptag *tags;		/* --tag-plugin session, or NULL */

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
void names_free(struct bs_parse *ps);
struct ps_name *names_find(struct bs_parse *ps, uint32_t pid);
struct ps_name *names_add(struct bs_parse *ps, uint32_t pid, const char *comm, size_t len);

extern const char ps_null_name[16];

/*
 * "[name]" content: the comm, or "(null)" as glibc prints a NULL %s.  The
 * returned storage always has 16 readable bytes (fixed-size copies).
 */
static inline const char *ps_name_of(struct bs_parse *ps, uint32_t pid, size_t *len)
{
	__typeof__(ps->name_cache[0]) *c = &ps->name_cache[pid % PS_PID_CACHE];
	struct ps_name *n;

	if (c->n && c->pid == pid) {
		n = c->n;
	} else {
		n = names_find(ps, pid);
		/* hits only: a miss may turn into a hit later; a name never changes */
		if (n) {
			c->pid = pid;
			c->n = n;
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
struct ps_cpu *ps_cpu_lookup(struct ps_dev *d, unsigned int cpu);	/* NULL: cpu out of range */
void ps_cpus_free(struct ps_dev *d);

/* The statistics of cpu on d (created if new), or NULL for an absurd cpu. */
static inline struct ps_cpu *ps_cpu_get(struct ps_dev *d, unsigned int cpu)
{
	if (d->cpu_cache[cpu & 7].cpu1 == cpu + 1)
		return &d->cpus[d->cpu_cache[cpu & 7].idx];
	return ps_cpu_lookup(d, cpu);
}
void procs_free(struct bs_parse *ps);
struct ps_io *proc_io(struct bs_parse *ps, uint32_t pid);
void proc_note_wait(struct bs_parse *ps, uint32_t pid, int kind, int w, unsigned long long elapsed);
void ps_show_stats(struct bs_parse *ps, void *merge);

/* parse_track.c: each returns the elapsed ns or NO_ELAPSED */
void track_free(struct ps_dev *d);	/* the -t table of a device */
void track_pool_free(struct ps_track_pool *pool);
void track_queue(struct bs_parse *ps, struct ps_dev *d, const struct bs_trace *t);
void track_getrq(struct bs_parse *ps, struct ps_dev *d, const struct bs_trace *t);
void track_frontmerge(struct bs_parse *ps, struct ps_dev *d, const struct bs_trace *t);
unsigned long long track_insert(struct bs_parse *ps, struct ps_dev *d, const struct bs_trace *t);
unsigned long long track_issue(struct bs_parse *ps, struct ps_dev *d, const struct bs_trace *t);
unsigned long long track_complete(struct bs_parse *ps, struct ps_dev *d, const struct bs_trace *t);

/* parse_event.c */
void ps_note_now(struct bs_parse *ps, const struct bs_record *rec, int dev);
bool ps_one_event(struct bs_parse *ps, struct bs_event *ev);	/* false: stop reading */
/* the dump, blkparse -d (sets the dump's format from the first record) */
void ps_dump_record(struct bs_parse *ps, const struct bs_trace *t, uint32_t action_hi, const uint8_t *pdu);
/* parse_dump.c: -O -d on per-CPU files without a plugin, a loop of its own */
bool ps_dump_only(const struct bs_parse *ps);
void ps_run_dump(struct bs_parse *ps);
void ps_order_stream_devs(struct bs_parse *ps);	/* stream mode, after the last event */

/* parse_line.c; line_event returns -1 on a fatal format error (ps->stop set) */
int line_event(struct bs_parse *ps, const char *act, int cpu, struct bs_trace *t, unsigned long long elapsed,
		const uint8_t *pdu, int pdu_len, const uint8_t *raw_pdu);
void line_message(struct bs_parse *ps, const struct bs_trace *t, const uint8_t *pdu);

char *put_pdu_hex(char *p, const uint8_t *pdu, int len);

/* parse_fmt.c: -1 after a fatal format error (message printed, ps->stop set) */
int fmt_event(struct bs_parse *ps, const char *fmt, const char *act, int cpu, const struct bs_trace *t,
	       unsigned long long elapsed, const uint8_t *pdu, int pdu_len, const uint8_t *raw_pdu);

/* blkparse's helpers on records */
static inline unsigned int t_sec(const struct bs_trace *t) { return t->bytes >> 9; }
static inline unsigned int t_kb(const struct bs_trace *t) { return t->bytes >> 10; }
static inline unsigned int t_b(const struct bs_trace *t) { return t->bytes & 1023; }

#endif /* BS_PARSE_H */
