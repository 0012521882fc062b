// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_attr.c - libFuzzer target for the attribution side files of
 * `record --files --stacks` (format/bs_attr.h, analyze/attr/): the input
 * becomes a names file and a CPU's attr file beside a small valid trace
 * of Q, D and C records whose times the attr records can match, and a
 * whole analysis reads them (--group-by file, --json, --html, --folded:
 * the dictionary, the per-Q source, every writer of files and stacks).
 * Leak detection on: a run frees everything.
 *
 * Input: byte 0 = flags (bit 0: --group-by dir:2 instead of file; bit 1:
 * attr records made from the input's bytes at the trace's Q times, so
 * that they match), bytes 1-2 = the names file's length, the names file,
 * the attr file (its header made valid when bit 2 is set).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analysis.h"
#include "bs_attr.h"
#include "bs_stream.h"
#include "bs_writer.h"
#include "report/report.h"

#define NQ 8

static const struct analysis_ext *const extensions[] = { &report_ext };
static char dir[] = "/tmp/fuzz-attr.XXXXXX";

static char *at(const char *name)
{
	static char bufs[8][64];
	static unsigned int next;
	char *b = bufs[next++ % 8];

	snprintf(b, sizeof(bufs[0]), "%s/%s", dir, name);
	return b;
}

static void cleanup(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		return;
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		abort();
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w <= 0)
			abort();
		p += w;
		n -= (size_t)w;
	}
	close(fd);
}

/* NQ I/Os of device 8,0 on CPU 0: Q at 1000 * (i + 1), D, C. */
static void write_trace(void)
{
	struct bs_writer w;
	int i, fd = open(at("a.blktrace.0"), O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || bs_writer_init(&w, fd, "a.blktrace.0"))
		abort();
	for (i = 0; i < NQ; i++) {
		struct bs_trace t = { .magic = BS_TRACE_MAGIC_V7, .time = 1000ull * (i + 1),
				      .sector = 8ull * i, .bytes = 4096, .pid = 100,
				      .device = 8u << 20 };

		t.sequence = 3 * i + 1;
		t.action = BS_ACT_QUEUE | BS_TC_ACT(BS_TC_WRITE);
		bs_writer_put(&w, &t, NULL);
		t.sequence++;
		t.time += 100;
		t.action = BS_ACT_ISSUE | BS_TC_ACT(BS_TC_WRITE);
		bs_writer_put(&w, &t, NULL);
		t.sequence++;
		t.time += 100;
		t.action = BS_ACT_COMPLETE | BS_TC_ACT(BS_TC_WRITE);
		bs_writer_put(&w, &t, NULL);
	}
	if (bs_writer_close(&w))
		abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
	bs_set_progname("blkscope-analyze");
	write_trace();
	return 0;
}

/*
 * The attr file: the input's bytes, or records at the trace's Q times with
 * the input's ids and classes.
 */
static void write_attr(unsigned int flags, const uint8_t *p, size_t n)
{
	uint8_t buf[BS_ATTR_HEADER_SIZE + NQ * BS_ATTR_REC_SIZE];
	struct bs_attr_header h = { BS_ATTR_KIND_ATTR, BS_ATTR_VERSION, 8u << 20, 0, 3, 0 };
	size_t i;

	if (!(flags & 2)) {
		write_file(at("a.blkscope-attr.0"), p, n);
		return;
	}
	bs_attr_header_make(buf, &h);
	for (i = 0; i < NQ; i++) {
		const uint8_t *q = n >= 3 * (i + 1) ? p + 3 * i : (const uint8_t *)"\1\1\1";
		struct bs_attr_rec r = { .time = 1000ull * (i + 1), .sector = 8ull * i,
					 .sequence = 3 * i + 1, .file = q[0] % 8,
					 .stack = q[1] % 8, .cls = q[2] % 10,
					 .flags = q[2] >> 4 };

		bs_attr_rec_make(buf + BS_ATTR_HEADER_SIZE + i * BS_ATTR_REC_SIZE, &r);
	}
	write_file(at("a.blkscope-attr.0"), buf, sizeof(buf));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[16];
	struct analysis *a;
	unsigned int flags;
	size_t nnames;
	int argc = 0;

	if (size < 3)
		return 0;
	flags = data[0];
	nnames = (size_t)data[1] | (size_t)data[2] << 8;
	data += 3;
	size -= 3;
	if (nnames > size)
		nnames = size;
	write_file(at("a.blkscope-names"), data, nnames);
	write_attr(flags, data + nnames, size - nnames);

	argv[argc++] = "blkscope-analyze";
	argv[argc++] = "--stats";
	argv[argc++] = "--group-by";
	argv[argc++] = flags & 1 ? "dir:2" : "file";
	argv[argc++] = "--json";
	argv[argc++] = at("r.json");
	argv[argc++] = "--html";
	argv[argc++] = at("r.html");
	argv[argc++] = "--csv";
	argv[argc++] = at("csv");
	argv[argc++] = "-o";
	argv[argc++] = at("r");
	argv[argc++] = at("a");
	argv[argc] = NULL;
	a = analysis_new(extensions, sizeof(extensions) / sizeof(extensions[0]));
	if (analysis_parse_args(a, argc, argv) == ANALYSIS_ARGS_RUN)
		analysis_run(a);
	analysis_free(a);
	return 0;
}
