/* SPDX-License-Identifier: GPL-2.0 */
/* parse_stats.h - the kinds of accounting blkparse does per event. */
#ifndef BS_PARSE_STATS_H
#define BS_PARSE_STATS_H

#include "parse.h"

enum acct {
	ACCT_QUEUE, ACCT_MERGE, ACCT_ISSUE, ACCT_COMPLETE, ACCT_REQUEUE,
	ACCT_UNPLUG, ACCT_UNPLUG_TIMER,
	ACCT_PC_QUEUE, ACCT_PC_ISSUE, ACCT_PC_REQUEUE, ACCT_PC_COMPLETE,
};

/* Count t on its CPU and, with -s, on its process. */
void ps_account(struct bs_parse *ps, struct ps_cpu *pci, enum acct kind, const struct bs_trace *t, int w);

#endif /* BS_PARSE_STATS_H */
