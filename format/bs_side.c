// SPDX-License-Identifier: GPL-2.0
/*
 * bs_side.c - reading an attribution side file (bs_attr.h): a buffer
 * filled by large reads (or by the zstd decoder, detected from the frame
 * magic), the header checked, then records handed out one at a time.
 * Damage prints one line with the file and the offset and ends the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#include "bs_alloc.h"
#include "bs_attr_priv.h"
#include "bs_readahead.h"
#include "bs_stream.h"

#define SIDE_BUF (256u << 10)	/* holds any names record (BS_NAMES_REC_MAX + head) once grown */
#define ZSTD_FRAME_MAGIC 0xFD2FB528u

struct bs_side {
	char *name;
	int fd;
	uint8_t *buf;
	size_t cap, len, pos;
	uint64_t buf_off;	/* file offset (decompressed) of buf[0] */
	bool eof, damaged;
	uint64_t nrecords;
	struct bs_attr_header h;
	struct bs_names_frame frames[2 * BS_NAMES_FRAMES_MAX];
#ifdef HAVE_ZSTD
	ZSTD_DCtx *zd;
	uint8_t *zin;
	size_t zin_len, zin_pos;
	bool zin_eof;
#endif
	bool zstd;
	struct bs_msg_sink msg;	/* damage */
};

__attribute__((format(printf, 3, 4)))
static int side_damage(struct bs_side *s, uint64_t off, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	bs_msg(&s->msg, BS_MSG_WARN, "%s: offset %llu: %s; stopped reading it (the %llu records "
	       "before are kept)", s->name, (unsigned long long)off, what,
	       (unsigned long long)s->nrecords);
	s->damaged = true;
	s->eof = true;
	s->pos = s->len;
	return -1;
}

#ifdef HAVE_ZSTD
static int zstd_fill(struct bs_side *s, size_t want)
{
	while (s->len < want && !s->eof) {
		ZSTD_outBuffer out = { s->buf, s->cap, s->len };
		ZSTD_inBuffer in;
		size_t ret;

		if (s->zin_pos == s->zin_len && !s->zin_eof) {
			ssize_t n = bs_read_full(s->fd, s->zin, SIDE_BUF);

			if (n < 0)
				return -1;
			s->zin_pos = 0;
			s->zin_len = (size_t)n;
			s->zin_eof = n == 0;
		}
		if (s->zin_pos == s->zin_len && s->zin_eof) {
			s->eof = true;
			break;
		}
		in = (ZSTD_inBuffer){ s->zin, s->zin_len, s->zin_pos };
		ret = ZSTD_decompressStream(s->zd, &out, &in);
		if (ZSTD_isError(ret))
			return side_damage(s, s->buf_off + s->len, "zstd: %s", ZSTD_getErrorName(ret));
		s->zin_pos = in.pos;
		s->len = out.pos;
	}
	return 0;
}
#endif

/* At least `want` unread bytes in the buffer, if the file has them (the buffer grows for a big record). */
static int side_fill(struct bs_side *s, size_t want)
{
	size_t avail = s->len - s->pos;

	if (avail >= want || s->eof)
		return 0;
	if (s->pos) {
		memmove(s->buf, s->buf + s->pos, avail);
		s->buf_off += s->pos;
		s->pos = 0;
		s->len = avail;
	}
	if (want > s->cap) {
		s->cap = want;
		s->buf = bs_xrealloc(s->buf, s->cap);
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
			return side_damage(s, s->buf_off + s->len, "read: %s", strerror(errno));
		else if (n > 0)
			s->len += (size_t)n;
	}
	return 0;
}

static int detect_zstd(struct bs_side *s)
{
	uint32_t magic;

	if (side_fill(s, 4) < 0 || s->len < 4)
		return 0;
	memcpy(&magic, s->buf, 4);
	if (magic != ZSTD_FRAME_MAGIC)
		return 0;
#ifdef HAVE_ZSTD
	s->zd = ZSTD_createDCtx();
	s->zin = bs_xmalloc(SIDE_BUF);
	if (!s->zd)
		return -1;
	memcpy(s->zin, s->buf, s->len);
	s->zin_len = s->len;
	s->zin_pos = 0;
	s->zin_eof = s->eof;
	s->len = s->pos = 0;
	s->eof = false;
	s->zstd = true;
	return 0;
#else
	errno = ENOTSUP;
	return -1;
#endif
}

