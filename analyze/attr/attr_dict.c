// SPDX-License-Identifier: GPL-2.0
/*
 * attr_dict.c - the files and stacks of a trace (attr.h), from its names
 * files: each definition is deduplicated (one file seen by two traced
 * devices, one code path in two names files: one id), frame names are
 * interned, and every names file's own ids are mapped to the analysis's
 * (struct attr_idmap).  Everything is bounded (ATTR_MAX_*): past a
 * bound the definitions are left out, said once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attr_priv.h"
#include "bs_alloc.h"

struct attr_dict *attr_dict_new(const struct bs_msg_sink *warn)
{
	struct attr_dict *d = bs_xcalloc(1, sizeof(*d));

	if (warn)
		d->warn = *warn;
	return d;
}

void attr_dict_free(struct attr_dict *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->nfiles; i++)
		free(d->files[i].path);
	for (i = 0; i < d->nnames; i++)
		free(d->names[i]);
	free(d->files);
	free(d->stacks);
	free(d->frames);
	free(d->names);
	bs_hash_free(&d->file_key);
	bs_hash_free(&d->stack_key);
	bs_hash_free(&d->name_key);
	free(d);
}

static bool over(struct attr_dict *d, const char *what, const char *file)
{
	if (!d->over)
		bs_msg(&d->warn, BS_MSG_WARN,
		       "%s: more %s than the analyzer holds (%u files, %u stacks, %u MiB of "
		       "names): the rest is left out",
		       file, what, ATTR_MAX_FILES, ATTR_MAX_STACKS, ATTR_MAX_BYTES >> 20);
	d->over = true;
	return false;
}

/* A copy of n bytes, cut at a NUL (paths and names are printed as C strings). */
static char *copy_str(struct attr_dict *d, const char *p, size_t n)
{
	const char *nul = memchr(p, 0, n);
	char *s;

	if (nul)
		n = (size_t)(nul - p);
	s = bs_xmalloc(n + 1);
	memcpy(s, p, n);
	s[n] = 0;
	d->bytes += n + 1;
	return s;
}

/* ---- files ---- */

static uint64_t file_hash(uint32_t dev, uint64_t ino, uint32_t gen)
{
	return bs_hash_mix(ino ^ ((uint64_t)dev << 32) ^ bs_hash_mix(gen));
}

static uint32_t file_add(struct attr_dict *d, const struct bs_names_file *nf, const char *name)
{
	uint64_t k = file_hash(nf->fdev, nf->ino, nf->gen), *v;
	struct attr_file *f;

	for (;; k = bs_hash_mix(k + 1)) {	/* a collision probes the next key */
		v = bs_hash_get(&d->file_key, k);
		if (!v)
			break;
		f = &d->files[*v - 1];
		if (f->fdev == nf->fdev && f->ino == nf->ino && f->gen == nf->gen)
			return (uint32_t)*v;
	}
	if (d->nfiles >= ATTR_MAX_FILES || d->bytes + nf->path_len > ATTR_MAX_BYTES)
		return over(d, "files", name);
	d->files = bs_xreallocarray(d->files, d->nfiles + 1, sizeof(*d->files));
	f = &d->files[d->nfiles++];
	f->fdev = nf->fdev;
	f->ino = nf->ino;
	f->gen = nf->gen;
	f->flags = nf->flags;
	f->path = copy_str(d, nf->path, nf->path_len);
	f->path_len = (uint32_t)strlen(f->path);
	bs_hash_put(&d->file_key, k, d->nfiles, NULL);
	return (uint32_t)d->nfiles;
}

/* ---- stacks ---- */

static uint32_t name_id(struct attr_dict *d, const char *p, size_t n, bool *ok)
{
	uint64_t k = bs_hash_bytes(p, n), *v;

	for (;; k = bs_hash_mix(k + 1)) {
		v = bs_hash_get(&d->name_key, k);
		if (!v)
			break;
		if (strlen(d->names[*v]) == n && !memcmp(d->names[*v], p, n))
			return (uint32_t)*v;
	}
	if (d->bytes + n > ATTR_MAX_BYTES) {
		*ok = false;
		return 0;
	}
	d->names = bs_xreallocarray(d->names, d->nnames + 1, sizeof(*d->names));
	d->names[d->nnames] = copy_str(d, p, n);
	bs_hash_put(&d->name_key, k, d->nnames, NULL);
	return (uint32_t)d->nnames++;
}

