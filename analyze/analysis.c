// SPDX-License-Identifier: GPL-2.0
/*
 * analysis.c - one analysis (analysis.h): its life cycle, the accessors
 * extensions use (analysis.h), and the run: btt's analysis in one
 * streaming pass over blktrace per-CPU files (or a blkparse -d dump, or
 * stdin), with no intermediate dump.  The default report is btt's,
 * printed with btt's formats so that both can be diffed; extensions add
 * their sections after it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "analysis_priv.h"
#include "bs_alloc.h"
#include "bs_codec.h"
#include "bs_outfile.h"
#include "bs_writer.h"
#include "bs_stream.h"

/* ---- life cycle --------------------------------------------------------- */

struct analysis *analysis_new(const struct analysis_ext *const *exts, int nexts)
{
	struct analysis *a = bs_xcalloc(1, sizeof(*a));
	int i;

	a->exts = exts;
	a->nexts = nexts;
	a->ext_state = bs_xcalloc((size_t)nexts + 1, sizeof(*a->ext_state));
	for (i = 0; i < nexts; i++)
		a->ext_state[i] = exts[i]->create ? exts[i]->create() : NULL;
	a->tags = analysis_ext_state(a, &analysis_tag_ext);
	analysis_build_options(a);
	a->o.range_delta = 0.1;
	a->o.t_end = INFINITY;
	a->o.seek_values = 3000000;
	a->progress = -1;
	a->mem_limit = analysis_default_memory_limit();
	return a;
}

/* Close what -o, -p, -I, -X opened (stdout is left alone); 0 or -1. */
static int close_outputs(struct analysis *a)
{
	int rc = 0;

	if (a->o.per_io && fclose(a->o.per_io))
		rc = -1;
	if (a->o.iostat && fclose(a->o.iostat))
		rc = -1;
	a->o.per_io = a->o.iostat = NULL;
	if (a->avgs && a->avgs != stdout)
		fclose(a->avgs);
	if (a->ranges && a->ranges != stdout)
		fclose(a->ranges);
	if (a->o.msgs && a->o.msgs != stdout && a->o.msgs != stderr)
		fclose(a->o.msgs);
	if (a->o.xvg)
		fclose(a->o.xvg);
	a->avgs = a->ranges = a->o.msgs = a->o.xvg = NULL;
	return rc;
}

void analysis_free(struct analysis *a)
{
	int i;

	if (!a)
		return;
	if (a->m)
		bs_merge_close(a->m);
	close_outputs(a);
	/* extensions first: their states may point into the engine's counters */
	for (i = a->nexts - 1; i >= 0; i--)
		if (a->exts[i]->destroy)
			a->exts[i]->destroy(a->ext_state[i]);
	if (a->e)
		btt_engine_free(a->e);
	iom_free(a->iom);
	analysis_attr_free(a);
	bs_input_free(&a->in);
	report_cgroup_names_free(&a->cgroups);
	free(a->ext_state);
	free(a->opts);
	free(a->ext_opts);
	free(a->inputs);
	free(a);
}

/* ---- what extensions may ask (analysis.h) -------------------------------- */

void analysis_set_quiet(struct analysis *a)
{
	a->quiet = true;
	a->btt_only = true;
}

unsigned int analysis_create_flags(const struct analysis *a)
{
	return a->force ? BS_CREATE_REPLACE : 0;
}

bool analysis_btt_only(struct analysis *a)
{
	/* with --json - and no -o, the text report has nowhere to go */
	return a->btt_only || (a->stdout_taken && !a->output);
}

bool analysis_window(struct analysis *a, double *t_start, double *t_end)
{
	*t_start = a->o.t_start;
	*t_end = a->o.t_end;
	return a->o.time_bounded;
}

int analysis_add_sink(struct analysis *a, const struct bs_sample_sink *sink)
{
	a->has_sinks = true;
	return iom_add_sink(a->iom, sink);
}

const struct iom_health *analysis_health(struct analysis *a)
{
	return iom_health(a->iom);
}

uint64_t analysis_btt_never_completed(struct analysis *a)
{
	return a->e ? btt_engine_never_completed(a->e) : 0;
}

const struct bs_dev_counters *analysis_counters(struct analysis *a, int *n)
{
	return iom_counters(a->iom, n);
}

const char *analysis_comm(struct analysis *a, uint32_t pid)
{
	const char *name = iom_comm(a->iom, pid);

	if (name)
		return name;
	snprintf(a->comm_buf, sizeof(a->comm_buf), "pid%09u", pid);
	return a->comm_buf;
}

