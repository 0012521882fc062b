// SPDX-License-Identifier: GPL-2.0
/*
 * rec_attr.c - record --files / --stacks: each attribution slot of the BPF
 * side becomes a record of its trace's and CPU's side file, in the time
 * order of the trace file (format/bs_attr.h); files and stacks get ids,
 * defined in the trace's names file the first time the trace uses them.
 *
 * Files are resolved to paths once per recording, at first sight
 * (rec_fileid.c), stacks symbolized once per distinct stack (rec_attr_stacks.c):
 * the work per slot is two hash lookups and a copy.  Tables are bounded:
 * past REC_ATTR_MAX_FILES files, I/O keeps its class without a file id
 * (counted in the names file).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rec_attr.h"
#include "record.h"

#define REC_ATTR_MAX_FILES	(1u << 20)
#define SIDE_KEEP		64	/* newest records kept back: a late one still sorts in */
#define SIDE_BATCH		8192	/* records per write (256 KiB) */
#define NAMES_FLUSH		(256u << 10)	/* names records written in batches this large */

struct attr_file {
	uint64_t ino;
	uint32_t fdev, gen;
	uint32_t flags;		/* BS_NF_* */
	uint64_t seen;
	char *path;
};

struct side_stage {
	struct bs_attr_rec *v;
	size_t n, cap;
};

struct attr_trace {
	struct rec_sink *names;
	struct rec_sink **cpu;		/* [ncpus] */
	struct side_stage *st;		/* [ncpus] */
	struct bs_hash files_def, stacks_def;	/* ids defined in this trace's names file */
	struct bs_names_counts n;
	uint8_t *nbuf;			/* names records waiting for a write */
	size_t nlen, ncap;
};

struct rec_attr {
	struct rec_attr_cfg c;
	struct rec_ksyms *ksyms;
	struct rec_fileid *fid;
	struct rec_stacks *stacks;
	struct attr_trace *t;		/* [ntraces] */
	struct attr_file *files;	/* id - 1 */
	size_t nfiles, files_cap;
	struct bs_hash file_idx;	/* key of (dev, inode, gen) -> id (probing on collisions) */
	uint32_t last_file;		/* consecutive I/O of one file: no lookup */
	uint64_t files_over, no_path;
	uint8_t buf[BS_NAMES_REC_MAX + 64];	/* a names record being made */
	uint8_t out[SIDE_BATCH * BS_ATTR_REC_SIZE];
	char path[BS_NAMES_PATH_MAX + 1];
	bool write_failed;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct rec_attr *rec_attr_new(const struct rec_attr_cfg *cfg)
{
	struct rec_attr *a = calloc(1, sizeof(*a));
	int i;

	if (!a)
		return NULL;
	a->c = *cfg;
	a->t = calloc(cfg->ntraces, sizeof(*a->t));
	if (!a->t)
		goto fail;
	for (i = 0; i < cfg->ntraces; i++) {
		a->t[i].cpu = calloc(cfg->ncpus, sizeof(*a->t[i].cpu));
		a->t[i].st = calloc(cfg->ncpus, sizeof(*a->t[i].st));
		if (!a->t[i].cpu || !a->t[i].st)
			goto fail;
	}
	a->ksyms = rec_ksyms_load();
	if (!a->ksyms)
		goto fail;
	if (rec_ksyms_hidden(a->ksyms)) {
		fprintf(stderr, "blkscope record: /proc/kallsyms shows no addresses "
				"(kernel.kptr_restrict): --files and --stacks need them; run as "
				"root with kptr_restrict 0 or 1\n");
		goto fail;
	}
	a->fid = rec_fileid_new();
	if (!a->fid)
		goto fail;
	return a;
fail:
	rec_attr_free(a);
	return NULL;
}

void rec_attr_free(struct rec_attr *a)
{
	size_t i;
	int k, cpu;

	if (!a)
		return;
	for (k = 0; a->t && k < a->c.ntraces; k++) {
		for (cpu = 0; cpu < a->c.ncpus; cpu++) {
			if (a->t[k].cpu)
				rec_sink_free(a->t[k].cpu[cpu]);
			if (a->t[k].st)
				free(a->t[k].st[cpu].v);
		}
		free(a->t[k].cpu);
		free(a->t[k].st);
		rec_sink_free(a->t[k].names);
		free(a->t[k].nbuf);
		bs_hash_free(&a->t[k].files_def);
		bs_hash_free(&a->t[k].stacks_def);
	}
	free(a->t);
	for (i = 0; i < a->nfiles; i++)
		free(a->files[i].path);
	free(a->files);
	bs_hash_free(&a->file_idx);
	rec_stacks_free(a->stacks);
	rec_fileid_free(a->fid);
	rec_ksyms_free(a->ksyms);
	free(a);
}

void rec_attr_fns(const struct rec_attr *a, struct rec_attr_fns *f)
{
	const struct rec_ksyms *k = a->ksyms;

	f->iomap_dio_end = rec_ksyms_addr(k, "iomap_dio_bio_end_io");
	f->blkdev_dio_end = rec_ksyms_addr(k, "blkdev_bio_end_io");
	f->blkdev_dio_end_async = rec_ksyms_addr(k, "blkdev_bio_end_io_async");
	f->bh_end = rec_ksyms_addr(k, "end_bio_bh_io_sync");
	f->journal_bh_end = rec_ksyms_addr(k, "journal_end_buffer_io_sync");
	f->swap_write_end = rec_ksyms_addr(k, "end_swap_bio_write");
	f->swap_read_end = rec_ksyms_addr(k, "end_swap_bio_read");
}

/* ---- the side files ---- */

static struct rec_sink *side_create(struct rec_attr *a, struct rec_outdir *d, const char *name,
				    struct rec_io *io, const struct bs_attr_header *h)
{
	char file[NAME_MAX + 1], shown[PATH_MAX];
	uint8_t head[BS_ATTR_HEADER_SIZE];
	struct rec_sink *s;
	int fd;

