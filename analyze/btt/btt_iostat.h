/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btt_iostat.h - btt -I: iostat-like lines every -S seconds of trace time,
 * with btt's definitions (svctm is Q2C, await from I or M to C, the
 * swapped r/w columns of the multi-device TOTAL row).
 */
#ifndef BLKSCOPE_BTT_IOSTAT_H
#define BLKSCOPE_BTT_IOSTAT_H

#include <stdint.h>
#include <stdio.h>

struct btt_iostat_stats {
	uint64_t rqm[2], ios[2], sec[2], wait, svctm;
	double last_qu_change, last_dev_change, tot_qusz, idle_time;
	int cur_qusz, cur_dev;
};

struct btt_iostat_dev {
	struct btt_iostat_stats stats, all_stats;
};

struct btt_iostat {
	FILE *fp;
	uint64_t interval;
	uint64_t last_start, last_stamp;
};

struct btt_engine;
struct btt_dev;

void btt_iostat_init(struct btt_iostat *io, FILE *fp, uint64_t interval);
/* every traced event, before it is handled */
void btt_iostat_check_time(struct btt_engine *e, uint64_t stamp);
void btt_iostat_getrq(struct btt_dev *d, uint64_t time);
void btt_iostat_merge(struct btt_dev *d, int rw);
void btt_iostat_issue(struct btt_dev *d, uint64_t time, int rw, uint32_t bytes);
void btt_iostat_complete(struct btt_dev *qd, struct btt_dev *cd, uint64_t t_q, uint64_t t_i,
			uint64_t t_m, uint64_t t_c);

#endif /* BLKSCOPE_BTT_IOSTAT_H */
