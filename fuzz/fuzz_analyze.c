// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_analyze.c - libFuzzer target for a whole `blkscope analyze` run:
 * option values that take user strings (--group, --group-by, --interval,
 * --tag-timeout, -S, -t, -T, -d, --batch) through the real command-line
 * parser, then the analysis itself (merge, btt engine, every report
 * extension and writer) over the fuzzed trace, and the --tag-plugin
 * command-line splitter (tag_split_argv).
 *
 * It links the analysis library as blkscope-analyze does and calls its
 * entry points (analysis.h): analysis_new / parse_args / run / free,
 * several times per input, in one process, with leak detection on: a run
 * must free everything it allocated.  No plugin is started (the fuzzed
 * command is only split): running fuzzed commands is not a test.
 *
 * Input: bytes 0-1 = flags (bits 0-8: which option values are given,
 * 0x200 --svg, 0x400 --html, 0x1000 --stats, 0x2000 -A, 0x4000 dump,
 * 0x8000 two CPUs), then ten NUL-terminated strings (the option
 * values in the order of opt_names, then the --tag-plugin command), then
 * the trace: written to a per-CPU file (or a blkparse -d dump, or split
 * over two CPU files) in a private directory,
 * where every output goes too.  btt's -L and -Z are left out: they write
 * to the working directory, which stays libFuzzer's (corpus, artifacts).
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analysis.h"
#include "bs_stream.h"
#include "host/tag_host.h"
#include "report/report.h"

#define NSTR 10
#define F_SVG		0x0200
#define F_HTML		0x0400
#define F_STATS		0x1000
#define F_ALL_DATA	0x2000
#define F_DUMP		0x4000
#define F_TWO_CPUS	0x8000

static const struct analysis_ext *const extensions[] = { &analysis_tag_ext, &report_ext };

static char *take_string(const uint8_t **data, size_t *size)
{
	const uint8_t *nul = memchr(*data, 0, *size);
	char *s;

	if (!nul)
		return NULL;
	s = strdup((const char *)*data);
	*size -= (size_t)(nul - *data) + 1;
	*data = nul + 1;
	return s;
}

static void split_argv(const char *cmd)
{
	char err[256];
	char **av = tag_split_argv(cmd, err, sizeof(err));

	if (!av) {
		if (!err[0] || !memchr(err, 0, sizeof(err)))
			abort();	/* a failure must come with its reason */
		return;
	}
	if (!av[0])
		abort();	/* success means at least the program name */
	tag_argv_free(av);
}

static char dir[] = "/tmp/fuzz-analyze.XXXXXX";

/* dir/name, in one of a few static buffers (argv strings live until the run ends) */
static char *at(const char *name)
{
	static char bufs[24][64];
	static unsigned int next;
	char *b = bufs[next++ % 24];

	snprintf(b, sizeof(bufs[0]), "%s/%s", dir, name);
	return b;
}

/* A private directory for the traces and every output, removed at exit. */
static void cleanup(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		return;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
	bs_set_progname("blkscope-analyze");
	return 0;
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

/* The trace: t.blktrace.0 (and .1), or t.dump; returns the input to name. */
static const char *write_trace(unsigned int flags, const uint8_t *p, size_t n)
{
	unlink(at("t.blktrace.0"));
	unlink(at("t.blktrace.1"));
	unlink(at("t.dump"));
	if (flags & F_DUMP) {
		write_file(at("t.dump"), p, n);
		return at("t.dump");
	}
	if (flags & F_TWO_CPUS) {
		write_file(at("t.blktrace.0"), p, n / 2);
		write_file(at("t.blktrace.1"), p + n / 2, n - n / 2);
	} else {
		write_file(at("t.blktrace.0"), p, n);
	}
	return at("t");
}

static void run(int argc, char **argv)
{
	struct analysis *a = analysis_new(extensions, sizeof(extensions) / sizeof(extensions[0]));

	if (analysis_parse_args(a, argc, argv) == ANALYSIS_ARGS_RUN)
		analysis_run(a);
	analysis_free(a);
	fflush(stdout);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const opt_names[NSTR - 1] = {
		"--group", "--group-by", "--interval", "--tag-timeout", "-S", "-t", "-T", "-d",
		"--batch",
	};
	/* the outputs of the second run: every writer and btt's side files (NULL: a name in dir) */
	static const char *const outputs[][2] = {
		{ "-o", "r" }, { "-X", NULL }, { "--json", "r.json" }, { "--csv", "csv" },
		{ "-l", "lat" }, { "-q", "lat" }, { "-z", "lat" }, { "-p", "perio" },
		{ "-s", "seek" }, { "-B", "bno" }, { "-Q", "aqd" }, { "-u", "uhist" },
		{ "-I", "iostat" },
	};
	char *s[NSTR] = { 0 };
	char *argv[2 * NSTR + 48];
	const char *input;
	int argc = 0, base;
	unsigned int flags;
	size_t i;

	if (size < 2)
		return 0;
	flags = data[0] | (unsigned int)data[1] << 8;
	data += 2;
	size -= 2;
	for (i = 0; i < NSTR; i++)
		if (!(s[i] = take_string(&data, &size)))
			goto out;

	split_argv(s[NSTR - 1]);
	input = write_trace(flags, data, size);

	argv[argc++] = "blkscope-analyze";
	for (i = 0; i < NSTR - 1; i++)
		if (flags & (1u << i)) {
			argv[argc++] = (char *)opt_names[i];
			argv[argc++] = s[i];
		}
	if (flags & F_ALL_DATA)
		argv[argc++] = "-A";
	argv[argc++] = "--no-progress";
	base = argc;

	/* 1: the text report (btt's and the percentile sections) to r.avg */
	argv[argc++] = (flags & F_STATS) ? "--stats" : "--btt-only";
	argv[argc++] = "-o";
	argv[argc++] = at("r");
	argv[argc++] = (char *)input;
	argv[argc] = NULL;
	run(argc, argv);

	/* 2: every output file at once (the charts only with their flags: slow under ASan) */
	argc = base;
	if (flags & F_HTML) {
		argv[argc++] = "--html";
		argv[argc++] = at("r.html");
	}
	if (flags & F_SVG) {
		argv[argc++] = "--svg";
		argv[argc++] = at("svg");
	}
	for (i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
		argv[argc++] = (char *)outputs[i][0];
		if (outputs[i][1])
			argv[argc++] = at(outputs[i][1]);
	}
	argv[argc++] = (char *)input;
	argv[argc] = NULL;
	run(argc, argv);
out:
	for (i = 0; i < NSTR; i++)
		free(s[i]);
	return 0;
}
