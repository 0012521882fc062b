// SPDX-License-Identifier: GPL-2.0
/*
 * bs_outfile.c - output files created without trusting what is already
 * in the directory (see bs_outfile.h).
 *
 * Why O_EXCL and not open + fstat: O_EXCL never opens an existing inode,
 * so a planted FIFO cannot block us, a planted file is never written
 * into (and never truncated), and a symlink is not followed (with O_EXCL
 * the kernel refuses a symlink at the last component even without
 * O_NOFOLLOW; we pass both).  The fstat after creating is a cheap second
 * check, not the defence.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bs_outfile.h"
#include "bs_stream.h"

/* path without trailing slashes ("/" stays "/") into buf; -1 if too long */
static int strip_slashes(const char *path, char *buf, size_t len)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	if (n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, n);
	buf[n] = '\0';
	return 0;
}

int bs_dir_open(const char *path, unsigned int flags)
{
	char dir[PATH_MAX];
	struct stat st;
	int fd, err;

	if (!*path) {
		errno = ENOENT;
		return -1;
	}
	if (strip_slashes(path, dir, sizeof(dir)) < 0)
		return -1;
	/* mkdir never follows a symlink at the last component (EEXIST) */
	if ((flags & BS_DIR_CREATE) && mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -1;
	fd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	err = errno;
	/* O_PATH|O_NOFOLLOW on a symlink gives ENOTDIR: name it */
	if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode))
		err = ELOOP;
	errno = err;
	return -1;
}

/* BS_CREATE_REPLACE: remove `name` if it is a regular file of ours with one link. */
static int remove_own_file(int dirfd, const char *name)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1)
		return 0;	/* left in place: the O_EXCL create reports it */
	/*
	 * If someone swaps the name between the fstatat and here, we remove
	 * their directory entry (which they could remove themselves: they can
	 * write the directory), never write into their inode.
	 */
	if (unlinkat(dirfd, name, 0) < 0 && errno != ENOENT)
		return -1;
	return 0;
}

int bs_create_at(int dirfd, const char *name, unsigned int flags)
{
	struct stat st;
	int fd;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) {
		errno = EINVAL;
		return -1;
	}
	if ((flags & BS_CREATE_REPLACE) && remove_own_file(dirfd, name) < 0)
		return -1;
	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
		close(fd);
		errno = EEXIST;
		return -1;
	}
	return fd;
}

int bs_create_path(const char *path, unsigned int flags)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int dirfd, fd, err;

	if (!slash)
		return bs_create_at(AT_FDCWD, path, flags);
	if ((size_t)(slash - path) >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (slash == path) {
		strcpy(dir, "/");
	} else {
		memcpy(dir, path, slash - path);
		dir[slash - path] = '\0';
	}
	dirfd = bs_dir_open(dir, 0);
	if (dirfd < 0)
		return -1;
	fd = bs_create_at(dirfd, slash + 1, flags);
	err = errno;
	close(dirfd);
	errno = err;
	return fd;
}

int bs_check_path(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int dirfd, rc, err;

	if (!*path || (slash && !slash[1])) {	/* no file name */
		errno = EISDIR;
		return -1;
	}
	if (!slash) {
		strcpy(dir, ".");
	} else if ((size_t)(slash - path) >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	} else if (slash == path) {
		strcpy(dir, "/");
	} else {
		memcpy(dir, path, slash - path);
		dir[slash - path] = '\0';
	}
	dirfd = bs_dir_open(dir, 0);
	if (dirfd < 0)
		return -1;
	rc = faccessat(dirfd, ".", W_OK | X_OK, AT_EACCESS);
	err = errno;
	close(dirfd);
	errno = err;
	return rc;
}

static const char *file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	return "not a regular file";
}

int bs_create_explain(int dirfd, const char *name, int err, char *buf, size_t len)
{
	struct stat st;

	if (err != EEXIST) {
		snprintf(buf, len, ": %s", strerror(err));
		return 0;
	}
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		snprintf(buf, len, "appeared while it was being created; refusing it");
		return 0;
	}
	if (S_ISLNK(st.st_mode)) {
		snprintf(buf, len, "is a symlink; refusing to follow it");
		return 0;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(buf, len, "exists and is %s; refusing to open it", file_kind(st.st_mode));
		return 0;
	}
	if (st.st_uid != geteuid()) {
		snprintf(buf, len, "exists and belongs to uid %u; refusing to write into it",
			 (unsigned int)st.st_uid);
		return 0;
	}
	if (st.st_nlink != 1) {
		snprintf(buf, len, "exists and has %lu hard links; refusing to replace it",
			 (unsigned long)st.st_nlink);
		return 0;
	}
	snprintf(buf, len, "%s", BS_CREATE_OURS);
	return 1;
}

void bs_create_path_explain(const char *path, int err, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	int dfd;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	dfd = bs_dir_open(dir, 0);
	if (dfd < 0) {
		snprintf(buf, len, ": %s", strerror(err));
		return;
	}
	bs_create_explain(dfd, slash ? slash + 1 : path, err, buf, len);
	close(dfd);
}

int bs_create_err(struct bs_err *e, const char *path, int err)
{
	char why[192];

	bs_create_path_explain(path, err, why, sizeof(why));
	if (why[0] == ':')	/* ": No such file or directory" */
		return bs_err_set(e, err, "cannot create %s%s", path, why);
	/* "exists and is a FIFO; refusing to open it" */
	return bs_err_set(e, err, "cannot create %s: it %s%s", path, why,
			  bs_create_is_ours(why) ? "; pass --force to replace it" : "");
}

bool bs_create_is_ours(const char *why)
{
	return !strcmp(why, BS_CREATE_OURS);
}
