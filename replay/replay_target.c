// SPDX-License-Identifier: GPL-2.0
/*
 * replay_target.c - the devices replayed onto, checked before any I/O.
 *
 * Refused, each with one line: a path that is not there or not a block
 * device; writes (also flushes, discards, write-zeroes) without
 * --allow-writes; a device that is mounted, has holders (dm, md, bcache
 * built on it), is a partition of a mounted or held disk, or is a disk
 * with a mounted or held partition; I/O past the device's end (unless
 * --wrap folds it in) or not aligned to its logical block size (O_DIRECT
 * cannot issue it).  The device is then opened with O_EXCL, so that the
 * kernel also refuses one that is in use in a way sysfs does not show
 * (swap, another exclusive opener) and nobody can mount it during the
 * replay; O_DIRECT, so that the page cache is never involved.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "bs_alloc.h"
#include "bs_defs.h"
#include "bs_escape.h"
#include "bs_stream.h"
#include "replay.h"

/* The first line of a sysfs file, without its newline; 0 or -1. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int rc = -1;

	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = 0;
		rc = 0;
	}
	fclose(f);
	return rc;
}

/* The first entry of a sysfs holders directory (in name), or 0 if empty. */
static int first_holder(const char *sysdir, char *name, size_t len)
{
	char path[PATH_MAX + 300];
	struct dirent *d;
	DIR *dir;
	int found = 0;

	snprintf(path, sizeof(path), "%s/holders", sysdir);
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!found && (d = readdir(dir)))
		if (d->d_name[0] != '.') {
			snprintf(name, len, "%s", d->d_name);
			found = 1;
		}
	closedir(dir);
	return found;
}

/* Where "MAJ:MIN" is mounted (first mount in mountinfo), in where; 1 if it is. */
static int mounted_on(const char *majmin, char *where, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!f)
		return 0;
	while (!found && getline(&line, &cap, f) > 0) {
		char dev[32], mnt[PATH_MAX];

		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... */
		if (sscanf(line, "%*s %*s %31s %*s %4095s", dev, mnt) == 2 &&
		    !strcmp(dev, majmin)) {
			bs_term_safe(where, len, mnt);
			found = 1;
		}
	}
	free(line);
	fclose(f);
	return found;
}

/* One device (sysfs directory) mounted or held: a line naming it and why; -1. */
static int check_one(const char *target, const char *sysdir, const char *what)
{
	char majmin[32], path[PATH_MAX + 300], name[256], where[PATH_MAX];

	snprintf(path, sizeof(path), "%s/dev", sysdir);
	if (read_line(path, majmin, sizeof(majmin)))
		return 0;
	if (mounted_on(majmin, where, sizeof(where))) {
		fprintf(stderr, "%s: %s: %s (%s) is mounted on %s: "
			"refusing to replay onto a device in use\n",
			bs_progname(), target, what, majmin, where);
		return -1;
	}
	if (first_holder(sysdir, name, sizeof(name))) {
		fprintf(stderr, "%s: %s: %s (%s) is held by %s (a device built on it): refusing to "
			"replay onto a device in use\n", bs_progname(), target, what, majmin, name);
		return -1;
	}
	return 0;
}

/*
 * The device, its disk if it is a partition, its partitions if it is a
 * disk: none mounted or held.  0 or -1 (the line printed).
 */
