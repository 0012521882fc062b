// SPDX-License-Identifier: GPL-2.0
/*
 * replay_report.c - what a replay did, or would do.
 *
 * Lateness (timed replays): how long after its scheduled time an I/O was
 * handed to the kernel (the clock read just before io_uring_submit()),
 * measured on CLOCK_MONOTONIC.  Two figures: against the trace's timeline
 * (everything: the replayer, and a submitter held back because the target
 * was slower than the original: that is the submitter's dependency, not a
 * replay error), and the replayer's own part (issue time minus the later
 * of the schedule and the moment the I/O's dependency cleared).
 * Percentiles are exact (nearest rank over all I/Os).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bs_alloc.h"
#include "bs_defs.h"
#include "bs_escape.h"
#include "bs_outfile.h"
#include "bs_stream.h"
#include "replay.h"

struct rp_pcts {
	uint64_t n, p50, p90, p99, max;
	double mean;
};

struct rp_summary {
	struct rp_pcts late, own;
	uint64_t ops[RP_NOPS], bytes[RP_NOPS];	/* completed without error */
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static uint64_t rank(const uint64_t *v, uint64_t n, double q)
{
	uint64_t r = (uint64_t)(q * (double)n + 0.999999);

	return v[(r ? r : 1) - 1];
}

static void pcts(struct rp_pcts *p, uint64_t *v, uint64_t n)
{
	double sum = 0;

	memset(p, 0, sizeof(*p));
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_u64);
	for (uint64_t i = 0; i < n; i++)
		sum += (double)v[i];
	*p = (struct rp_pcts){ n, rank(v, n, 0.5), rank(v, n, 0.9), rank(v, n, 0.99), v[n - 1], sum / (double)n };
}

static void summarize(struct rp_summary *s, const struct rp_plan *p, const struct rp_result *res)
{
	uint64_t *late = bs_xmalloc((p->n ? p->n : 1) * sizeof(*late));
	uint64_t *own = bs_xmalloc((p->n ? p->n : 1) * sizeof(*own));
	uint64_t n = 0;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < p->n; i++) {
		const struct rp_result *r = &res[i];
		uint64_t sched = p->ios[i].t;

		if (!r->issued)
			continue;
		late[n] = r->issued > sched ? r->issued - sched : 0;
		own[n++] = r->issued > r->ready ? r->issued - r->ready : 0;
		if (r->done && !r->res) {
			s->ops[p->ios[i].op]++;
			s->bytes[p->ios[i].op] += p->ios[i].bytes;
		}
	}
	pcts(&s->late, late, n);
	pcts(&s->own, own, n);
	free(late);
	free(own);
}

/* "1234", or "0/cpu3" for pid 0's per-CPU submitters */
static const char *sub_name(char *buf, size_t len, uint32_t key)
{
	if (key & RP_PID0_CPU)
		snprintf(buf, len, "0/cpu%u", key & ~RP_PID0_CPU);
	else
		snprintf(buf, len, "%u", key);
	return buf;
}

static const char *flag_letters(char buf[8], uint8_t f)
{
	char *c = buf;

	if (f & RP_F_PREFLUSH)
		*c++ = 'P';
	if (f & RP_F_FUA)
		*c++ = 'F';
	if (f & RP_F_SYNC)
		*c++ = 'S';
	if (f & RP_F_META)
		*c++ = 'M';
	if (f & RP_F_AHEAD)
		*c++ = 'A';
	if (c == buf)
		*c++ = '-';
	*c = 0;
	return buf;
}