const struct report_cgroup_names *analysis_cgroups(struct analysis *a)
{
	return &a->cgroups;
}

uint64_t analysis_cgroup_records(struct analysis *a)
{
	return a->e ? btt_engine_cgroup_records(a->e) : 0;
}

uint64_t analysis_end_time(struct analysis *a)
{
	return a->e ? btt_engine_last_time(a->e) : iom_last_time(a->iom);
}

bool analysis_wall_clock(struct analysis *a, uint64_t *genesis_ns)
{
	if (!a->wall_known && a->have_wall && a->m) {
		/* the note's wall clock, moved from the note's time to genesis */
		a->wall_genesis = a->wall_note_ns + (bs_merge_genesis(a->m) - a->wall_note_time);
		a->wall_known = true;
	}
	*genesis_ns = a->wall_genesis;
	return a->wall_known;
}

void *analysis_ext_state(struct analysis *a, const struct analysis_ext *ext)
{
	int i;

	for (i = 0; i < a->nexts; i++)
		if (a->exts[i] == ext)
			return a->ext_state[i];
	return NULL;
}

void analysis_set_msgs(struct analysis *a, const struct analysis_msgs *msgs)
{
	a->msgs = *msgs;
	a->o.warn = msgs->sink;	/* btt's engine warns through the same sink */
}

const struct bs_msg_sink *analysis_msg_sink(const struct analysis *a)
{
	return &a->msgs.sink;
}

void analysis_set_front(struct analysis *a, const struct analysis_front *front)
{
	a->front = front;
}

const char *analysis_output(const struct analysis *a)
{
	return a->front ? a->output : NULL;
}

/* One event to btt's engine and to the model (tag: a plugin's, -1 none). */
static inline void feed_event(struct analysis *a, const struct bs_event *ev, int tag)
{
	if (a->e)
		btt_engine_event(a->e, ev);
	if (a->model_events)	/* a sink wants every event */
		iom_event_ev(a->iom, ev, tag);
	else
		iom_event(a->iom, &ev->t, ev->action_hi, ev->pdu, ev->foreign, tag);
}

void analysis_feed_tagged(struct analysis *a, const struct bs_event *ev, int tag)
{
	feed_event(a, ev, tag);
}

static void process_note(struct analysis *a, uint32_t pid, const char *comm, size_t len)
{
	/* btt stops reading at the first event past -T: later notes are unseen */
	if (a->e && !btt_engine_done(a->e))
		btt_engine_process_note(a->e, pid, comm, len);
	if (!analysis_reader_feeds_model(a))	/* else the model's thread takes it */
		iom_process_note(a->iom, pid, comm, len);
}

/* ---- progress --------------------------------------------------------- */

struct progress {
	bool on;
	const struct analysis_msgs *msgs;
	uint64_t total_bytes;
	uint64_t events;
	time_t last;
};

static uint64_t input_bytes(const struct bs_input_set *in)
{
	struct stat st;
	uint64_t total = 0;
	int i, c;

	if (in->stream_path) {
		if (strcmp(in->stream_path, "-") && !stat(in->stream_path, &st) &&
		    S_ISREG(st.st_mode))
			total = st.st_size;
		return total;
	}
	for (i = 0; i < in->ndevs; i++)
		for (c = 0; c < in->devs[i].ncpus; c++)
			if (!stat(in->devs[i].cpus[c].path, &st))
				total += st.st_size;
	return total;
}

static void progress_tick(struct progress *p)
{
	time_t now = time(NULL);

	if (now == p->last)
		return;
	p->last = now;
	if (p->total_bytes) {
		/* records are 48 bytes plus small payloads: a good enough estimate */
		double pct = 100.0 * (double)(p->events * 52) / (double)p->total_bytes;

		p->msgs->progress(p->msgs->progress_arg, p->events, pct > 99.9 ? 99.9 : pct, false);
	} else {
		p->msgs->progress(p->msgs->progress_arg, p->events, -1, false);
	}
}

static void progress_done(struct progress *p)
{
	if (p->on && p->last)
		p->msgs->progress(p->msgs->progress_arg, p->events, -1, true);
}

/* ---- the run ------------------------------------------------------------ */

/*
 * The model's options, once the extensions said whether they read
 * samples: without a sink it keeps only the trace's health.  -t/-T in ns
 * (btt's rule: seconds compared as doubles; the model takes the same
 * bounds).
 */
