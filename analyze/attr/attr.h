/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attr.h - who caused each I/O, as `blkscope record --files --stacks`
 * noted it in the attribution side files (format/bs_attr.h), for the
 * analyzer: the files and stacks of a trace (the dictionary: loaded once,
 * before the first event, then read-only, so sinks on any thread may read
 * it), and the source the per-I/O model asks at each Q (the side files
 * read in step with their CPUs' events: O(1) memory each).
 *
 *	struct attr_dict *d = attr_load(&input_set, &src);  // NULL: no side files
 *	attr_src_genesis(src, genesis);
 *	iom_set_attr(model, attr_src_lookup, src);
 *	... samples carry file, stack, fclass ...
 *	attr_file_label(d, s->file, s->fclass, buf)   // path, or "(metadata)"
 *
 * Files and stacks are deduplicated across the names files of a trace
 * set: ids are the analysis's own, dense from 1 (0: none).
 *
 *   attr_dict.c   the names files -> files, stacks, interned frame names
 *   attr_src.c    the per-CPU attr files, looked up at each Q
 *   attr_path.c   labels: a file's path, its directory at a depth
 */
#ifndef BLKSCOPE_ATTR_H
#define BLKSCOPE_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bs_attr.h"
#include "bs_hash.h"
#include "bs_msg.h"
#include "bs_input.h"
#include "bs_stream.h"
#include "iomodel/io_sample.h"

/* Bounds on what a trace's names files may define (a hostile trace must not exhaust memory). */
#define ATTR_MAX_FILES	(1u << 22)
#define ATTR_MAX_STACKS	(1u << 20)
#define ATTR_MAX_BYTES	(256u << 20)	/* paths and frame names together */

struct attr_file {
	uint32_t fdev, gen;
	uint64_t ino;
	uint32_t flags;		/* BS_NF_* */
	uint32_t path_len;
	char *path;		/* NUL-terminated (a NUL inside is cut there) */
};

struct attr_stack {
	uint32_t flags;		/* BS_NS_* */
	uint16_t nkernel, nuser;
	uint32_t first;		/* its frame ids at dict->frames[first..], leaf first */
};

struct attr_dict {
	uint32_t flags;			/* BS_ATTR_F_*: what the recording attributed */
	struct attr_file *files;	/* [id - 1] */
	size_t nfiles;
	struct attr_stack *stacks;	/* [id - 1] */
	size_t nstacks;
	uint32_t *frames;		/* frame name ids of every stack */
	size_t nframes;
	char **names;			/* frame name id -> name */
	size_t nnames;
	struct bs_names_counts counts;	/* the recorder's, summed over the names files */
	size_t bytes;			/* strings held (ATTR_MAX_BYTES) */
	bool over;			/* definitions past a bound were left out */
	/* loading only */
	struct bs_msg_sink warn;		/* where "more than the analyzer holds" goes */
	struct bs_hash file_key, stack_key, name_key;
};

struct attr_src;

/* Counters of the source, at the end. */
struct attr_stats {
	uint64_t matched;	/* Qs with their attribution record */
	uint64_t unmatched;	/* Qs on a CPU with a side file but no record for them */
	uint64_t skipped;	/* records of no Q the model saw (-t/-T, lost or foreign Qs) */
	uint32_t files;		/* side files read */
	uint32_t damaged;	/* of which stopped at damage */
};

/*
 * The side files of a per-CPU input set (a stream has none): NULL when
 * there are none (then *src is NULL too), else the dictionary, and the
 * source in *src.  Damaged or unreadable side files are reported (one
 * line each, to warn) and read up to the damage.
 */
struct attr_dict *attr_load(const struct bs_input_set *in, struct attr_src **src,
			    const struct bs_msg_sink *warn);
void attr_dict_free(struct attr_dict *d);
void attr_src_free(struct attr_src *s);

/* The trace's genesis (absolute ns): the records carry absolute Q times. */
void attr_src_genesis(struct attr_src *s, uint64_t genesis);
/* The model's hook (iom_set_attr): one Q (time relative to genesis). */
void attr_src_lookup(void *src, const struct bs_trace *q, struct bs_io_attr *out);
void attr_src_stats(const struct attr_src *s, struct attr_stats *st);

/* ---- reading the dictionary ---- */

static inline const struct attr_file *attr_file(const struct attr_dict *d, uint32_t id)
{
	return id && id <= d->nfiles ? &d->files[id - 1] : NULL;
}

static inline const struct attr_stack *attr_stack(const struct attr_dict *d, uint32_t id)
{
	return id && id <= d->nstacks ? &d->stacks[id - 1] : NULL;
}

/* Frame i (leaf first, kernel then user) of a stack. */
static inline const char *attr_frame(const struct attr_dict *d, const struct attr_stack *s,
				     unsigned int i)
{
	return d->names[d->frames[s->first + i]];
}

/*
 * What an I/O is attributed to, as a row or group name: the file's path
 * (with " (deleted)" if it was deleted when seen; "(file dev M,m inode N)"
 * when no path could be read), else its class: "(metadata)", "(journal)",
 * "(direct I/O, file unknown)", "(not attributed)".  Into buf[len].
 */
const char *attr_label(const struct attr_dict *d, uint32_t file, unsigned int cls, char *buf,
		       size_t len);

/*
 * The directory a file is counted under for --group-by dir[:depth]: its
 * path's first `depth` components ("/var/lib" for depth 2), its parent
 * directory if the path is shallower or depth is 0; into buf[len].  NULL
 * when the file has no path.
 */
const char *attr_dir(const struct attr_file *f, unsigned int depth, char *buf, size_t len);

#endif /* BLKSCOPE_ATTR_H */
