// SPDX-License-Identifier: GPL-2.0
/*
 * rec_history.c - the flight recorder's bounded history (record --ring SIZE):
 * the newest records, time-ordered, in at most SIZE bytes.
 *
 * Records are appended to an open block; a full block is sealed into the
 * arena, a circular buffer of SIZE bytes, optionally zstd-compressed
 * (--ring-zstd).  When the arena has no room for a block, the oldest
 * blocks are evicted: the history always holds the newest records, and the
 * memory never grows (the arena is mapped and touched once, at the start).
 *
 * Readers (the snapshot writer) hold a cursor: a block id, a byte offset in
 * its uncompressed contents, and the record's number since the start.  A
 * cursor survives the sealing of the open block (same id, same layout); a
 * cursor whose block was evicted jumps to the oldest block, and the records
 * it missed are reported.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#include "record.h"

struct hblock {
	uint64_t id;
	uint64_t recno;		/* records before this block, since the start */
	uint64_t t_first, t_last;
	size_t off;		/* in the arena */
	uint32_t stored, raw;	/* bytes in the arena, bytes uncompressed */
	uint32_t nrec;
	bool compressed;
};

struct rec_history {
	uint8_t *arena;
	size_t cap, head;	/* next block goes at head (or at 0 after a wrap) */
	struct hblock *blk;	/* descriptor ring: oldest at first */
	size_t nblk_cap, first, count;
	uint8_t *open;		/* the open block: raw records */
	size_t open_len, block_raw;
	struct hblock open_blk;	/* its descriptor (off, stored unused) */
	uint8_t *scratch;	/* a compressed block, decompressed */
	uint64_t scratch_id;	/* id + 1 of what scratch holds, 0: nothing */
	int level;		/* zstd level, 0: none */
	struct rec_history_stats st;
#ifdef HAVE_ZSTD
	ZSTD_CCtx *cc;
	ZSTD_DCtx *dc;
	uint8_t *zbuf;		/* one compressed block */
	size_t zcap;
#endif
};

static size_t block_raw_for(size_t cap)
{
	size_t b = 256u << 10;

	while (b > (16u << 10) && b * 16 > cap)
		b >>= 1;
	return b;
}

