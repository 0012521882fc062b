/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btt_report.h - btt's default report (output_avgs), its range data
 * (output_ranges) and the -A per-process/per-device tables, with btt's
 * exact printf formats so that the numbers diff clean against btt.
 */
#ifndef BLKSCOPE_BTT_REPORT_H
#define BLKSCOPE_BTT_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include "btt_engine.h"

/* "(%3d,%3d)" into buf of len bytes */
char *bt_dev_hdr(char *buf, size_t len, uint32_t device);

/* "%d,%d" (btt's make_dev_hdr() without parentheses), for -X lines */
char *bt_dev_plain(char *buf, size_t len, uint32_t device);

/* "==================== title ====================" and a blank line */
void bt_report_section(FILE *fp, const char *title);

/*
 * The devices btt reports on: all, in order of first appearance, or
 * those of -D in the order given (unknown ones skipped).  *out is
 * malloc'ed; returns the count.
 */
int bt_report_out_devs(struct bt_engine *e, struct bt_dev ***out);

void bt_report_avgs(struct bt_engine *e, FILE *fp);
void bt_report_ranges(struct bt_engine *e, FILE *fp);

/* One "Device Q2Q/D2D Seek Information" section (q2q: 1 Q2Q, 0 D2D); x: -X file or NULL */
void bt_report_seek_info(FILE *fp, const char *title, struct bt_dev **devs, int n, int q2q,
			 FILE *x);

/* -o NAME: NAME_qhist.dat and NAME_dhist.dat, Q and D sizes (not md/dm) */
int bt_report_histos(struct bt_engine *e, const char *name);

#endif /* BLKSCOPE_BTT_REPORT_H */
