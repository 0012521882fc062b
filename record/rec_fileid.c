// SPDX-License-Identifier: GPL-2.0
/*
 * rec_fileid.c - a file as the BPF side sees it, (filesystem device, inode,
 * generation), turned into its path on this host, once, when it is first
 * seen (never per I/O).
 *
 * The inode and generation make a file handle (FILEID_INO32_GEN, which
 * ext4, xfs and most exportable filesystems take; xfs's 64-bit form for
 * larger inode numbers); open_by_handle_at() on a mount of that
 * filesystem opens the very inode, and /proc/self/fd/N says where it is
 * now.  A file deleted while still open reads "PATH (deleted)": its last
 * path is kept and flagged.  One whose inode is gone (deleted and closed
 * before we looked) has no path (flagged; its I/O keeps its class).
 * Needs CAP_DAC_READ_SEARCH.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "rec_attr.h"

#define FILEID_INO32_GEN	1
#define XFS_FILEID_INO64_GEN	0x81
#define DELETED_SUFFIX		" (deleted)"

struct mnt {
	uint32_t dev;		/* kernel dev_t */
	int fd;			/* -1 until opened */
	bool root;		/* mounts the filesystem's root (preferred) */
	char *dir;
};

struct rec_fileid {
	struct mnt *m;
	size_t n, cap;
	struct bs_hash by_dev;	/* dev -> index in m */
	uint64_t last_scan;	/* CLOCK_MONOTONIC ns of the last mountinfo read */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* mountinfo escapes blanks and backslashes as \ooo */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
}

static void add_mount(struct rec_fileid *f, uint32_t dev, const char *dir, bool root)
{
	bool fresh;
	uint64_t *i = bs_hash_put(&f->by_dev, dev, f->n, &fresh);
	struct mnt *m;

	if (!fresh) {	/* keep the first; a mount of the root beats a bind mount */
		m = &f->m[*i];
		if (m->root || !root || m->fd >= 0)
			return;
		free(m->dir);
		m->dir = strdup(dir);
		m->root = true;
		return;
	}
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 64;
		struct mnt *v = realloc(f->m, cap * sizeof(*v));

		if (!v) {
			bs_hash_del(&f->by_dev, dev);
			return;
		}
		f->m = v;
		f->cap = cap;
	}
	f->m[f->n++] = (struct mnt){ dev, -1, root, strdup(dir) };
}

/* /proc/self/mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT ..." */
static void scan_mounts(struct rec_fileid *f)
{
	char line[8192], root[4096], dir[4096];
	FILE *mi = fopen("/proc/self/mountinfo", "re");

	f->last_scan = mono_ns();
	if (!mi)
		return;
	while (fgets(line, sizeof(line), mi)) {
		unsigned int maj, min;

		if (sscanf(line, "%*u %*u %u:%u %4095s %4095s", &maj, &min, root, dir) != 4)
			continue;
		unescape(root);
		unescape(dir);
		add_mount(f, (maj << 20) | (min & 0xfffff), dir, !strcmp(root, "/"));
	}
	fclose(mi);
}

struct rec_fileid *rec_fileid_new(void)
{
	struct rec_fileid *f = calloc(1, sizeof(*f));

	if (f)
		scan_mounts(f);
	return f;
}

void rec_fileid_free(struct rec_fileid *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++) {
		if (f->m[i].fd >= 0)
			close(f->m[i].fd);
		free(f->m[i].dir);
	}
	free(f->m);
	bs_hash_free(&f->by_dev);
	free(f);
}

/*
 * A descriptor of a mount of filesystem dev (mounts made meanwhile: read again, at most once a
 * second).
 */
static int mount_fd(struct rec_fileid *f, uint32_t dev)
{
	uint64_t *i = bs_hash_get(&f->by_dev, dev);
	struct mnt *m;

	if (!i && mono_ns() - f->last_scan > 1000000000ull) {
		scan_mounts(f);
		i = bs_hash_get(&f->by_dev, dev);
	}
	if (!i)
		return -1;
	m = &f->m[*i];
	if (m->fd < 0 && m->dir)
		/* not O_PATH: EBADF */
		m->fd = open(m->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return m->fd;
}

static int open_handle(int mfd, uint64_t ino, uint32_t gen)
{
	union {
		struct file_handle fh;
		char buf[sizeof(struct file_handle) + 16];
	} h;
	uint32_t w[2] = { (uint32_t)ino, gen };
	int fd;

	if (ino <= UINT32_MAX) {
		h.fh.handle_bytes = sizeof(w);
		h.fh.handle_type = FILEID_INO32_GEN;
		memcpy(h.fh.f_handle, w, sizeof(w));
		fd = open_by_handle_at(mfd, &h.fh, O_PATH | O_CLOEXEC);
		if (fd >= 0 || errno != EINVAL)
			return fd;
	}
	/* xfs: a 64-bit inode number, then the generation */
	h.fh.handle_bytes = 12;
	h.fh.handle_type = XFS_FILEID_INO64_GEN;
	memcpy(h.fh.f_handle, &ino, 8);
	memcpy(h.fh.f_handle + 8, &gen, 4);
	return open_by_handle_at(mfd, &h.fh, O_PATH | O_CLOEXEC);
}

int rec_fileid_path(struct rec_fileid *f, uint32_t dev, uint64_t ino, uint32_t gen, char *path,
		    size_t len, uint32_t *flags)
{
	char link[64];
	ssize_t n;
	size_t sl = strlen(DELETED_SUFFIX);
	int mfd = mount_fd(f, dev), fd;

	*flags = 0;
	path[0] = 0;
	if (mfd < 0 || (fd = open_handle(mfd, ino, gen)) < 0) {
		*flags = BS_NF_NO_PATH;
		return -1;
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, len - 1);
	close(fd);
	if (n <= 0) {
		*flags = BS_NF_NO_PATH;
		path[0] = 0;
		return -1;
	}
	path[n] = 0;
	if ((size_t)n == len - 1)
		*flags |= BS_NF_CUT;
	if ((size_t)n > sl && !strcmp(path + n - sl, DELETED_SUFFIX)) {
		path[n - sl] = 0;
		*flags |= BS_NF_DELETED;
	}
	return 0;
}
