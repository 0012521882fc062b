// SPDX-License-Identifier: GPL-2.0
/* bs_codec.c - byte order conversion and small decoders of the format. */
#include <strings.h>
#include <string.h>
#include "bs_codec.h"

void bs_trace_swap(struct bs_trace *t)
{
	t->magic = bs_swap32(t->magic);
	t->sequence = bs_swap32(t->sequence);
	t->time = bs_swap64(t->time);
	t->sector = bs_swap64(t->sector);
	t->bytes = bs_swap32(t->bytes);
	t->action = bs_swap32(t->action);
	t->pid = bs_swap32(t->pid);
	t->device = bs_swap32(t->device);
	t->cpu = bs_swap32(t->cpu);
	t->error = bs_swap16(t->error);
	t->pdu_len = bs_swap16(t->pdu_len);
}

void bs_trace2_swap(struct bs_trace2 *t)
{
	t->magic = bs_swap32(t->magic);
	t->sequence = bs_swap32(t->sequence);
	t->time = bs_swap64(t->time);
	t->sector = bs_swap64(t->sector);
	t->bytes = bs_swap32(t->bytes);
	t->pid = bs_swap32(t->pid);
	t->action = bs_swap64(t->action);
	t->device = bs_swap32(t->device);
	t->cpu = bs_swap32(t->cpu);
	t->error = bs_swap16(t->error);
	t->pdu_len = bs_swap16(t->pdu_len);
}

void bs_decode_v8(const void *raw, struct bs_trace *t, uint32_t *action_hi)
{
	struct bs_trace2 r;

	memcpy(&r, raw, sizeof(r));
	t->magic = r.magic;
	t->sequence = r.sequence;
	t->time = r.time;
	t->sector = r.sector;
	t->bytes = r.bytes;
	t->action = (uint32_t)r.action;
	t->pid = r.pid;
	t->device = r.device;
	t->cpu = r.cpu;
	t->error = r.error;
	t->pdu_len = r.pdu_len;
	*action_hi = (uint32_t)(r.action >> 32);
}

void bs_encode_v8(void *raw, const struct bs_trace *t, uint32_t action_hi)
{
	struct bs_trace2 r = {
		.magic = t->magic,
		.sequence = t->sequence,
		.time = t->time,
		.sector = t->sector,
		.bytes = t->bytes,
		.pid = t->pid,
		.action = bs_action64(t->action, action_hi),
		.device = t->device,
		.cpu = t->cpu,
		.error = t->error,
		.pdu_len = t->pdu_len,
	};

	memcpy(raw, &r, sizeof(r));
}

int bs_decode_remap(const struct bs_trace *t, const uint8_t *pdu, struct bs_remap *out)
{
	if (t->pdu_len < sizeof(struct bs_trace_remap))
		return -1;
	out->device_from = bs_get_be32(pdu);
	out->device_to = bs_get_be32(pdu + 4);
	out->sector_from = bs_get_be64(pdu + 8);
	return 0;
}

size_t bs_encode_remap(uint8_t *pdu, const struct bs_remap *rm)
{
	bs_put_be32(pdu, rm->device_from);
	bs_put_be32(pdu + 4, rm->device_to);
	bs_put_be64(pdu + 8, rm->sector_from);
	return sizeof(struct bs_trace_remap);
}

uint64_t bs_pdu_be64(const struct bs_trace *t, const uint8_t *pdu)
{
	if (t->pdu_len < sizeof(uint64_t))
		return 0;
	return bs_get_be64(pdu);
}

uint64_t bs_cgroup_id(const struct bs_trace *t, const uint8_t *pdu, bool foreign)
{
	uint64_t id;

	if (!(t->action & BS_TA_CGROUP) || t->pdu_len < BS_CGROUP_LEN)
		return 0;
	memcpy(&id, pdu, sizeof(id));
	return foreign ? bs_swap64(id) : id;
}

const uint8_t *bs_pdu_payload(const struct bs_trace *t, const uint8_t *pdu, size_t *len)
{
	if ((t->action & BS_TA_CGROUP) && t->pdu_len >= BS_CGROUP_LEN) {
		*len = t->pdu_len - BS_CGROUP_LEN;
		return pdu + BS_CGROUP_LEN;
	}
	*len = t->pdu_len;
	return pdu;
}

int bs_cgroup_note(const struct bs_trace *t, const uint8_t *pdu, bool foreign, uint64_t *id,
		   const char **path, size_t *plen)
{
	static const char word[] = "cgroup ";
	const char *text, *sp;
	uint64_t num = 0;
	size_t len, i;

	if (t->action != (BS_NOTE_MESSAGE | BS_TA_CGROUP) || t->pdu_len < BS_CGROUP_LEN)
		return 0;
	text = (const char *)bs_pdu_payload(t, pdu, &len);
	if (len < sizeof(word) + 2 || memcmp(text, word, sizeof(word) - 1))
		return 0;
	sp = memchr(text + sizeof(word) - 1, ' ', len - (sizeof(word) - 1));
	if (!sp || sp == text + sizeof(word) - 1)
		return 0;
	for (i = sizeof(word) - 1; text + i < sp; i++) {
		if (text[i] < '0' || text[i] > '9' || num > (UINT64_MAX - 9) / 10)
			return 0;
		num = num * 10 + (uint64_t)(text[i] - '0');
	}
	*id = bs_cgroup_id(t, pdu, foreign);
	if (num != *id)
		return 0;
	*path = sp + 1;
	*plen = len - (size_t)(sp + 1 - text);
	return 1;
}

