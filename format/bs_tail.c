// SPDX-License-Identifier: GPL-2.0
/*
 * bs_tail.c - what the end of a per-CPU file says, read before the file is
 * merged (bs_tail.h): whether the recorder closed it with its end note,
 * and the time of its last event.
 *
 * Records have no fixed size, so the last one is found by walking: in the
 * file's last BS_TAIL_WINDOW bytes, the first offset holding a record
 * magic from which records follow each other exactly to the end of the
 * file starts the chain; the last record of that chain is the file's last.
 * A magic inside a PDU would have to start a chain that also ends
 * exactly at the end of the file to mislead it.  Whether an offset chains
 * to the end is worked out once per offset, from the end backwards (the
 * next record's offset is always larger): linear in the window whatever
 * the bytes, also for a damaged or crafted file.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bs_codec.h"
#include "bs_notes.h"
#include "bs_stream.h"
#include "bs_tail.h"

#define BS_TAIL_WINDOW (256u << 10)

/*
 * A header of the version whose magic is at p, with room bytes left: its
 * size and fields (host order); 0 if none (or cut off).
 */
static size_t header_at(const uint8_t *p, size_t room, struct bs_trace *t)
{
	uint32_t magic;
	uint32_t hi;

	if (room < sizeof(*t))
		return 0;
	memcpy(&magic, p, sizeof(magic));
	if (magic == BS_TRACE_MAGIC_V7) {
		memcpy(t, p, sizeof(*t));
		return sizeof(*t);
	}
	if (bs_swap32(magic) == BS_TRACE_MAGIC_V7) {
		memcpy(t, p, sizeof(*t));
		bs_trace_swap(t);
		return sizeof(*t);
	}
	if (magic == BS_TRACE_MAGIC_V8 && room >= BS_TRACE2_SIZE) {
		bs_decode_v8(p, t, &hi);
		return BS_TRACE2_SIZE;
	}
	return 0;
}

/* The offset of the record after the one at off, or 0 if there is no whole record at off. */
static size_t next_of(const uint8_t *buf, size_t len, size_t off, struct bs_trace *t)
{
	size_t hdr = header_at(buf + off, len - off, t);

	if (!hdr || t->pdu_len > BS_MAX_SANE_PDU || hdr + t->pdu_len > len - off)
		return 0;
	return off + hdr + t->pdu_len;
}

/*
 * The first offset from which records follow each other to exactly len,
 * and the last record of that chain (header in *last, at *last_off); -1 if none.
 */
static int find_chain(const uint8_t *buf, size_t len, struct bs_trace *last, size_t *last_off)
{
	uint8_t *ends = calloc(len + 1, 1);	/* 1: a chain from here ends at len */
	struct bs_trace t;
	size_t off, next, first = len;

	if (!ends)
		return -1;
	ends[len] = 1;
	for (off = len; off-- > 0;) {
		next = next_of(buf, len, off, &t);
		if (next && ends[next]) {
			ends[off] = 1;
			first = off;
		}
	}
	free(ends);
	if (first == len)
		return -1;
	for (off = first; (next = next_of(buf, len, off, &t)) && next < len; off = next)
		;
	*last = t;
	*last_off = off;
	return 0;
}

int bs_tail_probe(const char *path, struct bs_tail *out)
{
	static const uint8_t zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	uint8_t head[4], *buf;
	struct stat st;
	size_t len, last_off = 0;
	struct bs_trace last;
	int fd, rc = -1;

	memset(out, 0, sizeof(*out));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(struct bs_trace) ||
	    pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    !memcmp(head, zstd_magic, 4)) {
		close(fd);
		return -1;	/* not a plain file of records: nothing said */
	}
	len = st.st_size < (off_t)BS_TAIL_WINDOW ? (size_t)st.st_size : BS_TAIL_WINDOW;
	buf = malloc(len);
	if (buf && pread(fd, buf, len, st.st_size - (off_t)len) == (ssize_t)len &&
	    find_chain(buf, len, &last, &last_off) == 0) {
		out->found = true;
		out->last_time = last.time;
		out->end_note =
			bs_end_note_parse(&last, buf + len - last.pdu_len, false, &out->end);
		rc = 0;
	}
	free(buf);
	close(fd);
	return rc;
}
