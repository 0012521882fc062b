// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_opts.c - the command line of blkscope-compare: its own options
 * (--json, --html, --fail-if, --pair, --help, --version), the two inputs
 * (the last two arguments), and everything else handed unchanged to both
 * sides' analyses, so that filters mean what they mean to `analyze`.
 * Options that make the analysis write files of its own are refused: both
 * sides would write the same files.  --fail-if expressions are parsed here,
 * before any input is read.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bs_stream.h"
#include "bs_alloc.h"
#include "compare.h"

const uint32_t cmp_pct_ppm[CMP_NPCT] = { 500000, 900000, 990000, 999000 };
const char *const cmp_pct_names[CMP_NPCT] = { "p50", "p90", "p99", "p99.9" };

void cmp_usage(FILE *f)
{
	fprintf(f,
		"Usage: blkscope-compare [OPTIONS] [ANALYZE OPTIONS] BEFORE AFTER\n"
		"\n"
		"Compares two block traces: every stage's N, IOPS, throughput and percentiles\n"
		"before and after, in total and per device, operation, process, group and tag,\n"
		"with an interval for each percentile change (95%% for all of them together:\n"
		"the one the verdict uses), the stage and the processes that explain the\n"
		"change first (method: docs/compare.md).  BEFORE\n"
		"and AFTER are anything `blkscope analyze` reads (per-CPU files, a directory,\n"
		"a dump, a stream, zstd); they must be the last two arguments.\n"
		"\n"
		"Options:\n"
		"      --json FILE           the comparison as JSON (FILE - = stdout, no text)\n"
		"      --html FILE           a page with overlaid CDFs, latency over time, tables\n"
		"      --fail-if EXPR        exit 3 if EXPR holds and is significant "
		"(repeatable):\n"
		"                            [BREAKDOWN.]STAGE.PCT>VALUE or <VALUE; PCT p50, p90,\n"
		"                            p99 or p99.9; VALUE +10%% or +0.5ms (a unit or %%:\n"
		"                            ns, us, ms, s)\n"
		"      --pair BEFORE=AFTER   match device BEFORE (8,16) with AFTER (259,0)\n"
		"      --force               replace --json/--html files of an earlier run "
		"(without\n"
		"                            it an existing output file is refused)\n"
		"  -h, --help                this text\n"
		"  -V, --version             the version\n"
		"\n"
		"Every other option is an analysis option given to both sides, as `blkscope\n"
		"analyze` takes it (time window, devices, groups, grouping, tagging plugin);\n"
		"those that write btt's side files are refused.\n"
		"\n"
		"Exit status: 0, 1 on error, 3 when a --fail-if condition holds.\n"
		"  e.g. blkscope compare --fail-if 'D2C.p99>+10%%' old/ new/\n"
		"       blkscope compare --group-by comm --html cmp.html a.dump b.dump\n");
}

/* Analysis options that write files (both sides would write the same ones). */
static const char refused_short[] = "ioplqzsBQuLPIX";
static const char *const refused_long[] = {
	"input", "output", "output-file", "per-io-dump", "d2c-latencies", "q2c-latencies",
	"q2d-latencies", "seeks", "dump-blocknos", "active-queue-depth", "unplug-hist",
	"periodic-latencies", "per-io-trees", "iostat", "easy-parse-avgs", "stats", "csv", "svg",
	NULL,
};

static bool refused(const char *arg)
{
	size_t n;

	if (arg[0] != '-' || !arg[1])
		return false;
	if (arg[1] != '-')
		return strchr(refused_short, arg[1]) != NULL;
	arg += 2;
	n = strcspn(arg, "=");
	for (int i = 0; refused_long[i]; i++)	/* getopt takes unambiguous prefixes */
		if (n >= 3 && !strncmp(refused_long[i], arg, n))
			return true;
	return false;
}

int cmp_parse_dev(const char *s, uint32_t *dev)
{
	unsigned int maj, min;
	char tail;

	if (sscanf(s, "%u,%u%c", &maj, &min, &tail) != 2 || maj > 0xfff || min > 0xfffff)
		return -1;
	*dev = maj << 20 | min;
	return 0;
}

static int parse_pair(struct cmp_opts *o, const char *arg, struct bs_err *err)
{
	const char *eq = strchr(arg, '=');
	char buf[64];
	struct cmp_pair p;

	if (!eq || (size_t)(eq - arg) >= sizeof(buf))
		goto bad;
	memcpy(buf, arg, (size_t)(eq - arg));
	buf[eq - arg] = 0;
	if (cmp_parse_dev(buf, &p.before) || cmp_parse_dev(eq + 1, &p.after))
		goto bad;
	o->pairs = bs_xrealloc(o->pairs, (size_t)(o->npairs + 1) * sizeof(*o->pairs));
	o->pairs[o->npairs++] = p;
	return 0;
bad:
	return bs_err_set(err, 0, "--pair wants MAJ,MIN=MAJ,MIN (8,16=259,0), got '%s'", arg);
}

/* "+10%", "-5%", "+0.5ms", "200us", "200µs", "3ns": a bare number is refused (10 what?) */
static int parse_value(const char *s, struct cmp_cond *c)
{
	static const struct { const char *sfx; double mult; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "\u00b5s", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v))
		return -1;
	if (!strcmp(end, "%")) {
		c->relative = true;
		c->value = v / 100;
		return 0;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].sfx)) {
			c->value = v * units[i].mult;
			return 0;
		}
	return -1;
}

