/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attr.h - record --files / --stacks, the user side: the attribution
 * slots the BPF side puts after each Q (struct br_attr_slot) become the
 * attribution side files (format/bs_attr.h) beside the per-CPU files,
 * with files resolved to paths and stacks to function names here, on the
 * host, where the information exists.
 *
 *   rec_ksyms.c        /proc/kallsyms: completion functions, kernel frames
 *   rec_elfsym.c       ELF build ids, function symbols, file offsets -> names
 *   rec_fileid.c       (device, inode, generation) -> path, at first sight
 *   rec_attr_stacks.c  stack ids -> symbolized, deduplicated stacks
 *   rec_attr.c         ids, the side files, staging in time order, counters
 */
#ifndef BLKSCOPE_RECORD_ATTR_H
#define BLKSCOPE_RECORD_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "bs_attr.h"
#include "bs_hash.h"
#include "blkrecord.h"

#define REC_BUILD_ID_MAX 20

/* rec_ksyms.c */
struct rec_ksyms;
struct rec_ksyms *rec_ksyms_load(void);		/* NULL after a message */
void rec_ksyms_free(struct rec_ksyms *k);
bool rec_ksyms_hidden(const struct rec_ksyms *k);	/* kptr_restrict: every address 0 */
uint64_t rec_ksyms_addr(const struct rec_ksyms *k, const char *name);	/* 0: none */
const char *rec_ksyms_name(const struct rec_ksyms *k, uint64_t addr);	/* NULL: none */

/* rec_elfsym.c */
struct rec_elf;
struct rec_elf *rec_elf_open(const char *path, int fd);	/* NULL: not ELF */
void rec_elf_free(struct rec_elf *el);
int rec_elf_build_id_fd(int fd, uint8_t *out, uint32_t *len);	/* 0 or -1 */
const uint8_t *rec_elf_build_id(const struct rec_elf *el, uint32_t *len);
const char *rec_elf_path(const struct rec_elf *el);
/* The function at a file offset, NULL if no symbol covers it. */
const char *rec_elf_symbol(const struct rec_elf *el, uint64_t file_off);

/* rec_fileid.c */
struct rec_fileid;
struct rec_fileid *rec_fileid_new(void);
void rec_fileid_free(struct rec_fileid *f);
/* path[len] and BS_NF_* flags: 0, or -1 (no path: BS_NF_NO_PATH) */
int rec_fileid_path(struct rec_fileid *f, uint32_t dev, uint64_t ino, uint32_t gen, char *path,
		    size_t len, uint32_t *flags);

/* rec_attr_stacks.c: stacks of the BPF stack tables, symbolized and deduplicated */
struct rec_stacks;
struct rec_stacks *rec_stacks_new(struct rec_ksyms *k, struct rec_fileid *files, int kfd, int ufd);
void rec_stacks_free(struct rec_stacks *st);
/* The stack of one attribution slot: its id (1..), 0 if the slot has none. */
uint32_t rec_stacks_get(struct rec_stacks *st, const struct br_attr_slot *s);
/* Stack id's definition (valid until the next call). */
const struct bs_names_stack *rec_stacks_def(struct rec_stacks *st, uint32_t id);
uint64_t rec_stacks_count(const struct rec_stacks *st);

/* rec_attr.c: everything of the two options, per recording */
struct rec_io;
struct rec_outdir;
struct rec_trace;
struct rec_bpf;

struct rec_attr_cfg {
	bool files, stacks;
	uint32_t stack_entries;		/* --stack-entries: each stack table's size */
	const struct rec_trace *traces;
	int ntraces, ncpus;
	int zstd_level;
};

/* Addresses the BPF side compares bio completion functions with (0: not in this kernel). */
struct rec_attr_fns {
	uint64_t iomap_dio_end, blkdev_dio_end, blkdev_dio_end_async, bh_end, journal_bh_end,
		 swap_write_end, swap_read_end;
};

struct rec_attr;

/* NULL after a message (kallsyms unreadable or hidden) */
struct rec_attr *rec_attr_new(const struct rec_attr_cfg *cfg);
void rec_attr_free(struct rec_attr *a);
void rec_attr_fns(const struct rec_attr *a, struct rec_attr_fns *f);
/* The side files of trace i, named after base, in the output directory. -1 after a message. */
int rec_attr_create(struct rec_attr *a, struct rec_outdir *d, int i, const char *base,
		    struct rec_io *io);
/* After load: the stack tables' descriptors (--stacks).  -1 after a message. */
int rec_attr_start(struct rec_attr *a, int kfd, int ufd);
/* One attribution slot of trace i from CPU cpu (its Q's sector).  -1 without memory. */
int rec_attr_slot(struct rec_attr *a, int i, int cpu, const struct br_attr_slot *s,
		  uint64_t sector);
/*
 * Write what is staged: REC_ATTR_FULL the files with a full batch,
 * REC_ATTR_TICK all of them (the newest few stay back, to sort a late
 * record in), REC_ATTR_ALL everything (at the end).
 */
enum rec_attr_flush_mode { REC_ATTR_FULL, REC_ATTR_TICK, REC_ATTR_ALL };
void rec_attr_flush(struct rec_attr *a, enum rec_attr_flush_mode mode);
/* The counters into each names file, then close every side file.  -1 on a write error. */
int rec_attr_close(struct rec_attr *a, struct rec_bpf *b);
void rec_attr_report(const struct rec_attr *a, FILE *f);

#endif /* BLKSCOPE_RECORD_ATTR_H */
