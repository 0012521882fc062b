// SPDX-License-Identifier: GPL-2.0
/*
 * bs_stream.c - validating reader for one stream of blktrace records.
 *
 * All input goes through one buffer (128 KiB to 1 MiB) that is refilled
 * with large read()s (or by the zstd decoder), so there is no syscall per
 * record and memory stays constant whatever the file size (mmap would make
 * RSS grow with the trace).  A record is handed out as a pointer into that
 * buffer; it stays valid until the next call.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#include "bs_codec.h"
#include "bs_readahead.h"
#include "bs_stream.h"

/* CPU numbers at or above this are treated as corruption in a stream */
#define BS_MAX_SANE_CPU (1u << 16)

#define ZSTD_MAGIC	0xFD2FB528u	/* little-endian frame magic */

/*
 * Reading ahead, a chunk goes in behind this much room, where the unread
 * end of the current buffer (less than a whole record, that is at most
 * a 64-byte header, a 64 KiB PDU and the next header) is put before it.
 */
#define AHEAD_ROOM	(128u << 10)

enum byte_order { ORDER_UNKNOWN, ORDER_NATIVE, ORDER_FOREIGN };

struct bs_stream {
	int fd;
	char *name;
	int expect_cpu;
	uint8_t *buf;
	size_t cap;		/* of buf; also of zin, which must take what the first read put in buf */
	size_t pos, len;	/* unread bytes are buf[pos..len) */
	uint64_t buf_off;	/* stream offset of buf[0] */
	bool eof;		/* the source has no more bytes */
	bool stopped;		/* end reported (clean or damaged) */
	bool damaged;
	enum byte_order order;
	size_t hdr;		/* record header size: 0 until the first record, 48 or 64 */
	unsigned int version;	/* the first record's version; every record must match */
	uint64_t nrecords;
	uint64_t damage_offset;	/* where the damage is (when damaged) */
	uint64_t cpu_mismatches;
#ifdef HAVE_ZSTD
	ZSTD_DCtx *zd;
	uint8_t *zin;
	size_t zin_pos, zin_len;
	bool zin_eof;
#endif
	bool zstd;
	/* reading ahead (bs_stream_read_ahead()): the spare buffer being filled */
	struct bs_readahead *ra;
	struct bs_readahead_req ahead;
	struct bs_msg_sink msg;		/* damage and skipped records (bs_stream_set_msg) */
};

static const char *progname = "blkscope";

void bs_set_progname(const char *name)
{
	progname = name;
}

const char *bs_progname(void)
{
	return progname;
}

void bs_stream_set_msg(struct bs_stream *s, const struct bs_msg_sink *msg)
{
	s->msg = msg ? *msg : (struct bs_msg_sink){ 0 };
}

const char *bs_stream_name(const struct bs_stream *s)
{
	return s->name;
}

bool bs_stream_damaged(const struct bs_stream *s)
{
	return s->damaged;
}

uint64_t bs_stream_damage_offset(const struct bs_stream *s)
{
	return s->damage_offset;
}

uint64_t bs_stream_records(const struct bs_stream *s)
{
	return s->nrecords;
}

/* The single error line of a damaged stream; stops the stream. */
__attribute__((format(printf, 3, 4)))
static int stream_damage(struct bs_stream *s, uint64_t offset, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	bs_msg(&s->msg, BS_MSG_WARN, "%s: offset %llu: %s; stopped reading it (the %llu records "
	       "before are kept)", s->name, (unsigned long long)offset, what,
	       (unsigned long long)s->nrecords);
	s->damaged = true;
	s->damage_offset = offset;
	s->stopped = true;
	return BS_STREAM_DAMAGED;
}

#ifdef HAVE_ZSTD

