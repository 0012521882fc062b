// SPDX-License-Identifier: GPL-2.0
/*
 * bs_pidnames.c - pid -> comm, an open-addressing hash table.  Pids are
 * few (thousands at most) compared with events, so a simple table that
 * doubles at 50% load is plenty.
 */
#include <stdlib.h>
#include <string.h>
#include "bs_pidnames.h"

struct pid_slot {
	uint32_t pid;
	uint8_t used;
	char comm[BS_COMM_LEN + 1];
};

struct bs_pidnames {
	struct pid_slot *slots;
	size_t mask;	/* capacity - 1 */
	size_t used;
};

static size_t pid_hash(uint32_t pid)
{
	return (size_t)(pid * 2654435761u);
}

struct bs_pidnames *bs_pidnames_new(void)
{
	struct bs_pidnames *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->mask = 255;
	p->slots = calloc(p->mask + 1, sizeof(*p->slots));
	if (!p->slots) {
		free(p);
		return NULL;
	}
	return p;
}

void bs_pidnames_free(struct bs_pidnames *p)
{
	if (!p)
		return;
	free(p->slots);
	free(p);
}

static struct pid_slot *find_slot(struct pid_slot *slots, size_t mask, uint32_t pid)
{
	size_t i = pid_hash(pid) & mask;

	while (slots[i].used && slots[i].pid != pid)
		i = (i + 1) & mask;
	return &slots[i];
}

static int grow(struct bs_pidnames *p)
{
	size_t nmask = p->mask * 2 + 1, i;
	struct pid_slot *n = calloc(nmask + 1, sizeof(*n));

	if (!n)
		return -1;
	for (i = 0; i <= p->mask; i++)
		if (p->slots[i].used)
			*find_slot(n, nmask, p->slots[i].pid) = p->slots[i];
	free(p->slots);
	p->slots = n;
	p->mask = nmask;
	return 0;
}

void bs_pidnames_add(struct bs_pidnames *p, uint32_t pid, const char *comm, size_t len)
{
	struct pid_slot *s;

	if ((p->used + 1) * 2 > p->mask + 1 && grow(p))
		return;
	s = find_slot(p->slots, p->mask, pid);
	if (s->used)
		return;		/* blkparse keeps the first name */
	if (len > BS_COMM_LEN)
		len = BS_COMM_LEN;
	s->used = 1;
	s->pid = pid;
	memcpy(s->comm, comm, len);
	s->comm[len] = '\0';	/* rest already zero; a 16-char comm stays terminated */
	p->used++;
}

const char *bs_pidnames_get(const struct bs_pidnames *p, uint32_t pid)
{
	const struct pid_slot *s = find_slot(p->slots, p->mask, pid);

	return s->used ? s->comm : NULL;
}