static int read_header(struct bs_side *s)
{
	int r;

	if (side_fill(s, BS_ATTR_HEADER_SIZE) < 0)
		return -1;
	if (s->len - s->pos < BS_ATTR_HEADER_SIZE)
		return side_damage(s, 0, "no side-file header (%zu bytes)", s->len - s->pos);
	r = bs_attr_header_parse(s->buf + s->pos, &s->h);
	if (r == -1)
		return side_damage(s, 0, "not a blkscope attribution file (bad magic)");
	if (r == -2)
		return side_damage(s, 8, "side-file version %u (this blkscope reads %u)", s->h.version,
				   BS_ATTR_VERSION);
	s->pos += BS_ATTR_HEADER_SIZE;
	return 0;
}

struct bs_side *bs_side_open(const char *path, const struct bs_msg_sink *msg, char *err,
			     size_t errlen)
{
	struct bs_side *s;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	s = bs_xcalloc(1, sizeof(*s));
	s->name = bs_xstrdup(path);
	s->msg = msg ? *msg : (struct bs_msg_sink){ 0 };
	s->fd = fd;
	s->cap = SIDE_BUF;
	s->buf = bs_xmalloc(s->cap);
	if (detect_zstd(s) < 0) {
		snprintf(err, errlen, "%s: %s", path, errno == ENOTSUP ?
			 "zstd-compressed, but blkscope was built without libzstd" : strerror(errno));
		bs_side_close(s);
		errno = ENOTSUP;
		return NULL;
	}
	read_header(s);	/* damage: the file reads as empty (message sent) */
	return s;
}

const struct bs_attr_header *bs_side_header(const struct bs_side *s)
{
	return &s->h;
}

const char *bs_side_name(const struct bs_side *s)
{
	return s->name;
}

bool bs_side_damaged(const struct bs_side *s)
{
	return s->damaged;
}

void bs_side_close(struct bs_side *s)
{
	if (!s)
		return;
	close(s->fd);
#ifdef HAVE_ZSTD
	ZSTD_freeDCtx(s->zd);
	free(s->zin);
#endif
	free(s->buf);
	free(s->name);
	free(s);
}

int bs_side_next_attr(struct bs_side *s, struct bs_attr_rec *r)
{
	if (s->h.kind != BS_ATTR_KIND_ATTR || s->damaged)
		return s->damaged ? -1 : 0;
	if (s->len - s->pos < BS_ATTR_REC_SIZE && side_fill(s, BS_ATTR_REC_SIZE) < 0)
		return -1;
	if (s->len - s->pos < BS_ATTR_REC_SIZE) {
		if (s->len == s->pos)
			return 0;
		return side_damage(s, s->buf_off + s->pos, "a record cut short (%zu of %u bytes)",
				   s->len - s->pos, BS_ATTR_REC_SIZE);
	}
	bs_attr_rec_parse(s->buf + s->pos, r);
	s->pos += BS_ATTR_REC_SIZE;
	s->nrecords++;
	return 1;
}

int bs_side_next_names(struct bs_side *s, struct bs_names_rec *r)
{
	uint64_t off;
	uint16_t type;
	uint32_t len;

	if (s->h.kind != BS_ATTR_KIND_NAMES || s->damaged)
		return s->damaged ? -1 : 0;
	if (side_fill(s, BS_NAMES_HEAD) < 0)
		return -1;
	off = s->buf_off + s->pos;
	if (s->len - s->pos < BS_NAMES_HEAD) {
		if (s->len == s->pos)
			return 0;
		return side_damage(s, off, "a record cut short");
	}
	bs_names_head_parse(s->buf + s->pos, &type, &len);
	if (len > BS_NAMES_REC_MAX)
		return side_damage(s, off, "a record of %u bytes (at most %u)", len, BS_NAMES_REC_MAX);
	if (side_fill(s, BS_NAMES_HEAD + (size_t)len) < 0)
		return -1;
	if (s->len - s->pos < BS_NAMES_HEAD + (size_t)len)
		return side_damage(s, off, "a record cut short");
	if (bs_names_body_parse(type, s->buf + s->pos + BS_NAMES_HEAD, len, r, s->frames))
		return side_damage(s, off, "a malformed record of type %u", type);
	s->pos += BS_NAMES_HEAD + (size_t)len;
	s->nrecords++;
	return 1;
}