/* Decompress into buf[len..cap) until at least `want` bytes are there. */
static int zstd_fill(struct bs_stream *s, size_t want)
{
	while (s->len < want && !s->eof) {
		ZSTD_outBuffer out = { s->buf, s->cap, s->len };
		ZSTD_inBuffer in;
		size_t ret;

		if (s->zin_pos == s->zin_len && !s->zin_eof) {
			ssize_t n = bs_read_full(s->fd, s->zin, s->cap);

			if (n < 0)
				return -1;
			s->zin_pos = 0;
			s->zin_len = n;
			if (n == 0)
				s->zin_eof = true;
		}
		if (s->zin_pos == s->zin_len && s->zin_eof) {
			s->eof = true;
			break;
		}
		in = (ZSTD_inBuffer){ s->zin, s->zin_len, s->zin_pos };
		ret = ZSTD_decompressStream(s->zd, &out, &in);
		if (ZSTD_isError(ret)) {
			/* the one damage line, at the decompressed offset reached */
			stream_damage(s, s->buf_off + s->len, "zstd: %s", ZSTD_getErrorName(ret));
			return -1;
		}
		s->zin_pos = in.pos;
		s->len = out.pos;
	}
	return 0;
}
#endif

/*
 * stream_fill() reading ahead: the spare buffer, once the thread has read
 * into it, becomes the buffer, with the unread bytes put right before the
 * chunk; the old buffer goes back to the thread for the next one.
 */
static int ahead_fill(struct bs_stream *s, size_t want)
{
	while (s->len - s->pos < want && !s->eof) {
		size_t avail = s->len - s->pos;
		uint8_t *next = s->ahead.dst - AHEAD_ROOM;
		ssize_t got;

		if (avail > AHEAD_ROOM) {	/* no record is that long: not reached */
			errno = EOVERFLOW;
			return -1;
		}
		got = bs_readahead_wait(s->ra, &s->ahead);
		if (got < 0)
			return -1;
		if (got == 0) {
			s->eof = true;
			break;
		}
		memcpy(next + AHEAD_ROOM - avail, s->buf + s->pos, avail);
		s->buf_off += s->pos - (AHEAD_ROOM - avail);
		s->ahead.dst = s->buf + AHEAD_ROOM;
		s->buf = next;
		s->pos = AHEAD_ROOM - avail;
		s->len = AHEAD_ROOM + (size_t)got;
		bs_readahead_submit(s->ra, &s->ahead);
	}
	return 0;
}

/* Make at least `want` unread bytes available, if the input has them. */
static int stream_fill(struct bs_stream *s, size_t want)
{
	size_t avail = s->len - s->pos;

	if (avail >= want || s->eof)
		return 0;
	if (s->ra)
		return ahead_fill(s, want);
	if (s->pos) {
		memmove(s->buf, s->buf + s->pos, avail);
		s->buf_off += s->pos;
		s->pos = 0;
		s->len = avail;
	}
#ifdef HAVE_ZSTD
	if (s->zstd)
		return zstd_fill(s, want);
#endif
	while (s->len < want && !s->eof) {
		ssize_t n = read(s->fd, s->buf + s->len, s->cap - s->len);

		if (n == 0)
			s->eof = true;
		else if (n < 0 && errno != EINTR)
			return -1;
		else if (n > 0)
			s->len += n;
	}
	return 0;
}

/* Look at the first bytes: a zstd frame switches the stream to decompression. */
static int detect_compression(struct bs_stream *s)
{
	uint32_t magic;

	if (stream_fill(s, 4) < 0)
		return -1;
	if (s->len < 4)
		return 0;
	memcpy(&magic, s->buf, 4);
	if (magic != ZSTD_MAGIC)
		return 0;
#ifdef HAVE_ZSTD
	s->zd = ZSTD_createDCtx();
	s->zin = malloc(s->cap);
	if (!s->zd || !s->zin) {
		errno = ENOMEM;
		return -1;
	}
	/* what was read so far is compressed input, not records */
	memcpy(s->zin, s->buf, s->len);
	s->zin_pos = 0;
	s->zin_len = s->len;
	s->zin_eof = s->eof;
	s->len = s->pos = 0;
	s->eof = false;
	s->zstd = true;
	return 0;
#else
	errno = ENOTSUP;	/* bs_stream_open() says what that means here */
	return -1;
#endif
}

