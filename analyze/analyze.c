// SPDX-License-Identifier: GPL-2.0
/*
 * blkscope-analyze - btt's analysis in one streaming pass over blktrace
 * per-CPU files (or a blkparse -d dump, or stdin), with no intermediate
 * dump.  The default report is btt's, printed with btt's formats so that
 * both can be diffed; report extensions (analyze.h) add their sections
 * after it.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "analyze.h"
#include "bs_input.h"
#include "bs_merge.h"
#include "bs_stream.h"
#include "btt/btt_engine.h"
#include "btt/btt_report.h"
#include "tag_analyze.h"

#define MAX_EXTS 32

static const struct bs_analyze_ext *exts[MAX_EXTS];
static int nexts;

void bs_analyze_register_ext(const struct bs_analyze_ext *ext)
{
	if (nexts < MAX_EXTS)
		exts[nexts++] = ext;
}

struct bs_analyze {
	struct bt_engine *e;
	bool btt_only;		/* --btt-only: btt's sections and nothing else */
};

bool bs_analyze_btt_only(struct bs_analyze *a)
{
	return a->btt_only;
}

int bs_analyze_add_sink(struct bs_analyze *a, const struct bs_sample_sink *sink)
{
	return bt_engine_add_sink(a->e, sink);
}

const struct bs_dev_counters *bs_analyze_counters(struct bs_analyze *a, int *n)
{
	*n = a->e->ncounters;
	return a->e->counters;
}

const char *bs_analyze_comm(struct bs_analyze *a, uint32_t pid)
{
	const struct bt_proc *p = bt_engine_find_proc(a->e, pid);
	static char buf[32];

	if (p)
		return p->name;
	snprintf(buf, sizeof(buf), "pid%09u", pid);
	return buf;
}

uint64_t bs_analyze_end_time(struct bs_analyze *a)
{
	return a->e->last_time;
}

static void usage(FILE *f)
{
	int i;

	fprintf(f,
		"Usage: blkscope analyze [OPTIONS] INPUT...\n"
		"\n"
		"btt's latency analysis (Q2Q Q2G G2I Q2M I2D M2D D2C Q2C, merges, seeks, plugs,\n"
		"active periods) straight from blktrace per-CPU files, in one pass.  INPUT is\n"
		"what blkparse -i takes: a base name (sda), a per-CPU file, a directory, a\n"
		"blkparse -d dump, or - for stdin; .zst compressed files are read too.\n"
		"\n"
		"btt options:\n"
		"  -i, --input=INPUT          add an input (like a bare argument)\n"
		"  -o, --output=NAME          report to NAME.avg, ranges to NAME.dat, messages to NAME.msg,\n"
		"                             Q/D size histograms to NAME_qhist.dat, NAME_dhist.dat\n"
		"  -X, --easy-parse-avgs      with -o: NAME.xvg, the numbers as one record per line\n"
		"  -A, --all-data             also per-process/per-device tables and the Q2D histogram\n"
		"  -a, --seek-absolute        seek distance is always start - previous end\n"
		"  -d, --range-delta=SECS     coalesce activity closer than SECS (0.1)\n"
		"  -D, --devices=M,m;M,m      report only these devices, in this order\n"
		"  -e, --exes=NAME,NAME       per-process output only for these processes\n"
		"  -r, --no-remaps            ignore remap (A) events\n"
		"  -t, --time-start=SECS      ignore events before SECS\n"
		"  -T, --time-end=SECS        stop at the first event after SECS\n"
		"  -l, --d2c-latencies=NAME   per-IO D2C to NAME_<maj>,<min>_d2c.dat\n"
		"  -q, --q2c-latencies=NAME   per-IO Q2C to NAME_<maj>,<min>_q2c.dat\n"
		"  -z, --q2d-latencies=NAME   per-IO Q2D to NAME_<maj>,<min>_q2d.dat\n"
		"  -p, --per-io-dump=FILE     every completed IO's Q/G/I/M/D/C to FILE\n"
		"  -s, --seeks=NAME           every seek to NAME_<maj>,<min>_{q2q,d2d}_{r,w,c}.dat\n"
		"  -B, --dump-blocknos=NAME   every D's blocks to NAME_<maj>,<min>_{r,w,c}.dat\n"
		"  -Q, --active-queue-depth=NAME  issued-not-completed count to NAME_<maj>,<min>_aqd.dat\n"
		"  -u, --unplug-hist=NAME     IO unplug depths (buckets of 5) to NAME_<maj>,<min>.dat\n"
		"  -L, --periodic-latencies=SECS  Q2D/Q2C/D2C averaged over SECS into\n"
		"                             <maj>,<min>_{q2d,q2c,d2c}_plat.dat (current directory)\n"
		"  -Z, --do-active            active periods to <maj>,<min>_live.dat, sys_live.dat\n"
		"  -P, --per-io-trees=X       per C: its bios' Q times | D | C to <maj>,<min>_pit.dat\n"
		"  -I, --iostat=FILE          iostat-style lines to FILE\n"
		"  -S, --iostat-interval=SECS interval of -I lines (1)\n"
		"\n"
		"blkscope options:\n"
		"      --input-dir=DIR        directory for relative inputs (blkparse -D)\n"
		"      --batch=N              per-CPU read batch, as blkparse -b (512)\n"
		"      --btt-only             print only btt's sections (no percentile sections)\n"
		"      --seek-values=N        distinct seek distances kept for MEDIAN/MODE, all devices\n"
		"                             together (3000000, ~48 MiB; 0 = no limit, as btt)\n"
		"      --progress / --no-progress  progress on stderr (default: if a terminal)\n"
		"  -v, --verbose              events read and the rate, on stderr\n"
		"  -V, --version\n"
		"  -h, --help\n");
	for (i = 0; i < nexts; i++)
		if (exts[i]->usage)
			exts[i]->usage(f);
	fprintf(f,
		"\n"
		"Examples:\n"
		"  blkscope analyze sda                      # btt's report for sda.blktrace.*\n"
		"  blkscope analyze -A -l lat -q lat sda     # plus per-process tables, latency files\n"
		"  blkscope analyze -I iostat.txt -S 5 trace.dump\n"
		"  blkscope record -o - ... | blkscope analyze -\n");
}

