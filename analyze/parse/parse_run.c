// SPDX-License-Identifier: GPL-2.0
/*
 * parse_run.c - one run of blkscope parse (parse.h): resolve the
 * inputs, open the outputs, read the merged events (parse_event.c), print
 * the summaries and close; and free it all again.  The order of the steps
 * is blkparse's, because it shows: "Input file X added" lines, messages on
 * stderr and the exit status must come out as blkparse's do.
 *
 * blkparse ends the program in a few places (a bad -f escape, %u without a
 * tracking value); here the run stops (ps->stop) and parse_exec()
 * flushes what blkparse's exit() would have flushed, then returns 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bs_alloc.h"
#include "bs_outfile.h"
#include "bs_readahead.h"
#include "bs_stream.h"
#include "parse_priv.h"
#include "parse_tags_priv.h"

static void copy_opts(struct parse_ctx *ps, const struct parse_opts *o)
{
	ps->text = o->text;
	ps->track = o->track;
	ps->force = o->force;
	ps->per_process = o->per_process;
	ps->by_name = o->by_name;
	ps->dev_stats = o->dev_stats;
	ps->dump_msgs = o->dump_msgs;
	ps->verbose = o->verbose;
	ps->msg = o->msg;
	ps->act_mask = o->act_mask ? o->act_mask : 0xffff;
	ps->stop_start = o->stop_start;
	ps->stop_end = o->stop_end;
	ps->batch = o->batch;
	for (int i = 0; i < 256; i++)
		if (o->formats[i])
			ps->formats[i] = bs_xstrdup(o->formats[i]);
	if (o->output_name)
		ps->output_name = bs_xstrdup(o->output_name);
	if (o->dump_name)
		ps->dump_name = bs_xstrdup(o->dump_name);
}

/* format/'s warnings: blkscope's own lines ("PROGRAM: TEXT"), whatever their level */
static void forward_format_msg(void *arg, enum bs_msg_level level, const char *text)
{
	struct parse_ctx *ps = arg;

	bs_msg(&ps->msg, level == BS_MSG_ERROR ? BS_MSG_ERROR : BS_MSG_WARN, "%s", text);
}

/* Resolve the inputs; file mode gets one summary device per base name. */
static int setup_inputs(struct parse_ctx *ps, const struct parse_opts *o)
{
	struct bs_err err;

	ps->in.msg = (struct bs_msg_sink){ .fn = forward_format_msg, .arg = ps };
	for (int i = 0; i < o->ninputs; i++)
		if (bs_input_add(&ps->in, o->inputs[i], o->input_dir, &err) < 0) {
			bs_msg(&ps->msg, BS_MSG_ERROR, "%s", err.text);
			return -1;
		}
	ps->file_mode = !bs_input_is_stream(&ps->in);
	if (!ps->file_mode && ps->in.ndevs) {
		/* blkparse would read the stream and silently ignore the files */
		bs_msg(&ps->msg, BS_MSG_ERROR,
		       "%s: a stream input (dump, FIFO or -) cannot be mixed with per-CPU inputs",
		       ps->in.stream_path);
		return -1;
	}
	if (ps->file_mode) {
		ps->devs = bs_xcalloc((size_t)ps->in.ndevs + 1, sizeof(*ps->devs));
		ps->devs_cap = (size_t)ps->in.ndevs + 1;
		ps->ndevs = ps->in.ndevs;
		for (int i = 0; i < ps->in.ndevs; i++)
			ps->devs[i].name = ps->in.devs[i].name;
	}
	return 0;
}

/* -o/-d FILE, created as bs_create_output() does (an existing file: --force); -1 (said) */
static int create_output(const struct parse_ctx *ps, const char *path)
{
	int fd = bs_create_output(path, ps->force ? BS_CREATE_REPLACE : 0);
	struct bs_err err;

	if (fd < 0) {
		bs_create_err(&err, path, errno);
		bs_msg(&ps->msg, BS_MSG_ERROR, "%s", err.text);
	}
	return fd;
}

static int open_text(struct parse_ctx *ps)
{
	int fd = STDOUT_FILENO;

	if (ps->output_name) {
		fd = create_output(ps, ps->output_name);
		if (fd < 0)
			return -1;
	}
	if (parse_out_init(&ps->out, fd, ps->output_name ? ps->output_name : "stdout",
			   &ps->msg) < 0) {
		if (fd > 2)
			close(fd);
		return -1;
	}
	ps->out_open = true;
	return 0;
}

