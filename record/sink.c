// SPDX-License-Identifier: GPL-2.0
/*
 * sink.c - writing the output with io_uring.
 *
 * A sink is one destination: a per-CPU file, or stdout for `-o -`.  Each
 * sink has at most one write in flight (so a file grows strictly in order
 * and a failure has one clear cut point) and a queue of large buffers
 * behind it; all sinks share one io_uring.  Buffers always hold whole
 * records.  When the disk fills up, the file is cut back to the last whole
 * record that reached it (with --zstd: to the last whole zstd frame, one
 * per batch), so every file we leave behind stays readable.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <liburing.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#include "bs_writer.h"
#include "record.h"

struct wbuf {
	struct wbuf *next;
	uint8_t *data;
	size_t len;
	size_t done;		/* bytes already written */
	uint64_t off;		/* file offset of data[0] (files only) */
};

/*
 * Bytes queued for writing over all sinks before the recorder stops and
 * waits for the disk.  Without a bound a writeback stall makes the queue,
 * and the recorder's memory, grow for as long as it lasts; with it the
 * recorder stops draining for a moment, and if the rings fill up the
 * kernel side counts drops, which are reported.
 */
#define QUEUE_LIMIT	(64u << 20)

struct rec_io {
	struct io_uring ring;
	unsigned int inflight;
	int error;
	size_t queued;		/* bytes in every sink's queue */
};

struct rec_sink {
	struct rec_io *io;
	int fd;
	char *name;
	bool stream;		/* stdout: write at the current position */
	bool compressed;
	uint64_t next_off;	/* where the next queued buffer goes */
	uint64_t written;	/* bytes that reached the file */
	struct wbuf *head, *tail;	/* head is in flight when busy */
	bool busy;
	int error;
#ifdef HAVE_ZSTD
	ZSTD_CCtx *zc;
#endif
};

struct rec_io *rec_io_new(unsigned int entries)
{
	struct rec_io *io = calloc(1, sizeof(*io));
	int err;

	if (!io)
		return NULL;
	err = io_uring_queue_init(entries, &io->ring, 0);
	if (err < 0) {
		fprintf(stderr, "blkscope record: io_uring setup failed: %s\n", strerror(-err));
		free(io);
		return NULL;
	}
	return io;
}

void rec_io_free(struct rec_io *io)
{
	if (!io)
		return;
	io_uring_queue_exit(&io->ring);
	free(io);
}

static void free_buf(struct rec_sink *s, struct wbuf *b)
{
	s->io->queued -= b->len;
	free(b->data);
	free(b);
}

static void free_queue(struct rec_sink *s)
{
	while (s->head) {
		struct wbuf *b = s->head;

		s->head = b->next;
		free_buf(s, b);
	}
	s->tail = NULL;
}

static void process_cqe(struct rec_io *io, struct io_uring_cqe *cqe);

static struct io_uring_sqe *get_sqe(struct rec_io *io)
{
	struct io_uring_sqe *sqe;

	while (!(sqe = io_uring_get_sqe(&io->ring))) {
		struct io_uring_cqe *cqe;

		io_uring_submit(&io->ring);
		if (io_uring_wait_cqe(&io->ring, &cqe) == 0) {
			process_cqe(io, cqe);
			io_uring_cqe_seen(&io->ring, cqe);
		}
	}
	return sqe;
}

static void submit_head(struct rec_sink *s)
{
	struct wbuf *b = s->head;
	struct io_uring_sqe *sqe;

	if (!b || s->busy || s->error)
		return;
	sqe = get_sqe(s->io);
	io_uring_prep_write(sqe, s->fd, b->data + b->done, b->len - b->done,
			    s->stream ? (uint64_t)-1 : b->off + b->done);
	io_uring_sqe_set_data(sqe, s);
	s->busy = true;
	s->io->inflight++;
	io_uring_submit(&s->io->ring);
}

/* A write failed or stopped short: keep the file valid, refuse the rest. */
static void fail_sink(struct rec_sink *s, int err)
{
	struct wbuf *b = s->head;

	s->error = err;
	s->io->error = err;
	if (!s->stream && b) {
		uint64_t valid = b->off;

		if (!s->compressed)
			valid += bs_whole_records(b->data, b->done);
		if (ftruncate(s->fd, valid) < 0)
			fprintf(stderr, "blkscope record: %s: cannot cut back to %llu bytes: %s\n",
				s->name, (unsigned long long)valid, strerror(errno));
		s->written = valid;
	}
	fprintf(stderr, "blkscope record: %s: write failed at byte %llu: %s\n", s->name,
		(unsigned long long)s->written, strerror(err));
	free_queue(s);
}

static void process_cqe(struct rec_io *io, struct io_uring_cqe *cqe)
{
	struct rec_sink *s = io_uring_cqe_get_data(cqe);
	struct wbuf *b = s->head;
	int res = cqe->res;

	io->inflight--;
	s->busy = false;
	if (res <= 0) {
		fail_sink(s, res < 0 ? -res : ENOSPC);
		return;
	}
	b->done += res;
	if (b->done < b->len) {		/* short write: go on, a full disk fails next */
		submit_head(s);
		return;
	}
	s->written += b->len;
	s->head = b->next;
	if (!s->head)
		s->tail = NULL;
	free_buf(s, b);
	submit_head(s);
}