enum {
	OPT_INPUT_DIR = 0x100,
	OPT_BATCH,
	OPT_BTT_ONLY,
	OPT_PROGRESS,
	OPT_NO_PROGRESS,
	OPT_SEEK_VALUES,
};

static const struct option base_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "output-file", required_argument, NULL, 'o' },
	{ "all-data", no_argument, NULL, 'A' },
	{ "seek-absolute", no_argument, NULL, 'a' },
	{ "range-delta", required_argument, NULL, 'd' },
	{ "devices", required_argument, NULL, 'D' },
	{ "exes", required_argument, NULL, 'e' },
	{ "no-remaps", no_argument, NULL, 'r' },
	{ "time-start", required_argument, NULL, 't' },
	{ "time-end", required_argument, NULL, 'T' },
	{ "d2c-latencies", required_argument, NULL, 'l' },
	{ "q2c-latencies", required_argument, NULL, 'q' },
	{ "q2d-latencies", required_argument, NULL, 'z' },
	{ "per-io-dump", required_argument, NULL, 'p' },
	{ "seeks", required_argument, NULL, 's' },
	{ "dump-blocknos", required_argument, NULL, 'B' },
	{ "active-queue-depth", required_argument, NULL, 'Q' },
	{ "unplug-hist", required_argument, NULL, 'u' },
	{ "periodic-latencies", required_argument, NULL, 'L' },
	{ "do-active", no_argument, NULL, 'Z' },
	{ "per-io-trees", required_argument, NULL, 'P' },
	{ "iostat", required_argument, NULL, 'I' },
	{ "iostat-interval", required_argument, NULL, 'S' },
	{ "input-dir", required_argument, NULL, OPT_INPUT_DIR },
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ "btt-only", no_argument, NULL, OPT_BTT_ONLY },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "seek-values", required_argument, NULL, OPT_SEEK_VALUES },
	{ "verbose", no_argument, NULL, 'v' },
	{ "easy-parse-avgs", no_argument, NULL, 'X' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
};

/* Built once: the extensions register before main and never change. */
static struct option *all_options(void)
{
	size_t nbase = sizeof(base_opts) / sizeof(base_opts[0]), n = nbase;
	static struct option *v;
	int i;

	if (v)
		return v;

	for (i = 0; i < nexts; i++) {
		const struct option *o = exts[i]->options;

		while (o && o->name) {
			n++;
			o++;
		}
	}
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		exit(1);
	memcpy(v, base_opts, sizeof(base_opts));
	n = nbase;
	for (i = 0; i < nexts; i++) {
		const struct option *o = exts[i]->options;

		while (o && o->name)
			v[n++] = *o++;
	}
	return v;
}

static FILE *open_out(const char *path)
{
	FILE *fp = fopen(path, "w");

	if (!fp) {
		fprintf(stderr, "blkscope-analyze: cannot create %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fp;
}

static FILE *open_named(const char *base, const char *sfx)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s.%s", base, sfx);
	return open_out(path);
}

static int parse_secs(const char *opt, const char *arg, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno || end == arg || *end || *out < 0) {
		fprintf(stderr, "blkscope-analyze: %s: not a number of seconds: %s\n", opt, arg);
		return -1;
	}
	return 0;
}

/* ---- progress --------------------------------------------------------- */

