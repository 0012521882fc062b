// SPDX-License-Identifier: GPL-2.0
/*
 * rec_cgroup.c - cgroup ids for `record --cgroup-ids` and `--cgroup PATH`.
 *
 * The id the kernel's blk tracer records is that of the cgroup a bio is
 * charged to, in the hierarchy that holds the io controller: the cgroup2
 * tree, or the cgroup-v1 `blkio` mount where v1 still owns it.  On cgroup
 * file systems that id is the directory's kernfs node id, which is also
 * its file handle (name_to_handle_at() gives 8 bytes, the id), so both
 * directions cost one system call or two and no walk of the tree:
 *
 *   PATH -> id:  name_to_handle_at(PATH);
 *   id -> PATH:  open_by_handle_at(mount, id), then the fd's /proc link.
 *
 * An id whose cgroup was removed before its first record was read cannot be
 * resolved any more; its path is then "?".
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include "record.h"

#define CGROUP_SUPER_MAGIC	0x27e0eb
#define CGROUP2_SUPER_MAGIC	0x63677270

/* Does this cgroup2 mount have the io controller (not bound to v1)? */
static bool v2_has_io(const char *mnt)
{
	char path[PATH_MAX + 32], buf[512], *tok, *save;
	FILE *f;
	bool io = false;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", mnt);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f))
		for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
			if (!strcmp(tok, "io"))
				io = true;
	fclose(f);
	return io;
}

/* Mount point (octal escapes undone) of the io hierarchy from /proc/self/mountinfo. */
static int find_io_mount(char *out, size_t size)
{
	char line[4096], v1[PATH_MAX] = "", v2[PATH_MAX] = "";
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char mnt[PATH_MAX], fstype[64], opts[1024], *sep;
		size_t i, j;

		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPTIONAL...] - FSTYPE SOURCE SUPER */
		sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(sep + 3, "%63s %*s %1023s", fstype, opts) != 2)
			continue;
		for (i = j = 0; mnt[i]; j++) {	/* \040 and friends */
			if (mnt[i] == '\\' && mnt[i + 1] && mnt[i + 2] && mnt[i + 3]) {
				mnt[j] = (char)strtol(
					(char[]){ mnt[i + 1], mnt[i + 2], mnt[i + 3], 0 }, NULL, 8);
				i += 4;
			} else {
				mnt[j] = mnt[i++];
			}
		}
		mnt[j] = 0;
		if (!strcmp(fstype, "cgroup2") && !*v2 && v2_has_io(mnt))
			snprintf(v2, sizeof(v2), "%s", mnt);
		if (!strcmp(fstype, "cgroup") && !*v1 &&
		    (strstr(opts, ",blkio") || !strncmp(opts, "blkio", 5)))
			snprintf(v1, sizeof(v1), "%s", mnt);
	}
	fclose(f);
	if (!*v2 && !*v1)
		return -1;
	snprintf(out, size, "%s", *v2 ? v2 : v1);
	return 0;
}

int rec_cgroups_open(struct rec_cgroups *c)
{
	memset(c, 0, sizeof(*c));
	c->mount_fd = -1;
	if (find_io_mount(c->root, sizeof(c->root)) < 0) {
		fprintf(stderr, "blkscope record: no cgroup hierarchy with the io (blkio) "
				"controller is mounted\n");
		return -1;
	}
	c->mount_fd = open(c->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->mount_fd < 0) {
		fprintf(stderr, "blkscope record: %s: %s\n", c->root, strerror(errno));
		return -1;
	}
	return 0;
}

void rec_cgroups_close(struct rec_cgroups *c)
{
	if (c->mount_fd >= 0)
		close(c->mount_fd);
	c->mount_fd = -1;
	free(c->seen);
	c->seen = NULL;
	bs_hash_free(&c->index);
}

static int handle_id(int dirfd, const char *path, uint64_t *id)
{
	union {
		struct file_handle fh;
		char buf[sizeof(struct file_handle) + 64];
	} h;
	int mnt_id;

	h.fh.handle_bytes = 64;
	if (name_to_handle_at(dirfd, path, &h.fh, &mnt_id, 0) < 0)
		return -1;
	if (h.fh.handle_bytes != sizeof(*id)) {
		errno = EINVAL;
		return -1;
	}
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}

/*
 * --cgroup PATH: a directory of the io hierarchy, given as a file-system
 * path (/sys/fs/cgroup/blkio/x) or relative to the hierarchy's root (/x).
 */
