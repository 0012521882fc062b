// SPDX-License-Identifier: GPL-2.0
/*
 * harness.c - drive the report extension (report_ext) without the btt
 * engine: a stand-in for the analysis context's extension API (analysis.h)
 * that feeds bs_io_samples read from a text file (or generated) to the
 * registered sinks, then runs report() and done() like `blkscope analyze`
 * does.
 *
 *   extras-harness [EXT OPTIONS] [--text] SAMPLES|-
 *   extras-harness [EXT OPTIONS] --gen N [--seed S]
 *
 * Sample lines (whitespace separated, '-' = stage not seen, '#' comments):
 *   dev sector bytes pid comm op t_q t_g t_i t_m t_d t_c error requeues tag
 * dev is "maj,min"; op is read|write|discard|flush|other; times in ns.
 * --gen makes N I/Os with several processes, both directions, a lognormal-ish
 * latency mix and some stages missing, for cost and size measurements; with
 * --dump FILE the generated samples are also written in the text format.
 * --bench N generates N samples in memory first and times only their
 * delivery to the sinks: the extras' cost per sample.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "analysis.h"
#include "bs_outfile.h"
#include "report.h"
#include "../unit/rng.h"

#define MAX_SINK 16
#define EXT_OPT_BASE 0x1000	/* the extension's vals are its own: keep them apart */

struct analysis {
	int dummy;
};

static const struct analysis_ext *const exts[] = { &report_ext };
static const int nexts = 1;
static struct bs_sample_sink sinks[MAX_SINK];
static int nsinks;
static uint64_t end_time;
static struct bs_dev_counters counters[8];
static int ncounters;

int analysis_add_sink(struct analysis *a, const struct bs_sample_sink *sink)
{
	if (nsinks == MAX_SINK)
		return -1;
	sinks[nsinks++] = *sink;
	return 0;
}

const struct bs_dev_counters *analysis_counters(struct analysis *a, int *n)
{
	*n = ncounters;
	return counters;
}

const char *analysis_comm(struct analysis *a, uint32_t pid)
{
	return "?";
}

uint64_t analysis_end_time(struct analysis *a)
{
	return end_time;
}

const struct report_cgroup_names *analysis_cgroups(struct analysis *a)
{
	return NULL;	/* samples carry no cgroup ids here */
}

uint64_t analysis_cgroup_records(struct analysis *a)
{
	return 0;
}

const struct attr_dict *analysis_attr(struct analysis *a)
{
	return NULL;	/* no attribution side files here */
}

bool analysis_attr_stats(struct analysis *a, struct attr_stats *st)
{
	return false;
}

const struct iom_health *analysis_health(struct analysis *a)
{
	return NULL;	/* no model here: the samples come from a file */
}

uint64_t analysis_btt_never_completed(struct analysis *a)
{
	return 0;
}

bool analysis_btt_only(struct analysis *a)
{
	return false;
}

/* the report's notes and errors, as the front-ends print them */
static void harness_msg(void *arg, enum bs_msg_level level, const char *text)
{
	fprintf(stderr, "harness: %s\n", text);
}

const struct bs_msg_sink *analysis_msg_sink(const struct analysis *a)
{
	static const struct bs_msg_sink sink = { .fn = harness_msg };

	return &sink;
}

unsigned int analysis_create_flags(const struct analysis *a)
{
	return BS_CREATE_REPLACE;	/* the harness writes into its own scratch files */
}

bool analysis_window(struct analysis *a, double *t_start, double *t_end)
{
	*t_start = 0;
	*t_end = 1e300;	/* no -t/-T */
	return false;
}

void *analysis_ext_state(struct analysis *a, const struct analysis_ext *ext)
{
	return NULL;	/* not needed by the report extension */
}

static struct bs_dev_counters *counters_for(uint32_t dev)
{
	int i;

	for (i = 0; i < ncounters; i++)
		if (counters[i].device == dev)
			return &counters[i];
	if (ncounters == 8)
		return NULL;
	memset(&counters[ncounters], 0, sizeof(counters[0]));
	counters[ncounters].device = dev;
	return &counters[ncounters++];
}

static void deliver(const struct bs_io_sample *s)
{
	struct bs_dev_counters *c = counters_for(s->device);
	int i;

	if (c) {
		struct bs_op_counts *oc = bs_dev_op_get(c, s->op);

		oc->queued++;
		oc->queued_bytes += s->bytes;
		oc->merges += s->t_m != BS_NOT_SEEN;
		oc->requeues += (uint64_t)s->requeues;
		if (s->t_c != BS_NOT_SEEN) {
			oc->completed++;
			oc->completed_bytes += s->bytes;
			oc->rq_completed++;
		}
		c->errors += s->error != 0;
	}
	if (s->t_c != BS_NOT_SEEN && s->t_c > end_time)
		end_time = s->t_c;
	for (i = 0; i < nsinks; i++)
		sinks[i].io_done(sinks[i].ctx, s);
}