static void model_options(struct analysis *a)
{
	struct iom_opts mo = { .health_only = !a->has_sinks };

	if (a->o.time_bounded) {
		mo.time_bounded = true;
		mo.t_start = a->o.t_start > 0 ? (uint64_t)(a->o.t_start * 1e9) : 0;
		mo.t_end = a->o.t_end < 1.8e10 ? (uint64_t)(a->o.t_end * 1e9) : UINT64_MAX;
	}
	iom_set_opts(a->iom, &mo);
}

/* bs_create_output_file(), its error told to the run's sink */
static FILE *create_file(struct analysis *a, const char *path, unsigned int flags)
{
	struct bs_err err;
	FILE *f = bs_create_output_file(path, flags, &err);

	if (!f)
		bs_msg(&a->msgs.sink, BS_MSG_ERROR, "%s", err.text);
	return f;
}

static FILE *open_named(struct analysis *a, const char *base, const char *sfx)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s.%s", base, sfx);
	return create_file(a, path, analysis_create_flags(a));
}

/*
 * btt's output files: -o NAME.{avg,dat,msg,xvg}, -p, -I; 0 or -1 (message
 * printed).  Created before any input is read, with
 * bs_create_output_file(): an existing file is refused unless --force,
 * which replaces a regular file of our own (bs_outfile.h), never a
 * symlink, a FIFO or someone else's file.
 */
static int open_outputs(struct analysis *a)
{
	int i;

	if (a->front)	/* no btt report: -o is the front-end's, the rest is refused */
		return 0;
	for (i = 0; i < a->nexts; i++)	/* --json - and the like: stdout is theirs */
		if (a->exts[i]->takes_stdout && a->exts[i]->takes_stdout(a->ext_state[i]))
			a->stdout_taken = true;
	if (analysis_check_side_files(a))
		return -1;
	if (a->output) {
		if (!(a->avgs = open_named(a, a->output, "avg")) ||
		    !(a->ranges = open_named(a, a->output, "dat")) ||
		    !(a->o.msgs = open_named(a, a->output, "msg")))
			return -1;
		if (a->easy &&
		    !(a->o.xvg = open_named(a, a->output, "xvg"))) /* btt ignores -X without -o */
			return -1;
	} else if (a->quiet || a->stdout_taken) {	/* FILEs: close_outputs() closes each */
		if (!(a->avgs = create_file(a, "/dev/null", 0)))
			return -1;
		a->o.no_ranges = true;	/* no range data: the engine keeps none */
		a->o.msgs = a->quiet ? create_file(a, "/dev/null", 0) : stderr;
		if (!a->o.msgs)
			return -1;
	} else {
		a->avgs = a->o.msgs = stdout;
		/*
		 * btt prints its range data (the "q activity" x/y pairs for
		 * plotting) after the report when there is no -o.  They are not
		 * for reading on a terminal: the default report leaves them
		 * out (-o NAME writes them to NAME.dat, as btt), and the engine
		 * does not even collect them; --btt-only prints them, so that
		 * its stdout stays btt's, byte for byte.
		 */
		if (a->btt_only)
			a->ranges = stdout;
		else
			a->o.no_ranges = true;
	}
	if (a->per_io &&
	    !(a->o.per_io = create_file(a, a->per_io, analysis_create_flags(a))))
		return -1;
	if (a->iostat &&
	    !(a->o.iostat = create_file(a, a->iostat, analysis_create_flags(a))))
		return -1;
	return 0;
}

/* The first TIMESTAMP note: the wall clock of the trace (analysis_wall_clock). */
static void take_timestamp(struct analysis *a, const struct bs_record *rec)
{
	uint32_t w[2];

	if (a->have_wall || rec->t.pdu_len != 8)
		return;
	memcpy(w, rec->pdu, sizeof(w));
	if (rec->foreign) {
		w[0] = __builtin_bswap32(w[0]);
		w[1] = __builtin_bswap32(w[1]);
	}
	a->have_wall = true;
	a->wall_note_time = rec->t.time;
	a->wall_note_ns = (uint64_t)w[0] * 1000000000ull + w[1];
}

void analysis_apply_note(struct analysis *a, const struct bs_record *rec, int dev)
{
	const char *path;
	uint64_t id;
	size_t len;

	(void)dev;
	if (rec->t.action == BS_NOTE_TIMESTAMP)
		take_timestamp(a, rec);
	if (bs_cgroup_note(&rec->t, rec->pdu, rec->foreign, &id, &path, &len))
		report_cgroup_names_add(&a->cgroups, id, path, len);
	/* --tag-plugin: through the plugin first (analysis_tags.c) */
	if (analysis_tag_enabled(a->tags)) {
		analysis_tag_note(a->tags, rec);
		return;
	}
	if (analysis_mem_tick(a))	/* a trace of notes alone grows too */
		return;
	analysis_note_back(a, &rec->t, rec->pdu, rec->foreign);
}

