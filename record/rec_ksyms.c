// SPDX-License-Identifier: GPL-2.0
/*
 * rec_ksyms.c - the kernel's function symbols from /proc/kallsyms: the
 * addresses the --files BPF code compares bio completion functions with,
 * and, for --stacks, kernel frames turned into names at record time.
 *
 * The table is read once, sorted by address; a lookup is a binary search
 * (only for stacks seen for the first time, never per event).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rec_attr.h"

struct ksym {
	uint64_t addr;
	uint32_t name;		/* offset in names */
};

struct rec_ksyms {
	struct ksym *v;
	size_t n, cap;
	char *names;
	size_t nlen, ncap;
	bool zero;		/* every address read as 0: kptr_restrict hides them */
};

static int add_sym(struct rec_ksyms *k, uint64_t addr, const char *name, const char *mod)
{
	size_t len = strlen(name) + (mod ? strlen(mod) + 3 : 0) + 1;

	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 65536;
		struct ksym *v = realloc(k->v, cap * sizeof(*v));

		if (!v)
			return -1;
		k->v = v;
		k->cap = cap;
	}
	if (k->nlen + len > k->ncap) {
		size_t cap = k->ncap ? 2 * k->ncap : 1u << 21;
		char *p;

		while (cap < k->nlen + len)
			cap *= 2;
		p = realloc(k->names, cap);
		if (!p)
			return -1;
		k->names = p;
		k->ncap = cap;
	}
	k->v[k->n].addr = addr;
	k->v[k->n].name = (uint32_t)k->nlen;
	k->n++;
	/* a module's function as "name [module]", as perf shows it */
	k->nlen += (size_t)snprintf(k->names + k->nlen, len, mod ? "%s [%s]" : "%s", name, mod) + 1;
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct rec_ksyms *rec_ksyms_load(void)
{
	struct rec_ksyms *k = calloc(1, sizeof(*k));
	char line[512], name[256], mod[128];
	FILE *f;

	if (!k)
		return NULL;
	f = fopen("/proc/kallsyms", "re");
	if (!f) {
		fprintf(stderr, "blkscope record: cannot read /proc/kallsyms: %s\n",
			strerror(errno));
		free(k);
		return NULL;
	}
	k->zero = true;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type;
		int n = sscanf(line, "%llx %c %255s [%127[^]]]", &addr, &type, name, mod);

		if (n < 3)
			continue;
		if (addr)
			k->zero = false;
		/* functions only: text symbols, weak ones too */
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (add_sym(k, addr, name, n == 4 ? mod : NULL) < 0) {
			fclose(f);
			rec_ksyms_free(k);
			return NULL;
		}
	}
	fclose(f);
	if (k->n)
		qsort(k->v, k->n, sizeof(*k->v), by_addr);
	return k;
}

void rec_ksyms_free(struct rec_ksyms *k)
{
	if (!k)
		return;
	free(k->v);
	free(k->names);
	free(k);
}

bool rec_ksyms_hidden(const struct rec_ksyms *k)
{
	return k->zero;
}

uint64_t rec_ksyms_addr(const struct rec_ksyms *k, const char *name)
{
	size_t i, len = strlen(name);

	/* a few names at start-up: a scan is fine */
	for (i = 0; i < k->n; i++) {
		const char *s = k->names + k->v[i].name;

		if (!strncmp(s, name, len) && (!s[len] || s[len] == ' '))
			return k->v[i].addr;
	}
	return 0;
}

/*
 * A symbol that marks where a region ends (_etext, _einittext, __end_...,
 * __..._end): an address past it is in no function we know (a BPF
 * program's JIT image, say), not in the symbol before.
 */
static bool end_marker(const char *name)
{
	size_t len = strlen(name);

	return !strcmp(name, "_etext") || !strcmp(name, "_einittext") || !strcmp(name, "_end") ||
	       !strncmp(name, "__end", 5) ||
	       (len > 6 && !strncmp(name, "__", 2) && !strcmp(name + len - 4, "_end"));
}

const char *rec_ksyms_name(const struct rec_ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->n;

	if (!k->n || addr < k->v[0].addr || k->zero)
		return NULL;
	while (hi - lo > 1) {	/* the last symbol at or below addr */
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return end_marker(k->names + k->v[lo].name) ? NULL : k->names + k->v[lo].name;
}
