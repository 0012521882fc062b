// SPDX-License-Identifier: GPL-2.0
/*
 * rec_outfiles.c - the recorder's output directory and per-CPU files.
 *
 * The recorder runs as root, often in a directory other users can write
 * to.  The -D directory is opened once (a symlink there is refused) and
 * every file is created in it with bs_create_at(): O_EXCL, so nothing
 * that is already there is opened, written into or followed.  An earlier
 * run's files are refused too unless --force, which replaces only regular
 * files of our own.  If any file cannot be created, the ones this run
 * created are removed again: a refused run leaves nothing behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <limits.h>
#include <sys/stat.h>
#include "bs_outfile.h"
#include "record.h"

int rec_outdir_open(struct rec_outdir *d, const char *dir, bool replace)
{
	memset(d, 0, sizeof(*d));
	d->dir = dir;
	d->replace = replace;
	d->fd = bs_dir_open(dir ? dir : ".", BS_DIR_CREATE);
	if (d->fd >= 0)
		return 0;
	if (errno == ELOOP)
		fprintf(stderr, "blkscope record: output directory %s is a symlink; refusing to "
			"follow it (give the directory it points to)\n", dir);
	else if (errno == ENOTDIR)
		fprintf(stderr, "blkscope record: output directory %s is not a directory\n", dir);
	else
		fprintf(stderr, "blkscope record: cannot create output directory %s: %s\n",
			dir ? dir : ".", strerror(errno));
	return -1;
}

static int remember(struct rec_outdir *d, const char *name)
{
	if (d->ncreated == d->cap) {
		int cap = d->cap ? 2 * d->cap : 64;
		char **c = realloc(d->created, cap * sizeof(*c));

		if (!c)
			return -1;
		d->created = c;
		d->cap = cap;
	}
	d->created[d->ncreated] = strdup(name);
	if (!d->created[d->ncreated])
		return -1;
	d->ncreated++;
	return 0;
}

int rec_outdir_create(struct rec_outdir *d, const char *name)
{
	const char *dir = d->dir ? d->dir : "", *sep = d->dir ? "/" : "";
	char why[192];
	int fd, err, ours;

	fd = bs_create_at(d->fd, name, d->replace ? BS_CREATE_REPLACE : 0);
	if (fd >= 0) {
		if (remember(d, name) < 0) {
			close(fd);
			unlinkat(d->fd, name, 0);
			fprintf(stderr, "blkscope record: out of memory\n");
			return -1;
		}
		return fd;
	}
	err = errno;
	if (err == EACCES || err == EROFS || err == EPERM) {
		fprintf(stderr, "blkscope record: output directory %s is not writable: %s\n",
			d->dir ? d->dir : ".", strerror(err));
		return -1;
	}
	ours = bs_create_explain(d->fd, name, err, why, sizeof(why));
	if (ours)
		fprintf(stderr, "blkscope record: %s%s%s %s; remove it, use another -D/-o, or pass "
			"--force to replace it\n", dir, sep, name, why);
	else if (err == EEXIST)
		fprintf(stderr, "blkscope record: %s%s%s %s (remove it or use another -D/-o)\n",
			dir, sep, name, why);
	else
		fprintf(stderr, "blkscope record: cannot create %s%s%s: %s\n", dir, sep, name,
			why[0] == ':' ? why + 2 : why);
	return -1;
}

/* The other form of cpu's file is there: 1 (name in buf), 0, or -1 (message printed). */
static int other_form_at(struct rec_outdir *d, const char *base, int cpu, bool zst, char *buf,
			 size_t len)
{
	struct stat st;
	int n = snprintf(buf, len, "%s.blktrace.%d%s", base, cpu, zst ? "" : ".zst");

	if (n < 0 || (size_t)n >= len)
		return 0;
	if (fstatat(d->fd, buf, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	if (!d->replace || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
		fprintf(stderr,
			"blkscope record: %s%s%s is there from an earlier run, and this run writes "
			"%s files: parse and analyze would read both forms; remove it, use another "
			"-D/-o%s\n",
			d->dir ? d->dir : "", d->dir ? "/" : "", buf, zst ? ".zst" : "plain",
			d->replace ? "" : ", or pass --force to remove it");
		return -1;
	}
	return 1;
}

int rec_outdir_other_form(struct rec_outdir *d, const char *base, int ncpus, bool zst)
{
	char name[NAME_MAX + 1];
	int cpu, removed = 0, r;

	for (cpu = 0; cpu < ncpus; cpu++) {
		r = other_form_at(d, base, cpu, zst, name, sizeof(name));
		if (r < 0)
			return -1;
		if (r > 0 && unlinkat(d->fd, name, 0) == 0)
			removed++;
	}
	if (removed)
		fprintf(stderr,
			"blkscope record: --force: removed %d %s %s of an earlier run of %s\n",
			removed, zst ? "plain" : ".zst",
			rec_plural((uint64_t)removed, "file", "files"), base);
	return 0;
}

void rec_outdir_close(struct rec_outdir *d, bool failed)
{
	int i;

	for (i = 0; i < d->ncreated; i++) {
		if (failed)
			unlinkat(d->fd, d->created[i], 0);
		free(d->created[i]);
	}
	free(d->created);
	d->created = NULL;
	d->ncreated = d->cap = 0;
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/* Is name in the directory, and may --force remove it?  1 yes, 0 absent, -1 refused (message). */
static int stale_at(struct rec_outdir *d, const char *name)
{
	struct stat st;

	if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	if (!d->replace || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
		fprintf(stderr,
			"blkscope record: %s%s%s is there from an earlier run with --files or "
			"--stacks, and this run does not write it: the analyzer could read it with "
			"this trace; remove it, use another -D/-o%s\n",
			d->dir ? d->dir : "", d->dir ? "/" : "", name,
			d->replace ? "" : ", or pass --force to remove it");
		return -1;
	}
	return 1;
}

int rec_outdir_stale_side(struct rec_outdir *d, const char *base, int ncpus, int keep)
{
	char name[NAME_MAX + 1];
	int cpu, z, r, removed = 0;

	for (z = 0; z < 2; z++)
		for (cpu = -1; cpu < ncpus && z != keep; cpu++) {
			int n = cpu < 0 ? snprintf(name, sizeof(name), "%s%s%s", base,
						   BS_NAMES_SUFFIX, z ? ".zst" : "") :
					  snprintf(name, sizeof(name), "%s%s%d%s", base,
						   BS_ATTR_INFIX, cpu, z ? ".zst" : "");

			if (n < 0 || (size_t)n >= sizeof(name))
				continue;
			r = stale_at(d, name);
			if (r < 0)
				return -1;
			if (r > 0 && unlinkat(d->fd, name, 0) == 0)
				removed++;
		}
	if (removed)
		fprintf(stderr,
			"blkscope record: --force: removed %d attribution file(s) of an earlier "
			"run of %s\n",
			removed, base);
	return 0;
}
