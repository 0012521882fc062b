// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_side.c - one side of a comparison: an analysis (struct analysis) with the tag and
 * report extensions, given the shared analysis options and this side's
 * input, run quietly (btt's text to /dev/null) with the report state kept
 * for us (report_collect).  The input is read once, streaming, exactly as
 * `blkscope analyze` reads it; memory is what one analysis needs.
 */
#include <stdlib.h>
#include "analysis.h"
#include "bs_stream.h"
#include "compare.h"
#include "report/report.h"

static const struct analysis_ext *const side_exts[] = {
	&analysis_tag_ext,
	&report_ext,
};

/* First and last event over the devices the engine saw. */
static void side_span(struct cmp_side *s)
{
	int i, n;
	const struct bs_dev_counters *c = report_counters(s->r, &n);

	s->t0 = UINT64_MAX;
	s->t1 = 0;
	for (i = 0; c && i < n; i++) {
		if (c[i].first_time < s->t0)
			s->t0 = c[i].first_time;
		if (c[i].last_time > s->t1)
			s->t1 = c[i].last_time;
	}
	if (s->t0 > s->t1)
		s->t0 = s->t1 = 0;
}

int cmp_side_run(struct cmp *c, int i)
{
	struct cmp_side *s = &c->side[i];
	int status;

	s->path = c->o.path[i];
	s->an = analysis_new(side_exts, sizeof(side_exts) / sizeof(side_exts[0]));
	analysis_set_msgs(s->an, &c->an_msgs);
	c->o.an_argv[c->o.an_argc] = (char *)s->path;
	switch (analysis_parse_args(s->an, c->o.an_argc + 1, c->o.an_argv)) {
	case ANALYSIS_ARGS_RUN:
		break;
	case ANALYSIS_ARGS_USAGE:	/* getopt named the option */
		return CMP_SIDE_USAGE;
	default:	/* the one-line message is printed */
		return -2;
	}
	s->r = analysis_ext_state(s->an, &report_ext);
	report_collect(s->r);
	analysis_set_quiet(s->an);
	status = analysis_run(s->an);
	if (status)	/* the analysis said why in one line naming the input */
		return -1;
	report_rollup(s->r);
	side_span(s);
	cmp_batch_means(s);
	return 0;
}

void cmp_side_free(struct cmp_side *s)
{
	analysis_free(s->an);
	s->an = NULL;
	s->r = NULL;
}
