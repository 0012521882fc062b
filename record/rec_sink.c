// SPDX-License-Identifier: GPL-2.0
/*
 * rec_sink.c - writing the output with io_uring.
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
#include <sys/mman.h>
#include <liburing.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#include "bs_writer.h"
#include "record.h"

/*
 * The write queue is a fixed pool of chunks, mapped and touched once at
 * start: however long the disk stalls, the recorder's memory does not grow
 * (malloc'd copies did, and glibc kept the peak).  When every chunk is
 * queued the recorder waits for the disk; meanwhile the kernel rings fill
 * and, if the stall outlasts them, count drops, which are reported.
 */
#define CHUNK_BYTES	(1u << 20)
#define POOL_CHUNKS	16
/* Raw bytes per piece: its zstd frame (compressBound) still fits a chunk. */
#define PIECE_MAX	(CHUNK_BYTES - (64u << 10))

/* A chunk starts at a record boundary (a frame boundary with --zstd). */
struct chunk {
	struct chunk *next;
	uint8_t *data;		/* CHUNK_BYTES */
	size_t len;
	size_t done;		/* bytes already written */
	uint64_t off;		/* file offset of data[0] (files only) */
};

struct rec_io {
	struct io_uring ring;
	unsigned int inflight;
	int error;
	uint8_t *pool;
	unsigned int nchunks;	/* <= POOL_CHUNKS */
	struct chunk chunks[POOL_CHUNKS];
	struct chunk *free;
	unsigned int nfree;
	uint64_t waits;		/* times every chunk was queued */
	uint8_t *conv;		/* --format 8: one piece rewritten as v8 records */
};

struct rec_sink {
	struct rec_io *io;
	int fd;
	char *name;
	bool stream;		/* stdout: write at the current position */
	bool compressed;
	bool v8;		/* write the v7 records it gets as version 8 */
	uint64_t next_off;	/* where the next queued byte goes */
	uint64_t written;	/* bytes that reached the file */
	struct chunk *head, *tail;	/* head is in flight when busy */
	bool busy;
	int error;
#ifdef HAVE_ZSTD
	ZSTD_CCtx *zc;
#endif
};

struct rec_io *rec_io_new_pool(unsigned int entries, unsigned int chunks)
{
	struct rec_io *io = calloc(1, sizeof(*io));
	int err, i;

	if (!io)
		return NULL;
	io->nchunks = chunks < 2 ? 2 : chunks > POOL_CHUNKS ? POOL_CHUNKS : chunks;
	io->pool = mmap(NULL, (size_t)io->nchunks * CHUNK_BYTES, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (io->pool == MAP_FAILED) {
		fprintf(stderr, "blkscope record: cannot map %u MiB of write buffers: %s\n",
			io->nchunks * (CHUNK_BYTES >> 20), strerror(errno));
		free(io);
		return NULL;
	}
	for (i = (int)io->nchunks - 1; i >= 0; i--) {
		io->chunks[i].data = io->pool + (size_t)i * CHUNK_BYTES;
		io->chunks[i].next = io->free;
		io->free = &io->chunks[i];
	}
	io->nfree = io->nchunks;
	err = io_uring_queue_init(entries, &io->ring, 0);
	if (err < 0) {
		fprintf(stderr, "blkscope record: io_uring setup failed: %s\n", strerror(-err));
		munmap(io->pool, (size_t)io->nchunks * CHUNK_BYTES);
		free(io);
		return NULL;
	}
	return io;
}

struct rec_io *rec_io_new(unsigned int entries)
{
	return rec_io_new_pool(entries, POOL_CHUNKS);
}

void rec_io_free(struct rec_io *io)
{
	if (!io)
		return;
	io_uring_queue_exit(&io->ring);
	munmap(io->pool, (size_t)io->nchunks * CHUNK_BYTES);
	free(io->conv);
	free(io);
}

uint64_t rec_io_waits(const struct rec_io *io)
{
	return io->waits;
}

unsigned int rec_io_free_chunks(const struct rec_io *io)
{
	return io->nfree;
}

void rec_io_clear_error(struct rec_io *io)
{
	io->error = 0;
}

static void put_chunk(struct rec_io *io, struct chunk *c)
{
	c->next = io->free;
	io->free = c;
	io->nfree++;
}

static void free_queue(struct rec_sink *s)
{
	while (s->head) {
		struct chunk *c = s->head;

		s->head = c->next;
		put_chunk(s->io, c);
	}
	s->tail = NULL;
}

static void process_cqe(struct rec_io *io, struct io_uring_cqe *cqe);

/* Wait for one write to finish; false if none can (nothing in flight). */
static bool wait_one(struct rec_io *io)
{
	struct io_uring_cqe *cqe;
	int err;

	if (!io->inflight)
		return false;
	do
		err = io_uring_wait_cqe(&io->ring, &cqe);
	while (err == -EINTR);
	if (err < 0)
		return false;
	process_cqe(io, cqe);
	io_uring_cqe_seen(&io->ring, cqe);
	return true;
}

static struct io_uring_sqe *get_sqe(struct rec_io *io)
{
	struct io_uring_sqe *sqe;

