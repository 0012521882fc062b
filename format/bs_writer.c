// SPDX-License-Identifier: GPL-2.0
/*
 * bs_writer.c - buffered writing of whole records.
 *
 * The buffer is flushed only at record boundaries, and a short write on a
 * full disk is cut back (ftruncate) to the last whole record, so a file we
 * leave behind always parses to its end.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bs_codec.h"
#include "bs_outfile.h"
#include "bs_stream.h"
#include "bs_writer.h"

#define WRITER_BUF	(1u << 20)

/* An existing character device at path, opened for writing; else -1 + EEXIST. */
static int open_char_device(const char *path)
{
	struct stat st;
	int fd;

	if (lstat(path, &st) < 0 || !S_ISCHR(st.st_mode))
		goto refuse;
	/* O_NONBLOCK: should a FIFO take its place meanwhile, no waiting for a reader */
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode) || fcntl(fd, F_SETFL, 0) < 0) {
		close(fd);
		goto refuse;
	}
	return fd;
refuse:
	errno = EEXIST;
	return -1;
}

int bs_create_output(const char *path, unsigned int flags)
{
	int fd = bs_create_path(path, flags & BS_CREATE_REPLACE);

	if (fd < 0 && errno == EEXIST)
		fd = open_char_device(path);
	return fd;
}

int bs_check_output(const char *path, unsigned int flags)
{
	struct stat st;

	if (bs_check_path(path))
		return -1;
	if (lstat(path, &st) < 0 || S_ISCHR(st.st_mode))
		return 0;
	if ((flags & BS_CREATE_REPLACE) && S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_nlink == 1)
		return 0;
	errno = EEXIST;
	return -1;
}

int bs_check_output_opt(const char *opt, const char *path, unsigned int flags,
			struct bs_err *e)
{
	char why[192];
	int err;

	if (!strcmp(path, "-") || !bs_check_output(path, flags))
		return 0;
	err = errno;
	if (err != EEXIST)
		return bs_err_set(e, err, "%s: cannot create %s: %s", opt, path, strerror(err));
	bs_create_path_explain(path, err, why, sizeof(why));
	return bs_err_set(e, err, "%s: cannot create %s: it %s%s", opt, path, why,
			  bs_create_is_ours(why) ? "; pass --force to replace it" : "");
}

FILE *bs_create_output_file(const char *path, unsigned int flags, struct bs_err *e)
{
	int fd = bs_create_output(path, flags);
	FILE *f;

	if (fd < 0) {
		bs_create_err(e, path, errno);
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		bs_err_set(e, errno, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

int bs_percpu_path(char *buf, size_t len, const char *dir, const char *base, int cpu)
{
	int n;

	if (dir && *dir)
		n = snprintf(buf, len, "%s/%s.blktrace.%d", dir, base, cpu);
	else
		n = snprintf(buf, len, "%s.blktrace.%d", base, cpu);
	return (n < 0 || (size_t)n >= len) ? -1 : 0;
}

int bs_writer_init(struct bs_writer *w, int fd, const char *name)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->name = strdup(name);
	w->cap = WRITER_BUF;
	w->format = BS_OUT_V7;
	w->hdr = BS_TRACE_SIZE;
	w->buf = malloc(w->cap);
	if (!w->name || !w->buf) {
		free(w->name);
		free(w->buf);
		w->error = ENOMEM;
		return -1;
	}
	return 0;
}

void bs_writer_set_format(struct bs_writer *w, enum bs_out_format format)
{
	w->format = format;
	w->hdr = format == BS_OUT_V7 ? BS_TRACE_SIZE : BS_TRACE2_SIZE;
}

/* Header size of the record at p: hdr if known (non-zero), else from its magic. */
static size_t record_header(const uint8_t *p, size_t hdr)
{
	uint32_t magic;

	if (hdr)
		return hdr;
	memcpy(&magic, p, sizeof(magic));
	return magic == BS_TRACE_MAGIC_V8 ? BS_TRACE2_SIZE : BS_TRACE_SIZE;
}

static size_t whole_records(const uint8_t *buf, size_t limit, size_t known_hdr)
{
	size_t off = 0;

	while (off + BS_TRACE_SIZE <= limit) {
		size_t hdr = record_header(buf + off, known_hdr);
		size_t pdu_at = hdr == BS_TRACE2_SIZE ? offsetof(struct bs_trace2, pdu_len)
						       : offsetof(struct bs_trace, pdu_len);
		uint16_t pdu_len;
		size_t size;

		if (off + hdr > limit)
			break;
		memcpy(&pdu_len, buf + off + pdu_at, sizeof(pdu_len));
		size = hdr + pdu_len;
		if (off + size > limit)
			break;
		off += size;
	}
	return off;
}

size_t bs_whole_records(const uint8_t *buf, size_t limit)
{
	return whole_records(buf, limit, 0);
}

size_t bs_whole_records_sized(const uint8_t *buf, size_t limit, size_t hdr)
{
	return whole_records(buf, limit, hdr);
}

/*
 * Write buf[0..len), whole records, after the *written bytes already in
 * the file.  If the disk fills up part-way, the file is cut back to the
 * last whole record that reached it, so it stays valid.  0 or the errno.
 */
int bs_write_whole(int fd, const uint8_t *buf, size_t len, size_t hdr, uint64_t *written)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? errno : ENOSPC;
			size_t keep = bs_whole_records_sized(buf, done, hdr);

			if (keep != done && ftruncate(fd, (off_t)(*written + keep)) == 0)
				lseek(fd, (off_t)(*written + keep), SEEK_SET);
			*written += keep;
			return err;
		}
		done += n;
	}
	*written += done;
	return 0;
}

int bs_writer_flush(struct bs_writer *w)
{
	if (w->error)
		return -1;
	if (w->thread)
		return bs_writer_thread_flush(w);
	w->error = bs_write_whole(w->fd, w->buf, w->len, w->hdr, &w->written);
	if (w->error)
		return -1;
	w->len = 0;
	return 0;
}

int bs_writer_put2(struct bs_writer *w, const struct bs_trace *t, uint32_t action_hi, const void *pdu)
{
	size_t need = w->hdr + t->pdu_len;
	uint32_t magic = w->format == BS_OUT_V8 ? BS_TRACE_MAGIC_V8 : BS_TRACE_MAGIC_V7;
	uint8_t *p;

	if (w->error)
		return -1;
	if (w->len + need > w->cap && bs_writer_flush(w))
		return -1;
	p = w->buf + w->len;
	if (w->format == BS_OUT_V7)
		memcpy(p, t, BS_TRACE_SIZE);
	else
		bs_encode_v8(p, t, action_hi);
	memcpy(p, &magic, sizeof(magic));
	if (t->pdu_len)
		memcpy(p + w->hdr, pdu, t->pdu_len);
	w->len += need;
	w->records++;
	return 0;
}

int bs_writer_put(struct bs_writer *w, const struct bs_trace *t, const void *pdu)
{
	return bs_writer_put2(w, t, 0, pdu);
}

int bs_writer_close(struct bs_writer *w)
{
	int err;

	if (w->thread)
		bs_writer_thread_close(w);
	else
		bs_writer_flush(w);
	err = w->error;
	if (w->fd > 2 && close(w->fd) && !err)
		err = errno;
	free(w->buf);
	free(w->name);
	w->buf = NULL;
	w->name = NULL;
	w->fd = -1;
	return err;
}