static int open_dump(struct parse_ctx *ps)
{
	int fd = STDOUT_FILENO;

	if (strcmp(ps->dump_name, "-")) {
		fd = create_output(ps, ps->dump_name);
		if (fd < 0)
			return -1;
	}
	if (bs_writer_init(&ps->dump, fd, ps->dump_name) < 0) {
		if (fd > 2)
			close(fd);
		return -1;
	}
	/* the kernel's copy of each buffer overlaps with making the next (one CPU: inline) */
	bs_writer_start_thread(&ps->dump);
	ps->dump_open = ps->dumping = true;
	return 0;
}

static int open_outputs(struct parse_ctx *ps)
{
	if (parse_out_init(&ps->added, STDOUT_FILENO, "stdout", &ps->msg) < 0)
		return -1;
	ps->added_open = true;
	if (ps->text && open_text(ps) < 0)
		return -1;
	if (ps->dump_name && open_dump(ps) < 0)
		return -1;
	return 0;
}

/* "Input file X added", the path spelled as blkparse spells it (format/bs_input.c) */
static void note_inputs(struct parse_ctx *ps)
{
	for (int i = 0; i < ps->in.ndevs; i++) {
		const struct bs_input_dev *dv = &ps->in.devs[i];

		for (int c = 0; c < dv->ncpus; c++)
			parse_out_printf(&ps->added, "Input file %s added\n", dv->cpus[c].path);
	}
	/*
	 * On a terminal stdout is line buffered, so these come first; with
	 * "-d -" blkparse's dump shares that stdio stream, after these lines.
	 */
	if (isatty(STDOUT_FILENO) || (ps->dump_name && !strcmp(ps->dump_name, "-")))
		parse_out_flush(&ps->added);
}

/* notes the merge reads: through the tagging plugin first, if there is one */
static void on_note(void *ctx, const struct bs_record *rec, int dev)
{
	struct parse_ctx *ps = ctx;

	if (!ps->tags) {
		parse_note_now(ps, rec, dev);
	} else if (!ps->stop && parse_tags_note(ps->tags, rec, dev) < 0) {
		bs_msg(&ps->msg, BS_MSG_ERROR, "out of memory");
		ps->stop = PARSE_FATAL_NOMEM;
	}
}

static int open_merge(struct parse_ctx *ps)
{
	struct bs_merge_opts mo = { 0 };

	mo.batch = ps->batch;
	/*
	 * The second CPU reads the files ahead, unless a tagging plugin needs
	 * it: on a thread of its own, or, when the dump has a writer thread,
	 * on that thread while no buffer waits for it: a third thread only
	 * slowed the dump (docs/parse.md, "Speed and memory").
	 */
	if (ps->file_mode && !ps->tags) {
		ps->ra = bs_readahead_new(!ps->dump.thread);
		if (ps->ra && ps->dump.thread)
			bs_writer_serve_reads(&ps->dump, ps->ra);
	}
	mo.read_ahead = ps->ra;
	mo.on_note = on_note;
	mo.ctx = ps;
	mo.msg = ps->in.msg;
	if (!ps->file_mode) {
		mo.window_start = ps->stop_start;
		mo.window_end = ps->stop_end == ~0ULL ? 0 : ps->stop_end;
	}
	ps->merge = bs_merge_open(&ps->in, &mo);
	return ps->merge ? 0 : -1;
}

struct parse_ctx *parse_create(const struct parse_opts *o)
{
	struct parse_ctx *ps = bs_xcalloc(1, sizeof(*ps));

	copy_opts(ps, o);
	ps->first_input = o->ninputs ? o->inputs[0] : "-";
	if (setup_inputs(ps, o) < 0 || open_outputs(ps) < 0)
		goto fail;
	if (ps->file_mode)
		note_inputs(ps);
	if (o->tag_plugin) {	/* --tag-plugin (parse_tags.c) */
		ps->tags = parse_tags_begin(ps, o->tag_plugin, o->tag_timeout_ms);
		if (!ps->tags)
			goto fail;
	}
	if (open_merge(ps) < 0)
		goto fail;
	return ps;
fail:
	parse_destroy(ps);
	return NULL;
}

static void run_events(struct parse_ctx *ps)
{
	struct bs_event ev;
	int rc;

	if (parse_dump_only(ps)) {
		parse_run_dump(ps);
		return;
	}
	while (!ps->stop && bs_merge_next(ps->merge, &ev) == 1) {
		if (ps->stop)		/* a note failed on the way */
			break;
		ps->nevents++;
		if (!ps->tags) {
			if (!parse_one_event(ps, &ev))
				break;
			continue;
		}
		rc = parse_tags_event(ps->tags, &ev);
		if (rc < 0) {
			bs_msg(&ps->msg, BS_MSG_ERROR, "out of memory");
			ps->stop = PARSE_FATAL_NOMEM;
		}
		if (rc <= 0)
			break;
	}
}