	while (!(sqe = io_uring_get_sqe(&io->ring))) {
		io_uring_submit(&io->ring);
		wait_one(io);
	}
	return sqe;
}

static void submit_head(struct rec_sink *s)
{
	struct chunk *c = s->head;
	struct io_uring_sqe *sqe;

	if (!c || s->busy || s->error)
		return;
	sqe = get_sqe(s->io);
	io_uring_prep_write(sqe, s->fd, c->data + c->done, c->len - c->done,
			    s->stream ? (uint64_t)-1 : c->off + c->done);
	io_uring_sqe_set_data(sqe, s);
	s->busy = true;
	s->io->inflight++;
	io_uring_submit(&s->io->ring);
}

/* A write failed or stopped short: keep the file valid, refuse the rest. */
static void fail_sink(struct rec_sink *s, int err)
{
	struct chunk *c = s->head;

	s->error = err;
	s->io->error = err;
	if (!s->stream && c) {
		uint64_t valid = c->off;

		if (!s->compressed)
			valid += bs_whole_records(c->data, c->done);
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
	struct chunk *c = s->head;
	int res = cqe->res;

	io->inflight--;
	s->busy = false;
	if (res <= 0) {
		fail_sink(s, res < 0 ? -res : ENOSPC);
		return;
	}
	c->done += res;
	if (c->done < c->len) {		/* short write: go on, a full disk fails next */
		submit_head(s);
		return;
	}
	s->written += c->len;
	s->head = c->next;
	if (!s->head)
		s->tail = NULL;
	put_chunk(io, c);
	submit_head(s);
}

int rec_io_reap(struct rec_io *io, bool all)
{
	struct io_uring_cqe *cqe;

	if (all)
		while (wait_one(io))
			;
	while (io->inflight && io_uring_peek_cqe(&io->ring, &cqe) == 0) {
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

/*
 * A chunk with room for `need` more bytes at the end of this sink's queue:
 * the tail if it is not in flight yet, else a free one (waiting for the
 * disk while none is).  NULL if the sink failed meanwhile.
 */
static struct chunk *tail_with_room(struct rec_sink *s, size_t need)
{
	struct rec_io *io = s->io;
	struct chunk *c = s->tail;

	if (c && !(c == s->head && s->busy) && CHUNK_BYTES - c->len >= need)
		return c;
	if (!io->free)
		io->waits++;
	while (!io->free && wait_one(io))
		;
	if (s->error)
		return NULL;
	if (!io->free) {	/* every buffer queued, none in flight: cannot happen */
		fprintf(stderr, "blkscope record: %s: no write buffer came free\n", s->name);
		s->error = s->io->error = EIO;
		return NULL;
	}
	c = io->free;
	io->free = c->next;
	io->nfree--;
	c->next = NULL;
	c->len = c->done = 0;
	c->off = s->next_off;
	if (s->tail)
		s->tail->next = c;
	else
		s->head = c;
	s->tail = c;
	return c;
}

/* Queue one piece (at most PIECE_MAX bytes of whole records). */
static int put_piece(struct rec_sink *s, const void *data, size_t len)
{
	size_t need = len, out = len;
	struct chunk *c;

#ifdef HAVE_ZSTD
	if (s->compressed)
		need = ZSTD_compressBound(len);
#endif
	c = tail_with_room(s, need);
	if (!c)
		return -1;
#ifdef HAVE_ZSTD
	/*
	 * Each piece becomes one whole zstd frame: concatenated frames are one
	 * valid zstd stream, and a file cut back to a frame boundary (disk
	 * full) is still a complete, valid .zst.
	 */
	if (s->compressed) {
		out = ZSTD_compress2(s->zc, c->data + c->len, CHUNK_BYTES - c->len, data, len);
		if (ZSTD_isError(out)) {
			/* refuse the rest: the chunk just taken may be queued empty */
			fprintf(stderr, "blkscope record: %s: zstd: %s\n", s->name,
				ZSTD_getErrorName(out));
			s->error = s->io->error = EIO;
			return -1;
		}
	} else
#endif
		memcpy(c->data + c->len, data, len);
	c->len += out;
	s->next_off += out;
	submit_head(s);
	return 0;
}

int rec_sink_set_v8(struct rec_sink *s)
{
	if (!s->io->conv)
		s->io->conv = malloc(PIECE_MAX);
	s->v8 = true;
	return s->io->conv ? 0 : -1;
}

/* --format 8: the records rewritten as v8 pieces (16 bytes more each). */
static int write_v8(struct rec_sink *s, const uint8_t *p, size_t len)
{
	while (len && !s->error) {
		size_t used, out = rec_to_v8(s->io->conv, PIECE_MAX, p, len, &used);

		if (!used) {	/* not whole records: cannot happen */
			fprintf(stderr, "blkscope record: %s: not a whole record\n", s->name);
			s->error = s->io->error = EIO;
			break;
		}
		if (put_piece(s, s->io->conv, out) < 0)
			return -1;
		p += used;
		len -= used;
	}
	return s->error ? -1 : 0;
}

int rec_sink_write(struct rec_sink *s, const void *data, size_t len)
{
	const uint8_t *p = data;

	if (s->v8)
		return write_v8(s, p, len);
	while (len && !s->error) {
		size_t piece = len;

		if (piece > PIECE_MAX) {
			piece = bs_whole_records(p, PIECE_MAX);
			if (!piece)		/* not records: any cut will do */
				piece = PIECE_MAX;
		}
		if (put_piece(s, p, piece) < 0)
			return -1;
		p += piece;
		len -= piece;
	}
	return s->error ? -1 : 0;
}

int rec_sink_close(struct rec_sink *s)
{
	int err;

#ifdef HAVE_ZSTD
	/* an idle CPU's file is still a valid .zst: one empty frame */
	if (s->compressed && !s->error && !s->next_off)
		put_piece(s, "", 0);
#endif
	/*
	 * wait until this sink's queue has gone out, or its write in flight after an error: a chunk
	 * goes back to the pool only when idle
	 */
	while ((s->head && !s->error) || s->busy) {
		if (!s->busy)
			submit_head(s);
		if (!wait_one(s->io))
			break;
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