struct progress {
	bool on;
	uint64_t total_bytes;
	uint64_t events;
	time_t last;
};

static uint64_t input_bytes(const struct bs_input_set *in)
{
	struct stat st;
	uint64_t total = 0;
	int i, c;

	if (in->stream_path) {
		if (strcmp(in->stream_path, "-") && !stat(in->stream_path, &st) && S_ISREG(st.st_mode))
			total = st.st_size;
		return total;
	}
	for (i = 0; i < in->ndevs; i++)
		for (c = 0; c < in->devs[i].ncpus; c++)
			if (!stat(in->devs[i].cpus[c].path, &st))
				total += st.st_size;
	return total;
}

static void progress_tick(struct progress *p)
{
	time_t now = time(NULL);

	if (now == p->last)
		return;
	p->last = now;
	if (p->total_bytes) {
		/* records are 48 bytes plus small payloads: a good enough estimate */
		double pct = 100.0 * (double)(p->events * 52) / (double)p->total_bytes;

		fprintf(stderr, "\rblkscope-analyze: %5.1f%% %llu events", pct > 99.9 ? 99.9 : pct,
			(unsigned long long)p->events);
	} else {
		fprintf(stderr, "\rblkscope-analyze: %llu events", (unsigned long long)p->events);
	}
}

static void progress_done(struct progress *p)
{
	if (p->on && p->last)
		fprintf(stderr, "\r%60s\r", "");
}

/* ---- main ------------------------------------------------------------- */

struct note_ctx {
	struct bt_engine *e;
};

static void on_note(void *ctx, const struct bs_record *rec, int dev)
{
	struct bt_engine *e = ((struct note_ctx *)ctx)->e;

	(void)dev;
	if (bs_tag_enabled()) {	/* --tag-plugin: through the plugin first (tag_analyze.c) */
		bs_tag_note(rec);
		return;
	}
	/* btt stops reading at the first event past -T: later notes are unseen */
	if (rec->t.action == BS_NOTE_PROCESS && !e->done)
		bt_engine_process_note(e, rec->t.pid, (const char *)rec->pdu, rec->t.pdu_len);
}