/* Current blkparse's zone letters, in the order it tests the categories. */
static const char *zone_letters(uint32_t action_hi)
{
	static const struct {
		uint32_t cat;
		const char *letters;
	} zl[] = {
		{ BS_TC_ZONE_APPEND, "ZA" }, { BS_TC_ZONE_RESET, "ZR" }, { BS_TC_ZONE_RESET_ALL, "ZRA" },
		{ BS_TC_ZONE_FINISH, "ZF" }, { BS_TC_ZONE_OPEN, "ZO" },	  { BS_TC_ZONE_CLOSE, "ZC" },
	};

	for (size_t i = 0; i < sizeof(zl) / sizeof(zl[0]); i++)
		if (action_hi & BS_TC_HI(zl[i].cat))
			return zl[i].letters;
	return NULL;
}

char *bs_rwbs2(char buf[BS_RWBS2_LEN], uint32_t action, uint32_t action_hi, uint32_t bytes)
{
	uint32_t cats = action >> BS_TC_SHIFT;
	const char *zone = action_hi ? zone_letters(action_hi) : NULL;
	int i = 0;

	if (cats & BS_TC_FLUSH)
		buf[i++] = 'F';
	if (cats & BS_TC_DISCARD) {
		buf[i++] = 'D';
	} else if (zone) {
		while (*zone)
			buf[i++] = *zone++;
	} else if (cats & BS_TC_WRITE) {
		buf[i++] = 'W';
	} else {
		buf[i++] = bytes ? 'R' : 'N';
	}
	if (cats & BS_TC_FUA)
		buf[i++] = 'F';
	if (cats & BS_TC_AHEAD)
		buf[i++] = 'A';
	if (cats & BS_TC_SYNC)
		buf[i++] = 'S';
	if (cats & BS_TC_META)
		buf[i++] = 'M';
	buf[i] = '\0';
	return buf;
}

char *bs_rwbs(char buf[8], uint32_t action, uint32_t bytes)
{
	char tmp[BS_RWBS2_LEN];

	/* without zone letters at most "FWFASM": fits in 8 */
	return strcpy(buf, bs_rwbs2(tmp, action, 0, bytes));
}

const char *bs_action_letters(uint32_t action)
{
	static const char *const letters[] = {
		[BS_TA_QUEUE] = "Q",	   [BS_TA_BACKMERGE] = "M", [BS_TA_FRONTMERGE] = "F",
		[BS_TA_GETRQ] = "G",	   [BS_TA_SLEEPRQ] = "S",   [BS_TA_REQUEUE] = "R",
		[BS_TA_ISSUE] = "D",	   [BS_TA_COMPLETE] = "C",  [BS_TA_PLUG] = "P",
		[BS_TA_UNPLUG_IO] = "U",   [BS_TA_UNPLUG_TIMER] = "UT", [BS_TA_INSERT] = "I",
		[BS_TA_SPLIT] = "X",	   [BS_TA_BOUNCE] = "B",    [BS_TA_REMAP] = "A",
	};
	unsigned int act = action & 0xffff & ~BS_TA_CGROUP;

	if (bs_is_note(action))
		return (act == BS_TN_MESSAGE) ? "m" : NULL;
	if (act < sizeof(letters) / sizeof(letters[0]))
		return letters[act];
	return NULL;
}

const char *bs_action_letters2(uint32_t action)
{
	unsigned int act = action & 0xffff & ~BS_TA_CGROUP;

	if (!bs_is_note(action) && act == BS_TA_ZONE_PLUG)
		return "ZP";
	if (!bs_is_note(action) && act == BS_TA_ZONE_UNPLUG)
		return "ZU";
	return bs_action_letters(action);
}

static const char *const mask_names[16] = {
	"read", "write", "flush", "sync", "queue", "requeue", "issue", "complete",
	"fs", "pc", "notify", "ahead", "meta", "discard", "drv_data", "fua",
};

int bs_mask_from_name(const char *name)
{
	int i;

	if (!strncasecmp(name, "BLK_TC_", 7))
		name += 7;
	for (i = 0; i < 16; i++)
		if (!strcasecmp(name, mask_names[i]))
			return 1 << i;
	/* blktrace's old man pages call the flush category "barrier" */
	if (!strcasecmp(name, "barrier"))
		return BS_TC_FLUSH;
	return -1;
}

const char *bs_mask_name(unsigned int cat_bit)
{
	int i;

	for (i = 0; i < 16; i++)
		if (cat_bit == (1u << i))
			return mask_names[i];
	return NULL;
}