int cmp_parse_cond(const char *text, struct cmp_cond *c, struct bs_err *err)
{
	const char *op = strpbrk(text, "<>");
	char lhs[128], *stage_at = NULL, *stat;
	size_t n;

	memset(c, 0, sizeof(*c));
	c->text = text;
	if (!op || op == text || (n = (size_t)(op - text)) >= sizeof(lhs) || parse_value(op + 1, c))
		goto bad;
	c->less = *op == '<';
	memcpy(lhs, text, n);
	lhs[n] = 0;
	/* the last "STAGE." at the start or after a dot: the prefix may hold dots */
	for (char *p = lhs; *p; p++)
		if (p == lhs || p[-1] == '.')
			for (int s = 0; s < BS_ST_COUNT; s++)
				if (!strncasecmp(p, report_stage_names[s], 3) && p[3] == '.') {
					stage_at = p;
					c->stage = s;
				}
	if (!stage_at)
		goto bad;
	stat = stage_at + 4;
	c->pct = -1;
	for (int i = 0; i < CMP_NPCT; i++)
		if (!strcmp(stat, cmp_pct_names[i]))
			c->pct = i;
	if (c->pct < 0)
		goto bad;
	if (stage_at > lhs) {
		if (stage_at - lhs - 1 >= (long)sizeof(c->prefix) || stage_at - lhs < 2)
			goto bad;
		memcpy(c->prefix, lhs, (size_t)(stage_at - lhs - 1));
	}
	return 0;
bad:
	return bs_err_set(err, 0,
			  "bad --fail-if '%s': want [BREAKDOWN.]STAGE.PCT>VALUE or <VALUE "
			  "(STAGE Q2G G2I I2D D2C Q2C Q2D, PCT p50 p90 p99 p99.9, "
			  "VALUE with %% or a unit: +10%% or +0.5ms, ns us ms s)",
			  text);
}

/* --name VALUE or --name=VALUE: the value, or NULL if arg is not --name */
static const char *opt_value(const char *name, int argc, char **argv, int *i)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] || *i + 1 >= argc - 2)	/* the value may not be BEFORE */
		return NULL;
	return argv[++*i];
}

int cmp_parse_args(struct cmp_opts *o, int argc, char **argv, struct bs_err *err)
{
	const char *v;
	int i;

	memset(o, 0, sizeof(*o));
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
		if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version"))
			return 2;
	}
	if (argc < 3) {
		return bs_err_set(err, 0, "want BEFORE and AFTER; try '%s --help'", bs_progname());
	}
	o->an_argv = bs_xcalloc((size_t)argc + 1, sizeof(char *));
	o->an_argv[o->an_argc++] = "blkscope-compare";
	for (i = 1; i < argc - 2; i++) {
		if ((v = opt_value("--json", argc, argv, &i))) {
			o->json = v;
		} else if ((v = opt_value("--html", argc, argv, &i))) {
			o->html = v;
		} else if ((v = opt_value("--pair", argc, argv, &i))) {
			if (parse_pair(o, v, err))
				return -1;
		} else if ((v = opt_value("--fail-if", argc, argv, &i))) {
			o->conds =
				bs_xrealloc(o->conds, (size_t)(o->nconds + 1) * sizeof(*o->conds));
			if (cmp_parse_cond(v, &o->conds[o->nconds], err))
				return -1;
			o->nconds++;
		} else if (!strncmp(argv[i], "--json", 6) || !strncmp(argv[i], "--html", 6) ||
			   !strncmp(argv[i], "--pair", 6) || !strncmp(argv[i], "--fail-if", 9)) {
			return bs_err_set(err, 0, "%s wants a value", argv[i]);
		} else if (!strcmp(argv[i], "--force")) {
			o->force = true;
			o->an_argv[o->an_argc++] = argv[i];
		} else if (refused(argv[i])) {
			return bs_err_set(err, 0,
					  "%s writes files of btt's: not with compare "
					  "(run blkscope analyze on each side for those)",
					  argv[i]);
		} else {
			o->an_argv[o->an_argc++] = argv[i];
		}
	}
	o->path[0] = argv[argc - 2];
	o->path[1] = argv[argc - 1];
	if (o->path[0][0] == '-' && o->path[0][1]) {
		return bs_err_set(err, 0, "want BEFORE and AFTER as the last two arguments");
	}
	if (!strcmp(o->path[0], "-") && !strcmp(o->path[1], "-")) {
		return bs_err_set(err, 0, "only one side can be read from stdin");
	}
	if (o->json && o->html && !strcmp(o->json, o->html) && strcmp(o->json, "-")) {
		return bs_err_set(err, 0, "--json and --html name the same file");
	}
	if (o->html && !strcmp(o->html, "-") && o->json && !strcmp(o->json, "-")) {
		return bs_err_set(err, 0, "only one of --json and --html can be stdout");
	}
	return 0;
}

void cmp_opts_free(struct cmp_opts *o)
{
	free(o->an_argv);
	free(o->conds);
	free(o->pairs);
}
