/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_writer.h - writing records: a buffered record writer for one file
 * (a per-CPU file or a blkparse -d compatible dump) and path helpers.
 *
 * bs_create_output() creates an output file the user named, through
 * bs_outfile.h: nothing already at the path is opened or followed.
 * Records are written in host byte order, as version 7 (48 bytes, the
 * default) or version 8 (64 bytes); PDUs are copied as given.  Only whole
 * records are ever written: a failing write (ENOSPC) leaves the file
 * ending at the last whole record that fit.
 */
#ifndef BLKSCOPE_BS_WRITER_H
#define BLKSCOPE_BS_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "bs_defs.h"
#include "bs_msg.h"

/*
 * An output file named by the user (a dump, a text or report file),
 * created new.  With flags BS_CREATE_REPLACE (the commands' --force) an
 * earlier run's file is replaced, but only a regular file of our own
 * (bs_create_path(path, BS_CREATE_REPLACE)); without it any file at the
 * path is refused with EEXIST.  A symlink, FIFO, device or someone
 * else's file at the path is refused either way, a symlinked directory
 * with ELOOP (bs_create_path_explain() words why).  An existing character
 * device is written as it is: /dev/null to throw the output away,
 * /dev/full to try a full disk, a terminal (only root makes device nodes:
 * nobody plants one).  -1 + errno.
 */
int bs_create_output(const char *path, unsigned int flags);

/* The same as a stdio stream; NULL with the one line saying why in e. */
FILE *bs_create_output_file(const char *path, unsigned int flags, struct bs_err *e);

/*
 * Would bs_create_output(path, flags) succeed?  Checked before the input is
 * read, for a file written at the end: its directory must be writable
 * (bs_check_path()), and whatever is at the path must be nothing, a
 * character device, or, with BS_CREATE_REPLACE, a regular file of our
 * own.  0, or -1 + errno (EEXIST: bs_create_err() says why).
 */
int bs_check_output(const char *path, unsigned int flags);

/*
 * bs_check_output() for option opt's FILE ("--json"), with why not in one
 * line in e ("--json: cannot create r.json: it exists (from an earlier
 * run?); pass --force to replace it"); "-" (stdout) passes.  0 or -1.
 */
int bs_check_output_opt(const char *opt, const char *path, unsigned int flags,
			struct bs_err *e);

/* "<dir>/<base>.blktrace.<cpu>" (dir may be NULL) into buf; -1 if too long */
int bs_percpu_path(char *buf, size_t len, const char *dir, const char *base, int cpu);

/*
 * Length of the longest prefix of buf[0..limit) made of whole host-order
 * records (buf starts on a record): where to cut a file after a short write.
 * Each record's size follows from its magic: 64 bytes for version 8, else 48.
 */
size_t bs_whole_records(const uint8_t *buf, size_t limit);

/* The same for records of a known header size (48 or 64). */
size_t bs_whole_records_sized(const uint8_t *buf, size_t limit, size_t hdr);

enum bs_out_format {
	BS_OUT_V7 = 0,		/* 48-byte records, magic 7 (the default) */
	BS_OUT_V8,		/* 64-byte records, magic 8 */
	BS_OUT_V7_WIDE,		/* 64-byte records, magic 7: current blkparse's -d dump of v7 input */
};

struct bs_writer {
	int fd;
	enum bs_out_format format;
	size_t hdr;		/* header size of that format */
	char *name;
	uint8_t *buf;
	size_t len, cap;
	uint64_t written;	/* bytes that reached the file */
	uint64_t records;	/* records accepted */
	int error;		/* first errno, 0 if none */
	struct bs_writer_thread *thread;	/* writing on a thread (bs_writer_thread.c), or NULL */
};

/* fd "-" semantics are the caller's: pass STDOUT_FILENO for stdout. */
int bs_writer_init(struct bs_writer *w, int fd, const char *name);

/* Choose the output format (before the first record). */
void bs_writer_set_format(struct bs_writer *w, enum bs_out_format format);

/*
 * Append one record (header in host order) and its PDU; 0 or -1 (w->error).
 * The magic written is the format's, whatever t->magic says.
 */
int bs_writer_put(struct bs_writer *w, const struct bs_trace *t, const void *pdu);

/* The same with the high action bits a version-8 record carries (lost in v7). */
int bs_writer_put2(struct bs_writer *w, const struct bs_trace *t, uint32_t action_hi, const void *pdu);

/*
 * bs_writer_put2() for the common case, inline: a version-7 record that fits
 * the buffer (its action_hi is not written), its time written as `time`.
 * Returns 0 when it was added, -1 when nothing was done and the caller
 * must use bs_writer_put2() (version 8, a full buffer, an error).
 */
static inline int bs_writer_put_fast_at(struct bs_writer *w, const struct bs_trace *t, uint64_t time, const void *pdu)
{
	size_t need = BS_TRACE_SIZE + t->pdu_len;
	uint32_t magic = BS_TRACE_MAGIC_V7;
	uint8_t *p;

	if (w->format != BS_OUT_V7 || w->error || w->len + need > w->cap)
		return -1;
	p = w->buf + w->len;
	memcpy(p, t, BS_TRACE_SIZE);
	memcpy(p, &magic, sizeof(magic));
	memcpy(p + offsetof(struct bs_trace, time), &time, sizeof(time));
	if (t->pdu_len)	/* mostly 0: no call */
		memcpy(p + BS_TRACE_SIZE, pdu, t->pdu_len);
	w->len += need;
	w->records++;
	return 0;
}

static inline int bs_writer_put_fast(struct bs_writer *w, const struct bs_trace *t, const void *pdu)
{
	return bs_writer_put_fast_at(w, t, t->time, pdu);
}

int bs_writer_flush(struct bs_writer *w);

/* The write behind a flush (also the writer thread's): 0 or the errno (bs_writer.c). */
int bs_write_whole(int fd, const uint8_t *buf, size_t len, size_t hdr, uint64_t *written);

/*
 * From here on the buffers are written by a thread of their own
 * (bs_writer_thread.c), so that the kernel's copy of the data overlaps
 * with making the next buffer: 0, or -1 (one CPU, not a file or a pipe,
 * no thread: the writer stays synchronous).  The bytes written are the
 * same; a write error (a full disk: the file is still cut back to whole
 * records) reaches w->error at the next flush or at close, not at once.
 */
int bs_writer_start_thread(struct bs_writer *w);

/*
 * The writer's thread serves ra's read-ahead requests (bs_readahead.h),
 * one after each write: false if there is no thread.  ra must outlive
 * the writer (freed after bs_writer_close()).
 */
struct bs_readahead;
bool bs_writer_serve_reads(struct bs_writer *w, struct bs_readahead *ra);

/* bs_writer_thread.c, for bs_writer.c: flush and close through the thread */
int bs_writer_thread_flush(struct bs_writer *w);
void bs_writer_thread_close(struct bs_writer *w);

/* Flush, close the fd (unless it is 0-2) and free; returns first error or 0. */
int bs_writer_close(struct bs_writer *w);

#endif /* BLKSCOPE_BS_WRITER_H */
