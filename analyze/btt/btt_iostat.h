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

struct bt_iostat_stats {
	uint64_t rqm[2], ios[2], sec[2], wait, svctm;
	double last_qu_change, last_dev_change, tot_qusz, idle_time;
	int cur_qusz, cur_dev;
};

struct bt_iostat_dev {
	struct bt_iostat_stats stats, all_stats;
};

struct bt_iostat {
	FILE *fp;
	uint64_t interval;
	uint64_t last_start, last_stamp;
};

struct bt_engine;
struct bt_dev;

void bt_iostat_init(struct bt_iostat *io, FILE *fp, uint64_t interval);
/* every traced event, before it is handled */
void bt_iostat_check_time(struct bt_engine *e, uint64_t stamp);
void bt_iostat_getrq(struct bt_dev *d, uint64_t time);
void bt_iostat_merge(struct bt_dev *d, int rw);
void bt_iostat_issue(struct bt_dev *d, uint64_t time, int rw, uint32_t bytes);
void bt_iostat_complete(struct bt_dev *qd, struct bt_dev *cd, uint64_t t_q, uint64_t t_i,
			uint64_t t_m, uint64_t t_c);

#endif /* BLKSCOPE_BTT_IOSTAT_H */
