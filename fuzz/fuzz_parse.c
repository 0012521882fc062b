// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_parse.c - libFuzzer target for `blkscope parse` option values and
 * its -f / -F format-string engine (analyze/parse/parse_fmt.c), run over a trace
 * that is also part of the input so that every field meets real events.
 *
 * The harness includes analyze/parse/parse.c with main renamed bs_parse_main and
 * links with --wrap=exit: blkparse (and we) exit(1) on a bad escape, a %u
 * without tracking or an absurd CPU number; here exit() jumps back to the
 * harness instead, which then frees the run's big tables (the_run) so that
 * thousands of such exits do not exhaust memory.  Leak checks are off (a
 * program that ends by exit() frees little).  Otherwise this is the
 * shipped program.
 *
 * Input: byte 0 = flags (which options appear, per-CPU file or dump),
 * then four NUL-terminated strings: the -f format, the -F spec, the -w
 * stopwatch, the -a mask name; the rest is the trace.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <getopt.h>

#define main bs_parse_main
#include "../analyze/parse/parse.c"
#undef main

/* a program that ends by exit() frees little: leaks are not findings here */
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}

static jmp_buf fatal_jump;
static bool in_run;
static char dir[64];

void __real_exit(int status);

/* the program's exit() calls land here */
void __wrap_exit(int status)
{
	if (!in_run)
		__real_exit(status);
	longjmp(fatal_jump, 1);
}

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

/*
 * What the run left behind (the program leaves freeing to its exit): the
 * per-device CPU tables are the big part.  After a normal return finish()
 * has closed the merge already; after exit() it is still open.
 */
static void release_run(struct run *r, bool merge_open)
{
	if (!r)
		return;
	for (int i = 0; i < r->ps.ndevs; i++) {
		free(r->ps.devs[i].cpus);
		track_free(&r->ps.devs[i]);
	}
	free(r->ps.devs);
	if (merge_open && r->merge)
		bs_merge_close(r->merge);
	bs_input_free(&r->in);
	for (int i = 0; i < 256; i++)
		free(r->ps.formats[i]);
	/* the exit() path leaves the output buffers; pout_close freed them otherwise */
	free(r->ps.out.buf);
	free(r->added.buf);
	procs_free(&r->ps);
	names_free(&r->ps);
	free(r);
}

static void write_file(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *fmt, *spec, *stop, *mask, trace[128], out[128];
	char *argv[32];
	int argc = 0, flags, fd_mark;
	volatile int jumped = 0;

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
	write_file(trace, data, size);

	argv[argc++] = "blkscope-parse";
	if (flags & 1) {
		argv[argc++] = "-f";
		argv[argc++] = fmt;
	}
	if (flags & 2) {
		argv[argc++] = "-F";
		argv[argc++] = spec;
	}
	if (flags & 4) {
		argv[argc++] = "-w";
		argv[argc++] = stop;
	}
	if (flags & 8) {
		argv[argc++] = "-a";
		argv[argc++] = mask;
	}
	if (flags & 0x10)
		argv[argc++] = "-t";
	if (flags & 0x20)
		argv[argc++] = "-s";
	if (flags & 0x40)
		argv[argc++] = "-v";
	argv[argc++] = "-o";
	argv[argc++] = out;
	argv[argc++] = "-i";
	argv[argc++] = trace;
	argv[argc] = NULL;

	fd_mark = dup(0);	/* every descriptor above this one is the run's */
	close(fd_mark);
	optind = 0;		/* a fresh getopt for each run */
	in_run = true;
	if (setjmp(fatal_jump))
		jumped = 1;
	if (!jumped)
		bs_parse_main(argc, argv);
	in_run = false;
	if (jumped) {		/* the exit path leaves the output open, the run allocated */
		for (int fd = fd_mark; fd < fd_mark + 16; fd++)
			close(fd);
	}
	release_run(the_run, jumped);
	the_run = NULL;
	unlink(trace);
	unlink(out);
out:
	free(fmt);
	free(spec);
	free(stop);
	free(mask);
	return 0;
}