static int check_in_use(const char *target, dev_t rdev)
{
	char sysdir[64], path[PATH_MAX + 288], real[PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int rc = 0;

	snprintf(sysdir, sizeof(sysdir), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	if (!realpath(sysdir, real))
		return 0;	/* no sysfs: O_EXCL alone */
	if (check_one(target, real, "the device"))
		return -1;
	snprintf(path, sizeof(path), "%s/partition", real);
	if (!access(path, F_OK)) {	/* a partition: its disk is the parent directory */
		*strrchr(real, '/') = 0;
		return check_one(target, real, "its disk");
	}
	dir = opendir(real);
	if (!dir)
		return 0;
	while (!rc && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/partition", real, d->d_name);
		if (access(path, F_OK))
			continue;
		snprintf(path, sizeof(path), "%s/%s", real, d->d_name);
		rc = check_one(target, path, "its partition");
	}
	closedir(dir);
	return rc;
}

/* One number from the device's queue directory, or 0. */
static uint64_t queue_limit(const char *qdir, const char *name)
{
	char path[PATH_MAX + 64], line[32];

	snprintf(path, sizeof(path), "%s/%s", qdir, name);
	if (read_line(path, line, sizeof(line)))
		return 0;
	return strtoull(line, NULL, 10);
}

/*
 * What io_uring's non-blocking submission cannot take: more requests in
 * flight than the queue has (nr_requests), a bio that the block layer
 * splits (larger than max_sectors or than max_segments pages, or crossing
 * a chunk boundary).  Either fails with EAGAIN after the bio was queued
 * and is queued again by io_uring's retry: a Q the trace never had.  The
 * engine keeps below the first and sends the second to io_uring's workers
 * (IOSQE_ASYNC), which submit blocking.
 */
static void queue_limits(struct replay_target *t)
{
	char path[64], real[PATH_MAX], probe[PATH_MAX + 32];
	uint64_t sectors_kb, segs, seg_size;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", BS_DEV_MAJOR(t->rdev),
		 BS_DEV_MINOR(t->rdev));
	if (!realpath(path, real))
		return;
	snprintf(probe, sizeof(probe), "%s/partition", real);
	if (!access(probe, F_OK))
		*strrchr(real, '/') = 0;	/* a partition: its disk's queue */
	snprintf(probe, sizeof(probe), "%s/queue", real);
	t->queue_depth = (uint32_t)queue_limit(probe, "nr_requests");
	sectors_kb = queue_limit(probe, "max_sectors_kb");
	segs = queue_limit(probe, "max_segments");
	seg_size = queue_limit(probe, "max_segment_size");
	if (seg_size > 4096 || !seg_size)
		seg_size = 4096;	/* the buffer's pages need not be contiguous */
	t->split_bytes = sectors_kb * 1024;
	if (segs && (!t->split_bytes || segs * seg_size < t->split_bytes))
		t->split_bytes = segs * seg_size;
	t->chunk_bytes = queue_limit(probe, "chunk_sectors") * 512;
}

static int open_target(struct replay_target *tg, const struct replay_opts *o)
{
	int flags = O_CLOEXEC | (tg->writable ? O_RDWR : O_RDONLY);
	int sz;

	if (!o->dry_run)
		flags |= O_DIRECT | O_EXCL;
	tg->fd = open(tg->path, flags);
	if (tg->fd < 0) {
		if (errno == EBUSY)
			fprintf(stderr, "%s: %s: the device is in use (a filesystem, swap, "
				"or another program holds it exclusively): "
				"refusing to replay onto it\n",
				bs_progname(), tg->path);
		else
			fprintf(stderr, "%s: %s: cannot open: %s\n", bs_progname(), tg->path,
				strerror(errno));
		return -1;
	}
	if (ioctl(tg->fd, BLKGETSIZE64, &tg->size) || ioctl(tg->fd, BLKSSZGET, &sz)) {
		fprintf(stderr, "%s: %s: cannot read its size: %s\n", bs_progname(), tg->path,
			strerror(errno));
		return -1;
	}
	tg->lbs = sz > 0 ? (uint32_t)sz : 512;
	queue_limits(tg);
	return 0;
}

/* The target of one --map: found (same device mapped twice) or added. */
static int add_target(struct replay_targets *tg, const struct replay_map *m)
{
	struct stat st;

	if (stat(m->path, &st)) {
		fprintf(stderr, "%s: %s: cannot open: %s\n", bs_progname(), m->path,
			strerror(errno));
		return -1;
	}
	if (!S_ISBLK(st.st_mode)) {
		fprintf(stderr, "%s: %s: not a block device\n", bs_progname(), m->path);
		return -1;
	}
	for (size_t k = 0; k < tg->n; k++)
		if (tg->v[k].rdev == BS_MKDEV(major(st.st_rdev), minor(st.st_rdev)))
			return (int)k;
	tg->v = bs_xreallocarray(tg->v, tg->n + 1, sizeof(*tg->v));
	memset(&tg->v[tg->n], 0, sizeof(*tg->v));
	tg->v[tg->n].path = m->path;
	tg->v[tg->n].trace_dev = m->dev;
	tg->v[tg->n].rdev = BS_MKDEV(major(st.st_rdev), minor(st.st_rdev));
	tg->v[tg->n].fd = -1;
	return (int)tg->n++;
}

uint64_t replay_target_offset(const struct replay_targets *tg, const struct replay_io *io)
{
	const struct replay_target *t = &tg->v[io->target];
	uint64_t off = io->sector * 512, room;

	if (io->op == REPLAY_FLUSH || off + io->bytes <= t->size || io->bytes > t->size)
		return off;
	/* --wrap (the check refused anything else): into the device, on a block boundary */
	room = (t->size - io->bytes) / t->lbs * t->lbs;
	off %= t->size / t->lbs * t->lbs;
	return off <= room ? off : room;
}

/* What the range check found on one target. */
struct replay_range_check {
	uint64_t past, far, unaligned;
	const struct replay_io *first_bad;
};

static int range_error(const struct replay_target *t, const struct replay_range_check *c)
{
	if (c->past) {
		fprintf(stderr, "%s: %s: %" PRIu64 " I/Os end past the device's end "
			"(%" PRIu64 " bytes; the farthest at %" PRIu64 "): "
			"replay onto a device of at least %" PRIu64 " bytes, "
			"or fold them in with --wrap\n",
			bs_progname(), t->path, c->past, t->size, c->far, c->far);
		return -1;
	}
	if (c->unaligned) {
		fprintf(stderr, "%s: %s: %" PRIu64 " I/Os are not aligned to the device's "
			"%u-byte logical blocks (the first: sector %" PRIu64 ", %u bytes): "
			"O_DIRECT cannot issue them\n",
			bs_progname(), t->path, c->unaligned, t->lbs, c->first_bad->sector,
			c->first_bad->bytes);
		return -1;
	}
	return 0;
}

/* Every I/O within its target and aligned to its blocks: 0, or -1 with one line. */
static int check_ranges(struct replay_targets *tg, const struct replay_plan *p,
			const struct replay_opts *o)
{
	struct replay_range_check *c = bs_xcalloc(tg->n, sizeof(*c));
	int rc = 0;

	for (size_t i = 0; i < p->n; i++) {
		const struct replay_io *io = &p->ios[i];
		struct replay_target *t = &tg->v[io->target];
		struct replay_range_check *ck = &c[io->target];
		uint64_t end = io->sector * 512 + io->bytes;

		if (io->op == REPLAY_FLUSH)
			continue;
		if (((io->sector * 512) | io->bytes) % t->lbs && !ck->unaligned++)
			ck->first_bad = io;
		if (end > t->size && (!o->wrap || io->bytes > t->size)) {
			ck->past++;
			ck->far = end > ck->far ? end : ck->far;
		} else if (end > t->size) {
			t->wrapped++;
		}
	}
	for (size_t k = 0; k < tg->n && !rc; k++)
		rc = range_error(&tg->v[k], &c[k]);
	free(c);
	return rc;
}

/* --allow-writes, and then no device in use; every target opened. */
static int check_and_open(struct replay_targets *tg, const struct replay_plan *p,
			  const struct replay_opts *o)
{
	uint64_t *writes = bs_xcalloc(tg->n, sizeof(*writes));

	for (size_t i = 0; i < p->n; i++)
		writes[p->ios[i].target] += p->ios[i].op != REPLAY_READ;
	for (size_t k = 0; k < tg->n; k++) {
		struct replay_target *t = &tg->v[k];
		uint64_t w = writes[k];

		if (w && !o->allow_writes && !o->dry_run) {
			free(writes);
			fprintf(stderr, "%s: %s: the trace has %" PRIu64 " writes, flushes or "
				"discards for it: they destroy its data, so they are issued only "
				"with --allow-writes (or replay the reads alone with "
				"--reads-only)\n", bs_progname(), t->path, w);
			return -1;
		}
		t->writable = w && o->allow_writes;
	}
	free(writes);
	for (size_t k = 0; k < tg->n; k++) {
		dev_t rdev = makedev(BS_DEV_MAJOR(tg->v[k].rdev), BS_DEV_MINOR(tg->v[k].rdev));

		if (check_in_use(tg->v[k].path, rdev) || open_target(&tg->v[k], o))
			return -1;
	}
	return 0;
}

int replay_targets_open(struct replay_targets *tg, struct replay_plan *p,
			const struct replay_opts *o)
{
	memset(tg, 0, sizeof(*tg));
	for (int i = 0; i < o->nmaps; i++) {
		int k = add_target(tg, &o->maps[i]);

		if (k < 0)
			return -1;
		*bs_hash_put(&tg->by_dev, o->maps[i].dev, (uint64_t)k, NULL) = (uint64_t)k;
	}
	if (!tg->n)
		return 0;	/* --dry-run without targets */
	for (size_t i = 0; i < p->n; i++)
		p->ios[i].target = (uint16_t)*bs_hash_get(&tg->by_dev, p->ios[i].dev);
	if (check_and_open(tg, p, o))
		return -1;
	return check_ranges(tg, p, o);
}

bool replay_target_splits(const struct replay_targets *tg, const struct replay_io *io,
			  uint64_t offset)
{
	const struct replay_target *t = &tg->v[io->target];

	if (io->op != REPLAY_READ && io->op != REPLAY_WRITE)
		return false;
	if (t->split_bytes && io->bytes > t->split_bytes)
		return true;
	return t->chunk_bytes &&
	       offset / t->chunk_bytes != (offset + io->bytes - 1) / t->chunk_bytes;
}

void replay_targets_close(struct replay_targets *tg)
{
	for (size_t k = 0; k < tg->n; k++)
		if (tg->v[k].fd >= 0)
			close(tg->v[k].fd);
	free(tg->v);
	bs_hash_free(&tg->by_dev);
	memset(tg, 0, sizeof(*tg));
}