static uint64_t field_time(const char *f)
{
	return strcmp(f, "-") ? strtoull(f, NULL, 10) : BS_NOT_SEEN;
}

static int op_of(const char *name)
{
	static const char *const names[BS_OP_COUNT] = {
		"read", "write", "discard", "flush", "other",
		"zone-append", "zone-reset", "zone-reset-all", "zone-finish", "zone-open",
		"zone-close",
	};
	int i;

	for (i = 0; i < BS_OP_COUNT; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

static int read_samples(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char line[1024], comm[64], opn[16], t[8][32];
	unsigned int maj, min;
	struct bs_io_sample s;
	int lineno = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		memset(&s, 0, sizeof(s));
		if (sscanf(line, "%u,%u %" SCNu64 " %u %u %63s %15s "
			   "%31s %31s %31s %31s %31s %31s %hu %d %d",
			   &maj, &min, &s.sector, &s.bytes, &s.pid, comm, opn,
			   t[0], t[1], t[2], t[3], t[4], t[5],
			   &s.error, &s.requeues, &s.tag) != 16 || op_of(opn) < 0) {
			fprintf(stderr, "%s:%d: bad sample line\n", path, lineno);
			return -1;
		}
		s.device = maj << 20 | min;
		s.comm = strcmp(comm, "-") ? comm : NULL;
		s.op = (enum bs_op)op_of(opn);
		s.t_q = field_time(t[0]);
		s.t_g = field_time(t[1]);
		s.t_i = field_time(t[2]);
		s.t_m = field_time(t[3]);
		s.t_d = field_time(t[4]);
		s.t_c = field_time(t[5]);
		s.t_a = s.t_s = BS_NOT_SEEN;
		s.status = s.t_c != BS_NOT_SEEN ? BS_IO_DONE : BS_IO_OPEN;
		bs_io_sample_stages(&s);
		deliver(&s);
	}
	if (f != stdin)
		fclose(f);
	return 0;
}


/* A latency around base ns with a long tail: base * 2^(0..k) * (1 + x). */
static uint64_t lat(uint64_t base)
{
	uint64_t r = rnd64();
	int oct = (r & 0xff) < 200 ? 0 :
		  (r & 0xff) < 245 ? 1 + (int)((r >> 8) & 1) : 3 + (int)((r >> 8) & 7);

	return (base << oct) + ((r >> 16) % (base << oct));
}

static const char *const op_str[BS_OP_COUNT] = {
	"read", "write", "discard", "flush", "other",
	"zone-append", "zone-reset", "zone-reset-all", "zone-finish", "zone-open", "zone-close",
};

static void tstr(char *b, uint64_t t)
{
	if (t == BS_NOT_SEEN)
		strcpy(b, "-");
	else
		sprintf(b, "%" PRIu64, t);
}

static struct bs_io_sample *bench_buf;	/* --bench: keep, do not deliver */

static void generate(uint64_t n, FILE *dump)
{
	static const char *const comms[] = { "fio", "postgres", "kworker/u8:2", "dd", "rocksdb",
					     "jbd2/sda1-8" };
	struct bs_io_sample s;
	uint64_t now = 1000, i;

	for (i = 0; i < n; i++) {
		uint64_t r = rnd64();
		int proc = (int)(r % 6);

		memset(&s, 0, sizeof(s));
		s.device = (r >> 8) % 5 ? (8u << 20) : (259u << 20 | 1);
		s.op = (r >> 12) % 3 ? BS_OP_READ : BS_OP_WRITE;
		if ((r >> 16) % 97 == 0)
			s.op = BS_OP_DISCARD;
		s.pid = 1000 + (uint32_t)proc;
		s.comm = comms[proc];
		s.bytes = 4096u << ((r >> 20) % 4);
		s.sector = ((r >> 24) % 2000000) * 8;
		s.tag = -1;
		now += 1 + (rnd64() % 4000);
		s.t_q = now;
		s.t_a = s.t_s = BS_NOT_SEEN;
		if (s.device == 8u << 20) {
			s.t_g = s.t_q + 200 + rnd64() % 300;
			s.t_i = s.t_g + 100 + rnd64() % 200;
			s.t_d = s.t_i + lat(2000);
			s.t_m = BS_NOT_SEEN;
		} else {	/* none-scheduler NVMe: no G, no I */
			s.t_g = s.t_i = s.t_m = BS_NOT_SEEN;
			s.t_d = s.t_q + 300 + rnd64() % 200;
		}
		s.t_c = s.t_d + lat(s.op == BS_OP_READ ? 80000 : 30000);
		if (i + 50 > n && (r & 1))
			s.t_c = BS_NOT_SEEN;	/* still in flight at the end */
		s.requeues = (r >> 40) % 1000 == 0;
		s.error = (r >> 50) % 5000 == 0 ? 0xfffb : 0;
		s.status = s.t_c != BS_NOT_SEEN ? BS_IO_DONE : BS_IO_OPEN;
		bs_io_sample_stages(&s);
		if (dump) {
			char t[6][24];

			tstr(t[0], s.t_q);
			tstr(t[1], s.t_g);
			tstr(t[2], s.t_i);
			tstr(t[3], s.t_m);
			tstr(t[4], s.t_d);
			tstr(t[5], s.t_c);
			fprintf(dump, "%u,%u %" PRIu64 " %u %u %s %s %s %s %s %s %s %s %u %d %d\n",
				s.device >> 20, s.device & 0xfffff, s.sector, s.bytes, s.pid,
				s.comm, op_str[s.op], t[0], t[1], t[2], t[3], t[4], t[5], s.error,
				s.requeues, s.tag);
		}
		if (bench_buf)
			bench_buf[i] = s;
		else
			deliver(&s);
	}
}

int main(int argc, char **argv)
{
	struct option opts[64];
	int opt_ext[64], opt_val[64];
	void *state[1];
	struct analysis a = { 0 };
	int nopt = 0, i, c, rc = 0;
	uint64_t gen = 0, bench = 0, k;
	const char *dump = NULL;
	struct timespec t0, t1;
	struct bs_err err;

	for (i = 0; i < nexts; i++) {
		const struct option *o;

		state[i] = exts[i]->create();
		for (o = exts[i]->options; o && o->name; o++) {
			opt_ext[nopt] = i;
			opt_val[nopt] = o->val;
			opts[nopt] = *o;
			opts[nopt].val = EXT_OPT_BASE + nopt;
			nopt++;
		}
	}
	opts[nopt++] = (struct option){ "gen", required_argument, NULL, 'g' };
	opts[nopt++] = (struct option){ "seed", required_argument, NULL, 's' };
	opts[nopt++] = (struct option){ "dump", required_argument, NULL, 'd' };
	opts[nopt++] = (struct option){ "bench", required_argument, NULL, 'b' };
	opts[nopt] = (struct option){ NULL, 0, NULL, 0 };
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'g') {
			gen = strtoull(optarg, NULL, 10);
			continue;
		}
		if (c == 's') {
			rng_state ^= strtoull(optarg, NULL, 10) * 0x9E3779B97F4A7C15ull;
			continue;
		}
		if (c == 'd') {
			dump = optarg;
			continue;
		}
		if (c == 'b') {
			bench = strtoull(optarg, NULL, 10);
			continue;
		}
		if (c < EXT_OPT_BASE)
			return 2;
		c -= EXT_OPT_BASE;
		if (exts[opt_ext[c]]->parse_opt(state[opt_ext[c]], opt_val[c], optarg, &err)) {
			fprintf(stderr, "harness: %s\n", err.text);
			return 2;
		}
	}
	for (i = 0; i < nexts; i++)
		if (exts[i]->start && exts[i]->start(state[i], &a))
			return 1;
	if (bench) {
		bench_buf = calloc(bench, sizeof(*bench_buf));
		if (!bench_buf)
			return 1;
		generate(bench, NULL);
		/* CPU time, not wall time: the machine may be shared */
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		for (k = 0; k < bench; k++)
			deliver(&bench_buf[k]);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
		fprintf(stderr, "harness: %" PRIu64 " samples delivered in %.3f s: "
			"%.1f ns/sample\n",
			bench, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
			((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) /
			(double)bench);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (gen) {
		FILE *df = dump ? fopen(dump, "w") : NULL;

		generate(gen, df);
		if (df)
			fclose(df);
	} else if (optind < argc) {
		if (read_samples(argv[optind]))
			return 1;
	}
	for (i = 0; i < nsinks; i++)
		if (sinks[i].finish)
			sinks[i].finish(sinks[i].ctx, end_time);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (gen && !dump)
		fprintf(stderr, "harness: %" PRIu64 " samples in %.3f s: "
			"%.1f ns/sample (incl. generation)\n", gen,
			(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
			((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / (double)gen);
	for (i = 0; i < nexts; i++)
		if (exts[i]->report)
			exts[i]->report(state[i], &a, stdout);
	for (i = 0; i < nexts; i++)
		if (exts[i]->done && exts[i]->done(state[i], &a))
			rc = 1;
	for (i = 0; i < nexts; i++)
		exts[i]->destroy(state[i]);
	for (i = 0; i < ncounters; i++)
		bs_dev_counters_free(&counters[i]);
	free(bench_buf);
	return rc;
}
