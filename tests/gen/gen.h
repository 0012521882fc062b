/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gen.h - bs-gen-trace, the one synthetic-trace generator of the tests,
 * benchmarks and fuzz seeds.  The emitter (gen_emit.c) keeps per-(base,
 * cpu) output files written with format/bs_writer, the kernel's
 * per-(device, cpu) sequence numbers, and an optional byte swap so that
 * the same workload can be written as a big-endian trace.  Each workload
 * is one file: gen_scenario.c, gen_bulk.c, gen_bench.c, gen_tags.c,
 * gen_merge.c, gen_script.c, gen_zoned.c, gen_random.c, gen_hostile.c.
 */
#ifndef BS_GEN_H
#define BS_GEN_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include "bs_defs.h"
#include "bs_writer.h"

#define GEN_MAX_CPUS	64
#define GEN_MAX_BASES	2
#define GEN_MAX_DEVS	16

struct gen_srec;

/* The records of -w script, read before the files are opened. */
struct gen_script {
	struct gen_srec *v;
	size_t n, cap;
};

/* Our own buffered writer for byte-swapped output: bs_writer takes host-order headers. */
struct gen_raw {
	int fd;
	uint8_t *buf;
	size_t len;
};

struct gen_out {
	bool open;
	struct bs_writer w;	/* native output */
	struct gen_raw raw;	/* --swap output */
};

/* -w hostile-*: the hostile traces' shapes (gen_hostile.c) */
enum gen_hostile_kind { GEN_HOSTILE_DEVS, GEN_HOSTILE_NAMES, GEN_HOSTILE_PENDING };

struct gen_hostile_opts {
	uint32_t stamp_cpus;	/* hostile-devs: CPU fields cycle through this many (0: all 0) */
	uint64_t names;		/* hostile-names: distinct names (0: one per pid) */
	uint64_t every;		/* hostile-names: every K-th pid issues an IO (0: none) */
	bool span;		/* an IO at time 0 and one at 2^63 */
};

struct gen {
	const char *dir;
	const char *bases[GEN_MAX_BASES];
	int nbases;
	int ncpus;
	bool swap;
	bool v8;		/* write version-8 (64-byte) records */
	struct gen_out out[GEN_MAX_BASES][GEN_MAX_CPUS];
	uint32_t devs[GEN_MAX_DEVS];
	uint32_t seq[GEN_MAX_DEVS][GEN_MAX_CPUS];
	uint64_t now;		/* ns: the time of the next record; workloads set it */
	uint64_t records;
	uint64_t seed;		/* --seed as given (default 1) */
	uint64_t rng;		/* gen_rand's state, derived from the seed */
	int ndevs;		/* -w bulk: --devices */
	uint32_t npids;		/* -w tags: --pids, --unnamed */
	uint32_t unnamed;
	struct gen_script script;
	/* bulk mode: extra latency before the event that ends a stage */
	uint64_t delay[4];	/* Q2G, G2I, I2D, D2C (ns) */
	uint32_t slow_pid;	/* this pid's D2C gets slow_ns more */
	uint64_t slow_ns;
	struct gen_hostile_opts hostile;
};

enum { GEN_Q2G, GEN_G2I, GEN_I2D, GEN_D2C };

int gen_open(struct gen *g);
int gen_close(struct gen *g);

/*
 * Write one record to <base>.blktrace.<cpu>.  Notes (NOTIFY category) get
 * sequence 0, events the next per-(device, cpu) number.  The time is g->now.
 */
void gen_emit(struct gen *g, int base, int cpu, uint32_t dev, uint64_t sector, uint32_t bytes,
	      uint32_t action, uint32_t pid, uint16_t error, const void *pdu, uint16_t pdu_len);

/* The same with the high 32 action bits of a v8 record (zone categories). */
void gen_emit2(struct gen *g, int base, int cpu, uint32_t dev, uint64_t sector, uint32_t bytes,
	       uint32_t action, uint32_t action_hi, uint32_t pid, uint16_t error, const void *pdu,
	       uint16_t pdu_len);

/*
 * A record as the caller built it (its CPU field, sequence and time), into
 * <base>.blktrace.<file>: what gen_emit2() ends in, for workloads that set
 * the fields themselves.
 */
void gen_put(struct gen *g, int base, int file, const struct bs_trace *t, uint32_t action_hi,
	     const void *pdu);

/* Notes, already in the kernel's layout. */
void gen_note_process(struct gen *g, int base, int cpu, uint32_t dev, uint32_t pid,
		      const char *comm);
void gen_note_timestamp(struct gen *g, int base, int cpu, uint32_t dev, uint32_t sec,
			uint32_t nsec);
void gen_note_message(struct gen *g, int base, int cpu, uint32_t dev, uint32_t pid,
		      const char *text, bool cgroup);

static inline uint64_t gen_rand(struct gen *g)
{
	/* xorshift64*: deterministic, fast, good enough for workloads */
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 0x2545F4914F6CDD1DULL;
}

static inline void gen_advance(struct gen *g, uint64_t ns)
{
	g->now += ns;
}

/* The workloads (one file each). */
void gen_scenario_all(struct gen *g);
void gen_scenario_zoned(struct gen *g);	/* version 8 only */
void gen_bulk(struct gen *g, uint64_t nevents);
void gen_bench(struct gen *g, uint64_t nevents);
void gen_random(struct gen *g, uint64_t nevents);
void gen_tags(struct gen *g, uint64_t nevents);
void gen_merge(struct gen *g);
int gen_script_read(struct gen *g, FILE *in);
void gen_script(struct gen *g);
void gen_hostile(struct gen *g, enum gen_hostile_kind kind, uint64_t n);

#endif /* BS_GEN_H */
