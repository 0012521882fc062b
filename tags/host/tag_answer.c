// SPDX-License-Identifier: GPL-2.0
/*
 * tag_answer.c - the plugin's answers (docs/tags.md): END, TAG_IO and
 * NEW_TAG records parsed as they arrive, the tags it declared (open
 * addressing on the tag number), and the TAG_IOs of the event at the head.
 * Any violation fails the plugin with one message naming it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_stream.h"
#include "bs_hash.h"
#include "tag_host_priv.h"

/* ---- declared tags: tag number -> its place in declaration order ----- */

/* The declaration index of tag, or -1 if the plugin never declared it. */
static int tag_find(const struct tag_declared *d, uint32_t tag)
{
	const uint64_t *i = bs_hash_get(&d->index, tag);

	return i ? (int)*i : -1;
}

/* Adds a tag not declared before; -1 when out of memory (the labels array). */
static int tag_add(struct tag_declared *d, uint32_t tag, char *label)
{
	bool fresh;

	if (d->len == d->cap) {
		uint32_t cap = d->cap ? d->cap * 2 : 64;
		char **labels = realloc(d->labels, cap * sizeof(*labels));

		if (!labels)
			return -1;
		d->labels = labels;
		d->cap = cap;
	}
	bs_hash_put(&d->index, tag, d->len, &fresh);
	d->labels[d->len++] = label;
	return 0;
}

const char *tag_host_label(const struct tag_host *h, uint32_t tag)
{
	int i = tag_find(&h->tags, tag);

	return i >= 0 ? h->tags.labels[i] : NULL;
}

int tag_host_index(const struct tag_host *h, uint32_t tag)
{
	return tag_find(&h->tags, tag);
}

/* ---- answers ------------------------------------------------------- */

static uint32_t get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void on_label(struct tag_host *h, uint32_t tag, const uint8_t *label, uint32_t len)
{
	int known = tag_find(&h->tags, tag);
	char *copy;

	if (known >= 0) {
		const char *kept = h->tags.labels[known];

		if (strcmp(kept, (const char *)label))
			bs_msg(&h->ops.msg, BS_MSG_WARN,
			       "tag plugin '%s': event %llu: warning: tag %u declared again as "
			       "'%s', keeping '%s'", h->name,
			       (unsigned long long)tag_current_index(h), tag, (const char *)label,
			       kept);
		return;
	}
	if (h->tags.len >= TAG_MAX_TAGS) {
		tag_fail(h, "NEW_TAG %u: more than %d tags declared", tag, TAG_MAX_TAGS);
		return;
	}
	copy = strndup((const char *)label, len);
	if (!copy || tag_add(&h->tags, tag, copy) < 0) {
		free(copy);
		tag_fail(h, "out of memory for tag labels");
		return;
	}
	if (h->ops.on_new_tag)
		h->ops.on_new_tag(h->ops.ctx, tag, copy);
}

static int add_cur_tag(struct tag_host *h, uint32_t tag)
{
	if (h->ncur == h->cur_cap) {
		if (h->cur_cap >= TAG_MAX_PER_EVENT)
			return 1;
		int cap = h->cur_cap ? h->cur_cap * 2 : 8;
		uint32_t *p = realloc(h->cur_tags, cap * sizeof(*p));

		if (!p)
			return -1;
		h->cur_tags = p;
		h->cur_cap = cap;
	}
	h->cur_tags[h->ncur++] = tag;
	return 0;
}

/* Parse every complete answer in h->in. */
void tag_parse_answers(struct tag_host *h)
{
	while (!h->failed && h->in.len >= 4) {
		const uint8_t *p = h->in.buf + h->in.head;
		uint32_t type = get_u32(p), tag, len;
		size_t need;

		/* An answer is only valid once its event has been fully sent. */
		if (!h->count || h->ends[h->head] > h->written) {
			if (h->input_closed && !h->count)
				tag_fail(h, "response (type %u) after the END of the last event",
					 type);
			else
				tag_fail(h, "response (type %u) for an event not sent yet: "
					 "the plugin must read an event before answering it", type);
			return;
		}
		switch (type) {
		case TAG_RESP_END:
			tag_bytes_drop(&h->in, 4);
			tag_deliver_head(h, true);
			break;
		case TAG_RESP_TAG_IO:
			if (h->in.len < 8)
				return;
			tag = get_u32(p + 4);
			/* most answers repeat the previous tag: skip the lookup then */
			if ((tag != h->last_tag || !h->last_tag_valid) && !tag_host_label(h, tag)) {
				tag_fail(h, "TAG_IO for undeclared tag %u", tag);
				return;
			}
			h->last_tag = tag;
			h->last_tag_valid = true;
			switch (add_cur_tag(h, tag)) {
			case 0:
				break;
			case 1:
				tag_fail(h, "more than %d TAG_IO answers for one event",
					 TAG_MAX_PER_EVENT);
				return;
			default:
				tag_fail(h, "out of memory");
				return;
			}
			tag_bytes_drop(&h->in, 8);
			break;
		case TAG_RESP_NEW_TAG:
			if (h->in.len < 12)
				return;
			tag = get_u32(p + 4);
			len = get_u32(p + 8);
			if (len > TAG_LABEL_MAX) {
				tag_fail(h, "NEW_TAG %u: label of %u bytes, over the %d-byte limit",
					 tag, len, TAG_LABEL_MAX);
				return;
			}
			if (len == 0) {
				tag_fail(h, "NEW_TAG %u: empty label "
					 "(the NUL must be counted in len)", tag);
				return;
			}
			need = 12 + (size_t)len;
			if (h->in.len < need)
				return;
			if (p[need - 1] != '\0') {
				tag_fail(h, "NEW_TAG %u: label of %u bytes does not end with a NUL",
					 tag, len);
				return;
			}
			on_label(h, tag, p + 12, len);
			tag_bytes_drop(&h->in, need);
			break;
		default:
			tag_fail(h, "unknown response type %u", type);
			return;
		}
	}
}

void tag_declared_free(struct tag_declared *d)
{
	uint32_t i;

	for (i = 0; i < d->len; i++)
		free(d->labels[i]);
	free(d->labels);
	bs_hash_free(&d->index);
}
