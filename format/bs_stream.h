/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_stream.h - the validating reader for one sequential stream of records:
 * a per-CPU file, a blkparse -d dump, stdin or a pipe, each optionally
 * zstd-compressed (detected from the zstd frame magic, not the name).
 *
 * Reads go through one large buffer (no syscall per record).  Byte order and
 * record format are detected from the first record: its magic gives the
 * order and the version (7 or 8); a version-7 stream is either 48-byte
 * records or the 64-byte records current blkparse dumps v7 input as, told
 * apart by which layout the data fits.  Headers are decoded to host order
 * (struct bs_trace plus action_hi, see bs_codec.h), PDUs are left raw.  On damage (bad magic, wrong version, absurd
 * pdu_len, truncated header or PDU) the stream prints ONE line naming the
 * file and byte offset and then reports end of stream: everything before
 * the damage has been delivered.
 */
#ifndef BLKSCOPE_BS_STREAM_H
#define BLKSCOPE_BS_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bs_defs.h"
#include "bs_msg.h"

/* PDUs longer than this are treated as corruption (kernel PDUs are tiny). */
#define BS_MAX_SANE_PDU	4096

enum bs_stream_status {
	BS_STREAM_RECORD = 1,	/* *rec filled */
	BS_STREAM_END = 0,	/* clean end of input */
	BS_STREAM_DAMAGED = -1,	/* stopped at damage; message already printed */
};

struct bs_record {
	struct bs_trace t;	/* header, host byte order */
	uint32_t action_hi;	/* version 8: bits 32..63 of the action (zone categories); else 0 */
	const uint8_t *pdu;	/* t.pdu_len raw bytes; valid until the next read */
	uint64_t offset;	/* byte offset of the record in the (decompressed) stream */
	bool foreign;		/* the stream is byte-swapped (PDU words like TIMESTAMP too) */
};

struct bs_stream;

/*
 * Open PATH ("-" = stdin).  expect_cpu >= 0 makes records whose cpu field
 * differs be skipped with a warning (blkparse semantics for per-CPU
 * files); -1 accepts any cpu.  Returns NULL with errno set and a message
 * in err on failure.
 */
struct bs_stream *bs_stream_open(const char *path, int expect_cpu, char *err, size_t errlen);

/*
 * The read buffer: large reads, and one buffer per file.  The least still
 * holds a whole record (a 64-byte header and a 65535-byte PDU).
 */
#define BS_STREAM_BUF_MAX (1u << 20)
#define BS_STREAM_BUF_MIN (128u << 10)

/* bs_stream_open() with a read buffer of buf_bytes (put within the bounds above). */
struct bs_stream *bs_stream_open_sized(const char *path, int expect_cpu, size_t buf_bytes,
				       char *err, size_t errlen);

/*
 * Read the file ahead on the thread ra (bs_readahead.h): 0, or -1 when the
 * stream cannot (not a regular file, compressed, at its end, no memory),
 * and it goes on reading for itself.  Close the stream before freeing ra.
 */
struct bs_readahead;
int bs_stream_read_ahead(struct bs_stream *s, struct bs_readahead *ra);

/*
 * Where the stream's warnings go (damage: "NAME: offset N: ...; stopped
 * reading it", records of another cpu skipped, zstd input without zstd
 * support); without a sink they are dropped.  The sink is copied.
 */
void bs_stream_set_msg(struct bs_stream *s, const struct bs_msg_sink *msg);

/* Wrap an already open descriptor (takes ownership); name is for messages. */
struct bs_stream *bs_stream_from_fd(int fd, const char *name, int expect_cpu);

int bs_stream_next(struct bs_stream *s, struct bs_record *rec);

/* The same, into caller storage (no bs_record copy); *pdu as rec->pdu. */
int bs_stream_read(struct bs_stream *s, struct bs_trace *t, uint32_t *action_hi, const uint8_t **pdu,
		   uint64_t *offset);

/*
 * Up to max records into t[] in one go, as bs_stream_read() would give
 * them, while they are plain: a native version-7 header with no PDU, not
 * a note, of the expected cpu, already in the buffer.  Returns how many
 * (0 at anything else: bs_stream_read() takes it); t[count] may be
 * overwritten.  The per-CPU file merge reads its batches so.
 */
unsigned int bs_stream_read_plain_run(struct bs_stream *s, struct bs_trace *t, unsigned int max);

/* Once a record was read: its version (7 or 8) and header size (48 or 64). */
unsigned int bs_stream_version(const struct bs_stream *s);
size_t bs_stream_record_size(const struct bs_stream *s);

/* true once the first record showed the stream is byte-swapped */
bool bs_stream_foreign(const struct bs_stream *s);

const char *bs_stream_name(const struct bs_stream *s);
bool bs_stream_damaged(const struct bs_stream *s);
uint64_t bs_stream_damage_offset(const struct bs_stream *s);	/* byte offset of the damage */
uint64_t bs_stream_records(const struct bs_stream *s);	/* records delivered */
void bs_stream_close(struct bs_stream *s);

/* Program name used as the prefix of error lines (default "blkscope"). */
void bs_set_progname(const char *name);
const char *bs_progname(void);

#endif /* BLKSCOPE_BS_STREAM_H */
