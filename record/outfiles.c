// SPDX-License-Identifier: GPL-2.0
/*
 * outfiles.c - the recorder's output directory and per-CPU files.
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
		fprintf(stderr, "blkscope record: cannot create %s%s%s%s\n", dir, sep, name, why);
	return -1;
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
