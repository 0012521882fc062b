// SPDX-License-Identifier: GPL-2.0
/*
 * bs-convert - rewrite one stream of records (a per-CPU file or a dump,
 * either version, either byte order, plain or zstd) in another format,
 * record by record, keeping order, times and PDUs.  Tests use it to turn
 * version-7 traces into version-8 ones (and into current blkparse's 64-byte
 * dumps of v7 records, and big-endian copies of either).
 *
 *   bs-convert [-V 7|8|7w] [-S] IN OUT
 *
 * -V 8 writes blk_io_trace2 records (magic 8), -V 7w 64-byte records with
 * magic 7 (what current blkparse -d writes for v7 input), -V 7 48-byte v7
 * records (action bits past 31 are dropped).  -S writes big-endian: header
 * fields swapped, and so are the host-endian PDU words (TIMESTAMP, cgroup
 * id) when the input was native.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bs_codec.h"
#include "bs_stream.h"
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

static void usage(FILE *f)
{
	fprintf(f, "Usage: bs-convert [-V 7|8|7w] [-S] IN OUT\n");
}

/* The host-endian words of a PDU (TIMESTAMP, cgroup id), byte-swapped. */
static void swap_host_words(const struct bs_trace *t, uint8_t *p)
{
	uint32_t w[2];

	if (!((t->action == BS_NOTE_TIMESTAMP || (t->action & BS_TA_CGROUP)) && t->pdu_len >= 8))
		return;
	memcpy(w, p, 8);
	w[0] = bs_swap32(w[0]);
	w[1] = bs_swap32(w[1]);
	memcpy(p, w, 8);
}

static int put(FILE *out, enum bs_out_format fmt, bool swap, const struct bs_record *rec)
{
	uint8_t hdr[BS_TRACE2_SIZE], pdu[BS_MAX_SANE_PDU];
	struct bs_trace t = rec->t;
	size_t len;

	t.magic = fmt == BS_OUT_V8 ? BS_TRACE_MAGIC_V8 : BS_TRACE_MAGIC_V7;
	memcpy(pdu, rec->pdu, t.pdu_len);
	if (swap && !rec->foreign)
		swap_host_words(&t, pdu);
	if (fmt == BS_OUT_V7) {
		if (swap)
			bs_trace_swap(&t);
		memcpy(hdr, &t, BS_TRACE_SIZE);
		len = BS_TRACE_SIZE;
	} else {
		struct bs_trace2 r;

		bs_encode_v8(&r, &t, rec->action_hi);
		if (swap)
			bs_trace2_swap(&r);
		memcpy(hdr, &r, BS_TRACE2_SIZE);
		len = BS_TRACE2_SIZE;
	}
	if (fwrite(hdr, len, 1, out) != 1 ||
	    (rec->t.pdu_len && fwrite(pdu, rec->t.pdu_len, 1, out) != 1))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	enum bs_out_format fmt = BS_OUT_V8;
	struct bs_record rec;
	struct bs_stream *s;
	bool swap = false;
	char err[512];
	int c, fd, st;
	FILE *out;

	bs_set_progname("bs-convert");
	while ((c = getopt(argc, argv, "V:Sh")) != -1) {
		switch (c) {
		case 'V':
			if (!strcmp(optarg, "7"))
				fmt = BS_OUT_V7;
			else if (!strcmp(optarg, "8"))
				fmt = BS_OUT_V8;
			else if (!strcmp(optarg, "7w"))
				fmt = BS_OUT_V7_WIDE;
			else
				return usage(stderr), 1;
			break;
		case 'S':
			swap = true;
			break;
		case 'h':
			return usage(stdout), 0;
		default:
			return usage(stderr), 1;
		}
	}
	if (argc - optind != 2)
		return usage(stderr), 1;
	s = bs_stream_open(argv[optind], -1, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "bs-convert: %s\n", err);
		return 1;
	}
	bs_stream_set_msg(s, &stderr_sink);
	fd = bs_create_output(argv[optind + 1], BS_CREATE_REPLACE);
	out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!out) {
		fprintf(stderr, "bs-convert: %s: %s\n", argv[optind + 1], strerror(errno));
		return 1;
	}
	while ((st = bs_stream_next(s, &rec)) == BS_STREAM_RECORD) {
		if (put(out, fmt, swap, &rec)) {
			fprintf(stderr, "bs-convert: %s: %s\n", argv[optind + 1], strerror(errno));
			return 1;
		}
	}
	bs_stream_close(s);
	if (fclose(out)) {
		fprintf(stderr, "bs-convert: %s: %s\n", argv[optind + 1], strerror(errno));
		return 1;
	}
	return st == BS_STREAM_END ? 0 : 1;
}
