// SPDX-License-Identifier: GPL-2.0
/*
 * merge_dump.c - write what format/'s merge yields as a blkparse -O -d
 * style dump (notes as read, with absolute times; events genesis-relative
 * in output order), so tests can compare it byte for byte with blkparse.
 *
 * usage: bs-merge-dump [-a|-A] [-b BATCH] OUT INPUT...
 *   -a  read the per-CPU files ahead on a thread (bs_merge_opts.read_ahead)
 *   -A  the same with nobody serving the requests: each stream reads its
 *       chunks itself when it needs them, through the same buffers
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bs_merge.h"
#include "bs_readahead.h"
#include "bs_outfile.h"
#include "bs_writer.h"

/* format/'s warnings, printed as the commands print them: "PROGRAM: TEXT" */
static void print_format_msg(void *arg, enum bs_msg_level level, const char *text)
{
	(void)arg;
	(void)level;
	fprintf(stderr, "%s: %s\n", bs_progname(), text);
}

static const struct bs_msg_sink stderr_sink = { .fn = print_format_msg };

static void dump_note(void *ctx, const struct bs_record *rec, int dev)
{
	(void)dev;
	bs_writer_put(ctx, &rec->t, rec->pdu);
}

int main(int argc, char **argv)
{
	struct bs_input_set in = { 0 };
	struct bs_merge_opts opts = { .on_note = dump_note, .msg = stderr_sink };
	struct bs_err err;
	struct bs_writer w;
	struct bs_merge *m;
	struct bs_event ev;
	int c, fd;

	while ((c = getopt(argc, argv, "aAb:")) != -1) {
		if (c == 'a' || c == 'A')
			opts.read_ahead = bs_readahead_new(c == 'a');
		else if (c == 'b')
			opts.batch = atoi(optarg);
		else
			return 2;
	}
	if (argc - optind < 2) {
		fprintf(stderr, "usage: bs-merge-dump [-a|-A] [-b BATCH] OUT INPUT...\n");
		return 2;
	}
	in.msg = stderr_sink;
	for (int i = optind + 1; i < argc; i++)
		if (bs_input_add(&in, argv[i], NULL, &err)) {
			fprintf(stderr, "%s: %s\n", bs_progname(), err.text);
			return 1;
		}
	fd = bs_create_output(argv[optind], BS_CREATE_REPLACE);
	if (fd < 0 || bs_writer_init(&w, fd, argv[optind])) {
		perror(argv[optind]);
		return 1;
	}
	opts.ctx = &w;
	m = bs_merge_open(&in, &opts);
	if (!m)
		return 1;
	while (bs_merge_next(m, &ev))
		bs_writer_put(&w, &ev.t, ev.pdu);
	bs_merge_close(m);
	bs_readahead_free(opts.read_ahead);
	bs_input_free(&in);
	return bs_writer_close(&w) ? 1 : 0;
}