	if (snprintf(file, sizeof(file), "%s%s", name, a->c.zstd_level ? ".zst" : "") >=
	    (int)sizeof(file)) {
		fprintf(stderr, "blkscope record: output file name too long\n");
		return NULL;
	}
	fd = rec_outdir_create(d, file);
	if (fd < 0)
		return NULL;
	snprintf(shown, sizeof(shown), "%s%s%s", d->dir ? d->dir : "", d->dir ? "/" : "", file);
	s = rec_sink_new(io, fd, shown, false, a->c.zstd_level);
	if (!s) {
		fprintf(stderr, "blkscope record: out of memory\n");
		return NULL;
	}
	bs_attr_header_make(head, h);
	rec_sink_write(s, head, sizeof(head));
	return s;
}

int rec_attr_create(struct rec_attr *a, struct rec_outdir *d, int i, const char *base,
		    struct rec_io *io)
{
	struct bs_attr_header h = {
		.kind = BS_ATTR_KIND_NAMES,
		.version = BS_ATTR_VERSION,
		.device = a->c.traces[i].dev,
		.cpu = UINT32_MAX,
		.flags = (a->c.files ? BS_ATTR_F_FILES : 0) | (a->c.stacks ? BS_ATTR_F_STACKS : 0),
		.start = mono_ns(),
	};
	char name[NAME_MAX + 1];
	int cpu;

