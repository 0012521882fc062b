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
 * exactly at the end of the file to mislead it.
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
 * A header of the version whose magic is at p (avail bytes there): its
 * size and fields (host order); 0 if none, or if it does not fit.
 */
static size_t header_at(const uint8_t *p, size_t avail, struct bs_trace *t)
{
	uint32_t magic;
	uint32_t hi;

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
	if (magic == BS_TRACE_MAGIC_V8 && avail >= BS_TRACE2_SIZE) {	/* 64 bytes, not 48 */
		bs_decode_v8(p, t, &hi);
		return BS_TRACE2_SIZE;
	}
	return 0;
}

/* From off, do records follow each other to exactly len?  The last one's header in *last. */
static bool chains_to_end(const uint8_t *buf, size_t len, size_t off, struct bs_trace *last,
			  size_t *last_off)
{
	struct bs_trace t;

	while (off + sizeof(t) <= len) {
		size_t hdr = header_at(buf + off, len - off, &t);

		if (!hdr || t.pdu_len > BS_MAX_SANE_PDU || off + hdr + t.pdu_len > len)
			return false;
		*last = t;
		*last_off = off;
		off += hdr + t.pdu_len;
		if (off == len)
			return true;
	}
	return false;
}

int bs_tail_probe(const char *path, struct bs_tail *out)
{
	static const uint8_t zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	uint8_t head[4], *buf;
	struct stat st;
	size_t len, off, last_off = 0;
	struct bs_trace last;
	int fd, rc = -1;

	memset(out, 0, sizeof(*out));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(struct bs_trace) ||
	    pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) || !memcmp(head, zstd_magic, 4)) {
		close(fd);
		return -1;	/* not a plain file of records: nothing said */
	}
	len = st.st_size < (off_t)BS_TAIL_WINDOW ? (size_t)st.st_size : BS_TAIL_WINDOW;
	buf = malloc(len);
	if (buf && pread(fd, buf, len, st.st_size - (off_t)len) == (ssize_t)len) {
		for (off = 0; off + sizeof(struct bs_trace) <= len; off++) {
			if (!chains_to_end(buf, len, off, &last, &last_off))
				continue;
			out->found = true;
			out->last_time = last.time;
			out->end_note = bs_end_note_parse(&last, buf + last_off + (len - last_off - last.pdu_len),
							  false, &out->end);
			rc = 0;
			break;
		}
	}
	free(buf);
	close(fd);
	return rc;
}