static struct bs_stream *from_fd(int fd, const char *name, int expect_cpu, size_t buf_bytes)
{
	struct bs_stream *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->fd = fd;
	s->expect_cpu = expect_cpu;
	s->name = strdup(name);
	s->cap = buf_bytes < BS_STREAM_BUF_MIN ? BS_STREAM_BUF_MIN :
		 buf_bytes > BS_STREAM_BUF_MAX ? BS_STREAM_BUF_MAX : buf_bytes;
	s->buf = malloc(s->cap);
	if (!s->name || !s->buf) {
		bs_stream_close(s);
		errno = ENOMEM;
		return NULL;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (detect_compression(s) < 0) {
		int e = errno;

		bs_stream_close(s);
		errno = e;
		return NULL;
	}
	return s;
}

struct bs_stream *bs_stream_from_fd(int fd, const char *name, int expect_cpu)
{
	return from_fd(fd, name, expect_cpu, BS_STREAM_BUF_MAX);
}

struct bs_stream *bs_stream_open(const char *path, int expect_cpu, char *err, size_t errlen)
{
	return bs_stream_open_sized(path, expect_cpu, BS_STREAM_BUF_MAX, err, errlen);
}

struct bs_stream *bs_stream_open_sized(const char *path, int expect_cpu, size_t buf_bytes,
				       char *err, size_t errlen)
{
	struct bs_stream *s;
	int fd;

	if (!strcmp(path, "-"))
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	s = from_fd(fd, strcmp(path, "-") ? path : "<stdin>", expect_cpu, buf_bytes);
	if (!s && errno == ENOTSUP)
		snprintf(err, errlen, "%s: zstd-compressed input, but blkscope was built without libzstd",
			 path);
	else if (!s)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	return s;
}

static bool magic_ok(uint32_t magic)
{
	return (magic & BS_TRACE_MAGIC_MASK) == BS_TRACE_MAGIC;
}

/* The first record decides the byte order of the whole stream. */
static int detect_order(struct bs_stream *s, uint32_t raw_magic, uint64_t off)
{
	if (magic_ok(raw_magic))
		s->order = ORDER_NATIVE;
	else if (magic_ok(bs_swap32(raw_magic)))
		s->order = ORDER_FOREIGN;
	else
		return stream_damage(s, off, "bad magic 0x%08x: not a blktrace stream", raw_magic);
	return 0;
}

/* Header field at byte off of the record at buffer position pos, host order. */
static uint32_t peek32(const struct bs_stream *s, size_t pos, size_t off)
{
	uint32_t v;

	memcpy(&v, s->buf + pos + off, 4);
	return s->order == ORDER_FOREIGN ? bs_swap32(v) : v;
}

static uint16_t peek16(const struct bs_stream *s, size_t pos, size_t off)
{
	uint16_t v;

	memcpy(&v, s->buf + pos + off, 2);
	return s->order == ORDER_FOREIGN ? bs_swap16(v) : v;
}

/*
 * Could the record at buffer position pos be a version-7 record laid out
 * with a `hdr`-byte header?  A 64-byte one must have no action bits past
 * the known categories: read as 64-byte, a 48-byte record's device number
 * lands there.  Sets *next to where the following record would start.
 */
static bool record_fits(const struct bs_stream *s, size_t pos, size_t hdr, size_t *next)
{
	uint16_t pdu_len;

	if (s->len - pos < hdr || peek32(s, pos, 0) != BS_TRACE_MAGIC_V7)
		return false;
	pdu_len = peek16(s, pos, hdr == BS_TRACE2_SIZE ? offsetof(struct bs_trace2, pdu_len)
						  : offsetof(struct bs_trace, pdu_len));
	if (pdu_len > BS_MAX_SANE_PDU)
		return false;
	if (hdr == BS_TRACE2_SIZE && (peek32(s, pos, offsetof(struct bs_trace2, action) + 4) & ~BS_TC_VALID_HI))
		return false;
	*next = pos + hdr + pdu_len;
	return true;
}

/*
 * Does the data agree with a `hdr`-byte header?  It does if the first
 * record fits and the data ends right after it, or the next record is a
 * valid one too.  1 yes, 0 no, -1 the input failed (read error or zstd
 * damage, already reported if zstd).
 */
static int layout_fits(struct bs_stream *s, size_t hdr)
{
	size_t next, next2, rel;

	if (!record_fits(s, s->pos, hdr, &next))
		return 0;
	rel = next - s->pos;		/* filling may move the unread bytes to buf[0] */
	if (stream_fill(s, rel + BS_TRACE2_SIZE) < 0 || s->stopped)
		return -1;
	next = s->pos + rel;
	if (s->eof && s->len == next)
		return 1;
	return record_fits(s, next, hdr, &next2);
}

/*
 * Version 7 comes in two layouts: the kernel's 48-byte records, and the
 * 64-byte records of current blkparse's -d dumps, where the magic still
 * says 7.  Only the data can tell them apart (never the file name).
 * Returns the header size, or 0 if the input failed.
 */
static size_t detect_v7_layout(struct bs_stream *s)
{
	int fits = layout_fits(s, BS_TRACE_SIZE);

	if (fits)
		return fits > 0 ? BS_TRACE_SIZE : 0;
	fits = layout_fits(s, BS_TRACE2_SIZE);
	if (fits)
		return fits > 0 ? BS_TRACE2_SIZE : 0;
	return BS_TRACE_SIZE;	/* damaged either way: report it the v7 way */
}

static int stream_read_error(struct bs_stream *s);

/* The first record fixes the stream's version and record size. */
static int detect_format(struct bs_stream *s, uint32_t magic, uint64_t off)
{
	s->version = magic & 0xff;
	if (s->version == BS_TRACE_VERSION8)
		s->hdr = BS_TRACE2_SIZE;
	else if (s->version == BS_TRACE_VERSION)
		s->hdr = detect_v7_layout(s);
	else
		return stream_damage(s, off, "unsupported trace version %u (blkscope reads versions 7 and 8)",
				     s->version);
	return s->hdr ? 0 : stream_read_error(s);
}

static int stream_read_error(struct bs_stream *s)
{
	if (s->stopped)		/* already reported (zstd damage) */
		return BS_STREAM_DAMAGED;
	return stream_damage(s, s->buf_off + s->pos, "read error: %s", strerror(errno));
}

/* Decode the header at the buffer position into *t and *action_hi (host order). */
static void decode_header(struct bs_stream *s, struct bs_trace *t, uint32_t *action_hi)
{
	if (s->hdr == BS_TRACE_SIZE) {
		memcpy(t, s->buf + s->pos, BS_TRACE_SIZE);
		if (s->order == ORDER_FOREIGN)
			bs_trace_swap(t);
		*action_hi = 0;
	} else {
		struct bs_trace2 r;

		memcpy(&r, s->buf + s->pos, BS_TRACE2_SIZE);
		if (s->order == ORDER_FOREIGN)
			bs_trace2_swap(&r);
		bs_decode_v8(&r, t, action_hi);
	}
}

/* Byte order and record format, from the first record's magic (and data). */
static int detect_stream(struct bs_stream *s, uint64_t off)
{
	uint32_t magic;

	/* a 64-byte layout is only judged with its whole header at hand */
	if (stream_fill(s, BS_TRACE2_SIZE) < 0 || s->stopped)
		return stream_read_error(s);
	memcpy(&magic, s->buf + s->pos, 4);
	if (detect_order(s, magic, off))
		return BS_STREAM_DAMAGED;
	return detect_format(s, s->order == ORDER_FOREIGN ? bs_swap32(magic) : magic, off);
}

/*
 * The reader proper: fill *t (host order) and point *pdu into the buffer.
 * Callers that keep records (the merge) pass their own slot, so a header
 * is copied once on its way from the buffer.
 */
/*
 * The common record, checked in one go: a native 48-byte header of the
 * stream's version, a sane pdu_len, the expected cpu, all of it in the
 * buffer.  false: nothing consumed, bs_stream_read() takes the long way
 * (which judges the record again and says what is wrong with it).
 */
static inline bool read_plain(struct bs_stream *s, struct bs_trace *t, uint32_t *action_hi, const uint8_t **pdu,
			      uint64_t *offset)
{
	size_t avail = s->len - s->pos, need;

	if (s->stopped || s->hdr != BS_TRACE_SIZE || s->order != ORDER_NATIVE || avail < BS_TRACE_SIZE)
		return false;
	memcpy(t, s->buf + s->pos, BS_TRACE_SIZE);
	need = BS_TRACE_SIZE + t->pdu_len;
	if (t->magic != (BS_TRACE_MAGIC | s->version) || t->pdu_len > BS_MAX_SANE_PDU || avail < need)
		return false;
	if (s->expect_cpu >= 0 ? t->cpu != (uint32_t)s->expect_cpu : t->cpu >= BS_MAX_SANE_CPU)
		return false;
	*action_hi = 0;
	*pdu = s->buf + s->pos + BS_TRACE_SIZE;
	*offset = s->buf_off + s->pos;
	s->pos += need;
	s->nrecords++;
	return true;
}

/* everything else: the first record, refills, other formats, damage, skipped cpus */
static __attribute__((noinline)) int read_slow(struct bs_stream *s, struct bs_trace *t, uint32_t *action_hi,
					       const uint8_t **pdu, uint64_t *offset)
{
	for (;;) {
		uint64_t off;
		size_t avail, need, hdr = s->hdr ? s->hdr : BS_TRACE_SIZE;

		if (s->stopped)
			return s->damaged ? BS_STREAM_DAMAGED : BS_STREAM_END;
		avail = s->len - s->pos;
		if (avail < hdr) {
			if (stream_fill(s, hdr) < 0)
				return stream_read_error(s);
			avail = s->len - s->pos;
		}
		off = s->buf_off + s->pos;
		if (avail == 0) {
			s->stopped = true;
			return BS_STREAM_END;
		}
		if (avail < hdr)
			return stream_damage(s, off, "truncated record header (%zu of %zu bytes)", avail, hdr);
		if (!s->hdr) {
			if (detect_stream(s, off))
				return BS_STREAM_DAMAGED;
			hdr = s->hdr;
			avail = s->len - s->pos;
			if (avail < hdr)
				return stream_damage(s, off, "truncated record header (%zu of %zu bytes)",
						     avail, hdr);
		}
		decode_header(s, t, action_hi);
		if (!magic_ok(t->magic))
			return stream_damage(s, off, "bad magic 0x%08x", t->magic);
		if ((t->magic & 0xff) != s->version)
			return stream_damage(s, off, "unsupported trace version %u in a version-%u stream",
					     t->magic & 0xff, s->version);
		if (t->pdu_len > BS_MAX_SANE_PDU)
			return stream_damage(s, off, "absurd pdu_len %u", t->pdu_len);
		/* per-CPU files skip foreign cpus below; a stream would size tables by it */
		if (s->expect_cpu < 0 && t->cpu >= BS_MAX_SANE_CPU)
			return stream_damage(s, off, "absurd cpu %u", t->cpu);
		need = hdr + t->pdu_len;
		if (avail < need) {
			if (stream_fill(s, need) < 0)
				return stream_read_error(s);
			avail = s->len - s->pos;
			if (avail < need)
				return stream_damage(s, off, "truncated PDU (%zu of %u bytes)",
						     avail - hdr, t->pdu_len);
		}
		*pdu = s->buf + s->pos + hdr;
		*offset = off;
		s->pos += need;
		if (s->expect_cpu >= 0 && t->cpu != (uint32_t)s->expect_cpu) {
			/* blkparse skips such records; say so once per stream */
			if (!s->cpu_mismatches++)
				bs_msg(&s->msg, BS_MSG_WARN, "%s: offset %llu: record of cpu %u in "
				       "the file of cpu %d; skipping such records", s->name,
				       (unsigned long long)off, t->cpu, s->expect_cpu);
			continue;
		}
		s->nrecords++;
		return BS_STREAM_RECORD;
	}
}

int bs_stream_read(struct bs_stream *s, struct bs_trace *t, uint32_t *action_hi, const uint8_t **pdu,
		   uint64_t *offset)
{
	if (read_plain(s, t, action_hi, pdu, offset))
		return BS_STREAM_RECORD;
	return read_slow(s, t, action_hi, pdu, offset);
}

unsigned int bs_stream_read_plain_run(struct bs_stream *s, struct bs_trace *t, unsigned int max)
{
	const uint8_t *p;
	size_t whole;
	unsigned int n;
	/* loop invariants in locals: the copies into t[] could alias s for the compiler */
	const uint32_t magic = BS_TRACE_MAGIC | s->version;
	const int cpu = s->expect_cpu;

	if (s->stopped || s->hdr != BS_TRACE_SIZE || s->order != ORDER_NATIVE)
		return 0;
	p = s->buf + s->pos;
	whole = (s->len - s->pos) / BS_TRACE_SIZE;
	if (max > whole)
		max = (unsigned int)whole;
	for (n = 0; n < max; n++, p += BS_TRACE_SIZE) {
		memcpy(&t[n], p, BS_TRACE_SIZE);
		if (t[n].magic != magic || t[n].pdu_len || bs_is_note(t[n].action) ||
		    (cpu >= 0 ? t[n].cpu != (uint32_t)cpu : t[n].cpu >= BS_MAX_SANE_CPU))
			break;	/* t[n] is scratch: the caller reads it again the long way */
	}
	s->pos += (size_t)n * BS_TRACE_SIZE;
	s->nrecords += n;
	return n;
}

bool bs_stream_foreign(const struct bs_stream *s)
{
	return s->order == ORDER_FOREIGN;
}

unsigned int bs_stream_version(const struct bs_stream *s)
{
	return s->version;
}

size_t bs_stream_record_size(const struct bs_stream *s)
{
	return s->hdr;
}

int bs_stream_next(struct bs_stream *s, struct bs_record *rec)
{
	int ret = bs_stream_read(s, &rec->t, &rec->action_hi, &rec->pdu, &rec->offset);

	rec->foreign = s->order == ORDER_FOREIGN;
	return ret;
}

int bs_stream_read_ahead(struct bs_stream *s, struct bs_readahead *ra)
{
	struct stat st;
	uint8_t *buf, *spare;

	if (!ra || s->ra || s->zstd || s->eof || s->stopped || fstat(s->fd, &st) || !S_ISREG(st.st_mode))
		return -1;
	/* both buffers get the room in front of a chunk; the data stays where it is */
	buf = realloc(s->buf, AHEAD_ROOM + s->cap);
	if (!buf)
		return -1;
	s->buf = buf;
	spare = malloc(AHEAD_ROOM + s->cap);
	if (!spare)
		return -1;
	s->ra = ra;
	s->ahead = (struct bs_readahead_req){ .fd = s->fd, .dst = spare + AHEAD_ROOM, .len = s->cap };
	bs_readahead_submit(ra, &s->ahead);
	return 0;
}

void bs_stream_close(struct bs_stream *s)
{
	if (!s)
		return;
	if (s->ra) {	/* someone may still be reading into the spare */
		bs_readahead_cancel(s->ra, &s->ahead);
		free(s->ahead.dst - AHEAD_ROOM);
	}
#ifdef HAVE_ZSTD
	ZSTD_freeDCtx(s->zd);
	free(s->zin);
#endif
	if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	free(s->name);
	free(s);
}
