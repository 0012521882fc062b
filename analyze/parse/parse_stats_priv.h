/* SPDX-License-Identifier: GPL-2.0 */
/* parse_stats_priv.h - the kinds of accounting blkparse does per event. */
#ifndef BLKSCOPE_ANALYZE_PARSE_PARSE_STATS_PRIV_H
#define BLKSCOPE_ANALYZE_PARSE_PARSE_STATS_PRIV_H

#include "parse_priv.h"

enum parse_acct {
	PARSE_ACCT_QUEUE, PARSE_ACCT_MERGE, PARSE_ACCT_ISSUE, PARSE_ACCT_COMPLETE,
	PARSE_ACCT_REQUEUE,
	PARSE_ACCT_UNPLUG, PARSE_ACCT_UNPLUG_TIMER,
	PARSE_ACCT_PC_QUEUE, PARSE_ACCT_PC_ISSUE, PARSE_ACCT_PC_REQUEUE, PARSE_ACCT_PC_COMPLETE,
};

/* Count t on its CPU and, with -s, on its process. */
void parse_account(struct parse_ctx *ps, struct parse_cpu *pci, enum parse_acct kind,
		   const struct bs_trace *t, int w);

#endif /* BLKSCOPE_ANALYZE_PARSE_PARSE_STATS_PRIV_H */
