// SPDX-License-Identifier: GPL-2.0
/*
 * attr_src.c - the attribution of each Q, read from the side files in
 * step with the events (attr.h).
 *
 * A per-CPU trace file and its attr file list the same Qs in the same
 * (time) order, so each attr file is read forward, one record ahead:
 * at a Q of (device, cpu) at time T, records before T belong to Qs the
 * model never saw (outside -t/-T, lost) and are passed over; a record at
 * T with the Q's sector is its attribution; a record after T waits for a
 * later Q.  Memory: one record and one buffer per file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attr_priv.h"
#include "bs_alloc.h"

struct attr_reader {
	struct bs_side *s;
	const struct attr_idmap *map;
	struct bs_attr_rec cur;
	bool have, done;
	uint64_t key;			/* device << 32 | cpu */
};

struct attr_src {
	struct attr_reader *r;
	size_t nr;
	struct attr_idmap *maps;	/* one per names file */
	size_t nmaps;
	struct bs_hash by_key;		/* (device, cpu) -> reader index */
	struct attr_reader *last;
	uint64_t genesis;
	struct attr_stats st;
	/* the last ids mapped: runs of one file or stack cost no lookup */
	uint32_t last_lfile, last_gfile, last_lstack, last_gstack;
	const struct attr_idmap *last_map;
	struct bs_msg_sink warn;	/* damaged or foreign side files */
};

/* A side file's path for a per-CPU trace file: the same form (".zst" or not) as the trace file. */
static int side_path(const char *trace, bool names, char *out, size_t len)
{
	size_t n = strlen(trace);
	bool zst = n > 4 && !strcmp(trace + n - 4, ".zst");

	if ((names ? bs_names_path_of(trace, out, len) : bs_attr_path_of(trace, out, len)) < 0)
		return -1;
	if (zst && strlen(out) + 5 > len)
		return -1;
	if (zst)
		strcat(out, ".zst");
	return 0;
}

/* NULL, quietly, when the file is not there. */
static struct bs_side *open_side(const struct attr_src *src, const char *path)
{
	char err[512];
	struct bs_side *s = bs_side_open(path, &src->warn, err, sizeof(err));

	if (!s && errno != ENOENT)
		bs_msg(&src->warn, BS_MSG_WARN, "%s", err);
	return s;
}

static void add_reader(struct attr_src *src, struct bs_side *s, const struct attr_idmap *map,
		       int cpu)
{
	const struct bs_attr_header *h = bs_side_header(s);
	uint64_t key = (uint64_t)h->device << 32 | h->cpu;
	bool fresh;

	if (h->kind != BS_ATTR_KIND_ATTR || (int)h->cpu != cpu) {
		if (!bs_side_damaged(s))
			bs_msg(&src->warn, BS_MSG_WARN,
			       "%s: not the attribution file of CPU %d; ignored", bs_side_name(s),
			       cpu);
		bs_side_close(s);
		return;
	}
	bs_hash_put(&src->by_key, key, src->nr, &fresh);
	/* two inputs of one device: the events do not say which file they came from */
	if (!fresh) {
		bs_msg(&src->warn, BS_MSG_WARN,
		       "%s: a second attribution file of device %u,%u CPU %d; ignored",
		       bs_side_name(s), h->device >> 20, h->device & 0xfffff, cpu);
		bs_side_close(s);
		return;
	}
	src->r = bs_xreallocarray(src->r, src->nr + 1, sizeof(*src->r));
	src->r[src->nr++] = (struct attr_reader){ .s = s, .map = map, .key = key };
	src->st.files++;
}

/* One input device: its names file (none: no attribution for it), then its CPUs' attr files. */
static void load_dev(struct attr_dict **d, struct attr_src *src, const struct bs_input_dev *dev)
{
	char path[4096];
	struct attr_idmap *map;
	struct bs_side *s;
	int c;

	if (!dev->ncpus || side_path(dev->cpus[0].path, true, path, sizeof(path)) ||
	    !(s = open_side(src, path)))
		return;
	if (bs_side_header(s)->kind != BS_ATTR_KIND_NAMES) {
		bs_side_close(s);
		return;
	}
	if (!*d)
		*d = attr_dict_new(&src->warn);
	map = &src->maps[src->nmaps++];	/* room for every input device (attr_load) */
	memset(map, 0, sizeof(*map));
	attr_dict_read(*d, s, map);
	src->st.damaged += bs_side_damaged(s);
	bs_side_close(s);
	for (c = 0; c < dev->ncpus; c++) {
		if (side_path(dev->cpus[c].path, false, path, sizeof(path)) ||
		    !(s = open_side(src, path)))
			continue;
		src->st.damaged += bs_side_damaged(s);
		add_reader(src, s, map, dev->cpus[c].cpu);
	}
}