	snprintf(name, sizeof(name), "%s%s", base, BS_NAMES_SUFFIX);
	a->t[i].names = side_create(a, d, name, io, &h);
	if (!a->t[i].names)
		return -1;
	h.kind = BS_ATTR_KIND_ATTR;
	for (cpu = 0; cpu < a->c.ncpus; cpu++) {
		h.cpu = (uint32_t)cpu;
		snprintf(name, sizeof(name), "%s%s%d", base, BS_ATTR_INFIX, cpu);
		a->t[i].cpu[cpu] = side_create(a, d, name, io, &h);
		if (!a->t[i].cpu[cpu])
			return -1;
	}
	return 0;
}

int rec_attr_start(struct rec_attr *a, int kfd, int ufd)
{
	if (!a->c.stacks)
		return 0;
	a->stacks = rec_stacks_new(a->ksyms, a->fid, kfd, ufd);
	if (!a->stacks) {
		fprintf(stderr, "blkscope record: out of memory\n");
		return -1;
	}
	return 0;
}

/* A names record made in a->buf, to trace i's names file (buffered: one write per batch). */
static void names_put(struct rec_attr *a, int i, size_t len)
{
	struct attr_trace *t = &a->t[i];

	if (!len)
		return;
	if (t->nlen + len > t->ncap) {
		size_t cap = t->ncap ? t->ncap : NAMES_FLUSH;
		uint8_t *p;

		while (cap < t->nlen + len)
			cap *= 2;
		p = realloc(t->nbuf, cap);
		if (!p) {
			a->write_failed = true;
			return;
		}
		t->nbuf = p;
		t->ncap = cap;
	}
	memcpy(t->nbuf + t->nlen, a->buf, len);
	t->nlen += len;
}

/* ---- files ---- */

static uint64_t file_key(uint32_t dev, uint64_t ino, uint32_t gen)
{
	return bs_hash_mix(ino ^ ((uint64_t)dev << 32) ^ bs_hash_mix(gen));
}

static bool same_file(const struct attr_file *f, uint32_t dev, uint64_t ino, uint32_t gen)
{
	return f->ino == ino && f->fdev == dev && f->gen == gen;
}

/* A file seen for the first time: its path now (the path at this moment). */
static uint32_t file_new(struct rec_attr *a, uint64_t key, uint32_t dev, uint64_t ino, uint32_t gen)
{
	struct attr_file *f;
	uint32_t flags;

	if (a->nfiles >= REC_ATTR_MAX_FILES) {
		a->files_over++;
		return 0;
	}
	if (a->nfiles == a->files_cap) {
		size_t cap = a->files_cap ? 2 * a->files_cap : 1024;
		struct attr_file *v = realloc(a->files, cap * sizeof(*v));

		if (!v)
			return 0;
		a->files = v;
		a->files_cap = cap;
	}
	rec_fileid_path(a->fid, dev, ino, gen, a->path, sizeof(a->path), &flags);
	f = &a->files[a->nfiles];
	*f = (struct attr_file){ ino, dev, gen, flags, mono_ns(), strdup(a->path) };
	if (!f->path)
		return 0;
	a->no_path += (flags & BS_NF_NO_PATH) != 0;
	bs_hash_put(&a->file_idx, key, ++a->nfiles, NULL);
	return (uint32_t)a->nfiles;
}

static uint32_t file_id(struct rec_attr *a, const struct br_attr_slot *s)
{
	uint64_t key = file_key(s->fdev, s->ino, s->gen), *v;
	uint32_t id = a->last_file;

	if (id && same_file(&a->files[id - 1], s->fdev, s->ino, s->gen))
		return id;
	for (;; key = bs_hash_mix(key + 1)) {	/* a collision probes the next key */
		v = bs_hash_get(&a->file_idx, key);
		if (!v)
			return a->last_file = file_new(a, key, s->fdev, s->ino, s->gen);
		if (same_file(&a->files[*v - 1], s->fdev, s->ino, s->gen))
			return a->last_file = (uint32_t)*v;
	}
}

static void define_file(struct rec_attr *a, int i, uint32_t id)
{
	const struct attr_file *f = &a->files[id - 1];
	struct bs_names_file nf = { id, f->fdev, f->ino, f->gen, f->flags, f->seen, f->path,
				    (uint32_t)strlen(f->path) };
	bool fresh;

	bs_hash_put(&a->t[i].files_def, id, 1, &fresh);
	if (!fresh)
		return;
	names_put(a, i, bs_names_file_make(a->buf, sizeof(a->buf), &nf));
	a->t[i].n.files++;
	a->t[i].n.files_no_path += (f->flags & BS_NF_NO_PATH) != 0;
}

static void define_stack(struct rec_attr *a, int i, uint32_t id)
{
	bool fresh;

	bs_hash_put(&a->t[i].stacks_def, id, 1, &fresh);
	if (!fresh)
		return;
	names_put(a, i, bs_names_stack_make(a->buf, sizeof(a->buf), rec_stacks_def(a->stacks, id)));
	a->t[i].n.stacks++;
}

/* ---- the records ---- */

static int stage_add(struct side_stage *st, const struct bs_attr_rec *r)
{
	size_t pos = st->n;

	if (st->n == st->cap) {
		size_t cap = st->cap ? 2 * st->cap : 1024;
		struct bs_attr_rec *v = realloc(st->v, cap * sizeof(*v));

		if (!v)
			return -1;
		st->v = v;
		st->cap = cap;
	}
	while (pos > 0 && st->v[pos - 1].time > r->time)	/* the trace file's order: time */
		pos--;
	memmove(st->v + pos + 1, st->v + pos, (st->n - pos) * sizeof(*st->v));
	st->v[pos] = *r;
	st->n++;
	return 0;
}

int rec_attr_slot(struct rec_attr *a, int i, int cpu, const struct br_attr_slot *s, uint64_t sector)
{
	struct bs_attr_rec r = {
		.time = s->time, .sector = sector, .sequence = s->seq, .cls = s->cls
	};
	bool kthread = s->flags & BR_ATTR_KTHREAD;

	if (a->c.files && s->ino && (s->cls == BS_FC_CACHE || s->cls == BS_FC_DIRECT ||
				     s->cls == BS_FC_METADATA)) {
		r.file = file_id(a, s);
		if (r.file)
			define_file(a, i, r.file);
	}
	if (a->c.stacks) {
		if (s->kstack < 0)
			r.flags |= BS_ATTR_R_KSTACK_LOST;
		if (!kthread && s->ustack < 0 && s->ustack != -14)	/* -EFAULT: no user stack */
			r.flags |= BS_ATTR_R_USTACK_LOST;
		r.stack = rec_stacks_get(a->stacks, s);
		if (r.stack)
			define_stack(a, i, r.stack);
	}
	a->t[i].n.qs++;
	return stage_add(&a->t[i].st[cpu], &r);
}

static void write_front(struct rec_attr *a, int i, int cpu, size_t n)
{
	struct side_stage *st = &a->t[i].st[cpu];
	size_t done = 0, k;

	while (done < n) {
		size_t batch = n - done < SIDE_BATCH ? n - done : SIDE_BATCH;

		for (k = 0; k < batch; k++)
			bs_attr_rec_make(a->out + k * BS_ATTR_REC_SIZE, &st->v[done + k]);
		if (rec_sink_write(a->t[i].cpu[cpu], a->out, batch * BS_ATTR_REC_SIZE) < 0)
			a->write_failed = true;
		done += batch;
	}
	memmove(st->v, st->v + n, (st->n - n) * sizeof(*st->v));
	st->n -= n;
}

static void names_flush(struct rec_attr *a, int i)
{
	struct attr_trace *t = &a->t[i];

	if (t->nlen && rec_sink_write(t->names, t->nbuf, t->nlen) < 0)
		a->write_failed = true;
	t->nlen = 0;
}

void rec_attr_flush(struct rec_attr *a, enum rec_attr_flush_mode mode)
{
	int i, cpu;

	for (i = 0; i < a->c.ntraces; i++) {
		for (cpu = 0; cpu < a->c.ncpus; cpu++) {
			struct side_stage *st = &a->t[i].st[cpu];

			if (mode == REC_ATTR_ALL && st->n)
				write_front(a, i, cpu, st->n);
			else if (st->n > SIDE_KEEP &&
				 (mode == REC_ATTR_TICK || st->n >= SIDE_BATCH + SIDE_KEEP))
				write_front(a, i, cpu, st->n - SIDE_KEEP);
		}
		if (mode != REC_ATTR_FULL || a->t[i].nlen >= NAMES_FLUSH)
			names_flush(a, i);
	}
}

int rec_attr_close(struct rec_attr *a, struct rec_bpf *b)
{
	int i, cpu, rc = 0;

	rec_attr_flush(a, REC_ATTR_ALL);
	for (i = 0; i < a->c.ntraces; i++) {
		struct bs_names_counts *n = &a->t[i].n;

		rec_bpf_attr_counts(b, i, &n->lost, &n->kstack_lost, &n->ustack_lost);
		n->files_over = a->files_over;
		names_put(a, i, bs_names_counts_make(a->buf, sizeof(a->buf), n));
		names_flush(a, i);
	}
	for (i = 0; i < a->c.ntraces; i++) {
		if (a->t[i].names && rec_sink_close(a->t[i].names) < 0)
			rc = -1;
		for (cpu = 0; cpu < a->c.ncpus; cpu++)
			if (a->t[i].cpu[cpu] && rec_sink_close(a->t[i].cpu[cpu]) < 0)
				rc = -1;
	}
	return rc || a->write_failed ? -1 : 0;
}

void rec_attr_report(const struct rec_attr *a, FILE *f)
{
	uint64_t qs = 0, lost = 0, kl = 0, ul = 0;
	int i;

	for (i = 0; i < a->c.ntraces; i++) {
		qs += a->t[i].n.qs;
		lost += a->t[i].n.lost;
		kl += a->t[i].n.kstack_lost;
		ul += a->t[i].n.ustack_lost;
	}
	fprintf(f, "Attribution: %llu Qs attributed", (unsigned long long)qs);
	if (a->c.files)
		fprintf(f, ", %zu files (%llu without a path)", a->nfiles,
			(unsigned long long)a->no_path);
	if (a->c.stacks)
		fprintf(f, ", %llu distinct stacks",
			(unsigned long long)rec_stacks_count(a->stacks));
	fputc('\n', f);
	if (lost)
		fprintf(f, "  %llu Qs lost their attribution (the ring was full; -b)\n",
			(unsigned long long)lost);
	if (kl || ul)
		fprintf(f,
			"  stacks not stored (the stack table was full; --stack-entries): %llu "
			"kernel, %llu user\n",
			(unsigned long long)kl, (unsigned long long)ul);
	if (a->files_over)
		fprintf(f, "  %llu I/Os of files past the first %u: class kept, no file\n",
			(unsigned long long)a->files_over, REC_ATTR_MAX_FILES);
}