int main(int argc, char **argv)
{
	struct bs_input_set in = { 0 };
	struct bt_opts o = { 0 };
	struct bs_merge_opts mo = { 0 };
	struct progress prog = { 0 };
	const char *input_dir = NULL, *output = NULL, *per_io = NULL, *iostat = NULL;
	const char *inputs[argc + 1];
	struct option *opts;
	struct note_ctx nctx;
	struct bs_analyze a;
	struct bs_merge *m;
	struct bs_event ev;
	struct bt_engine *e;
	FILE *avgs, *ranges;
	bool btt_only = false, verbose = false, easy = false;
	struct timespec t0, t1;
	uint64_t nevents = 0;
	int progress = -1, ninputs = 0, c, i, ret = 0;
	double secs;

	bs_set_progname("blkscope-analyze");
	o.range_delta = 0.1;
	o.t_end = INFINITY;
	o.seek_values = 3000000;
	opts = all_options();
	while ((c = getopt_long(argc, argv, "i:o:Aad:D:e:rt:T:l:q:z:p:I:S:s:B:Q:u:L:ZP:vVXh", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			inputs[ninputs++] = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'A':
			o.all_data = true;
			break;
		case 'a':
			o.seek_absolute = true;
			break;
		case 'd':
			if (parse_secs("-d", optarg, &o.range_delta))
				return 1;
			break;
		case 'D':
			o.devices = optarg;
			break;
		case 'e':
			o.exes = optarg;
			break;
		case 'r':
			o.ignore_remaps = true;
			break;
		case 't':
			if (parse_secs("-t", optarg, &o.t_start))
				return 1;
			o.time_bounded = true;
			break;
		case 'T':
			if (parse_secs("-T", optarg, &o.t_end))
				return 1;
			o.time_bounded = true;
			break;
		case 'l':
			o.d2c_name = optarg;
			break;
		case 'q':
			o.q2c_name = optarg;
			break;
		case 'z':
			o.q2d_name = optarg;
			break;
		case 'p':
			per_io = optarg;
			break;
		case 's':
			o.seek_name = optarg;
			break;
		case 'B':
			o.bno_name = optarg;
			break;
		case 'Q':
			o.aqd_name = optarg;
			break;
		case 'u':
			o.uhist_name = optarg;
			break;
		case 'L':
			if (parse_secs("-L", optarg, &o.plat_freq))
				return 1;
			break;
		case 'Z':
			o.live_files = true;
			break;
		case 'P':
			o.pit_files = true;
			break;
		case 'I':
			iostat = optarg;
			break;
		case 'S':
			/* the upper bound keeps the ns conversion defined */
			if (parse_secs("-S", optarg, &secs) || secs < 1 || secs > 1e9) {
				fprintf(stderr, "blkscope-analyze: -S: want whole seconds, 1 to 1e9: %s\n", optarg);
				return 1;
			}
			o.iostat_interval = (uint64_t)secs * 1000000000ull;
			break;
		case OPT_INPUT_DIR:
			input_dir = optarg;
			break;
		case OPT_BATCH:
			mo.batch = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case OPT_BTT_ONLY:
			btt_only = true;
			break;
		case OPT_PROGRESS:
			progress = 1;
			break;
		case OPT_NO_PROGRESS:
			progress = 0;
			break;
		case OPT_SEEK_VALUES:
			o.seek_values = strtoull(optarg, NULL, 0);
			break;
		case 'v':
			verbose = true;
			break;
		case 'X':
			easy = true;
			break;
		case 'V':
			printf("blkscope-analyze %s (btt 2.09 compatible)\n", BLKSCOPE_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			if (c >= BS_EXT_OPT_BASE) {
				int r = 1;

				for (i = 0; i < nexts && r == 1; i++)
					if (exts[i]->parse_opt)
						r = exts[i]->parse_opt(c, optarg);
				if (r == 0)
					break;
			}
			usage(stderr);
			return 1;
		}
	}
	for (i = optind; i < argc; i++)
		inputs[ninputs++] = argv[i];
	if (!ninputs) {
		fprintf(stderr, "blkscope-analyze: no input given (try --help)\n");
		return 1;
	}
	for (i = 0; i < ninputs; i++)
		if (bs_input_add(&in, inputs[i], input_dir))
			return 1;

	if (output) {
		avgs = open_named(output, "avg");
		ranges = open_named(output, "dat");
		o.msgs = open_named(output, "msg");
		if (easy)	/* btt ignores -X without -o */
			o.xvg = open_named(output, "xvg");
	} else {
		avgs = ranges = o.msgs = stdout;
	}
	if (per_io)
		o.per_io = open_out(per_io);
	if (iostat)
		o.iostat = open_out(iostat);

	e = bt_engine_new(&o);
	a.e = e;
	a.btt_only = btt_only;
	if (bs_tag_begin(e))	/* --tag-plugin: start it (tag_analyze.c) */
		return 1;
	for (i = 0; i < nexts; i++)
		if (exts[i]->start && exts[i]->start(&a))
			return 1;

	nctx.e = e;
	mo.dumps_in_file_order = true;	/* analyze DUMP == btt -i DUMP */
	mo.on_note = on_note;
	mo.ctx = &nctx;
	m = bs_merge_open(&in, &mo);
	if (!m)
		return 1;
	prog.on = progress == 1 || (progress == -1 && isatty(STDERR_FILENO));
	if (prog.on)
		prog.total_bytes = input_bytes(&in);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!e->done && bs_merge_next(m, &ev) == 1) {
		if (bs_tag_enabled())	/* applied to e once the plugin answered */
			bs_tag_event(&ev);
		else
			bt_engine_event(e, &ev);
		nevents++;
		if (prog.on && (++prog.events & 0xfffff) == 0)
			progress_tick(&prog);
	}
	progress_done(&prog);
	if (bs_tag_end())	/* last answers; tags incomplete if the plugin failed */
		ret = 1;
	if (bs_merge_damaged(m))
		ret = 1;
	bs_merge_close(m);

	if (!nevents)
		fprintf(stderr, "blkscope-analyze: no events in the input\n");
	bt_engine_finish(e);
	bt_report_avgs(e, avgs);
	if (verbose) {
		double dt;

		clock_gettime(CLOCK_MONOTONIC, &t1);
		dt = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		fprintf(stderr, "blkscope-analyze: %llu events in %.3f s (%.1f M events/s)\n",
			(unsigned long long)nevents, dt, dt > 0 ? (double)nevents / dt / 1e6 : 0.0);
	}
	if (output && bt_report_histos(e, output))
		ret = 1;
	bt_report_ranges(e, ranges);
	if (!btt_only)
		for (i = 0; i < nexts; i++)
			if (exts[i]->report)
				exts[i]->report(&a, avgs);
	bt_iostat_finish(e);
	for (i = 0; i < nexts; i++)
		if (exts[i]->done && exts[i]->done(&a))
			ret = 1;
	if (o.per_io && fclose(o.per_io))
		ret = 1;
	if (o.iostat && fclose(o.iostat))
		ret = 1;
	if (output) {
		fclose(avgs);
		fclose(ranges);
		fclose(o.msgs);
		if (o.xvg)
			fclose(o.xvg);
	}
	if (fflush(stdout)) {
		fprintf(stderr, "blkscope-analyze: writing the report: %s\n", strerror(errno));
		ret = 1;
	}
	bt_engine_free(e);
	bs_input_free(&in);
	return ret;
}