void rp_report_dry_run(FILE *f, const struct rp_plan *p, const struct rp_trace *t,
		       const struct rp_targets *tg)
{
	char sub[24], comm[72], flags[8], dev[24], path[256];

	fprintf(f, "# %zu I/Os from %zu submitters; time: seconds after the first (scaled by --speed); "
		"flags: P preflush, F FUA, S sync, M meta, A readahead; wait: issued when at most that "
		"many of its submitter's earlier I/Os are in flight (- = waits for none)\n",
		p->n, p->nsubs);
	fprintf(f, "#%14s %-8s %-16s %-12s %-5s %-9s %-14s %14s %10s %5s\n", "time", "pid", "process",
		"op", "flags", "device", "target", "offset", "bytes", "wait");
	for (size_t i = 0; i < p->n; i++) {
		const struct rp_io *io = &p->ios[i];
		uint32_t key = p->subs[io->sub].key;
		const char *name = key & RP_PID0_CPU ? "kernel" : rp_comm(t, key);
		uint64_t off = tg->n ? rp_target_offset(tg, io) : io->sector * 512;
		char wait[16];

		snprintf(dev, sizeof(dev), "%u,%u", BS_DEV_MAJOR(io->dev), BS_DEV_MINOR(io->dev));
		snprintf(wait, sizeof(wait), io->wait == RP_NO_WAIT ? "-" : "%u", io->wait);
		bs_term_cell(comm, sizeof(comm), name ? name : "?", 16);
		bs_term_safe(path, sizeof(path), tg->n ? tg->v[io->target].path : "-");
		fprintf(f, "%15.9f %-8s %s %-12s %-5s %-9s %-14s %14" PRIu64 " %10u %5s\n",
			(double)io->t / 1e9, sub_name(sub, sizeof(sub), key), comm, rp_op_name(io->op),
			flag_letters(flags, io->flags), dev, path, off, io->bytes, wait);
	}
}

static void text_skips(FILE *f, const struct rp_trace *t)
{
	const struct rp_skips *k = &t->skips;

	if (k->window + k->unmapped + k->stacked + k->writes + k->passthrough + k->zone + k->empty == 0)
		return;
	fprintf(f, "  not replayed: %" PRIu64 " outside --window, %" PRIu64 " on unmapped devices, %"
		PRIu64 " remapped from a replayed device, %" PRIu64 " writes (--reads-only), %" PRIu64
		" passthrough, %" PRIu64 " zone operations, %" PRIu64 " empty\n", k->window, k->unmapped,
		k->stacked, k->writes, k->passthrough, k->zone, k->empty);
}

static void text_pcts(FILE *f, const char *what, const struct rp_pcts *p)
{
	fprintf(f, "  %-9s p50 %.1f us, p90 %.1f us, p99 %.1f us, max %.1f us, mean %.1f us\n", what,
		(double)p->p50 / 1e3, (double)p->p90 / 1e3, (double)p->p99 / 1e3, (double)p->max / 1e3,
		p->mean / 1e3);
}

void rp_report_text(FILE *f, const struct rp_plan *p, const struct rp_trace *t,
		    const struct rp_targets *tg, const struct rp_opts *o,
		    const struct rp_result *res, const struct rp_run_stats *st)
{
	struct rp_summary s;
	double secs = (double)st->duration / 1e9;
	uint64_t done = 0, bytes = 0;

	summarize(&s, p, res);
	for (int k = 0; k < RP_NOPS; k++) {
		done += s.ops[k];
		bytes += s.bytes[k];
	}
	fprintf(f, "blkscope replay: %" PRIu64 " of %zu I/Os issued from %zu submitters on %u thread%s "
		"onto %zu device%s%s\n", st->issued, p->n, p->nsubs, p->nworkers, p->nworkers == 1 ? "" : "s",
		tg->n, tg->n == 1 ? "" : "s", st->interrupted ? " (interrupted)" : "");
	fprintf(f, "  issued over %.6f s, the trace's Qs over %.6f s%s; last completion at %.6f s\n",
		(double)(st->last_issue - st->first_issue) / 1e9, (double)p->span / 1e9,
		o->max ? " (--max: not kept)" : o->speed != 1.0 ? " (scaled by --speed)" : "", secs);
	fprintf(f, "  completed %" PRIu64 ": %" PRIu64 " reads (%.1f MiB), %" PRIu64 " writes (%.1f MiB), %"
		PRIu64 " flushes, %" PRIu64 " discards, %" PRIu64 " write-zeroes; %" PRIu64 " failed\n",
		done, s.ops[RP_READ], (double)s.bytes[RP_READ] / 1048576.0, s.ops[RP_WRITE],
		(double)s.bytes[RP_WRITE] / 1048576.0, s.ops[RP_FLUSH], s.ops[RP_DISCARD], s.ops[RP_WZEROES],
		st->errors);
	if (st->errors)
		fprintf(f, "  first failure: I/O %zu (%s at sector %" PRIu64 "): %s\n", st->first_err_io,
			rp_op_name(p->ios[st->first_err_io].op), p->ios[st->first_err_io].sector,
			strerror(st->first_err));
	if (!o->max) {
		text_pcts(f, "lateness", &s.late);
		text_pcts(f, "replayer", &s.own);
	}
	fprintf(f, "  held      %" PRIu64 " I/Os waited for earlier I/O of their submitter, %" PRIu64
		" for a free slot (--depth, or the device's queue)\n", st->held_dep, st->held_slot);
	if (secs > 0)
		fprintf(f, "  rate      %.0f IOPS, %.1f MiB/s; the submitting threads' CPU: %.2f us per I/O\n",
			(double)done / secs, (double)bytes / 1048576.0 / secs,
			st->issued ? (double)st->cpu_ns / 1e3 / (double)st->issued : 0.0);
	if (p->preflush_writes)
		fprintf(f, "  note      %" PRIu64 " writes with PREFLUSH were issued as a flush and the write\n",
			p->preflush_writes);
	text_skips(f, t);
}

