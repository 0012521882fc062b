// SPDX-License-Identifier: GPL-2.0
/*
 * bs_native.c - host-order records in memory (bs_native.h).
 */
#include <stddef.h>
#include <string.h>
#include "bs_codec.h"
#include "bs_native.h"

size_t bs_native_peek(const void *p, size_t avail, struct bs_trace *t)
{
	if (avail < BS_TRACE_SIZE)
		return 0;
	memcpy(t, p, BS_TRACE_SIZE);
	return BS_TRACE_SIZE + (size_t)t->pdu_len;
}

void bs_native_set_sequence(void *rec, uint32_t sequence)
{
	memcpy((uint8_t *)rec + offsetof(struct bs_trace, sequence), &sequence, sizeof(sequence));
}

size_t bs_native_put(void *out, const struct bs_trace *t, const void *pdu)
{
	memcpy(out, t, BS_TRACE_SIZE);
	if (t->pdu_len)
		memcpy((uint8_t *)out + BS_TRACE_SIZE, pdu, t->pdu_len);
	return BS_TRACE_SIZE + (size_t)t->pdu_len;
}

size_t bs_native_put_v8(void *out, const struct bs_trace *t, uint32_t action_hi, const void *pdu)
{
	struct bs_trace h = *t;

	h.magic = BS_TRACE_MAGIC_V8;
	bs_encode_v8(out, &h, action_hi);
	if (t->pdu_len)
		memcpy((uint8_t *)out + BS_TRACE2_SIZE, pdu, t->pdu_len);
	return BS_TRACE2_SIZE + (size_t)t->pdu_len;
}

size_t bs_native_put_cgroup_pdu(uint8_t *pdu, uint64_t id, const void *rest, size_t len)
{
	memcpy(pdu, &id, sizeof(id));
	if (len)
		memcpy(pdu + BS_CGROUP_LEN, rest, len);
	return BS_CGROUP_LEN + len;
}