/* blkparse's "(M,m): skipping S -> E" lines (-v, stream mode), to the sink line by line */
static void say_skips(struct parse_ctx *ps)
{
	char *text = NULL, *line, *nl;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		bs_msg(&ps->msg, BS_MSG_ERROR, "out of memory");
		return;
	}
	bs_merge_print_skips(ps->merge, f);
	if (fclose(f) == 0)
		for (line = text; (nl = strchr(line, '\n')); line = nl + 1) {
			*nl = '\0';
			bs_msg(&ps->msg, PARSE_MSG_BLKPARSE, "%s", line);
		}
	free(text);
}

/* Statistics, the trailing stdout lines, closing; returns the exit status. */
static int finish(struct parse_ctx *ps)
{
	int ret = 0;

	parse_show_stats(ps, ps->merge);
	/* blkparse lists skips while printing the device summaries */
	if (ps->verbose && !ps->file_mode && ps->text && ps->dev_stats)
		say_skips(ps);
	if (ps->text) {
		ps->out_open = false;
		if (parse_out_close(&ps->out) < 0)
			ret = 1;
	}
	if (ps->have_drv_data && !ps->dump_name)
		parse_out_printf(&ps->added,
				 "\ndiscarded traces containing low-level device driver "
				 "specific data (only available in binary output)\n");
	ps->added_open = false;
	if (parse_out_close(&ps->added) < 0)
		ret = 1;
	if (ps->dump_name) {
		ps->dump_open = false;
		if (bs_writer_close(&ps->dump) < 0)
			ret = 1;
	}
	return ret;
}

/* what blkparse's exit(1) inside a format leaves: everything printed so far */
static void flush_fatal(struct parse_ctx *ps)
{
	if (ps->out_open)
		parse_out_flush(&ps->out);
	if (ps->added_open)
		parse_out_flush(&ps->added);
	if (ps->dump_open && ps->dumping)
		bs_writer_flush(&ps->dump);
}

int parse_exec(struct parse_ctx *ps)
{
	bool tags_failed = false;
	int rc;

	run_events(ps);
	if (ps->stop == PARSE_FATAL_FORMAT)
		flush_fatal(ps);
	if (ps->stop)
		return 1;	/* the plugin is killed by destroy, as by exit() */
	if (ps->tags) {
		tags_failed = parse_tags_end(ps->tags) < 0;
		if (ps->stop == PARSE_FATAL_FORMAT)	/* an event handed back at the end */
			flush_fatal(ps);
		if (ps->stop)
			return 1;
	}
	if (!ps->file_mode)
		parse_order_stream_devs(ps);
	rc = finish(ps);
	/*
	 * Not blkparse's (it exits 0): an input that held no event (outside a
	 * -w window, which the merge applies), or was
	 * read only up to damage (the lines before it are printed, the
	 * damage named on stderr), is an error for a script to see.
	 */
	if (!ps->nevents && !ps->stop_start && ps->stop_end == ~0ULL) {	/* -w may leave none */
		bs_msg(&ps->msg, BS_MSG_ERROR, "no events in %s", ps->first_input);
		rc = 1;
	}
	if (bs_merge_damaged(ps->merge))
		rc = 1;
	return tags_failed ? 1 : rc;
}

/* a buffer exec did not close: dropped, as exit() drops it (see flush_fatal) */
static void drop_pout(struct parse_out *o)
{
	if (o->fd > 2)
		close(o->fd);
	free(o->buf);
	o->buf = NULL;
}

void parse_destroy(struct parse_ctx *ps)
{
	if (!ps)
		return;
	parse_tags_free(ps->tags);
	if (ps->merge)
		bs_merge_close(ps->merge);
	if (ps->out_open)
		drop_pout(&ps->out);
	if (ps->added_open)
		drop_pout(&ps->added);
	if (ps->dump_open) {
		ps->dump.len = 0;	/* unflushed records are dropped */
		bs_writer_close(&ps->dump);
	}
	bs_readahead_free(ps->ra);	/* after the merge and the writer that used it */
	for (int i = 0; i < ps->ndevs; i++) {
		parse_cpus_free(&ps->devs[i]);
		parse_track_free(&ps->devs[i]);
	}
	free(ps->devs);
	bs_hash_free(&ps->dev_index);
	parse_track_pool_free(&ps->track_pool);
	parse_procs_free(ps);
	parse_names_free(ps);
	bs_input_free(&ps->in);
	for (int i = 0; i < 256; i++)
		free(ps->formats[i]);
	free(ps->output_name);
	free(ps->dump_name);
	free(ps);
}

int parse_run(const struct parse_opts *o)
{
	struct parse_ctx *ps = parse_create(o);
	int rc;

	if (!ps)
		return 1;
	rc = parse_exec(ps);
	parse_destroy(ps);
	return rc;
}
