// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_analyze.c - libFuzzer target for `blkscope analyze` option values
 * that take user strings (--group, --group-by, --interval, --tag-timeout,
 * -S, -t, -T, -d) through the program's own option loop, and the
 * --tag-plugin command-line splitter (tag_split_argv).
 *
 * The fuzz build compiles analyze/analyze.c with -Dmain=bs_analyze_main
 * and links with --wrap=exit: an exit() jumps back here.  The input named
 * last does not exist, so every run ends right after option parsing: the
 * analysis itself keeps pointers in file-scope state that a second run in
 * the same process would trip over (a harness artifact, not a bug), and
 * damaged traces are fuzzed by fuzz_trace and tests/t-hard-damage.sh.
 *
 * Input: bytes 0-1 = flags (which options appear), then ten NUL-terminated
 * strings: the option values in the order of opt_names, then the
 * --tag-plugin command.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "host/tag_host.h"

#define NSTR 10

int bs_analyze_main(int argc, char **argv);
void __real_exit(int status);

/* a program that ends by exit() frees little: leaks are not findings here */
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}

static jmp_buf exit_jump;
static bool in_run;

void __wrap_exit(int status)
{
	if (!in_run)
		__real_exit(status);
	longjmp(exit_jump, 1);
}

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const opt_names[NSTR - 1] = {
		"--group", "--group-by", "--interval", "--tag-timeout", "-S", "-t", "-T", "-d", "--batch",
	};
	char *s[NSTR] = { 0 }, missing[128];
	char *argv[2 * NSTR + 8];
	int argc = 0, fd_mark;
	unsigned int flags;
	volatile int jumped = 0;

	if (size < 2)
		return 0;
	flags = data[0] | (unsigned int)data[1] << 8;
	data += 2;
	size -= 2;
	for (int i = 0; i < NSTR; i++)
		if (!(s[i] = take_string(&data, &size)))
			goto out;

	split_argv(s[NSTR - 1]);

	snprintf(missing, sizeof(missing), "/nonexistent-blkscope-fuzz/no-such-trace");
	argv[argc++] = "blkscope-analyze";
	for (int i = 0; i < NSTR - 1; i++)
		if (flags & (1u << i)) {
			argv[argc++] = (char *)opt_names[i];
			argv[argc++] = s[i];
		}
	if (flags & 0x1000)
		argv[argc++] = "--stats";
	if (flags & 0x2000)
		argv[argc++] = "-A";
	argv[argc++] = "--no-progress";
	argv[argc++] = "-i";
	argv[argc++] = missing;
	argv[argc] = NULL;

	fd_mark = dup(0);
	close(fd_mark);
	optind = 0;
	in_run = true;
	if (setjmp(exit_jump))
		jumped = 1;
	if (!jumped)
		bs_analyze_main(argc, argv);
	in_run = false;
	fflush(stdout);
	if (jumped)
		for (int fd = fd_mark; fd < fd_mark + 16; fd++)
			close(fd);
out:
	for (int i = 0; i < NSTR; i++)
		free(s[i]);
	return 0;
}
