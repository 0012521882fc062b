// SPDX-License-Identifier: GPL-2.0
/*
 * rec_say.c - what the recorder tells its user on stderr besides errors: one
 * line when recording starts (what is traced, where it goes, how it
 * stops), and after the per-CPU summary the files written and the command
 * to run next.  --quiet leaves these out (warnings and errors stay).
 */
#include <stdio.h>
#include <string.h>
#include "record.h"

const char *rec_plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* "traces/" (with -D), or "" */
static const char *dir_prefix(const struct rec_say *s, char *buf, size_t len)
{
	if (!s->dir)
		return "";
	snprintf(buf, len, "%s%s", s->dir, s->dir[strlen(s->dir) - 1] == '/' ? "" : "/");
	return buf;
}

/* A trace's base name: -o BASE, else the kernel's device name. */
static const char *base_of(const struct rec_say *s, int i)
{
	return s->base ? s->base : s->traces[i].name;
}

/* "traces/loop0.blktrace.{0..1}.zst": every per-CPU file of the traces [first, last] */
static void files_pattern(const struct rec_say *s, int first, int last, char *buf, size_t len)
{
	char dir[PATH_MAX + 2], cpus[32];
	size_t n;
	int i;

	if (s->ncpus > 1)
		snprintf(cpus, sizeof(cpus), "{0..%d}", s->ncpus - 1);
	else
		snprintf(cpus, sizeof(cpus), "0");
	n = (size_t)snprintf(buf, len, "%s%s", dir_prefix(s, dir, sizeof(dir)),
			     first < last ? "{" : "");
	for (i = first; i <= last && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i > first ? "," : "",
				      base_of(s, i));
	if (n < len)
		snprintf(buf + n, len - n, "%s.blktrace.%s%s", first < last ? "}" : "", cpus,
			 s->zstd ? ".zst" : "");
}

void rec_say_start(const struct rec_say *s)
{
	char files[PATH_MAX * 2], how[PATH_MAX], devs[PATH_MAX * 2];
	size_t n = 0;
	int i;

	if (s->quiet)
		return;
	if (s->flight)
		snprintf(files, sizeof(files),
			 "as a flight recorder (snapshots only when a trigger fires)");
	else if (s->to_stdout)
		snprintf(files, sizeof(files), "to stdout");
	else {
		memcpy(files, "into ", 5);
		files_pattern(s, 0, s->ntraces - 1, files + 5, sizeof(files) - 5);
	}
	if (s->cmd)
		snprintf(how, sizeof(how), "until %s exits (Ctrl-C stops both)", s->cmd[0]);
	else if (s->wait_s > 0)
		snprintf(how, sizeof(how), "for %g s (Ctrl-C stops sooner)", s->wait_s);
	else
		snprintf(how, sizeof(how), "until Ctrl-C (SIGINT or SIGTERM)");
	devs[0] = '\0';
	for (i = 0; i < s->ntraces && n < sizeof(devs); i++)
		n += (size_t)snprintf(devs + n, sizeof(devs) - n, "%s%s (%u,%u)", i ? ", " : "",
				      s->traces[i].path, BS_DEV_MAJOR(s->traces[i].dev),
				      BS_DEV_MINOR(s->traces[i].dev));
	fprintf(stderr, "blkscope record: recording %s %s %s\n", devs, files, how);
}

void rec_say_files(const struct rec_say *s, int i, uint64_t bytes)
{
	char files[PATH_MAX * 2];

	if (s->quiet || s->to_stdout || s->flight)
		return;
	files_pattern(s, i, i, files, sizeof(files));
	fprintf(stderr, "  Files:  %s (%d %s, %llu KiB)\n", files, s->ncpus,
		rec_plural((uint64_t)s->ncpus, "file", "files"),
		(unsigned long long)(bytes + 1023) >> 10);
}

void rec_say_next(const struct rec_say *s, const uint64_t *events)
{
	char dir[PATH_MAX + 2];
	int i, idle = 0;

	if (s->to_stdout || s->flight)
		return;
	for (i = 0; i < s->ntraces; i++)
		if (!events[i]) {
			fprintf(stderr,
				"blkscope record: no block I/O was recorded on %s: was it idle? "
				"(its files hold notes only)\n",
				s->traces[i].path);
			idle++;
		}
	if (s->quiet || idle == s->ntraces)
		return;
	fprintf(stderr, "Next: blkscope analyze");
	for (i = 0; i < s->ntraces; i++)
		if (events[i])
			fprintf(stderr, " %s%s", dir_prefix(s, dir, sizeof(dir)), base_of(s, i));
	fputc('\n', stderr);
}
