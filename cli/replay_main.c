// SPDX-License-Identifier: GPL-2.0
/*
 * replay_main.c - blkscope-replay: re-issue a recorded workload onto block
 * devices with its timing (replay.h has the stages, docs/replay.md the
 * rules).  Exit status: 0, 1 on an error (a refusal, a failed I/O, a
 * damaged trace, an interrupted replay), 2 for a bad command line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "bs_arg.h"
#include "bs_defs.h"
#include "bs_outfile.h"
#include "bs_stream.h"
#include "replay.h"

/* --json/--log FILE: can it be created?  Checked before the trace is read. */
static int check_output(const char *opt, const char *path)
{
	if (!path || !strcmp(path, "-") || !bs_check_path(path))
		return 0;
	fprintf(stderr, "%s: %s: cannot create %s: %s\n", bs_progname(), opt, path,
		strerror(errno));
	return -1;
}

static void print_sub(FILE *f, const struct replay_sub *s, const struct replay_trace *t)
{
	const char *name = s->key & REPLAY_PID0_CPU ? "kernel" : replay_comm(t, s->key);

	fprintf(f, "%s: submitter %u (%s): %u I/Os, ", bs_progname(),
		s->key & REPLAY_PID0_CPU ? 0 : s->key, name ? name : "?", s->nios);
	if (s->async)
		fprintf(f, "waits for nothing\n");
	else if (s->depth == 1)
		fprintf(f, "synchronous\n");
	else
		fprintf(f, "up to %u in flight\n", s->depth);
}

static void print_plan(FILE *f, const struct replay_plan *p, const struct replay_trace *t,
		       const struct replay_opts *o)
{
	const struct replay_skips *k = &t->skips;

	fprintf(f, "%s: %zu I/Os to replay of %" PRIu64 " queued bios (%" PRIu64 " events), "
		"%zu submitters, %" PRIu64 " with a wait (%" PRIu64 " synchronous), "
		"%u thread%s, %s over %.6f s\n",
		bs_progname(), p->n, (uint64_t)t->n + k->passthrough + k->zone + k->empty,
		t->events, p->nsubs, p->with_wait, p->sync_ios, p->nworkers,
		p->nworkers == 1 ? "" : "s", o->max ? "as fast as possible" : "scheduled",
		(double)p->span / 1e9);
	for (size_t i = 0; i < p->nsubs; i++)
		if (o->verbose > 1 || i < 20)
			print_sub(f, &p->subs[i], t);
	for (size_t i = 0; i < t->ndevs; i++)
		fprintf(f, "%s: trace device %u,%u: %" PRIu64 " queued bios\n", bs_progname(),
			BS_DEV_MAJOR(t->devs[i].dev), BS_DEV_MINOR(t->devs[i].dev),
			t->devs[i].nios);
}

static int replay(const struct replay_plan *p, const struct replay_trace *t,
		  const struct replay_targets *tg, const struct replay_opts *o)
{
	struct replay_result *res = calloc(p->n ? p->n : 1, sizeof(*res));
	bool json_stdout = o->json && !strcmp(o->json, "-");
	struct replay_run_stats st;
	int status = 0;

	if (!res) {
		fprintf(stderr, "%s: no memory for the results of %zu I/Os\n", bs_progname(), p->n);
		return 1;
	}
	if (replay_run(p, tg, o, res, &st)) {
		free(res);
		return 1;
	}
	replay_report_text(json_stdout ? stderr : stdout, p, t, tg, o, res, &st);
	if (o->json && replay_report_json(o->json, p, t, tg, o, res, &st))
		status = 1;
	if (o->log && replay_report_log(o->log, p, t, tg, res))
		status = 1;
	if (st.errors || st.interrupted)
		status = 1;
	free(res);
	return status;
}

static int run(struct replay_opts *o)
{
	struct replay_targets tg = { 0 };
	struct replay_trace t;
	struct replay_plan p = { 0 };
	int status = 1;

	if (check_output("--json", o->json) || check_output("--log", o->log))
		return 1;
	if (replay_load(&t, o))
		goto out;
	if (replay_plan(&p, &t, o))
		goto out;
	if (!p.n) {
		fprintf(stderr, "%s: nothing to replay: the trace has no queued bio%s\n",
			bs_progname(),
			o->window || o->nmaps || o->reads_only ? " that the options select" : "");
		goto out;
	}
	if (o->verbose)
		print_plan(stderr, &p, &t, o);
	if (replay_targets_open(&tg, &p, o))
		goto out;
	if (o->dry_run) {
		status = 0;
		if (!o->json || strcmp(o->json, "-")) {	/* stdout holds one format */
			replay_report_dry_run(stdout, &p, &t, &tg);
			status = fflush(stdout) ? 1 : 0;
		}
		if (o->json && replay_report_json(o->json, &p, &t, &tg, o, NULL, NULL))
			status = 1;
	} else {
		status = replay(&p, &t, &tg, o);
	}
	if (t.damaged)
		status = 1;
out:
	replay_targets_close(&tg);
	replay_plan_free(&p);
	replay_trace_free(&t);
	return status;
}

int main(int argc, char **argv)
{
	struct replay_opts o;
	int status;

	bs_set_progname("blkscope replay");
	switch (replay_parse_args(&o, argc, argv)) {
	case 1:
		replay_usage(stdout);
		status = 0;
		break;
	case 2:
		printf("blkscope-replay %s\n", BLKSCOPE_VERSION);
		status = 0;
		break;
	case 0:
		status = run(&o);
		break;
	default:
		status = BS_EXIT_USAGE;
	}
	replay_opts_free(&o);
	return status;
}
