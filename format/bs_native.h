/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_native.h - records in host byte order in memory: the recorder's ring
 * slots and stage buffers, the record stream a tag plugin reads on stdin.
 * A record is a header (48 bytes for version 7, 64 for version 8) and
 * pdu_len PDU bytes right after it.  Code outside format/ walks and builds
 * such buffers with these functions and never computes an offset itself.
 */
#ifndef BLKSCOPE_BS_NATIVE_H
#define BLKSCOPE_BS_NATIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "bs_defs.h"

/*
 * The version-7 record at p, of which avail bytes are there: 0 if its
 * header is not all there; else the header is copied into *t and the
 * record's whole size (header + PDU) is returned, which may exceed avail
 * (the caller checks it before it reads the PDU).
 */
size_t bs_native_peek(const void *p, size_t avail, struct bs_trace *t);

/* The PDU of the version-7 record at rec. */
static inline const uint8_t *bs_native_pdu(const void *rec)
{
	return (const uint8_t *)rec + BS_TRACE_SIZE;
}

/* The size of the version-7 record whose header is t. */
static inline size_t bs_native_size(const struct bs_trace *t)
{
	return BS_TRACE_SIZE + (size_t)t->pdu_len;
}

/* The time of the version-7 record at rec (any alignment; a merge's sort key). */
static inline uint64_t bs_native_time(const void *rec)
{
	uint64_t t;

	memcpy(&t, (const uint8_t *)rec + offsetof(struct bs_trace, time), sizeof(t));
	return t;
}

/* Renumber the version-7 record at rec in place. */
void bs_native_set_sequence(void *rec, uint32_t sequence);

/* Write a version-7 record (t's header, pdu_len bytes of pdu) at out; returns its size. */
size_t bs_native_put(void *out, const struct bs_trace *t, const void *pdu);

/*
 * The same record as version 8 (t's magic replaced by BS_TRACE_MAGIC_V8,
 * action_hi the high word of the 64-bit action); returns its size.
 */
size_t bs_native_put_v8(void *out, const struct bs_trace *t, uint32_t action_hi, const void *pdu);

/* The size of a version-7 record with a PDU of pdu_len bytes. */
static inline size_t bs_native_record_size(size_t pdu_len)
{
	return BS_TRACE_SIZE + pdu_len;
}

/* The size of the record whose header is t once written as version 8. */
static inline size_t bs_native_v8_size(const struct bs_trace *t)
{
	return BS_TRACE2_SIZE + (size_t)t->pdu_len;
}

/* How many bytes a record grows by when written as version 8. */
#define BS_NATIVE_V8_GROWTH	(BS_TRACE2_SIZE - BS_TRACE_SIZE)

/* Room for a version-7 remap record whose PDU starts with a cgroup id. */
#define BS_NATIVE_CGROUP_REMAP_SIZE \
	(BS_TRACE_SIZE + BS_CGROUP_LEN + sizeof(struct bs_trace_remap))

/* Is magic (a header's first word, host order) the one of a version-7 record? */
static inline bool bs_native_magic_is_v7(uint32_t magic)
{
	return magic == BS_TRACE_MAGIC_V7;
}

/* Is t the header of a version-7 record (host order)? */
static inline bool bs_native_is_v7(const struct bs_trace *t)
{
	return bs_native_magic_is_v7(t->magic);
}

/*
 * Does the version-7 record whose header is t lie whole in size bytes (its
 * header and its PDU)?
 */
static inline bool bs_native_whole_v7(const struct bs_trace *t, size_t size)
{
	return size >= BS_TRACE_SIZE && size >= bs_native_size(t) && bs_native_is_v7(t);
}

/* Does t carry blktrace's magic (any version) in host order? */
static inline bool bs_native_magic_ok(const struct bs_trace *t)
{
	return (t->magic & BS_TRACE_MAGIC_MASK) == BS_TRACE_MAGIC;
}

/*
 * A PDU that starts with a cgroup id (BS_TA_CGROUP, host order) into pdu:
 * the id, then len bytes of rest; returns BS_CGROUP_LEN + len.
 */
size_t bs_native_put_cgroup_pdu(uint8_t *pdu, uint64_t id, const void *rest, size_t len);

#endif /* BLKSCOPE_BS_NATIVE_H */
