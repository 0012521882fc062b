/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_attr.h - the attribution side files of `blkscope record --files
 * --stacks` (docs/format.md, "Attribution side files"): which file and
 * which code path each queued bio (Q) came from, beside the per-CPU
 * trace files and never inside them, so that blkparse, btt and iowatcher
 * read a recording exactly as they would without the options.
 *
 *   BASE.blkscope-attr.CPU[.zst]   one 32-byte record per recorded Q of
 *                                  that CPU's trace file, in the same
 *                                  (time) order, keyed by the Q's time
 *                                  stamp (and sector, as a check)
 *   BASE.blkscope-names[.zst]      the definitions the records name:
 *                                  files (device, inode, generation, the
 *                                  path when first seen), stacks
 *                                  (symbolized frames), counters
 *
 * Both start with a 32-byte header; every number is little-endian
 * whatever the recording host.  Ids are dense from 1 in each names file
 * (0: none), defined before the end of the file; a reader loads the
 * names first, then reads each attr file in step with its CPU's events
 * (memory O(1) per file).
 *
 * This file encodes (the recorder) and decodes (the analyzer); nothing
 * else knows the layout.
 */
#ifndef BLKSCOPE_BS_ATTR_H
#define BLKSCOPE_BS_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bs_defs.h"
#include "bs_msg.h"

#define BS_ATTR_INFIX	".blkscope-attr."	/* BASE.blkscope-attr.CPU */
#define BS_NAMES_SUFFIX	".blkscope-names"	/* BASE.blkscope-names */

#define BS_ATTR_VERSION		1
#define BS_ATTR_HEADER_SIZE	32
#define BS_ATTR_REC_SIZE	32

/* bs_attr_header.flags: what the recording attributes */
#define BS_ATTR_F_FILES		1u	/* record --files */
#define BS_ATTR_F_STACKS	2u	/* record --stacks */

enum bs_attr_kind { BS_ATTR_KIND_ATTR = 1, BS_ATTR_KIND_NAMES = 2 };

struct bs_attr_header {
	enum bs_attr_kind kind;
	uint32_t version;
	uint32_t device;	/* the traced device (kernel dev_t), as in its records */
	uint32_t cpu;		/* attr files: the CPU; names: UINT32_MAX */
	uint32_t flags;		/* BS_ATTR_F_* */
	uint64_t start;		/* the recording's TIMESTAMP note time (monotonic ns) */
};

/* enum bs_fclass (bs_defs.h): "cache", "direct", ...; "unknown" for anything out of range. */
const char *bs_fclass_name(unsigned int cls);
/* The class of a name (as bs_fclass_name() gives), -1 if none. */
int bs_fclass_of(const char *name);

/* One per recorded Q. */
struct bs_attr_rec {
	uint64_t time;		/* the Q's time stamp as in its trace record */
	uint64_t sector;	/* the Q's sector (a check) */
	uint32_t sequence;	/* the Q's sequence number as the kernel side gave it */
	uint32_t file;		/* file id, 0: none */
	uint32_t stack;		/* stack id, 0: none */
	uint8_t cls;		/* enum bs_fclass */
	uint8_t flags;		/* BS_ATTR_R_* */
};

#define BS_ATTR_R_KSTACK_LOST	1u	/* the kernel stack could not be stored (table full) */
#define BS_ATTR_R_USTACK_LOST	2u	/* the user stack could not be stored */

/* ---- the names file: records of (type, length, body) ---- */

enum bs_names_type { BS_NAMES_FILE = 1, BS_NAMES_STACK = 2, BS_NAMES_COUNTS = 3 };

/* bs_names_file.flags */
#define BS_NF_DELETED	1u	/* the file was already deleted when its path was read */
#define BS_NF_NO_PATH	2u	/* no path: the inode was gone (or unreachable) when first seen */
#define BS_NF_CUT	4u	/* the path was longer than BS_NAMES_PATH_MAX: cut */

#define BS_NAMES_PATH_MAX	4096
#define BS_NAMES_FRAME_MAX	512	/* bytes of one frame name */
#define BS_NAMES_FRAMES_MAX	256	/* frames of one side (kernel, user) */
#define BS_NAMES_REC_MAX	(1u << 20)	/* a body larger than this is damage */

