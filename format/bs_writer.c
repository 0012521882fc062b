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
#include "bs_writer.h"

#define WRITER_BUF	(1u << 20)

int bs_create_output(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
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
	w->buf = malloc(w->cap);
	if (!w->name || !w->buf) {
		free(w->name);
		free(w->buf);
		w->error = ENOMEM;
		return -1;
	}
	return 0;
}

size_t bs_whole_records(const uint8_t *buf, size_t limit)
{
	size_t off = 0;

	while (off + BS_TRACE_SIZE <= limit) {
		uint16_t pdu_len;
		size_t size;

		memcpy(&pdu_len, buf + off + offsetof(struct bs_trace, pdu_len), sizeof(pdu_len));
		size = BS_TRACE_SIZE + pdu_len;
		if (off + size > limit)
			break;
		off += size;
	}
	return off;
}

/*
 * Write out the buffer.  If the disk fills up part-way, the file is cut
 * back to the last whole record that reached it, so it stays valid.
 */
int bs_writer_flush(struct bs_writer *w)
{
	size_t done = 0;

	if (w->error)
		return -1;
	while (done < w->len) {
		ssize_t n = write(w->fd, w->buf + done, w->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			size_t keep = bs_whole_records(w->buf, done);

			w->error = n < 0 ? errno : ENOSPC;
			if (keep != done && ftruncate(w->fd, (off_t)(w->written + keep)) == 0)
				lseek(w->fd, (off_t)(w->written + keep), SEEK_SET);
			w->written += keep;
			return -1;
		}
		done += n;
	}
	w->written += done;
	w->len = 0;
	return 0;
}

int bs_writer_put(struct bs_writer *w, const struct bs_trace *t, const void *pdu)
{
	size_t need = BS_TRACE_SIZE + t->pdu_len;

	if (w->error)
		return -1;
	if (w->len + need > w->cap && bs_writer_flush(w))
		return -1;
	memcpy(w->buf + w->len, t, BS_TRACE_SIZE);
	if (t->pdu_len)
		memcpy(w->buf + w->len + BS_TRACE_SIZE, pdu, t->pdu_len);
	w->len += need;
	w->records++;
	return 0;
}

int bs_writer_close(struct bs_writer *w)
{
	int err;

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
