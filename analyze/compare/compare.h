/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - `blkscope compare BEFORE AFTER`: two analyses (one per side,
 * each input read once, streaming, through the report extension), their
 * report states matched row by row (total, device, operation, process,
 * group, tag), every stage's percentiles compared with a distribution-free
 * confidence interval (docs/compare.md), a headline (which stage and which
 * processes moved), text/JSON/HTML writers and the --fail-if gate.
 *
 * One concept per file: cmp_opts.c (command line, --pair, --fail-if),
 * cmp_side.c (one side's analysis), cmp_match.c (rows), cmp_stats.c
 * (intervals, significance), cmp_where.c (headline), cmp_gate.c,
 * cmp_text.c, cmp_json.c, cmp_html.c.
 */
#ifndef BLKSCOPE_COMPARE_H
#define BLKSCOPE_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "bs_hash.h"
#include "analysis.h"
#include "bs_msg.h"
#include "report/report_lat.h"

#define CMP_SCHEMA_VERSION 1
#define CMP_NPCT 4			/* p50 p90 p99 p99.9: compared with an interval */
extern const uint32_t cmp_pct_ppm[CMP_NPCT];
extern const char *const cmp_pct_names[CMP_NPCT];
#define CMP_SKETCH_ERR (1.0 / 128)	/* the sketch's relative error bound */
#define CMP_TRIM 0.99			/* where-it-moved uses means of the lowest 99% */

enum cmp_kind { CK_ALL, CK_DEV, CK_OP, CK_PROC, CK_GROUP, CK_TAG, CK_FILE, CK_COUNT };
extern const char *const cmp_kind_names[CK_COUNT];

/* One percentile of one stage of one row, both sides. */
struct cmp_q {
	uint64_t b, a;			/* values (ns); 0 if that side has none */
	double lo_b, hi_b, lo_a, hi_a;	/* 95% ratio-interval side bounds (ns) */
	double rel, rel_lo, rel_hi;	/* after/before - 1 and its 95% interval */
	/*
	 * its interval at Bonferroni's z over every compared percentile (95%
	 * for all of them together): the one the verdict (sig) is read from,
	 * and the one the reports print
	 */
	double jrel_lo, jrel_hi;
	double delta;			/* a - b, ns */
	bool tested;			/* both sides have enough samples */
	bool sig;			/* significant (cmp_stats.c's rule) */
};

struct cmp_stage {
	uint64_t n_b, n_a, max_b, max_a;
	double mean_b, mean_a, sum_b, sum_a;
	double tmean_b, tmean_a;	/* mean of the lowest CMP_TRIM of the values */
	struct cmp_q q[CMP_NPCT];
};

struct cmp_row {
	enum cmp_kind kind;
	char name[256];			/* the matching key (before's device name; a file's path) */
	char name_a[64];		/* after's name when --pair renamed a device */
	struct report_lat set[2];		/* before, after (merged copies) */
	bool seen[2];
	struct cmp_stage st[BS_ST_COUNT];
};

struct analysis;
struct bs_report;

struct cmp_side {
	const char *path;
	struct analysis *an;
	struct bs_report *r;		/* the report extension's state */
	uint64_t t0, t1;		/* first and last event (ns since genesis) */
	double phi[CMP_NPCT];		/* batch-means variance inflation (>= 1) */
};

struct cmp_pair {
	uint32_t before, after;		/* devices (kernel dev_t) */
};

/* A --fail-if condition: [PREFIX.]STAGE.PCT (>|<) [+-]VALUE(%|ns|us|ms|s) */
struct cmp_cond {
	const char *text;
	char prefix[64];		/* "" = the total */
	int stage, pct;
	bool less;			/* '<' */
	bool relative;			/* value is a fraction (10% = 0.10), else ns */
	double value;
};

struct cmp_opts {
	const char *json, *html;
	bool force;			/* --force: replace our own earlier --json/--html files */
	struct cmp_cond *conds;
	int nconds;
	struct cmp_pair *pairs;
	int npairs;
	char **an_argv;			/* argv for each side's analysis, last slot = side */
	int an_argc;
	const char *path[2];
};

struct cmp {
	struct cmp_opts o;
	struct cmp_side side[2];
	struct analysis_msgs an_msgs;	/* what the sides' analyses tell (the front-end's) */
	struct cmp_row *rows;
	size_t nrows, rows_cap;
	struct bs_hash row_index;	/* while matching: hash of (kind, name) -> row */
	size_t ntested;			/* compared percentiles (Bonferroni's m) */
	double z_ci, z_sig;
	/*
	 * A side lost events or stops at damage: its percentiles are
	 * computed (from the I/Os that are whole) but no change is called
	 * significant and --fail-if cannot judge (cmp_health.c).
	 */
	bool no_verdict;
	/* cmp_gate(): each condition that holds is told here (the front-end prints it) */
	struct bs_msg_sink msg;
};

/* cmp_opts.c: 0 = run, 1 = --help asked, 2 = --version, -1 = bad (why in err) */
int cmp_parse_args(struct cmp_opts *o, int argc, char **argv, struct bs_err *err);
void cmp_usage(FILE *f);
void cmp_opts_free(struct cmp_opts *o);
int cmp_parse_cond(const char *text, struct cmp_cond *c, struct bs_err *err);	/* 0 or -1 */
/* "8,16" -> dev_t; 0 or -1 */
int cmp_parse_dev(const char *s, uint32_t *dev);

/*
 * cmp_side.c: run side i's analysis; 0, -1 (the analysis printed why), -2 (a bad command
 * line, printed), CMP_SIDE_USAGE (getopt named the option: point at --help)
 */
#define CMP_SIDE_USAGE	(-3)
int cmp_side_run(struct cmp *c, int i);
void cmp_side_free(struct cmp_side *s);

/* cmp_match.c: build the rows from both report states */
void cmp_match(struct cmp *c);
void cmp_rows_free(struct cmp *c);
const struct cmp_row *cmp_find_row(const struct cmp *c, const char *name);

/* cmp_stats.c */
void cmp_batch_means(struct cmp_side *s);
void cmp_compute(struct cmp *c);
double cmp_z_of(double two_sided_alpha);
double cmp_duration_s(const struct cmp_side *s);
double cmp_trimmed_mean(const struct sketch *s, double keep);

/* cmp_where.c: the headline lines (text), also used by JSON/HTML */
struct cmp_share {
	const struct cmp_row *row;
	double b, a;			/* share of the total Q2C time, 0..1 */
};
struct cmp_where {
	bool have;			/* both sides have Q2C */
	double q2c_delta;		/* trimmed-mean Q2C change, ns */
	double stage_delta[BS_ST_COUNT];	/* trimmed-mean change per stage, ns */
	int top_stage;			/* of Q2G G2I I2D D2C: the largest same-sign change */
	struct cmp_share shares[3];
	int nshares;
};
void cmp_where(const struct cmp *c, struct cmp_where *w);
const char *cmp_stage_blurb(int stage);
void cmp_fmt_ns(double ns, char *buf, size_t len, bool sign);
void cmp_fmt_rel(const struct cmp_q *q, char *buf, size_t len);

/* cmp_health.c: each side's health; sets c->no_verdict (before cmp_compute's verdicts) */
void cmp_health_check(struct cmp *c);
bool cmp_side_unreliable(const struct cmp_side *s);
void cmp_health_text(const struct cmp *c, FILE *out);
void cmp_health_json(const struct cmp_side *s, FILE *f);
void cmp_health_html(const struct cmp *c, FILE *f);

/*
 * cmp_gate.c: evaluate --fail-if; returns how many hold (each told to c->msg), -1 if one
 * cannot be evaluated (why in err)
 */
int cmp_gate(const struct cmp *c, struct bs_err *err);
/* 1 holds, 0 not, -1 no such breakdown; *q = the percentile it reads */
int cmp_cond_holds(const struct cmp *c, const struct cmp_cond *k, const struct cmp_q **q);

/* writers; 0 or -1 (message printed) */
void cmp_text(const struct cmp *c, FILE *out);
/*
 * Shared by the text and the HTML (cmp_text.c): first[i] is the first row
 * of another kind holding row i's very numbers, the same I/Os (the only
 * device is the total), or i (caller frees); a row's label with those of
 * its equals ("total = device 8,0"); the significant changes, total first,
 * then by size (caller frees).
 */
size_t *cmp_first_of_same(const struct cmp *c);
void cmp_label(const struct cmp *c, const size_t *first, size_t i, char *buf, size_t len);
struct cmp_sig {
	const struct cmp_row *row;
	int st, p;
	double mag;
};
size_t cmp_significant(const struct cmp *c, const size_t *first, struct cmp_sig **out);
int cmp_json(const struct cmp *c, const char *path);
int cmp_html(const struct cmp *c, const char *path);

#endif /* BLKSCOPE_COMPARE_H */