/* The merge's note callback: on the reader thread, the note joins the events' pipe. */
static void on_note(void *ctx, const struct bs_record *rec, int dev)
{
	struct analysis *a = ctx;

	if (a->reader)
		analysis_reader_note(a->reader, rec, dev);
	else
		analysis_apply_note(a, rec, dev);
}

static bool progress_on(const struct analysis *a)
{
	return a->msgs.progress &&
	       (a->progress == 1 || (a->progress == -1 && a->msgs.progress_tty));
}

/*
 * Events from the reader thread straight to the engine: no plugin, no
 * progress line, no -t/-T (the engine never stops early), btt's engine
 * there, no sink of raw events.
 */
static bool fast_path(const struct analysis *a)
{
	return a->reader && !analysis_tag_enabled(a->tags) && !progress_on(a) &&
	       !a->o.time_bounded && a->e && !iom_wants_events(a->iom);
}

/* The fast path, every sink keeping to its own state: the model may take a thread of its own. */
static bool model_thread_ok(const struct analysis *a)
{
	if (getenv("BS_NO_MODEL_THREAD"))
		return false;
	return a->has_sinks && !analysis_tag_enabled(a->tags) && !progress_on(a) &&
	       !a->o.time_bounded && a->e && !iom_wants_events(a->iom) &&
	       iom_sinks_own_state(a->iom);
}

void analysis_note_back(struct analysis *a, const struct bs_trace *t, const uint8_t *pdu,
			bool foreign)
{
	if (t->action == BS_NOTE_PROCESS)
		process_note(a, t->pid, (const char *)pdu, t->pdu_len);
	else if (!analysis_reader_feeds_model(a))	/* the recorder's end note */
		iom_message(a->iom, t, pdu, foreign);
}

/*
 * Every event of the merged stream to the engine (through the plugin, if
 * any); 0 or -1, -2 when over the memory budget (message printed).
 */
static int feed(struct analysis *a)
{
	struct progress prog = { 0 };
	bool tags = analysis_tag_enabled(a->tags);
	const struct bs_event *ev;
	struct bs_event merged;
	int rc = 0;

	prog.on = progress_on(a);
	prog.msgs = &a->msgs;
	if (prog.on)
		prog.total_bytes = input_bytes(&a->in);
	/*
	 * The common case, events from the reader thread straight to the
	 * engine: the loop below without its per-event tests of the mode
	 * (without -t/-T the engine never stops early).
	 */
	if (fast_path(a)) {
		const struct analysis_line *l;
		bool model = !analysis_reader_feeds_model(a); /* else it has a thread of its own */

		while ((l = analysis_reader_next_line(a))) {
			if (analysis_mem_tick(a))
				return -2;
			/* the record where it lies, or as the merge's struct bs_event */
			if (!btt_engine_record(a->e, &l->t, l->action_hi, analysis_line_pdu(l)))
				btt_engine_event(a->e, analysis_line_event(a, l));
			if (model)
				iom_event(a->iom, &l->t, l->action_hi, analysis_line_pdu(l),
					  l->foreign, -1);
			a->nevents++;
		}
		return a->mem_over ? -2 : 0;
	}
	/* only -T stops the engine early: no question per event without it */
	while (!a->e || !a->o.time_bounded || !btt_engine_done(a->e)) {
		if (a->reader)	/* in place in the reader's pipe */
			ev = analysis_reader_next(a);
		else
			ev = bs_merge_next(a->m, &merged) == 1 ? &merged : NULL;
		if (!ev)
			break;
		if (analysis_mem_tick(a)) {
			rc = -2;
			break;
		}
		if (tags) {	/* applied to the engine once the plugin answered */
			if (analysis_tag_event(a->tags, ev)) {
				rc = -1;
				break;
			}
		} else {
			feed_event(a, ev, -1);
		}
		a->nevents++;
		if (prog.on && (++prog.events & 0xfffff) == 0)
			progress_tick(&prog);
	}
	progress_done(&prog);
	return a->mem_over ? -2 : rc;
}