static void json_pcts(FILE *f, const char *name, const struct rp_pcts *p)
{
	fprintf(f, "  \"%s\": {\"count\": %" PRIu64 ", \"p50_ns\": %" PRIu64 ", \"p90_ns\": %" PRIu64
		", \"p99_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64 ", \"mean_ns\": %.0f},\n", name, p->n,
		p->p50, p->p90, p->p99, p->max, p->mean);
}

static void json_ops(FILE *f, const char *name, const uint64_t *v, const char *end)
{
	fprintf(f, "  \"%s\": {", name);
	for (int k = 0; k < RP_NOPS; k++)
		fprintf(f, "%s\"%s\": %" PRIu64, k ? ", " : "", rp_op_name((unsigned int)k), v[k]);
	fprintf(f, "}%s\n", end);
}

static void json_targets(FILE *f, const struct rp_targets *tg)
{
	fprintf(f, "  \"targets\": [");
	for (size_t k = 0; k < tg->n; k++) {
		const struct rp_target *t = &tg->v[k];

		fprintf(f, "%s\n    {\"path\": ", k ? "," : "");
		bs_json_string(f, t->path);
		fprintf(f, ", \"device\": \"%u,%u\", \"size\": %" PRIu64 ", \"logical_block\": %u, "
			"\"wrapped\": %" PRIu64 "}", BS_DEV_MAJOR(t->rdev), BS_DEV_MINOR(t->rdev), t->size,
			t->lbs, t->wrapped);
	}
	fprintf(f, "%s],\n", tg->n ? "\n  " : "");
}

/* What a run did (not for a dry run). */
static void json_run(FILE *f, const struct rp_plan *p, const struct rp_opts *o,
		     const struct rp_result *res, const struct rp_run_stats *st)
{
	struct rp_summary s;

	summarize(&s, p, res);
	json_ops(f, "completed", s.ops, ",");
	json_ops(f, "completed_bytes", s.bytes, ",");
	fprintf(f, "  \"issued\": %" PRIu64 ",\n  \"errors\": %" PRIu64 ",\n  \"short\": %" PRIu64
		",\n  \"interrupted\": %s,\n", st->issued, st->errors, st->short_io,
		st->interrupted ? "true" : "false");
	fprintf(f, "  \"issue_span_ns\": %" PRIu64 ",\n  \"duration_ns\": %" PRIu64 ",\n  \"cpu_ns\": %"
		PRIu64 ",\n", st->last_issue - st->first_issue, st->duration, st->cpu_ns);
	if (!o->max) {
		json_pcts(f, "lateness", &s.late);
		json_pcts(f, "replayer_lateness", &s.own);
	}
	fprintf(f, "  \"held_by_dependency\": %" PRIu64 ",\n  \"held_for_slot\": %" PRIu64 ",\n",
		st->held_dep, st->held_slot);
}

