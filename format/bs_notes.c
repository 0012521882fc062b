// SPDX-License-Identifier: GPL-2.0
/*
 * bs_notes.c - blkscope's own notes (bs_notes.h): the end note.
 */
#include <stdio.h>
#include <string.h>
#include "bs_codec.h"
#include "bs_notes.h"

static const char end_word[] = "blkscope end";

size_t bs_end_note_make(void *buf, size_t size, uint32_t device, uint32_t cpu, uint64_t time,
			const struct bs_end_note *n)
{
	char text[80];
	struct bs_trace t;
	int len;

	len = snprintf(text, sizeof(text), "%s events=%llu drops=%llu", end_word,
		       (unsigned long long)n->events, (unsigned long long)n->drops);
	if (len < 0 || (size_t)len >= sizeof(text) || size < sizeof(t) + BS_CGROUP_LEN + (size_t)len)
		return 0;
	memset(&t, 0, sizeof(t));
	t.magic = BS_TRACE_MAGIC_V7;
	t.time = time;
	t.action = BS_NOTE_FLAGGED_MESSAGE;
	t.device = device;
	t.cpu = cpu;
	t.pdu_len = (uint16_t)(BS_CGROUP_LEN + len);
	memcpy(buf, &t, sizeof(t));
	memset((char *)buf + sizeof(t), 0, BS_CGROUP_LEN);	/* no cgroup */
	memcpy((char *)buf + sizeof(t) + BS_CGROUP_LEN, text, (size_t)len);
	return sizeof(t) + BS_CGROUP_LEN + (size_t)len;
}

/* " key=<digits>" in text[0..len): 1 and *v, 0 when absent or malformed. */
static int field_u64(const char *text, size_t len, const char *key, uint64_t *v)
{
	size_t klen = strlen(key), i = 0;

	while (i < len) {
		const char *sp = memchr(text + i, ' ', len - i);
		size_t end = sp ? (size_t)(sp - text) : len;

		if (end - i > klen + 1 && !memcmp(text + i, key, klen) && text[i + klen] == '=') {
			uint64_t num = 0;
			size_t j;

			for (j = i + klen + 1; j < end; j++) {
				if (text[j] < '0' || text[j] > '9' || num > (UINT64_MAX - 9) / 10)
					return 0;
				num = num * 10 + (uint64_t)(text[j] - '0');
			}
			*v = num;
			return 1;
		}
		i = end + 1;
	}
	return 0;
}

int bs_end_note_parse(const struct bs_trace *t, const uint8_t *pdu, bool foreign,
		      struct bs_end_note *out)
{
	const char *text;
	size_t len, wlen = sizeof(end_word) - 1;

	(void)foreign;	/* the text has no byte order; the id slot is not read */
	if (t->action != BS_NOTE_FLAGGED_MESSAGE || t->pdu_len < BS_CGROUP_LEN + wlen)
		return 0;
	text = (const char *)bs_pdu_payload(t, pdu, &len);
	if (len < wlen || memcmp(text, end_word, wlen) || (len > wlen && text[wlen] != ' '))
		return 0;
	if (!field_u64(text + wlen, len - wlen, "events", &out->events) ||
	    !field_u64(text + wlen, len - wlen, "drops", &out->drops))
		return 0;
	return 1;
}