struct rec_history *rec_history_new(size_t cap, int zstd_level)
{
	struct rec_history *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->cap = cap;
	h->level = zstd_level;
	h->block_raw = block_raw_for(cap);
	/* compressed blocks are smaller: room for descriptors of 4 KiB blocks */
	h->nblk_cap = cap / 4096 + 64;
	/*
	 * touched once now: no page faults while recording, and the memory the recorder will hold
	 * is taken (or refused) at the start
	 */
	h->arena = mmap(NULL, cap, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	h->blk = calloc(h->nblk_cap, sizeof(*h->blk));
	h->open = malloc(h->block_raw);
	h->scratch = malloc(h->block_raw);
	if (h->arena == MAP_FAILED) {
		h->arena = NULL;
		goto fail;
	}
	if (!h->blk || !h->open || !h->scratch)
		goto fail;
#ifdef HAVE_ZSTD
	if (zstd_level) {
		h->cc = ZSTD_createCCtx();
		h->dc = ZSTD_createDCtx();
		h->zcap = ZSTD_compressBound(h->block_raw);
		h->zbuf = malloc(h->zcap);
		if (!h->cc || !h->dc || !h->zbuf ||
		    ZSTD_isError(
			    ZSTD_CCtx_setParameter(h->cc, ZSTD_c_compressionLevel, zstd_level)))
			goto fail;
	}
#else
	if (zstd_level)
		goto fail;
#endif
	return h;
fail:
	rec_history_free(h);
	return NULL;
}

void rec_history_free(struct rec_history *h)
{
	if (!h)
		return;
	if (h->arena)
		munmap(h->arena, h->cap);
	free(h->blk);
	free(h->open);
	free(h->scratch);
#ifdef HAVE_ZSTD
	ZSTD_freeCCtx(h->cc);
	ZSTD_freeDCtx(h->dc);
	free(h->zbuf);
#endif
	free(h);
}

const struct rec_history_stats *rec_history_stats(struct rec_history *h)
{
	size_t i;

	h->st.blocks = h->count;
	h->st.stored = h->open_len;
	h->st.raw = h->open_len;
	h->st.records = h->open_blk.nrec;
	h->st.t_first = h->open_blk.nrec ? h->open_blk.t_first : 0;
	h->st.t_last = h->open_blk.nrec ? h->open_blk.t_last : 0;
	for (i = 0; i < h->count; i++) {
		const struct hblock *b = &h->blk[(h->first + i) % h->nblk_cap];

		h->st.stored += b->stored;
		h->st.raw += b->raw;
		h->st.records += b->nrec;
		if (!i)
			h->st.t_first = b->t_first;
		if (!h->st.t_last || b->t_last > h->st.t_last)
			h->st.t_last = b->t_last;
	}
	return &h->st;
}

static void evict_oldest(struct rec_history *h)
{
	h->st.evicted_records += h->blk[h->first].nrec;
	h->st.evicted_blocks++;
	h->first = (h->first + 1) % h->nblk_cap;
	h->count--;
}

/* Where a block of `size` bytes goes, after evicting what is in the way. */
static size_t arena_alloc(struct rec_history *h, size_t size)
{
	for (;;) {
		size_t t;

		if (h->count == h->nblk_cap)
			evict_oldest(h);
		if (!h->count)
			return 0;
		t = h->blk[h->first].off;
		if (t < h->head) {	/* live [t, head): free [head, cap) and [0, t) */
			if (h->head + size <= h->cap)
				return h->head;
			if (size <= t)
				return 0;
		} else if (h->head + size <= t) {	/* live [t, end) + [0, head) */
			return h->head;
		}
		evict_oldest(h);
	}
}

/* The open block into the arena (compressed if asked and smaller). */
static void seal(struct rec_history *h)
{
	struct hblock *b = &h->open_blk;
	const uint8_t *src = h->open;
	size_t size = h->open_len;

	if (!h->open_len)
		return;
	b->compressed = false;
#ifdef HAVE_ZSTD
	if (h->level) {
		size_t z = ZSTD_compress2(h->cc, h->zbuf, h->zcap, h->open, h->open_len);

		if (!ZSTD_isError(z) && z < h->open_len) {
			src = h->zbuf;
			size = z;
			b->compressed = true;
		}
	}
#endif
	b->off = arena_alloc(h, size);
	memcpy(h->arena + b->off, src, size);
	b->stored = (uint32_t)size;
	b->raw = (uint32_t)h->open_len;
	h->head = b->off + size;
	h->blk[(h->first + h->count) % h->nblk_cap] = *b;
	h->count++;
	h->st.sealed_raw += b->raw;
	h->st.sealed_stored += b->stored;
	*b = (struct hblock){ .id = b->id + 1, .recno = b->recno + b->nrec };
	h->open_len = 0;
}

int rec_history_add(struct rec_history *h, const void *rec, size_t len, uint64_t time)
{
	struct hblock *b = &h->open_blk;

	if (len > h->block_raw)
		return -1;
	if (h->open_len + len > h->block_raw)
		seal(h);
	memcpy(h->open + h->open_len, rec, len);
	h->open_len += len;
	if (!b->nrec)
		b->t_first = time;
	b->t_last = time;
	b->nrec++;
	b->raw = (uint32_t)h->open_len;
	return 0;
}

/* ------------------------------------------------------------------ */

void rec_history_cursor_oldest(struct rec_history *h, struct rec_hist_cursor *c)
{
	const struct hblock *b = h->count ? &h->blk[h->first] : &h->open_blk;

	c->id = b->id;
	c->off = 0;
	c->recno = b->recno;
}

/* The block with id, or NULL when it is gone (evicted); *is_open for the open one. */
static const struct hblock *find_block(struct rec_history *h, uint64_t id, bool *is_open)
{
	uint64_t oldest;

	*is_open = id == h->open_blk.id;
	if (*is_open)
		return &h->open_blk;
	if (!h->count)
		return NULL;
	oldest = h->blk[h->first].id;
	if (id < oldest || id - oldest >= h->count)
		return NULL;
	return &h->blk[(h->first + (id - oldest)) % h->nblk_cap];
}

/* The uncompressed contents of block b, or NULL if they cannot be read. */
static const uint8_t *contents(struct rec_history *h, const struct hblock *b, bool is_open)
{
	if (is_open)
		return h->open;
	if (!b->compressed)
		return h->arena + b->off;
#ifdef HAVE_ZSTD
	if (h->scratch_id != b->id + 1) {
		size_t n = ZSTD_decompressDCtx(h->dc, h->scratch, h->block_raw, h->arena + b->off,
					       b->stored);

		if (ZSTD_isError(n) || n != b->raw)
			return NULL;
		h->scratch_id = b->id + 1;
	}
	return h->scratch;
#else
	return NULL;
#endif
}

const uint8_t *rec_history_next(struct rec_history *h, struct rec_hist_cursor *c, size_t *len,
				uint64_t *lost)
{
	for (;;) {
		bool is_open;
		const struct hblock *b = find_block(h, c->id, &is_open);
		const uint8_t *p;
		struct bs_trace t;

		if (!b) {	/* evicted under the cursor: on from the oldest */
			struct rec_hist_cursor o;

			rec_history_cursor_oldest(h, &o);
			if (o.id <= c->id)
				return NULL;	/* cannot happen: ids only grow */
			*lost += o.recno - c->recno;
			*c = o;
			continue;
		}
		if (c->off >= b->raw) {
			if (is_open)
				return NULL;	/* nothing newer yet */
			c->id++;
			c->off = 0;
			continue;
		}
		p = contents(h, b, is_open);
		if (!p)
			return NULL;
		*len = bs_native_peek(p + c->off, b->raw - c->off, &t);
		if (!*len) {	/* a block holds whole records: cannot happen */
			c->off = b->raw;
			continue;
		}
		p += c->off;
		c->off += *len;
		c->recno++;
		return p;
	}
}
