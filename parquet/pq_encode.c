// SPDX-License-Identifier: GPL-2.0
/*
 * pq_encode.c - the byte-level encoders of the Parquet writer: the
 * growable buffer, varints, LSB-first bit packing, the RLE/bit-packed
 * hybrid (definition levels and dictionary indices), DELTA_BINARY_PACKED
 * (integers), and UTF-8 repair (strings come from untrusted traces).
 */
#include <stdlib.h>
#include "bs_escape.h"
#include "pq_priv.h"

int pq_buf_grow(struct pq_buf *b, size_t need)
{
	size_t cap = b->cap ? b->cap : 256;
	uint8_t *p;

	if (b->oom)
		return -1;
	while (cap - b->len < need) {
		if (cap > SIZE_MAX / 2)
			goto oom;
		cap *= 2;
	}
	p = realloc(b->p, cap);
	if (!p)
		goto oom;
	b->p = p;
	b->cap = cap;
	return 0;
oom:
	b->oom = true;
	return -1;
}

void pq_buf_free(struct pq_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void pq_put_uvarint(struct pq_buf *b, uint64_t v)
{
	uint8_t *o;

	if (pq_buf_reserve(b, 10))
		return;
	o = b->p + b->len;
	while (v >= 0x80) {
		*o++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*o++ = (uint8_t)v;
	b->len = (size_t)(o - b->p);
}

/*
 * Bit packing as Parquet wants it: value i occupies bits [i*w, (i+1)*w) of
 * a little-endian bit stream.  n * width is a multiple of 8 here (groups of
 * 8 values, or miniblocks of 32), so the output is exactly n*width/8 bytes.
 */
void pq_bitpack(struct pq_buf *b, const uint64_t *v, size_t n, unsigned width)
{
	uint64_t mask = width >= 64 ? ~0ULL : (1ULL << width) - 1;
	unsigned __int128 acc = 0;
	unsigned bits = 0;
	size_t bytes = n * width / 8;
	uint8_t *o;

	if (!width || pq_buf_reserve(b, bytes + 16))
		return;
	o = b->p + b->len;
	if (width <= 32) {
		/* the usual case: a 64-bit accumulator is enough */
		uint64_t a = 0;

		for (size_t i = 0; i < n; i++) {
			a |= (v[i] & mask) << bits;
			bits += width;
			if (bits >= 32) {
				pq_le32(o, (uint32_t)a);
				o += 4;
				a >>= 32;
				bits -= 32;
			}
		}
		for (; bits >= 8; bits -= 8) {
			*o++ = (uint8_t)a;
			a >>= 8;
		}
		b->len += bytes;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		acc |= (unsigned __int128)(v[i] & mask) << bits;
		bits += width;
		if (bits >= 64) {
			pq_le64(o, (uint64_t)acc);
			o += 8;
			acc >>= 64;
			bits -= 64;
		}
	}
	for (; bits >= 8; bits -= 8) {
		*o++ = (uint8_t)acc;
		acc >>= 8;
	}
	b->len += bytes;
}

/* the same for values of at most 32 bits: a 64-bit accumulator is enough */
static void pack32(uint8_t *o, const uint32_t *v, size_t n, unsigned width)
{
	uint64_t acc = 0;
	unsigned bits = 0;

	for (size_t i = 0; i < n; i++) {
		acc |= (uint64_t)v[i] << bits;
		bits += width;
		if (bits >= 32) {
			pq_le32(o, (uint32_t)acc);
			o += 4;
			acc >>= 32;
			bits -= 32;
		}
	}
	for (; bits >= 8; bits -= 8) {
		*o++ = (uint8_t)acc;
		acc >>= 8;
	}
}

static void rle_run(struct pq_buf *b, uint32_t value, size_t count, unsigned width)
{
	pq_put_uvarint(b, (uint64_t)count << 1);
	for (unsigned i = 0; i < (width + 7) / 8; i++)
		pq_put_byte(b, (uint8_t)(value >> (8 * i)));
}

/* groups of 8 values of a constant width <= 32, unrolled (see pack32_const) */
static inline __attribute__((always_inline)) void pack8_const(uint8_t *o, const uint32_t *v,
							    size_t groups, const unsigned width)
{
	for (size_t g = 0; g < groups; g++, v += 8) {
		uint64_t acc = 0;
		unsigned bits = 0;

#pragma GCC unroll 8
		for (int i = 0; i < 8; i++) {
			acc |= (uint64_t)v[i] << bits;
			bits += width;
			if (bits >= 32) {
				pq_le32(o, (uint32_t)acc);
				o += 4;
				acc >>= 32;
				bits -= 32;
			}
		}
		for (; bits >= 8; bits -= 8) {
			*o++ = (uint8_t)acc;
			acc >>= 8;
		}
	}
}

#define PACK8_CASE(n) case n: pack8_const(o, v, groups, n); break;

static void pack_groups(uint8_t *o, const uint32_t *v, size_t groups, unsigned width)
{
	switch (width) {
	PACK8_CASE(1) PACK8_CASE(2) PACK8_CASE(3) PACK8_CASE(4) PACK8_CASE(5) PACK8_CASE(6)
	PACK8_CASE(7) PACK8_CASE(8) PACK8_CASE(9) PACK8_CASE(10) PACK8_CASE(11) PACK8_CASE(12)
	PACK8_CASE(13) PACK8_CASE(14) PACK8_CASE(15) PACK8_CASE(16) PACK8_CASE(17)
	PACK8_CASE(18) PACK8_CASE(19) PACK8_CASE(20)
	default:
		pack32(o, v, groups * 8, width);
	}
}

/* a bit-packed run; the last one may be padded with zeros to a group of 8 */
static void packed_run(struct pq_buf *b, const uint32_t *v, size_t n, unsigned width)
{
	size_t groups = (n + 7) / 8;
	uint32_t tail[8] = { 0 };
	size_t full = n & ~(size_t)7;

	pq_put_uvarint(b, (uint64_t)groups << 1 | 1);
	if (pq_buf_reserve(b, groups * width + 8))
		return;
	pack_groups(b->p + b->len, v, full / 8, width);
	b->len += full / 8 * width;
	if (full < n) {
		memcpy(tail, v + full, (n - full) * sizeof(*v));
		pack32(b->p + b->len, tail, 8, width);
		b->len += width;
	}
}

/*
 * The hybrid, by groups of 8: a group of 8 equal values starts an RLE run
 * (extended as far as the value repeats); other groups are bit-packed.  A
 * bit-packed run holds whole groups, so the literals before an RLE run are
 * always a multiple of 8 (a reader decodes whole groups: padding in the
 * middle of a page would add values); only the last run is padded.  A run
 * not aligned on a group is found once it covers a whole group (from 15
 * values on): what is lost is a few bits, never correctness.
 */
void pq_rle_hybrid(struct pq_buf *b, const uint32_t *v, size_t n, unsigned width)
{
	size_t i = 0, lit = 0;

	while (i + 8 <= n) {
		uint32_t x = v[i];
		uint32_t d = (v[i + 1] ^ x) | (v[i + 2] ^ x) | (v[i + 3] ^ x) | (v[i + 4] ^ x) |
			     (v[i + 5] ^ x) | (v[i + 6] ^ x) | (v[i + 7] ^ x);
		size_t r;

		if (d) {
			i += 8;
			continue;
		}
		for (r = i + 8; r < n && v[r] == x; r++)
			;
		if (i > lit)
			packed_run(b, v + lit, i - lit, width);
		rle_run(b, x, r - i, width);
		i = lit = r;
	}
	if (lit < n)
		packed_run(b, v + lit, n - lit, width);
}

/*
 * Definition levels (0/1): almost always one long run (a page without
 * nulls), else widened into scratch (n entries) for the hybrid encoder.
 */
void pq_rle_levels(struct pq_buf *b, const uint8_t *v, size_t n, uint32_t *scratch)
{
	size_t i = 0;

	while (i < n && v[i] == v[0])
		i++;
	if (n && i == n) {
		rle_run(b, v[0], n, 1);
		return;
	}
	for (i = 0; i < n; i++)
		scratch[i] = v[i];
	pq_rle_hybrid(b, scratch, n, 1);
}

/*
 * DELTA_BINARY_PACKED: header <block size 128> <4 miniblocks> <count>
 * <first value, zigzag>, then per block of 128 deltas: <min delta,
 * zigzag> <4 bit widths> and the miniblocks of 32 (delta - min delta)
 * bit-packed.  Widths of miniblocks the last block does not need are 0 and
 * their bodies are left out.  Deltas wrap (two's complement), at 32 bits
 * for INT32 columns so that no width exceeds 32 there.
 */
#define DELTA_BLOCK 128
#define DELTA_MINI 32

/*
 * 32 values of a constant width <= 32, fully unrolled: every shift and
 * store position is known at compile time.  The values fit in width bits.
 */
static inline __attribute__((always_inline)) void pack32_const(uint8_t *o, const uint64_t *v,
							     const unsigned width)
{
	uint64_t acc = 0;
	unsigned bits = 0;

#pragma GCC unroll 32
	for (int i = 0; i < DELTA_MINI; i++) {
		acc |= v[i] << bits;
		bits += width;
		if (bits >= 32) {
			pq_le32(o, (uint32_t)acc);
			o += 4;
			acc >>= 32;
			bits -= 32;
		}
	}
}

#define PACK_CASE(n) case n: pack32_const(o, v, n); break;

/* a miniblock of 32 values at the given width */
static void pack_mini(struct pq_buf *b, const uint64_t *v, unsigned width)
{
	uint8_t *o;

	if (width > 32 || pq_buf_reserve(b, 4 * width)) {
		pq_bitpack(b, v, DELTA_MINI, width);
		return;
	}
	o = b->p + b->len;
	switch (width) {
	case 0: break;
	PACK_CASE(1) PACK_CASE(2) PACK_CASE(3) PACK_CASE(4) PACK_CASE(5) PACK_CASE(6)
	PACK_CASE(7) PACK_CASE(8) PACK_CASE(9) PACK_CASE(10) PACK_CASE(11) PACK_CASE(12)
	PACK_CASE(13) PACK_CASE(14) PACK_CASE(15) PACK_CASE(16) PACK_CASE(17) PACK_CASE(18)
	PACK_CASE(19) PACK_CASE(20) PACK_CASE(21) PACK_CASE(22) PACK_CASE(23) PACK_CASE(24)
	PACK_CASE(25) PACK_CASE(26) PACK_CASE(27) PACK_CASE(28) PACK_CASE(29) PACK_CASE(30)
	PACK_CASE(31) PACK_CASE(32)
	}
	b->len += 4 * width;
}

static void delta_encode(struct pq_buf *b, const int64_t *v, size_t n, bool i32)
{
	uint64_t u[DELTA_BLOCK];

	pq_put_uvarint(b, DELTA_BLOCK);
	pq_put_uvarint(b, DELTA_BLOCK / DELTA_MINI);
	pq_put_uvarint(b, n);
	pq_put_uvarint(b, pq_zigzag(n ? (i32 ? (int32_t)v[0] : v[0]) : 0));
	for (size_t i = 1; i < n; i += DELTA_BLOCK) {
		size_t m = n - i < DELTA_BLOCK ? n - i : DELTA_BLOCK;
		size_t minis = (m + DELTA_MINI - 1) / DELTA_MINI;
		uint8_t widths[DELTA_BLOCK / DELTA_MINI] = { 0 };
		int64_t min = INT64_MAX;

		/* deltas and their minimum, then (delta - min) and each miniblock's width */
		if (i32) {
			for (size_t k = 0; k < m; k++) {
				int64_t d = (int32_t)(uint32_t)((uint64_t)v[i + k] -
								 (uint64_t)v[i + k - 1]);

				u[k] = (uint64_t)d;
				min = d < min ? d : min;
			}
		} else {
			for (size_t k = 0; k < m; k++) {
				int64_t d = (int64_t)((uint64_t)v[i + k] - (uint64_t)v[i + k - 1]);

				u[k] = (uint64_t)d;
				min = d < min ? d : min;
			}
		}
		for (size_t k = m; k < minis * DELTA_MINI; k++)
			u[k] = (uint64_t)min;
		for (size_t mb = 0; mb < minis; mb++) {
			uint64_t or = 0, *x = u + mb * DELTA_MINI;

			for (size_t k = 0; k < DELTA_MINI; k++) {
				x[k] -= (uint64_t)min;
				if (i32)
					x[k] = (uint32_t)x[k];
				or |= x[k];
			}
			widths[mb] = (uint8_t)pq_bit_width(or);
		}
		pq_put_uvarint(b, pq_zigzag(min));
		pq_put(b, widths, sizeof(widths));
		for (size_t mb = 0; mb < minis; mb++)
			pack_mini(b, u + mb * DELTA_MINI, widths[mb]);
	}
}

void pq_delta_i64(struct pq_buf *b, const int64_t *v, size_t n)
{
	delta_encode(b, v, n, false);
}

void pq_delta_i32(struct pq_buf *b, const int64_t *v, size_t n)
{
	delta_encode(b, v, n, true);
}

/*
 * Length of the well-formed UTF-8 sequence at s, 0 if there is none: the
 * same rule as every other output of blkscope (util/bs_escape.c), so that
 * a name reads the same in Parquet as in JSON.
 */
static size_t utf8_seq(const uint8_t *s, size_t avail)
{
	uint32_t cp;

	return bs_utf8_decode(s, avail, &cp);
}

size_t pq_utf8_valid_prefix(const uint8_t *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		uint64_t x;
		size_t n;

		if (len - i >= 8) {
			memcpy(&x, s + i, 8);
			if (!(x & 0x8080808080808080ULL)) {
				i += 8;
				continue;
			}
		}
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		n = utf8_seq(s + i, len - i);
		if (!n)
			return i;
		i += n;
	}
	return len;
}

size_t pq_utf8_repair(struct pq_buf *out, const uint8_t *s, size_t len)
{
	static const uint8_t fffd[3] = { 0xef, 0xbf, 0xbd };
	size_t bad = 0;

	while (len) {
		size_t ok = pq_utf8_valid_prefix(s, len);

		pq_put(out, s, ok);
		s += ok;
		len -= ok;
		if (len) {
			pq_put(out, fffd, sizeof(fffd));
			s++;
			len--;
			bad++;
		}
	}
	return bad;
}