struct bs_names_file {
	uint32_t id;
	uint32_t fdev;		/* the filesystem's device (kernel dev_t of i_sb->s_dev) */
	uint64_t ino;
	uint32_t gen;		/* i_generation */
	uint32_t flags;		/* BS_NF_* */
	uint64_t seen;		/* when the path was read (monotonic ns) */
	const char *path;	/* not NUL-terminated; path_len bytes */
	uint32_t path_len;
};

/* bs_names_stack.flags */
#define BS_NS_USER_NONE		1u	/* no user stack: a kernel thread, or not captured */
#define BS_NS_USER_SHORT	2u	/* the user stack ends early: frames without frame pointers */
#define BS_NS_KERNEL_NONE	4u	/* no kernel stack (not stored: the table was full) */
#define BS_NS_USER_LOST		8u	/* the user stack was not stored (table full) */

struct bs_names_frame {
	const char *name;	/* not NUL-terminated */
	uint16_t len;
};

/* Frames leaf first (the submitting function first), kernel frames then user frames. */
struct bs_names_stack {
	uint32_t id;
	uint32_t flags;		/* BS_NS_* */
	uint16_t nkernel, nuser;
	const struct bs_names_frame *frames;	/* [nkernel + nuser] */
};

/* What the recorder counted (written once, at the end). */
struct bs_names_counts {
	uint64_t qs;		/* Qs attributed (records written) */
	uint64_t lost;		/* Qs whose attribution record was dropped (ring full) */
	uint64_t kstack_lost;	/* kernel stacks not stored (the stack table was full) */
	uint64_t ustack_lost;	/* user stacks not stored */
	uint64_t files;		/* files defined */
	uint64_t files_no_path;	/* of which no path could be read */
	uint64_t files_over;	/* files past the recorder's table: class kept, no file id */
	uint64_t stacks;	/* stacks defined */
};

/* ---- encoding (the recorder) ---- */

/* The header into buf[BS_ATTR_HEADER_SIZE]. */
void bs_attr_header_make(void *buf, const struct bs_attr_header *h);
/* One record into buf[BS_ATTR_REC_SIZE]. */
void bs_attr_rec_make(void *buf, const struct bs_attr_rec *r);
/*
 * A names record into buf[size]: its bytes, 0 if size is too small (a
 * path or frame over its maximum is cut, BS_NF_CUT).
 */
size_t bs_names_file_make(void *buf, size_t size, const struct bs_names_file *f);
size_t bs_names_stack_make(void *buf, size_t size, const struct bs_names_stack *s);
size_t bs_names_counts_make(void *buf, size_t size, const struct bs_names_counts *c);
/* The most a stack record with these frames takes. */
size_t bs_names_stack_size(const struct bs_names_stack *s);

/* ---- decoding (the analyzer) ---- */

/*
 * A side file, read in large chunks (zstd-compressed files are detected
 * from the frame magic).  Damage (a bad header, a truncated or absurd
 * record) sends one line naming the file and the offset to the sink given
 * at open (NULL: dropped), and the file ends there: everything before it
 * is kept.
 */
struct bs_side;

/* NULL with errno (ENOENT: no such file) and a message in err. */
struct bs_side *bs_side_open(const char *path, const struct bs_msg_sink *msg, char *err,
			     size_t errlen);
const struct bs_attr_header *bs_side_header(const struct bs_side *s);
const char *bs_side_name(const struct bs_side *s);
bool bs_side_damaged(const struct bs_side *s);
void bs_side_close(struct bs_side *s);

/* attr files: 1 and *r, 0 at the end, -1 at damage. */
int bs_side_next_attr(struct bs_side *s, struct bs_attr_rec *r);

/* names files: one decoded record (pointers valid until the next call). */
struct bs_names_rec {
	enum bs_names_type type;	/* 0: a type this reader does not know (skipped) */
	struct bs_names_file file;
	struct bs_names_stack stack;
	struct bs_names_counts counts;
};

/* names files: 1 and *r, 0 at the end, -1 at damage. */
int bs_side_next_names(struct bs_side *s, struct bs_names_rec *r);

/*
 * The side files of a per-CPU trace file path (".../BASE.blktrace.N[.zst]"):
 * the attr file of that CPU and the names file of BASE, into out[len]
 * (both uncompressed names; a reader tries NAME then NAME.zst).
 * -1 if path is not a per-CPU trace file name.
 */
int bs_attr_path_of(const char *trace_path, char *out, size_t len);
int bs_names_path_of(const char *trace_path, char *out, size_t len);

#endif /* BLKSCOPE_BS_ATTR_H */
