// SPDX-License-Identifier: GPL-2.0
/*
 * rec_v8.c - `record --format 8`: the BPF programs and the stages work on
 * version-7 records (one BPF object for both formats, one sort); the
 * records become version 8 on their way into a sink.  The zone categories
 * the BPF side stashed in the unused bits 9..15 of the action (BR_HI_SHIFT)
 * move to the high word of the 64-bit action.
 */
#include "record.h"

size_t rec_to_v8(uint8_t *out, size_t cap, const uint8_t *in, size_t len, size_t *used)
{
	size_t ip = 0, op = 0, size;
	struct bs_trace t;

	while ((size = bs_native_peek(in + ip, len - ip, &t)) != 0) {
		uint32_t hi;

		if (ip + size > len || op + bs_native_v8_size(&t) > cap)
			break;
		hi = (t.action & BR_HI_MASK) >> BR_HI_SHIFT;
		t.action &= ~BR_HI_MASK;
		op += bs_native_put_v8(out + op, &t, hi, bs_native_pdu(in + ip));
		ip += size;
	}
	*used = ip;
	return op;
}