int rec_io_reap(struct rec_io *io, bool all)
{
	struct io_uring_cqe *cqe;

	while (io->inflight) {
		int err = all ? io_uring_wait_cqe(&io->ring, &cqe) : io_uring_peek_cqe(&io->ring, &cqe);

		if (err == -EINTR)
			continue;
		if (err < 0)
			break;
		process_cqe(io, cqe);
		io_uring_cqe_seen(&io->ring, cqe);
	}
	return io->error ? -1 : 0;
}

struct rec_sink *rec_sink_new(struct rec_io *io, int fd, const char *name, bool stream,
			      int zstd_level)
{
	struct rec_sink *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->io = io;
	s->fd = fd;
	s->stream = stream;
	s->name = strdup(name);
	if (!s->name)
		goto fail;
	if (zstd_level) {
#ifdef HAVE_ZSTD
		s->compressed = true;
		s->zc = ZSTD_createCCtx();
		if (!s->zc || ZSTD_isError(ZSTD_CCtx_setParameter(s->zc, ZSTD_c_compressionLevel,
								   zstd_level)))
			goto fail;
#else
		goto fail;
#endif
	}
	return s;
fail:
	free(s->name);
	free(s);
	return NULL;
}

/* Backpressure: let writes complete until the queues are under QUEUE_LIMIT. */
static void wait_below_limit(struct rec_io *io)
{
	struct io_uring_cqe *cqe;

	while (io->queued > QUEUE_LIMIT && io->inflight && !io->error) {
		if (io_uring_wait_cqe(&io->ring, &cqe) < 0)
			break;
		process_cqe(io, cqe);
		io_uring_cqe_seen(&io->ring, cqe);
	}
}

static int enqueue(struct rec_sink *s, uint8_t *data, size_t len)
{
	struct wbuf *b = calloc(1, sizeof(*b));

	if (!b) {
		free(data);
		return -1;
	}
	b->data = data;
	b->len = len;
	b->off = s->next_off;
	s->next_off += len;
	s->io->queued += len;
	if (s->tail)
		s->tail->next = b;
	else
		s->head = b;
	s->tail = b;
	submit_head(s);
	wait_below_limit(s->io);
	return 0;
}

#ifdef HAVE_ZSTD
/*
 * Each batch becomes one whole zstd frame: concatenated frames are one valid
 * zstd stream, and a file cut back to a frame boundary (disk full) is still
 * a complete, valid .zst.  256 KiB batches lose little ratio to this.
 */
static int compress(struct rec_sink *s, const void *data, size_t len, ZSTD_EndDirective mode)
{
	size_t cap = ZSTD_compressBound(len) + 1024, remaining;
	ZSTD_inBuffer in = { data, len, 0 };
	ZSTD_outBuffer out = { NULL, cap, 0 };

	out.dst = malloc(cap);
	if (!out.dst)
		return -1;
	do {
		remaining = ZSTD_compressStream2(s->zc, &out, &in, mode);
		if (ZSTD_isError(remaining)) {
			fprintf(stderr, "blkscope record: %s: zstd: %s\n", s->name,
				ZSTD_getErrorName(remaining));
			free(out.dst);
			return -1;
		}
		if (remaining && out.pos == out.size) {
			void *p = realloc(out.dst, out.size * 2);

			if (!p) {
				free(out.dst);
				return -1;
			}
			out.dst = p;
			out.size *= 2;
		}
	} while (remaining);
	if (!out.pos) {
		free(out.dst);
		return 0;
	}
	return enqueue(s, out.dst, out.pos);
}
#endif

int rec_sink_write(struct rec_sink *s, const void *data, size_t len)
{
	uint8_t *copy;

	if (s->error)
		return -1;
	if (!len)
		return 0;
#ifdef HAVE_ZSTD
	if (s->compressed)
		return compress(s, data, len, ZSTD_e_end);
#endif
	copy = malloc(len);
	if (!copy)
		return -1;
	memcpy(copy, data, len);
	return enqueue(s, copy, len);
}

int rec_sink_close(struct rec_sink *s)
{
	struct io_uring_cqe *cqe;
	int err;

#ifdef HAVE_ZSTD
	/* an idle CPU's file is still a valid .zst: one empty frame */
	if (s->compressed && !s->error && !s->next_off)
		compress(s, "", 0, ZSTD_e_end);
#endif
	/* wait until this sink's queue has gone out */
	while (s->head && !s->error) {
		if (!s->busy)
			submit_head(s);
		if (io_uring_wait_cqe(&s->io->ring, &cqe) == 0) {
			process_cqe(s->io, cqe);
			io_uring_cqe_seen(&s->io->ring, cqe);
		}
	}
	free_queue(s);
	err = s->error;
	if (s->fd > 2 && close(s->fd) < 0 && !err)
		err = errno;
	s->fd = -1;
	return err ? -1 : 0;
}

void rec_sink_free(struct rec_sink *s)
{
	if (!s)
		return;
#ifdef HAVE_ZSTD
	ZSTD_freeCCtx(s->zc);
#endif
	free(s->name);
	free(s);
}

uint64_t rec_sink_bytes(const struct rec_sink *s)
{
	return s->written;
}

int rec_sink_error(const struct rec_sink *s)
{
	return s->error;
}

const char *rec_sink_name(const struct rec_sink *s)
{
	return s->name;
}
