/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report_attr_priv.h - the report's view of who caused the I/O (record --files
 * --stacks, analyze/attr/attr.h): one row per file (or class of I/O that
 * has no file) with a slice per operation, the I/O weight of every
 * (process name, stack) pair, and the groups of --group-by file and dir.
 *
 *   report_attr.c        the state and its share of the sample sink
 *   report_attr_out.c    text, JSON, CSV sections; --folded
 *   svg_flame.c          the HTML page's flame graph
 */
#ifndef BLKSCOPE_REPORT_ATTR_PRIV_H
#define BLKSCOPE_REPORT_ATTR_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "attr/attr.h"
#include "bs_hash.h"
#include "report_lat.h"

/* One operation of one file. */
struct file_op {
	uint8_t op;		/* enum bs_op */
	struct report_lat set;
};

/* A file, or a class of I/O with no file (file 0). */
struct file_row {
	uint32_t file;		/* the analysis's file id, 0: a class row */
	uint8_t cls;		/* a class row's class */
	uint8_t nops;
	/* bit per class its I/O had (a file read cached and direct: both) */
	uint16_t classes;
	struct file_op *ops;
	uint64_t ios, bytes;	/* all operations (bytes of the completed I/Os) */
};

/* Why an I/O has no stack (the folded output's leaf-less frame). */
enum stack_why { SW_STACK, SW_NO_RECORD, SW_LOST, SW_NONE, SW_COUNT };

/* The weight of one (process name, stack) pair. */
struct stack_weight {
	uint32_t comm;		/* index in report_attr.comms */
	uint32_t stack;		/* stack id, 0: none (why says) */
	uint8_t why;		/* enum stack_why */
	uint64_t ios, bytes, q2c, d2c;	/* I/Os, bytes queued, Q2C and D2C ns (where measured) */
};

enum folded_weight { FW_IOS, FW_BYTES, FW_Q2C, FW_D2C };

struct report_attr {
	const struct attr_dict *dict;	/* NULL: the trace has no attribution */
	bool files_on, stacks_on;		/* the dictionary has files / stacks */
	/* files: rows, by key (file id, or the class | 1 << 31) */
	struct file_row *rows;
	size_t nrows;
	struct bs_hash row_of;
	uint64_t last_key;
	size_t last_row;
	/* stacks: (comm, stack, why) -> weight */
	struct stack_weight *sw;
	size_t nsw;
	struct bs_hash sw_of;
	uint64_t last_sw_key;		/* the last sample's pair: no lookup for a run of them */
	size_t last_sw;
	char (*comms)[24];
	size_t ncomms;
	struct bs_hash comm_of;		/* hash of the name -> index (probing on collisions) */
	/* --group-by file, dir[:N]: file id -> group + 1; class -> group + 1 */
	uint32_t *file_group;
	uint32_t class_group[BS_FC_COUNT];
	unsigned int dir_depth;
	/* --folded FILE, --folded-weight */
	const char *folded_path;
	enum folded_weight folded_weight;
};

struct bs_report;
struct report_proc;
struct bs_io_sample;
struct report_stage_vals;

/* Start: the dictionary (NULL: none) and what the options ask of it; -1 after a message. */
int report_attr_begin(struct bs_report *r, const struct attr_dict *d);
void report_attr_free(struct report_attr *ra);
/* One sample (the report's sink, after its process and stages are known). */
void report_attr_add(struct bs_report *r, struct report_proc *p, const struct bs_io_sample *s,
		     const struct report_stage_vals *sv);
/* --group-by file / dir: the sample's group. */
int report_attr_group(struct bs_report *r, const struct bs_io_sample *s);
/* A row's name: its file's label, or its class's (report_attr_out.c keeps buf). */
const char *report_attr_row_name(const struct report_attr *ra, const struct file_row *row,
				 char *buf, size_t len);
/* Rows by bytes then I/Os, descending (caller frees). */
struct file_row **report_attr_rows_sorted(const struct report_attr *ra);
/*
 * The frames of one weight, root first (process name, user frames, kernel frames): n of them into
 * out[max].
 */
size_t report_attr_folded_frames(const struct report_attr *ra, const struct stack_weight *w,
				 const char **out, size_t max);
uint64_t report_attr_weight(const struct stack_weight *w, enum folded_weight how);

/* Writers (report_attr_out.c) */
void report_attr_text(struct bs_report *r, FILE *out);
void report_attr_json(struct bs_report *r, FILE *f);
int report_attr_csv(struct bs_report *r, const char *dir);
void report_attr_html(struct bs_report *r, FILE *f);
int report_attr_folded(struct bs_report *r);
/* svg_flame.c: the flame graph (an icicle: the process on top) of the I/O, for the HTML page */
void svg_flame(const struct report_attr *ra, FILE *f);

#endif /* BLKSCOPE_REPORT_ATTR_PRIV_H */
