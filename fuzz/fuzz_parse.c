// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_parse.c - libFuzzer target for `blkscope parse`: option values and
 * the -f / -F format-string engine (analyze/parse/parse_fmt.c), run over a
 * trace that is also part of the input so that every field meets real
 * events.
 *
 * The harness links libbsparse's objects and calls the library as the
 * front-end does (parse_opts_init, the parse_opt_* value parsers,
 * parse_run); the library never exits and frees its run, so leak
 * checking stays on: every run, also one stopped by a fatal format error
 * or a damaged trace, must give back all it took.
 *
 * Input: byte 0 = flags (which options appear, per-CPU file or dump),
 * then four NUL-terminated strings: the -f format, the -F spec, the -w
 * stopwatch, the -a mask name; the rest is the trace.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "parse/parse.h"

static char dir[64];

static void remove_dir(void)
{
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	snprintf(dir, sizeof(dir), "/tmp/fuzz_parse.%d", (int)getpid());
	if (mkdir(dir, 0700) && errno != EEXIST)
		abort();
	atexit(remove_dir);
	return 0;
}

/* the next NUL-terminated string of the input, or NULL */
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

static void write_file(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
}

/* the options the flags ask for, as the front-end would set them; -1 = rejected */
static int set_options(struct parse_opts *o, int flags, const char *fmt, const char *spec,
		       const char *stop, const char *mask)
{
	if (flags & 1)
		parse_opt_format(o, fmt);
	if ((flags & 2) && parse_opt_format_spec(o, spec, NULL) < 0)
		return -1;
	if ((flags & 4) && parse_opt_stopwatch(o, stop, NULL) < 0)
		return -1;
	if ((flags & 8) && parse_opt_mask(o, mask, NULL) < 0)
		return -1;
	o->track = flags & 0x10;
	o->per_process = flags & 0x20;
	o->verbose = (flags & 0x40) != 0;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *fmt, *spec, *stop, *mask, trace[128], out[128];
	struct parse_opts o;
	int flags;

	if (size < 1)
		return 0;
	flags = data[0];
	data++;
	size--;
	fmt = take_string(&data, &size);
	spec = take_string(&data, &size);
	stop = take_string(&data, &size);
	mask = take_string(&data, &size);
	if (!fmt || !spec || !stop || !mask)
		goto out;

	snprintf(trace, sizeof(trace), (flags & 0x80) ? "%s/input.dump" : "%s/fz.blktrace.0", dir);
	snprintf(out, sizeof(out), "%s/out.txt", dir);
	parse_opts_init(&o);
	if (set_options(&o, flags, fmt, spec, stop, mask) == 0) {
		write_file(trace, data, size);
		o.output_name = out;
		parse_opt_input(&o, trace);
		parse_run(&o);
		unlink(trace);
		unlink(out);
	}
out:
	free(fmt);
	free(spec);
	free(stop);
	free(mask);
	return 0;
}
