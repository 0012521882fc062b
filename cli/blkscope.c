// SPDX-License-Identifier: GPL-2.0
/*
 * blkscope - front-end.  Git-style dispatch: "blkscope SUB ARGS" executes
 * the program "blkscope-SUB" found next to this binary, or in
 * $BLKSCOPE_EXEC_PATH, or in the libexec directory of an installation.
 * Keeping every subcommand a separate program lets the analyzer build and
 * run on machines without clang, libbpf or BPF support.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct subcommand {
	const char *name;
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ "record",    "record block I/O with BPF into blktrace files" },
	{ "parse",     "print a trace as text, like blkparse (-d dumps for btt/iowatcher)" },
	{ "analyze",   "latency breakdown (btt), percentiles, groups, time series, plots" },
	{ "compare",   "compare two traces: which stage and process got slower, and is it real" },
	{ "export",    "every I/O (or interval) as a Parquet, CSV or JSON-lines table" },
	{ "replay",    "re-issue a trace's I/O onto block devices with its timing (io_uring)" },
	{ "tag-check", "run a tagging plugin over a trace and validate its answers" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"Usage: blkscope [--help] [--version] COMMAND [ARGS...]\n"
		"\n"
		"Record block I/O with BPF where debugfs blktrace cannot, and analyze\n"
		"blktrace files offline.\n"
		"\n"
		"Commands:\n");
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(f, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(f,
		"\n"
		"Examples:\n"
		"  blkscope record -d /dev/nvme0n1 -w 10           "
		"# 10 s into nvme0n1.blktrace.*\n"
		"  blkscope parse nvme0n1                          # blkparse-style text\n"
		"  blkscope parse -O -d nvme0n1.dump nvme0n1       "
		"# merged dump for btt/iowatcher\n"
		"  blkscope analyze nvme0n1                        # btt-style latency report\n"
		"  blkscope analyze --html report.html nvme0n1     # charts in one page\n"
		"  blkscope replay -d /dev/nvme1n1 nvme0n1         "
		"# the same reads on another disk\n"
		"\n"
		"Run 'blkscope COMMAND --help' for the options of a command.\n");
}

/*
 * Edit distance between a and b (insertions, deletions, substitutions and
 * swaps of two neighbours each cost 1), capped at 9: enough to tell a typo.
 */
static int distance(const char *a, const char *b)
{
	int d[16][16], i, j, la = (int)strlen(a), lb = (int)strlen(b);

	if (la > 15 || lb > 15)
		return 9;
	for (i = 0; i <= la; i++)
		for (j = 0; j <= lb; j++) {
			int best = i == 0 ? j :
				   j == 0 ? i :
					    d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (i && d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (j && d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb] < 9 ? d[la][lb] : 9;
}

/*
 * "blkscope anaylze": one line, the command meant if there is a close one; exit 2 (a bad
 * command line).
 */
static int unknown_command(const char *name, const char *why)
{
	const char *best = NULL;
	int bestd = 3;	/* at most two edits away */
	size_t i;

	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		int d = distance(name, subcommands[i].name);

		if (d < bestd) {
			bestd = d;
			best = subcommands[i].name;
		}
	}
	if (best)
		fprintf(stderr,
			"blkscope: '%s' is not a blkscope command%s; did you mean '%s'? See "
			"'blkscope --help'.\n",
			name, why, best);
	else
		fprintf(stderr,
			"blkscope: '%s' is not a blkscope command%s. See 'blkscope --help'.\n",
			name, why);
	return 2;
}

/* Returns only when it could not run the program: -1 = not there, -2 = exec failed. */
static int try_exec(const char *dir, const char *prog, char **argv)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, prog) >= (int)sizeof(path))
		return -1;
	if (access(path, X_OK) != 0)
		return -1;
	argv[0] = path;
	execv(path, argv);
	fprintf(stderr, "blkscope: cannot execute %s: %s\n", path, strerror(errno));
	return -2;
}

int main(int argc, char **argv)
{
	char self[PATH_MAX], prog[64], libexec[PATH_MAX + 32];
	const char *env;
	ssize_t n;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("blkscope %s\n", BLKSCOPE_VERSION);
		return 0;
	}
	if (strchr(argv[1], '/') ||
	    snprintf(prog, sizeof(prog), "blkscope-%s", argv[1]) >= (int)sizeof(prog))
		return unknown_command(argv[1], "");

	env = getenv("BLKSCOPE_EXEC_PATH");
	if (env && *env && try_exec(env, prog, argv + 1) == -2)
		return 126;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		char *dir = dirname(self);

		if (try_exec(dir, prog, argv + 1) == -2)
			return 126;
		/* installed layout: PREFIX/bin/blkscope, PREFIX/libexec/blkscope/ */
		snprintf(libexec, sizeof(libexec), "%s/../libexec/blkscope", dir);
		if (try_exec(libexec, prog, argv + 1) == -2)
			return 126;
	}
	if (!strcmp(argv[1], "record")) {	/* a known command: an analyzer-only build */
		fprintf(stderr,
			"blkscope record: the recorder was not built: %s needs clang, bpftool, "
			"libbpf "
			"and liburing at build time ('make' lists what it skipped); parse, "
			"analyze, compare, "
			"export and tag-check work without it\n",
			prog);
		return 1;
	}
	if (!strcmp(argv[1], "replay")) {
		fprintf(stderr,
			"blkscope replay: it was not built: %s needs liburing at build time "
			"('make' "
			"lists what it skipped); parse, analyze, compare, export and tag-check "
			"work without "
			"it\n",
			prog);
		return 1;
	}
	snprintf(libexec, sizeof(libexec), " (no %s found)", prog);
	return unknown_command(argv[1], libexec);
}
