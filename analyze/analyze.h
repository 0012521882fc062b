/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analyze.h - how report extensions plug into `blkscope analyze`.
 *
 * The main program (analyze/analyze.c) runs the btt-equivalent engine over
 * the merged event stream and prints btt's report.  Other report modules
 * (percentiles, time series, JSON/CSV/HTML, ...) register themselves at
 * load time, without main knowing them, with a constructor:
 *
 *	static const struct option my_opts[] = {
 *		{ "json", required_argument, NULL, BS_EXT_OPT_BASE + 0 }, { 0 } };
 *	static const struct bs_analyze_ext my_ext = {
 *		.name = "json", .options = my_opts, .parse_opt = ..., ... };
 *	static void __attribute__((constructor)) reg(void)
 *	{ bs_analyze_register_ext(&my_ext); }
 *
 * Extension options are long-only; give them `val`s >= BS_EXT_OPT_BASE,
 * distinct across extensions (pick a block of 32 per file, e.g. base +
 * 0x20 * n).  Order of calls: parse_opt (per option) -> start (register
 * sinks) -> events -> sinks' finish -> report (after the btt sections,
 * only when the text report is printed) -> done.
 */
#ifndef BLKSCOPE_ANALYZE_H
#define BLKSCOPE_ANALYZE_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include "btt/io_sample.h"

#define BS_EXT_OPT_BASE 0x1000

struct bs_analyze;

struct bs_analyze_ext {
	const char *name;
	const struct option *options;	/* NULL-terminated, or NULL */
	/* 0 = handled, 1 = not mine, -1 = bad argument (message printed) */
	int (*parse_opt)(int val, const char *arg);
	void (*usage)(FILE *f);		/* option lines for --help; may be NULL */
	/* register sinks etc.; 0 or -1 (message printed) */
	int (*start)(struct bs_analyze *a);
	/* extra sections after btt's, on the text report stream */
	void (*report)(struct bs_analyze *a, FILE *out);
	/* write side files, free; returns 0 or -1 (exit status 1) */
	int (*done)(struct bs_analyze *a);
};

void bs_analyze_register_ext(const struct bs_analyze_ext *ext);

/* Add a sink (copied); up to 16.  Call from start(). */
int bs_analyze_add_sink(struct bs_analyze *a, const struct bs_sample_sink *sink);

/* Per-device counters, valid in report()/done(); *n = number of devices. */
const struct bs_dev_counters *bs_analyze_counters(struct bs_analyze *a, int *n);

/* btt's process name for a pid ("kernel" for 0, "pid%09u" if never named). */
const char *bs_analyze_comm(struct bs_analyze *a, uint32_t pid);

/* Time of the last event seen, ns since genesis. */
uint64_t bs_analyze_end_time(struct bs_analyze *a);

/* --btt-only was given: extensions print no text sections of their own. */
bool bs_analyze_btt_only(struct bs_analyze *a);

#endif /* BLKSCOPE_ANALYZE_H */