struct attr_dict *attr_load(const struct bs_input_set *in, struct attr_src **srcp,
			    const struct bs_msg_sink *warn)
{
	struct attr_src *src = bs_xcalloc(1, sizeof(*src));
	struct attr_dict *d = NULL;
	int i;

	*srcp = NULL;
	if (warn)
		src->warn = *warn;
	if (bs_input_is_stream(in)) {
		free(src);
		return NULL;
	}
	/* the maps must not move once readers point at them: count the names files first */
	src->maps = bs_xcalloc((size_t)in->ndevs + 1, sizeof(*src->maps));
	for (i = 0; i < in->ndevs; i++)
		load_dev(&d, src, &in->devs[i]);
	if (!d) {
		attr_src_free(src);
		return NULL;
	}
	attr_dict_seal(d);
	*srcp = src;
	return d;
}

void attr_src_free(struct attr_src *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr; i++)
		bs_side_close(s->r[i].s);
	for (i = 0; i < s->nmaps; i++) {
		bs_hash_free(&s->maps[i].files);
		bs_hash_free(&s->maps[i].stacks);
	}
	free(s->r);
	free(s->maps);
	bs_hash_free(&s->by_key);
	free(s);
}

void attr_src_genesis(struct attr_src *s, uint64_t genesis)
{
	s->genesis = genesis;
}

void attr_src_stats(const struct attr_src *s, struct attr_stats *st)
{
	*st = s->st;
}

static uint32_t map_id(const struct bs_hash *h, uint32_t id)
{
	const uint64_t *v = id ? bs_hash_get(h, id) : NULL;

	return v ? (uint32_t)*v : 0;
}

static void take(struct attr_src *src, const struct attr_reader *r, struct bs_io_attr *out)
{
	const struct bs_attr_rec *c = &r->cur;

	if (src->last_map != r->map) {
		src->last_map = r->map;
		src->last_lfile = src->last_lstack = 0;
	}
	if (c->file != src->last_lfile) {
		src->last_lfile = c->file;
		src->last_gfile = map_id(&r->map->files, c->file);
	}
	if (c->stack != src->last_lstack) {
		src->last_lstack = c->stack;
		src->last_gstack = map_id(&r->map->stacks, c->stack);
	}
	out->file = c->file ? src->last_gfile : 0;
	out->stack = c->stack ? src->last_gstack : 0;
	out->cls = c->cls < BS_FC_COUNT ? c->cls : BS_FC_UNKNOWN;
	out->flags = c->flags;
}

static struct attr_reader *reader_of(struct attr_src *src, uint32_t device, uint32_t cpu)
{
	uint64_t key = (uint64_t)device << 32 | cpu;
	const uint64_t *i;

	if (src->last && src->last->key == key)
		return src->last;
	i = bs_hash_get(&src->by_key, key);
	return i ? (src->last = &src->r[*i]) : NULL;
}

void attr_src_lookup(void *ctx, const struct bs_trace *q, struct bs_io_attr *out)
{
	struct attr_src *src = ctx;
	struct attr_reader *r = reader_of(src, q->device, q->cpu);
	uint64_t t = q->time + src->genesis;

	memset(out, 0, sizeof(*out));
	if (!r)
		return;
	for (;;) {
		if (!r->have) {
			if (r->done || bs_side_next_attr(r->s, &r->cur) <= 0) {
				r->done = true;
				break;
			}
			r->have = true;
		}
		if (r->cur.time < t) {	/* a Q the model did not see */
			r->have = false;
			src->st.skipped++;
			continue;
		}
		if (r->cur.time > t || r->cur.sector != q->sector)
			break;	/* none for this Q; the record waits for its own */
		take(src, r, out);
		r->have = false;
		src->st.matched++;
		return;
	}
	src->st.unmatched++;
}