static void print_rate(const struct analysis *a, const struct timespec *t0)
{
	struct timespec t1;
	double dt;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	dt = (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
	bs_msg(&a->msgs.sink, BS_MSG_INFO, "%llu events in %.3f s (%.1f M events/s)",
		(unsigned long long)a->nevents, dt, dt > 0 ? (double)a->nevents / dt / 1e6 : 0.0);
}

/* btt's report and side files, then the extensions'; 0 or -1. */
static int report(struct analysis *a, const struct timespec *t0)
{
	struct btt_engine *e = a->e;
	int rc = 0, i;

	if (analysis_nothing_to_report(a)) {
		close_outputs(a);
		return -1;
	}
	iom_finish(a->iom, analysis_end_time(a));
	if (a->verbose)
		print_rate(a, t0);
	if (!analysis_btt_only(a) && !a->front)
		for (i = 0; i < a->nexts; i++)
			if (a->exts[i]->preamble)
				a->exts[i]->preamble(a->ext_state[i], a, a->avgs);
	analysis_warn_health(a);
	if (e) {
		btt_report_avgs(e, a->avgs);
		if (a->output && btt_report_histos(e, a->output))
			rc = -1;
		if (a->ranges)
			btt_report_ranges(e, a->ranges);
	}
	if (!analysis_btt_only(a) && !a->front)
		for (i = 0; i < a->nexts; i++)
			if (a->exts[i]->report)
				a->exts[i]->report(a->ext_state[i], a, a->avgs);
	if (e)
		btt_iostat_finish(e);
	for (i = 0; i < a->nexts; i++)
		if (a->exts[i]->done && a->exts[i]->done(a->ext_state[i], a))
			rc = -1;
	if (close_outputs(a))
		rc = -1;
	if (fflush(stdout)) {
		bs_msg(&a->msgs.sink, BS_MSG_ERROR, "writing the report: %s", strerror(errno));
		rc = -1;
	}
	return rc;
}

int analysis_run(struct analysis *a)
{
	struct bs_err err;
	struct timespec t0;
	int ret = 0, i, rc;

	if (a->iom) {
		bs_msg(&a->msgs.sink, BS_MSG_ERROR, "an analysis runs once");
		return 1;
	}
	if (open_outputs(a))	/* first: fail before any input is opened */
		return 1;
	a->in.msg = a->msgs.sink;
	for (i = 0; i < a->ninputs; i++)
		if (bs_input_add(&a->in, a->inputs[i], a->input_dir, &err)) {
			bs_msg(&a->msgs.sink, BS_MSG_ERROR, "%s", err.text);
			return 1;
		}
	if (!a->front || !a->front->samples_only)
		a->e = btt_engine_new(&a->o);
	a->iom = iom_new(&(struct iom_opts){ 0 });
	analysis_attr_load(a);	/* before start(): extensions read it */
	for (i = 0; i < a->nexts; i++)	/* the tags extension starts its plugin here */
		if (a->exts[i]->start && a->exts[i]->start(a->ext_state[i], a))
			return 1;
	model_options(a);
	a->model_events = iom_wants_events(a->iom);
	if (a->e && a->threads != 1 && !btt_engine_thread_seeks(a->e) && a->verbose)
		bs_msg(&a->msgs.sink, BS_MSG_INFO, "btt's seek logs are folded on a second thread");
	a->mo.dumps_in_file_order = true;	/* analyze DUMP == btt -i DUMP */
	a->mo.on_note = on_note;
	a->mo.on_damage = analysis_on_damage;
	a->mo.ctx = a;
	a->mo.msg = a->in.msg;
	a->m = bs_merge_open(&a->in, &a->mo);
	if (!a->m)
		return 1;
	/* the notes read while opening had absolute times; so will the later ones */
	iom_set_genesis(a->iom, bs_merge_genesis(a->m));
	analysis_probe_tails(a);
	analysis_attr_start(a);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (analysis_reader_start(a, model_thread_ok(a)) && a->verbose)
		bs_msg(&a->msgs.sink, BS_MSG_INFO, "the input is read on a second thread%s",
		       analysis_reader_feeds_model(a) ? ", the I/Os followed on a third" : "");
	rc = feed(a);
	analysis_reader_stop(a, rc == 0);	/* the merge is ours again */
	switch (rc) {
	case 0:
		break;
	case -2:	/* over the memory budget: no report of a part of the trace */
		analysis_tag_end(a->tags);
		bs_merge_close(a->m);
		a->m = NULL;
		close_outputs(a);
		return 1;
	default:
		ret = 1;
	}
	if (analysis_tag_end(a->tags))	/* last answers; incomplete if the plugin failed */
		ret = 1;
	if (bs_merge_damaged(a->m))
		ret = 1;
	analysis_wall_clock(a, &(uint64_t){ 0 });	/* while the merge knows genesis */
	bs_merge_close(a->m);
	a->m = NULL;
	if (report(a, &t0))
		ret = 1;
	return ret;
}