static void json_body(FILE *f, const struct rp_plan *p, const struct rp_trace *t,
		      const struct rp_targets *tg, const struct rp_opts *o,
		      const struct rp_result *res, const struct rp_run_stats *st)
{
	const struct rp_skips *k = &t->skips;

	fprintf(f, "{\n  \"mode\": \"%s\",\n  \"speed\": %g,\n  \"dependencies\": %s,\n",
		o->dry_run ? "dry-run" : o->max ? "max" : "timed", o->max ? 0.0 : o->speed,
		o->no_deps ? "false" : "true");
	fprintf(f, "  \"ios\": %zu,\n  \"submitters\": %zu,\n  \"threads\": %u,\n", p->n, p->nsubs,
		p->nworkers);
	json_ops(f, "planned", p->ops, ",");
	json_ops(f, "planned_bytes", p->op_bytes, ",");
	fprintf(f, "  \"trace_span_ns\": %" PRIu64 ",\n  \"scheduled_span_ns\": %" PRIu64 ",\n",
		p->trace_span, p->span);
	if (st)
		json_run(f, p, o, res, st);
	fprintf(f, "  \"with_wait\": %" PRIu64 ",\n  \"synchronous\": %" PRIu64 ",\n  \"preflush_writes\": %"
		PRIu64 ",\n", p->with_wait, p->sync_ios, p->preflush_writes);
	fprintf(f, "  \"flags_not_reproduced\": {\"sync\": %" PRIu64 ", \"meta\": %" PRIu64
		", \"readahead\": %" PRIu64 "},\n", p->not_reproduced[0], p->not_reproduced[1],
		p->not_reproduced[2]);
	fprintf(f, "  \"skipped\": {\"window\": %" PRIu64 ", \"unmapped\": %" PRIu64 ", \"stacked\": %"
		PRIu64 ", \"reads_only\": %" PRIu64 ", \"passthrough\": %" PRIu64 ", \"zone\": %" PRIu64
		", \"empty\": %" PRIu64 "},\n", k->window, k->unmapped, k->stacked, k->writes,
		k->passthrough, k->zone, k->empty);
	json_targets(f, tg);
	fprintf(f, "  \"trace_damaged\": %s\n}\n", t->damaged ? "true" : "false");
}

/* A file to write (our own earlier one replaced), or stdout for "-"; NULL after one line. */
static FILE *open_out(const char *path)
{
	int fd;
	FILE *f;

	if (!strcmp(path, "-"))
		return stdout;
	fd = bs_create_path(path, BS_CREATE_REPLACE);
	if (fd < 0) {
		struct bs_err err;

		bs_create_err(&err, path, errno);
		fprintf(stderr, "%s: %s\n", bs_progname(), err.text);
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

static int close_out(FILE *f, const char *path)
{
	int bad = ferror(f);

	if (f == stdout)
		bad |= fflush(f);
	else
		bad |= fclose(f);
	if (bad) {
		fprintf(stderr, "%s: writing %s: %s\n", bs_progname(), path, strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

int rp_report_json(const char *path, const struct rp_plan *p, const struct rp_trace *t,
		   const struct rp_targets *tg, const struct rp_opts *o,
		   const struct rp_result *res, const struct rp_run_stats *st)
{
	FILE *f = open_out(path);

	if (!f)
		return -1;
	json_body(f, p, t, tg, o, res, st);
	return close_out(f, path);
}

int rp_report_log(const char *path, const struct rp_plan *p, const struct rp_trace *t,
		  const struct rp_targets *tg, const struct rp_result *res)
{
	FILE *f = open_out(path);
	char sub[24], flags[8];

	if (!f)
		return -1;
	fprintf(f, "index,pid,process,op,flags,device,target,offset,bytes,wait,scheduled_ns,ready_ns,"
		"issued_ns,completed_ns,result\n");
	for (size_t i = 0; i < p->n; i++) {
		const struct rp_io *io = &p->ios[i];
		const struct rp_result *r = &res[i];
		uint32_t key = p->subs[io->sub].key;
		const char *name = key & RP_PID0_CPU ? "kernel" : rp_comm(t, key);

		fprintf(f, "%zu,%s,", i, sub_name(sub, sizeof(sub), key));
		bs_csv_field(f, name ? name : "");
		fprintf(f, ",%s,%s,%u:%u,", rp_op_name(io->op), flag_letters(flags, io->flags),
			BS_DEV_MAJOR(io->dev), BS_DEV_MINOR(io->dev));
		bs_csv_field(f, tg->v[io->target].path);
		fprintf(f, ",%" PRIu64 ",%u,", rp_target_offset(tg, io), io->bytes);
		if (io->wait != RP_NO_WAIT)
			fprintf(f, "%u", io->wait);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d\n", io->t, r->ready,
			r->issued, r->done, r->res);
	}
	return close_out(f, path);
}
