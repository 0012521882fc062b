// SPDX-License-Identifier: GPL-2.0
/*
 * rec_outputs.c - where the records go: one file per (trace, CPU) in the -D
 * directory, one stream on stdout (-o -), or the flight recorder (--ring).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "bs_writer.h"
#include "recorder.h"

/* Files: one per (trace, CPU), all created in the -D directory (rec_outfiles.c). */
static int open_files(struct rec_recorder *r, const struct rec_opts *o, struct rec_io *io)
{
	struct rec_outdir d;
	char name[NAME_MAX + 1], shown[PATH_MAX];
	int i, cpu;

	if (rec_outdir_open(&d, o->dir, o->force) < 0)
		return -1;
	/* before any file is created: a refusal leaves nothing */
	for (i = 0; i < r->ntraces; i++)
		if (rec_outdir_other_form(&d, o->base ? o->base : r->traces[i].name, r->ncpus,
					  o->zstd_level != 0) < 0)
			goto fail;
	for (i = 0; i < r->ntraces; i++) {
		const char *base = o->base ? o->base : r->traces[i].name;

		for (cpu = 0; cpu < r->ncpus; cpu++) {
			int fd;

			if (bs_percpu_path(name, sizeof(name) - 4, NULL, base, cpu) < 0) {
				fprintf(stderr, "blkscope record: output file name too long\n");
				goto fail;
			}
			if (o->zstd_level)
				strcat(name, ".zst");
			fd = rec_outdir_create(&d, name);
			if (fd < 0)
				goto fail;
			snprintf(shown, sizeof(shown), "%s%s%s", o->dir ? o->dir : "",
				 o->dir ? "/" : "", name);
			r->sinks[i * r->ncpus + cpu] =
				rec_sink_new(io, fd, shown, false, o->zstd_level);
			if (!r->sinks[i * r->ncpus + cpu])
				goto fail;
			if (o->format == 8 && rec_sink_set_v8(r->sinks[i * r->ncpus + cpu]) < 0)
				goto fail;
		}
		if (rec_outdir_stale_side(&d, base, r->ncpus, r->attr ? o->zstd_level != 0 : -1) <
			    0 ||
		    (r->attr && rec_attr_create(r->attr, &d, i, base, io) < 0))
			goto fail;
	}
	rec_outdir_close(&d, false);
	return 0;
fail:
	rec_outdir_close(&d, true);
	return -1;
}

/* --ring: no files now; the stages merged by time into the flight recorder. */
static int open_flight(struct rec_recorder *r, const struct rec_opts *o, struct rec_io *io)
{
	struct rec_snap_cfg cfg = {
		.traces = r->traces, .ntraces = r->ntraces, .ncpus = r->ncpus, .base = o->base,
		.dir = o->dir ? o->dir : ".", .zstd_level = o->zstd_level, .v8 = o->format == 8,
		.stream = o->to_stdout, .io = io, .cg = o->cgroup_ids ? &r->cg : NULL,
	};
	struct rec_outdir d;

	if (o->to_stdout) {
		r->flight_stdout = rec_sink_new(io, STDOUT_FILENO, "<stdout>", true, 0);
		if (!r->flight_stdout || (o->format == 8 && rec_sink_set_v8(r->flight_stdout) < 0))
			return -1;
		cfg.stream_sink = r->flight_stdout;
	} else {
		if (rec_outdir_open(&d, o->dir, false) < 0)
			return -1;
		r->flight_dir = cfg.rootfd = d.fd;	/* kept open: snapshots are made in it */
	}
	r->flight = rec_flight_new(&o->flight, &cfg);
	r->merge = rec_stream_new(r->stages, r->ntraces * r->ncpus, NULL, r->flushed,
				  STREAM_STAGE_LIMIT);
	if (!r->flight || !r->merge)
		return -1;
	rec_stream_set_output(r->merge, rec_flight_ingest, r->flight);
	r->stream = true;	/* the stages are drained through the merge */
	return 0;
}

int rec_open_outputs(struct rec_recorder *r, const struct rec_opts *o, struct rec_io *io)
{
	int i;

	if (o->flight.ring)
		return open_flight(r, o, io);
	if (o->to_stdout) {
		struct rec_sink *s = rec_sink_new(io, STDOUT_FILENO, "<stdout>", true, 0);

		if (!s || (o->format == 8 && rec_sink_set_v8(s) < 0))
			return -1;
		for (i = 0; i < r->ntraces * r->ncpus; i++)
			r->sinks[i] = s;
		r->merge = rec_stream_new(r->stages, r->ntraces * r->ncpus, s, r->flushed,
					  STREAM_STAGE_LIMIT);
		return r->merge ? 0 : -1;
	}
	return open_files(r, o, io);
}
