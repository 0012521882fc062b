/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_codec.h - byte-order helpers and the small decoders every consumer of
 * the format needs: PDU integers, remap payloads, RWBS strings, action
 * letters and action-mask names.
 */
#ifndef BLKSCOPE_BS_CODEC_H
#define BLKSCOPE_BS_CODEC_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "bs_defs.h"

static inline uint16_t bs_swap16(uint16_t v) { return __builtin_bswap16(v); }
static inline uint32_t bs_swap32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint64_t bs_swap64(uint64_t v) { return __builtin_bswap64(v); }

static inline uint32_t bs_get_be32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return __builtin_bswap32(v);	/* blkscope targets little-endian hosts */
}

static inline uint64_t bs_get_be64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return __builtin_bswap64(v);
}

static inline void bs_put_be32(void *p, uint32_t v)
{
	v = __builtin_bswap32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void bs_put_be64(void *p, uint64_t v)
{
	v = __builtin_bswap64(v);
	memcpy(p, &v, sizeof(v));
}

/* Convert every header field of a foreign-endian record in place. */
void bs_trace_swap(struct bs_trace *t);
void bs_trace2_swap(struct bs_trace2 *t);

/*
 * The decoded form of a record of either version is struct bs_trace (the
 * v7 field set, host order) plus action_hi, bits 32..63 of the version-8
 * action (the zone categories; always 0 for version 7).  The low 32 bits
 * of a v8 action are exactly the v7 action word of the same event, so code
 * that only knows version 7 sees a v8 event the way it would see the v7 one.
 *
 * bs_decode_v8: a 64-byte host-order header -> t (magic kept as found) and
 * *action_hi.  bs_encode_v8: the reverse; the pad bytes are zeroed.
 */
void bs_decode_v8(const void *raw, struct bs_trace *t, uint32_t *action_hi);
void bs_encode_v8(void *raw, const struct bs_trace *t, uint32_t action_hi);

/* The whole 64-bit action of a decoded record. */
static inline uint64_t bs_action64(uint32_t action, uint32_t action_hi)
{
	return (uint64_t)action_hi << 32 | action;
}

/* Decoded REMAP payload (host order). Returns 0, or -1 if pdu_len < 16. */
struct bs_remap {
	uint32_t device_from;
	uint32_t device_to;
	uint64_t sector_from;
};
int bs_decode_remap(const struct bs_trace *t, const uint8_t *pdu, struct bs_remap *out);

/* The REMAP payload (16 bytes, big-endian) into pdu; returns its size. */
size_t bs_encode_remap(uint8_t *pdu, const struct bs_remap *rm);

/* First big-endian u64 of the PDU (unplug depth, split sector); 0 if short. */
uint64_t bs_pdu_be64(const struct bs_trace *t, const uint8_t *pdu);

/*
 * cgroup ids (docs/format.md, "cgroup ids").  A record with BS_TA_CGROUP
 * starts its PDU with the 64-bit id of its bio's cgroup, in the writer's
 * byte order (foreign: the stream is byte-swapped).  0 when the record has
 * none (the kernel's ids start at 1).
 */
uint64_t bs_cgroup_id(const struct bs_trace *t, const uint8_t *pdu, bool foreign);

/* The PDU after the cgroup prefix (the whole PDU without one); *len its length. */
const uint8_t *bs_pdu_payload(const struct bs_trace *t, const uint8_t *pdu, size_t *len);

/*
 * blkscope's cgroup note, a flagged MESSAGE "cgroup ID PATH": 1 with the id
 * and the path (*path, *plen bytes, not NUL-terminated), else 0.
 */
int bs_cgroup_note(const struct bs_trace *t, const uint8_t *pdu, bool foreign, uint64_t *id,
		   const char **path, size_t *plen);

/*
 * RWBS column as blkparse/ftrace print it: [F] one of D/W/R/N, then F A S M.
 * buf must hold 8 bytes; returns buf.
 */
char *bs_rwbs(char buf[8], uint32_t action, uint32_t bytes);

/*
 * The same for a version-8 record, as current blkparse prints it: after D,
 * a zone category replaces W/R/N with ZA (append), ZR (reset), ZRA (reset
 * all), ZF (finish), ZO (open) or ZC (close).  With action_hi 0 the result
 * is bs_rwbs()'s.  buf must hold BS_RWBS2_LEN bytes.
 */
#define BS_RWBS2_LEN 12
char *bs_rwbs2(char buf[BS_RWBS2_LEN], uint32_t action, uint32_t action_hi, uint32_t bytes);

/* blkparse's action letters ("Q", "UT", "m", ...); NULL for unknown actions. */
const char *bs_action_letters(uint32_t action);

/* The same, knowing version 8's ZP and ZU (for records of a v8 stream). */
const char *bs_action_letters2(uint32_t action);

/*
 * Action-mask names of blkparse/blktrace -a (read write flush sync queue
 * requeue issue complete fs pc notify ahead meta discard drv_data fua),
 * case-insensitive, optionally with a "BLK_TC_" prefix.  Returns the
 * category bit, or -1 if the name is unknown.
 */
int bs_mask_from_name(const char *name);

/* Name of a single category bit ("read", ...), or NULL. */
const char *bs_mask_name(unsigned int cat_bit);

#endif /* BLKSCOPE_BS_CODEC_H */