static bool same_stack(const struct attr_dict *d, const struct attr_stack *s,
		       const struct attr_stack *t)
{
	size_t n = (size_t)s->nkernel + s->nuser;

	return s->flags == t->flags && s->nkernel == t->nkernel && s->nuser == t->nuser &&
	       (!n || !memcmp(d->frames + s->first, d->frames + t->first, n * sizeof(*d->frames)));
}

static uint32_t stack_add(struct attr_dict *d, const struct bs_names_stack *ns, const char *name)
{
	size_t n = (size_t)ns->nkernel + ns->nuser, i;
	struct attr_stack s = { ns->flags, ns->nkernel, ns->nuser, (uint32_t)d->nframes };
	uint64_t k = bs_hash_mix(((uint64_t)ns->flags << 32) | ((uint64_t)ns->nkernel << 16) |
				 ns->nuser);
	uint64_t *v;
	bool ok = true;

	if (d->nstacks >= ATTR_MAX_STACKS || d->nframes + n > (size_t)ATTR_MAX_STACKS * 64)
		return over(d, "stacks", name);
	/* the frames go at the end; dropped again if the stack is known */
	if (n)
		d->frames = bs_xreallocarray(d->frames, d->nframes + n, sizeof(*d->frames));
	for (i = 0; i < n; i++) {
		uint32_t id = name_id(d, ns->frames[i].name, ns->frames[i].len, &ok);

		d->frames[d->nframes + i] = id;
		k = bs_hash_mix(k ^ id);
	}
	if (!ok)
		return over(d, "frame names", name);
	for (;; k = bs_hash_mix(k + 1)) {
		v = bs_hash_get(&d->stack_key, k);
		if (!v)
			break;
		if (same_stack(d, &d->stacks[*v - 1], &s))
			return (uint32_t)*v;
	}
	d->nframes += n;
	d->stacks = bs_xreallocarray(d->stacks, d->nstacks + 1, sizeof(*d->stacks));
	d->stacks[d->nstacks++] = s;
	bs_hash_put(&d->stack_key, k, d->nstacks, NULL);
	return (uint32_t)d->nstacks;
}

static void add_counts(struct bs_names_counts *t, const struct bs_names_counts *c)
{
	t->qs += c->qs;
	t->lost += c->lost;
	t->kstack_lost += c->kstack_lost;
	t->ustack_lost += c->ustack_lost;
	t->files += c->files;
	t->files_no_path += c->files_no_path;
	if (c->files_over > t->files_over) /* the recorder's one table: the same in every file */
		t->files_over = c->files_over;
	t->stacks += c->stacks;
}

/* Every definition of one names file, its ids mapped into m. */
void attr_dict_read(struct attr_dict *d, struct bs_side *s, struct attr_idmap *m)
{
	const char *name = bs_side_name(s);
	struct bs_names_rec r;
	uint32_t id;

	d->flags |= bs_side_header(s)->flags;
	while (bs_side_next_names(s, &r) > 0) {
		switch (r.type) {
		case BS_NAMES_FILE:
			id = file_add(d, &r.file, name);
			if (id && r.file.id)
				bs_hash_put(&m->files, r.file.id, id, NULL);
			break;
		case BS_NAMES_STACK:
			id = stack_add(d, &r.stack, name);
			if (id && r.stack.id)
				bs_hash_put(&m->stacks, r.stack.id, id, NULL);
			break;
		case BS_NAMES_COUNTS:
			add_counts(&d->counts, &r.counts);
			break;
		default:
			break;
		}
	}
}

/* Loading is over: the lookup tables go (the dictionary is read-only from here on). */
void attr_dict_seal(struct attr_dict *d)
{
	bs_hash_free(&d->file_key);
	bs_hash_free(&d->stack_key);
	bs_hash_free(&d->name_key);
}
