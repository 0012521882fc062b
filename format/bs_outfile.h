/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_outfile.h - creating output files safely in a directory that other
 * users may be able to write to (/tmp, a shared trace directory).
 *
 * The directory is opened once, without following a symlink in its last
 * component; every file is then created inside it with openat(O_CREAT |
 * O_EXCL | O_NOFOLLOW | O_CLOEXEC).  Whatever is already at the name (a
 * file another user planted, a FIFO that would block open(), a symlink, a
 * hard link to someone's file) is never opened, written or followed: the
 * create fails with EEXIST and bs_create_explain() says what is there.
 * BS_CREATE_REPLACE first removes a previous file of our own (a regular
 * file, owned by our effective uid, with one link), and nothing else.
 *
 * Usage (the recorder's per-CPU files, the analyzer's side files):
 *
 *	int dir = bs_dir_open(opt_dir ? opt_dir : ".", BS_DIR_CREATE);
 *	int fd = bs_create_at(dir, "sda.blktrace.0", force ? BS_CREATE_REPLACE : 0);
 *	if (fd < 0) {
 *		char why[160];
 *		int err = errno;
 *		bs_create_explain(dir, "sda.blktrace.0", err, why, sizeof(why));
 *		fprintf(stderr, "prog: %s/%s %s\n", opt_dir, "sda.blktrace.0", why);
 *	}
 *	...
 *	close(dir);	(files stay valid; dir may be closed right after creating them)
 *
 * or, for one file given as a path: bs_create_path("out/x.dat", 0).
 */
#ifndef BLKSCOPE_BS_OUTFILE_H
#define BLKSCOPE_BS_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include "bs_msg.h"

#define BS_DIR_CREATE		1u	/* bs_dir_open: mkdir(0755) it if missing */
#define BS_CREATE_REPLACE	1u	/* bs_create_at: replace our own regular file */

/*
 * Open directory `path` (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
 * for bs_create_at().  Trailing slashes are ignored (they would make the
 * kernel follow a symlink).  Symlinks in earlier components are followed
 * as usual; a symlink as the last component is refused with ELOOP, a
 * non-directory with ENOTDIR.  Returns the fd, or -1 + errno.
 */
int bs_dir_open(const char *path, unsigned int flags);

/*
 * Create file `name` (no '/') in dirfd for writing, mode 0644 & ~umask,
 * close-on-exec.  Never opens an existing file: EEXIST if anything is at
 * the name (after BS_CREATE_REPLACE removed a file of our own).  EINVAL
 * for an empty name or one with '/'.  Returns the fd, or -1 + errno.
 */
int bs_create_at(int dirfd, const char *name, unsigned int flags);

/*
 * The same for a path: its directory opened with bs_dir_open(dir, 0)
 * ("." if the path has no '/'), then bs_create_at() of its last component.
 */
int bs_create_path(const char *path, unsigned int flags);

/*
 * Could bs_create_path(path) create a file there: does its directory
 * exist (symlinks in it followed as bs_dir_open does) and may we write
 * into it?  Creates nothing: a program checks every output path this way
 * before it reads its input (minutes of work before "no such directory"),
 * and creates the files when it has their contents.  0, or -1 + errno.
 */
int bs_check_path(const char *path);

/*
 * Why bs_create_at(dirfd, name) failed with `err`, as the rest of a
 * message that starts with the file's name: "is a symlink; refusing to
 * follow it", "exists and is a FIFO; refusing to open it", "exists and
 * belongs to uid 1001; refusing to write into it", "exists (from an
 * earlier run?)", or strerror(err) after ": ".  Returns 1 if the thing in
 * the way is a file of our own that BS_CREATE_REPLACE would replace, else 0.
 */
int bs_create_explain(int dirfd, const char *name, int err, char *buf, size_t len);

/* bs_create_explain() after bs_create_path(path) failed: its directory opened again to look. */
void bs_create_path_explain(const char *path, int err, char *buf, size_t len);

/*
 * The one line for that into e: "cannot create PATH" and why; for a file
 * of our own, "; pass --force to replace it" (every command that writes
 * files takes --force: docs/outputs, README "Output files").  The
 * front-end prints it after its name.  Returns -1.
 */
int bs_create_err(struct bs_err *e, const char *path, int err);

/* What bs_create_explain() says of a file that BS_CREATE_REPLACE would replace. */
#define BS_CREATE_OURS	"exists (from an earlier run?)"
bool bs_create_is_ours(const char *why);

#endif /* BLKSCOPE_BS_OUTFILE_H */