int rec_cgroup_resolve(struct rec_cgroups *c, const char *arg, uint64_t *id, uint32_t *level)
{
	char real[PATH_MAX], alt[2 * PATH_MAX];
	size_t n = strlen(c->root);
	const char *rel, *p;
	struct statfs sf;

	if (!realpath(arg, real) || strncmp(real, c->root, n) || (real[n] && real[n] != '/')) {
		snprintf(alt, sizeof(alt), "%s/%s", c->root, arg);
		if (!realpath(alt, real)) {
			fprintf(stderr,
				"blkscope record: --cgroup %s: no such cgroup (neither a path nor "
				"one under %s)\n",
				arg, c->root);
			return -1;
		}
	}
	if (strncmp(real, c->root, n) || (real[n] && real[n] != '/') ||
	    statfs(real, &sf) < 0 ||
	    (sf.f_type != CGROUP_SUPER_MAGIC && sf.f_type != CGROUP2_SUPER_MAGIC)) {
		fprintf(stderr,
			"blkscope record: --cgroup %s: not a cgroup of the io hierarchy %s\n", arg,
			c->root);
		return -1;
	}
	if (handle_id(AT_FDCWD, real, id) < 0) {
		fprintf(stderr, "blkscope record: --cgroup %s: no cgroup id: %s\n", arg,
			strerror(errno));
		return -1;
	}
	rel = real + n;
	*level = 0;
	for (p = rel; *p; p++)
		if (*p == '/' && p[1] && p[1] != '/')
			(*level)++;
	return 0;
}

/* The path of cgroup `id` relative to the hierarchy root ("/" for the root). */
static void id_path(struct rec_cgroups *c, uint64_t id, char *out, size_t size)
{
	union {
		struct file_handle fh;
		char buf[sizeof(struct file_handle) + 8];
	} h;
	char link[64], target[PATH_MAX];
	size_t n = strlen(c->root);
	ssize_t len;
	int fd;

	snprintf(out, size, "?");
	h.fh.handle_bytes = sizeof(id);
	h.fh.handle_type = 0xfe;	/* FILEID_KERNFS */
	memcpy(h.fh.f_handle, &id, sizeof(id));
	fd = open_by_handle_at(c->mount_fd, &h.fh, O_RDONLY | O_CLOEXEC | O_PATH);
	if (fd < 0)
		return;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, target, sizeof(target) - 1);
	close(fd);
	if (len <= 0)
		return;
	target[len] = 0;
	if (strncmp(target, c->root, n) || (target[n] && target[n] != '/'))
		return;
	snprintf(out, size, "%s", target[n] ? target + n : "/");
}

static uint64_t seen_key(uint64_t id, int trace, uint32_t cpu)
{
	return bs_hash_mix(id) ^ bs_hash_mix((uint64_t)(uint32_t)trace << 32 | cpu);
}

static bool seen_is(const struct rec_cgroup_seen *e, uint64_t id, int trace, uint32_t cpu)
{
	return e->id == id && e->trace == (uint32_t)trace && e->cpu == cpu;
}

/* Was `id` already announced to trace `trace`, CPU `cpu`?  Marks it. */
static int seen_before(struct rec_cgroups *c, uint64_t id, int trace, uint32_t cpu, bool *seen)
{
	bool inserted;
	uint64_t *head = bs_hash_put(&c->index, seen_key(id, trace, cpu), 0, &inserted);
	size_t i;

	for (i = *head; i; i = c->seen[i - 1].next)
		if (seen_is(&c->seen[i - 1], id, trace, cpu)) {
			c->last = i - 1;
			*seen = true;
			return 0;
		}
	if (c->nseen == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		void *p = realloc(c->seen, cap * sizeof(*c->seen));

		if (!p)
			return -1;
		c->seen = p;
		c->cap = cap;
	}
	c->seen[c->nseen] = (struct rec_cgroup_seen){
		.id = id, .trace = (uint32_t)trace, .cpu = cpu, .next = *head
	};
	*head = ++c->nseen;
	c->last = c->nseen - 1;
	*seen = false;
	return 0;
}

/*
 * The message note announcing `id` to trace `trace`, into note (room for
 * BS_CGROUP_NOTE_MAX bytes); 0 if it was announced before,
 * else the note's size, -1 on allocation failure.
 */
int rec_cgroup_note(struct rec_cgroups *c, uint64_t id, int trace, uint32_t cpu,
		    const struct bs_trace *ev, void *note)
{
	char path[PATH_MAX];
	bool seen;

	/* records of one cgroup come in runs: check the last one first */
	if (c->nseen && seen_is(&c->seen[c->last], id, trace, cpu))
		return 0;
	if (seen_before(c, id, trace, cpu, &seen) < 0)
		return -1;
	if (seen)
		return 0;
	id_path(c, id, path, sizeof(path));
	return (int)bs_cgroup_note_make(note, BS_CGROUP_NOTE_MAX, ev, id, path);
}
