// SPDX-License-Identifier: GPL-2.0
/*
 * blkscope parse - print a blktrace trace as text, byte for byte what
 * Debian's blkparse 1.2.0 prints, and write blkparse -d compatible dumps
 * for btt and iowatcher.  Inputs (per-CPU files, directories, dumps,
 * stdin, FIFOs, zstd) and the time-ordered merge come from format/; this
 * file holds the options, the per-event dispatch (blkparse's dump_trace)
 * and the dump.  See docs/parse.md for the reproduced blkparse bugs.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bs_codec.h"
#include "bs_input.h"
#include "bs_merge.h"
#include "bs_stream.h"
#include "bs_writer.h"
#include "parse.h"
#include "parse_stats.h"
#include "parse_tags.h"

#define BLKPARSE_COMPAT "1.2.0"

/* Everything the event loop needs that is not parse state proper. */
struct run {
	struct parse ps;
	struct bs_input_set in;
	struct bs_merge *merge;
	const char *output_name;
	const char *dump_name;
	struct bs_writer dump;
	bool dumping;
	struct pout added;	/* "Input file X added" lines: stdout, own buffer */
	uint32_t last_dev;	/* stream mode: device -> ps_dev cache */
	struct ps_dev *last_pdi;
	/* options that are not parse state */
	const char *inputs[256];
	int ninputs;
	const char *input_dir;
	unsigned int batch;
};

static struct run *the_run;

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: blkscope parse [OPTIONS] [-i] INPUT...\n"
		"\n"
		"Print a blktrace trace as text, exactly as blkparse " BLKPARSE_COMPAT " does, and/or dump\n"
		"it merged into one file for btt and iowatcher.  INPUT is a base name (sda ->\n"
		"sda.blktrace.0, .1, ...), a per-CPU file, a directory, a dump, a FIFO or -\n"
		"for stdin; per-CPU files may be zstd-compressed (.zst).\n"
		"\n"
		"  -i, --input=FILE         input (repeatable; bare arguments work too)\n"
		"  -D, --input-directory=D  directory to prepend to relative input names\n"
		"  -o, --output=FILE        text to FILE instead of stdout\n"
		"  -O, --no-text-output     no text (use with -d)\n"
		"  -d, --dump-binary=FILE   write the merged records to FILE (- = stdout)\n"
		"  -M, --no-msgs            leave messages out of the dump\n"
		"  -a, --act-mask=NAME      only these categories (repeatable): read write flush\n"
		"                           sync queue requeue issue complete fs pc notify ahead\n"
		"                           meta discard drv_data fua\n"
		"  -A, --set-mask=HEX       the category mask as one hex value\n"
		"  -b, --batch=N            records read per batch (default 512)\n"
		"  -f, --format=FMT         line format for every action (%%a %%c %%C %%d %%D %%e %%M %%m\n"
		"                           %%n %%N %%p %%P %%s %%S %%t %%T %%u %%U %%z; \\n \\t \\r \\b)\n"
		"  -F, --format-spec=X,FMT  line format for action X (UT uses U)\n"
		"  -q, --quiet              no per-device/CPU statistics at the end\n"
		"  -s, --per-program-stats  per-process statistics\n"
		"  -h, --hash-by-name       -s groups processes by name, not pid\n"
		"  -t, --track-ios          show I-G, D-I and C-D times (ns) on I, D and C lines\n"
		"  -w, --stopwatch=[S:]E    only events between S and E seconds into the trace\n"
		"  -v, --verbose            report tracking misses and sequence skips\n"
		"  -V, --version\n"
		"      --help\n"
		"\n"
		"Compatibility: output equals blkparse " BLKPARSE_COMPAT "'s, including its bugs (messages\n"
		"show pid 0; cgroup-flagged records print \"Bad fs action\"; PC read KiB count as\n"
		"normal reads; 'T' is skipped in size suffixes).  See docs/parse.md.\n"
		"\n"
		"Examples:\n"
		"  blkscope parse sda                       # sda.blktrace.* as text\n"
		"  blkscope parse -t -s -i sda -o sda.txt   # with I/O tracking and per-process stats\n"
		"  blkscope parse -O -d sda.dump sda        # merged dump for btt -i / iowatcher -t\n"
		"  blkscope parse -a complete -f '%%T.%%t %%S %%n\\n' sda\n"
		"  blkscope record -o - ... | blkscope parse -i -\n");
	ptag_usage(f);
}

/* exit() from deep inside a format: blkparse flushes what it printed first */
void parse_fatal_exit(struct parse *ps)
{
	struct run *r = the_run;

	pout_flush(&ps->out);
	if (r) {
		pout_flush(&r->added);
		if (r->dumping)
			bs_writer_flush(&r->dump);
	}
	exit(1);
}

/* ---- notes and the dump ---- */

/* The dump has the version of the first record dumped: v7 input keeps blkparse 1.2.0's dump. */
static void dump_record(struct run *r, const struct bs_trace *t, uint32_t action_hi, const uint8_t *pdu)
{
	if (r->dumping && !r->dump.records && t->magic == BS_TRACE_MAGIC_V8)
		bs_writer_set_format(&r->dump, BS_OUT_V8);
	if (r->dumping && bs_writer_put2(&r->dump, t, action_hi, pdu) < 0) {
		/* blkparse: perror(dump_binary), then stops dumping */
		fprintf(stderr, "%s: %s\n", r->dump_name, strerror(r->dump.error));
		r->dumping = false;
	}
}

static void correct_abs_start(struct parse *ps, uint64_t genesis)
{
	long long delta;

	ps->abs_corrected = true;
	if (!ps->start_timestamp || ps->start_timestamp == genesis)
		return;
	delta = (long long)(genesis - ps->start_timestamp);
	ps->abs_start.tv_sec += (time_t)((unsigned long long)delta / 1000000000ULL);
	ps->abs_start.tv_nsec += (long)((unsigned long long)delta % 1000000000ULL);
	if (ps->abs_start.tv_nsec < 0) {
		ps->abs_start.tv_nsec += 1000000000;
		ps->abs_start.tv_sec -= 1;
	} else if (ps->abs_start.tv_nsec > 1000000000) {
		ps->abs_start.tv_nsec -= 1000000000;
		ps->abs_start.tv_sec += 1;
	}
}

/* PROCESS / TIMESTAMP (and other non-message notes), when they are read */
static void note_now(void *ctx, const struct bs_record *rec, int dev)
{
	struct run *r = ctx;
	struct parse *ps = &r->ps;
	const struct bs_trace *t = &rec->t;

	(void)dev;
	if (t->action == BS_NOTE_PROCESS) {
		names_add(ps, t->pid, (const char *)rec->pdu, t->pdu_len < 16 ? t->pdu_len : 16);
	} else if (t->action == BS_NOTE_TIMESTAMP && t->pdu_len == 8) {
		uint32_t w[2];

		memcpy(w, rec->pdu, sizeof(w));
		if (rec->foreign) {
			w[0] = bs_swap32(w[0]);
			w[1] = bs_swap32(w[1]);
		}
		ps->start_timestamp = t->time;
		ps->abs_start.tv_sec = w[0];
		ps->abs_start.tv_nsec = w[1];
	}
	dump_record(r, t, rec->action_hi, rec->pdu);
}

static void on_note(void *ctx, const struct bs_record *rec, int dev)
{
	if (ptag_enabled())	/* through the tagging plugin first (parse_tags.c) */
		ptag_note(rec, dev);
	else
		note_now(ctx, rec, dev);
}

/* ---- per-event dispatch: blkparse's dump_trace_fs() / dump_trace_pc() ---- */

static void depth_up(struct ps_dev *d, int w)
{
	if (++d->cur_depth[w] > d->max_depth[w])
		d->max_depth[w] = d->cur_depth[w];
}

static void depth_down(struct ps_dev *d, int w)
{
	/* can happen if traces were lost: do not go below zero */
	if (d->cur_depth[w])
		d->cur_depth[w]--;
}

static void text_fs(struct parse *ps, struct ps_dev *d, struct ps_cpu *pci, int cpu, struct bs_trace *t,
		    const uint8_t *pdu)
{
	int w = (t->action & BS_TC_ACT(BS_TC_WRITE)) != 0;
	unsigned int act = t->action & 0xffff;	/* 1.2.0 keeps the cgroup bit here */
	unsigned long long el;

	switch (act) {
	case BS_TA_QUEUE:
		track_queue(ps, d, t);
		ps_account(ps, pci, ACCT_QUEUE, t, w);
		line_event(ps, "Q", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_INSERT:
		el = track_insert(ps, d, t);
		line_event(ps, "I", cpu, t, el, NULL, 0, pdu);
		break;
	case BS_TA_BACKMERGE:
		ps_account(ps, pci, ACCT_MERGE, t, w);
		line_event(ps, "M", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_FRONTMERGE:
		ps_account(ps, pci, ACCT_MERGE, t, w);
		track_frontmerge(ps, d, t);
		line_event(ps, "F", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_GETRQ:
		track_getrq(ps, d, t);
		line_event(ps, "G", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_SLEEPRQ:
		line_event(ps, "S", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_REQUEUE:
		depth_down(d, w);
		ps_account(ps, pci, ACCT_REQUEUE, t, w);
		line_event(ps, "R", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_ISSUE:
		ps_account(ps, pci, ACCT_ISSUE, t, w);
		depth_up(d, w);
		el = track_issue(ps, d, t);
		line_event(ps, "D", cpu, t, el, NULL, 0, pdu);
		break;
	case BS_TA_COMPLETE:
		depth_down(d, w);
		ps_account(ps, pci, ACCT_COMPLETE, t, w);
		el = track_complete(ps, d, t);
		line_event(ps, "C", cpu, t, el, NULL, 0, pdu);
		break;
	case BS_TA_PLUG:
		line_event(ps, "P", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_UNPLUG_IO:
		ps_account(ps, pci, ACCT_UNPLUG, t, w);
		line_event(ps, "U", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_UNPLUG_TIMER:
		ps_account(ps, pci, ACCT_UNPLUG_TIMER, t, w);
		line_event(ps, "UT", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_SPLIT:
		line_event(ps, "X", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_BOUNCE:
		line_event(ps, "B", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_REMAP:
		line_event(ps, "A", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_DRV_DATA:
		ps->have_drv_data = true;	/* binary output only */
		break;
	case BS_TA_ZONE_PLUG:
	case BS_TA_ZONE_UNPLUG:
		if (t->magic == BS_TRACE_MAGIC_V8) {	/* v8 only; blkparse 1.2.0 knows no 18/19 */
			line_event(ps, act == BS_TA_ZONE_PLUG ? "ZP" : "ZU", cpu, t, NO_ELAPSED, NULL, 0, pdu);
			break;
		}
		/* fall through */
	default:
		fprintf(stderr, "Bad fs action %x\n", t->action);
		break;
	}
}

static void text_pc(struct parse *ps, struct ps_dev *d, struct ps_cpu *pci, int cpu, struct bs_trace *t,
		    const uint8_t *pdu)
{
	int w = (t->action & BS_TC_ACT(BS_TC_WRITE)) != 0;
	unsigned int act = t->action & 0xffff;

	switch (act) {
	case BS_TA_QUEUE:
		line_event(ps, "Q", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		ps_account(ps, pci, ACCT_PC_QUEUE, t, w);
		break;
	case BS_TA_GETRQ:
		line_event(ps, "G", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_SLEEPRQ:
		line_event(ps, "S", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_REQUEUE:
		depth_down(d, w);
		ps_account(ps, pci, ACCT_PC_REQUEUE, t, w);
		line_event(ps, "R", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_ISSUE:
		ps_account(ps, pci, ACCT_PC_ISSUE, t, w);
		depth_up(d, w);
		line_event(ps, "D", cpu, t, NO_ELAPSED, pdu, t->pdu_len, pdu);
		break;
	case BS_TA_COMPLETE:
		depth_down(d, w);
		line_event(ps, "C", cpu, t, NO_ELAPSED, pdu, t->pdu_len, pdu);
		ps_account(ps, pci, ACCT_PC_COMPLETE, t, w);
		break;
	case BS_TA_INSERT:
		line_event(ps, "I", cpu, t, NO_ELAPSED, pdu, t->pdu_len, pdu);
		break;
	default:
		fprintf(stderr, "Bad pc action %x\n", act);
		break;
	}
}

/* blkparse's dump_trace(): text, event count, then the dump */
static void dump_trace(struct run *r, struct ps_dev *d, struct ps_cpu *pci, int cpu, struct bs_event *ev)
{
	struct parse *ps = &r->ps;
	struct bs_trace *t = &ev->t;

	ps->action_hi = ev->action_hi;
	if (ps->text) {
		size_t before = ps->out.len;

		if (t->action == BS_NOTE_MESSAGE)
			line_message(ps, t, ev->pdu);
		else if (t->action & BS_TC_ACT(BS_TC_PC))
			text_pc(ps, d, pci, cpu, t, ev->pdu);
		else
			text_fs(ps, d, pci, cpu, t, ev->pdu);
		if (ptag_enabled())
			ptag_mark_line(&ps->out, before);
	}
	if (!d->events)
		d->first_time = t->time;
	d->events++;
	if (ps->dump_msgs || t->action != BS_NOTE_MESSAGE)
		dump_record(r, t, ev->action_hi, ev->pdu);
}

/* stream mode: devices by dev_t, in order of appearance */
static struct ps_dev *stream_dev(struct run *r, uint32_t dev)
{
	struct parse *ps = &r->ps;
	struct ps_dev *d;

	if (r->last_pdi && r->last_dev == dev)
		return r->last_pdi;
	for (int i = 0; i < ps->ndevs; i++) {
		if (ps->devs[i].dev == dev) {
			r->last_dev = dev;
			return r->last_pdi = &ps->devs[i];
		}
	}
	d = realloc(ps->devs, (size_t)(ps->ndevs + 1) * sizeof(*d));
	if (!d) {
		fprintf(stderr, "blkscope parse: out of memory\n");
		exit(1);
	}
	ps->devs = d;
	d = &ps->devs[ps->ndevs++];
	memset(d, 0, sizeof(*d));
	d->dev = dev;
	r->last_dev = dev;
	return r->last_pdi = d;
}

/* One event of the merged stream; false = stop reading. */
static bool one_event(void *ctx, struct bs_event *ev)
{
	struct run *r = ctx;
	struct parse *ps = &r->ps;
	struct bs_trace *t = &ev->t;
	uint32_t mask = ps->act_mask << BS_TC_SHIFT;
	struct ps_dev *d;
	struct ps_cpu *pci;

	/* 1.2.0 corrects the TIMESTAMP base by genesis in pipe mode only */
	if (!ps->abs_corrected && !ps->file_mode)
		correct_abs_start(ps, bs_merge_genesis(r->merge));
	if (ps->file_mode) {
		d = &ps->devs[ev->dev];
		pci = ps_cpu_get(d, (unsigned int)ev->cpu);
		pci->nelems++;
		/* file mode stops at the first event past the window */
		if (t->time > ps->stop_end)
			return false;
		d->last_time = t->time;
		if ((t->action & mask) && t->time >= ps->stop_start)
			dump_trace(r, d, pci, ev->cpu, ev);
	} else {
		d = stream_dev(r, t->device);
		d->last_time = t->time;
		pci = ps_cpu_get(d, t->cpu);
		pci->nelems++;
		if (t->action & mask)
			dump_trace(r, d, pci, (int)t->cpu, ev);
	}
	return true;
}

static void run_events(struct run *r)
{
	struct bs_event ev;

	while (bs_merge_next(r->merge, &ev) == 1)
		if (ptag_enabled() ? !ptag_event(&ev) : !one_event(r, &ev))
			break;
}

/*
 * blkparse creates its per-device records when it READS a record, so a
 * device whose events all fell outside -w still gets a (zero) summary and
 * the summaries come in read order.  Put ours in that order.
 */
static void order_stream_devs(struct run *r)
{
	struct parse *ps = &r->ps;
	int n = bs_merge_devices(r->merge, NULL, 0);
	uint32_t *order = calloc((size_t)n + 1, sizeof(*order));
	struct ps_dev *sorted = calloc((size_t)(n + ps->ndevs) + 1, sizeof(*sorted));
	/* a flag, not a marker dev number: a damaged record may carry any dev */
	bool *taken = calloc((size_t)ps->ndevs + 1, sizeof(*taken));
	int k = 0;

	if (!order || !sorted || !taken) {
		free(order);
		free(sorted);
		free(taken);
		return;
	}
	bs_merge_devices(r->merge, order, n);
	for (int i = 0; i < n; i++) {
		int j;

		for (j = 0; j < ps->ndevs && (taken[j] || ps->devs[j].dev != order[i]); j++)
			;
		if (j < ps->ndevs) {
			sorted[k++] = ps->devs[j];
			taken[j] = true;
		} else {
			sorted[k].dev = order[i];
			k++;
		}
	}
	/* devices the merge did not list (cannot happen) keep their place at the end */
	for (int j = 0; j < ps->ndevs; j++)
		if (!taken[j])
			sorted[k++] = ps->devs[j];
	free(ps->devs);
	ps->devs = sorted;
	ps->ndevs = k;
	r->last_pdi = NULL;
	free(order);
	free(taken);
}

/* ---- options ---- */

/* beyond this many seconds the time in ns does not fit 64 bits */
#define STOPWATCH_MAX_SECS 1.8e10

static int parse_stopwatch(struct parse *ps, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg) {
		fprintf(stderr, "Invalid stopwatch timer: %s\n", arg);
		return 1;
	}
	if (!(v >= 0 && v < STOPWATCH_MAX_SECS)) {	/* keeps the ns conversion defined */
		fprintf(stderr, "Invalid stopwatch timer: %s\n", arg);
		return 1;
	}
	if (*end == ':') {
		const char *s = end + 1;

		ps->stop_start = (unsigned long long)(v * 1000000000);
		v = strtod(s, &end);
		if (end == s || *end || !(v >= 0 && v < STOPWATCH_MAX_SECS)) {
			fprintf(stderr, "Invalid stopwatch duration time: %s\n", s);
			return 1;
		}
	} else if (*end) {
		fprintf(stderr, "Invalid stopwatch start timer: %s\n", arg);
		return 1;
	}
	ps->stop_end = (unsigned long long)(v * 1000000000);
	if (ps->stop_end <= ps->stop_start) {
		fprintf(stderr, "Invalid stopwatch interval: %llu -> %llu\n",
			(unsigned long long)ps->stop_start, (unsigned long long)ps->stop_end);
		return 1;
	}
	return 0;
}

/* "Input file X added", with blkparse's spelling of the path */
static void note_inputs(struct run *r)
{
	for (int i = 0; i < r->in.ndevs; i++) {
		const struct bs_input_dev *dv = &r->in.devs[i];

		for (int c = 0; c < dv->ncpus; c++) {
			const char *path = dv->cpus[c].path;

			if (!strncmp(path, "./", 2) && !strchr(path + 2, '/'))
				path += 2;
			pout_printf(&r->added, "Input file %s added\n", path);
		}
	}
	/*
	 * On a terminal stdout is line buffered, so these come first; with
	 * "-d -" blkparse's dump shares that stdio stream, after these lines.
	 */
	if (isatty(STDOUT_FILENO) || (r->dump_name && !strcmp(r->dump_name, "-")))
		pout_flush(&r->added);
}

static int open_outputs(struct run *r)
{
	struct parse *ps = &r->ps;

	if (pout_init(&r->added, STDOUT_FILENO, "stdout") < 0)
		return -1;
	if (ps->text) {
		int fd = STDOUT_FILENO;

		if (r->output_name) {
			fd = open(r->output_name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
			if (fd < 0) {
				fprintf(stderr, "%s: %s\n", r->output_name, strerror(errno));
				return -1;
			}
		}
		if (pout_init(&ps->out, fd, r->output_name ? r->output_name : "stdout") < 0)
			return -1;
	}
	if (r->dump_name) {
		int fd = STDOUT_FILENO;

		if (strcmp(r->dump_name, "-")) {
			fd = bs_create_output(r->dump_name);
			if (fd < 0) {
				fprintf(stderr, "%s: %s\n", r->dump_name, strerror(errno));
				return -1;
			}
		}
		if (bs_writer_init(&r->dump, fd, r->dump_name) < 0)
			return -1;
		r->dumping = true;
	}
	return 0;
}

/* Options; returns 0 to go on, 1 to exit successfully (--help, -V), -1 on errors. */
static int parse_options(struct run *r, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "act-mask", required_argument, NULL, 'a' },
		{ "set-mask", required_argument, NULL, 'A' },
		{ "batch", required_argument, NULL, 'b' },
		{ "input-directory", required_argument, NULL, 'D' },
		{ "dump-binary", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "format-spec", required_argument, NULL, 'F' },
		{ "hash-by-name", no_argument, NULL, 'h' },
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "no-text-output", no_argument, NULL, 'O' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "per-program-stats", no_argument, NULL, 's' },
		{ "track-ios", no_argument, NULL, 't' },
		{ "stopwatch", required_argument, NULL, 'w' },
		{ "no-msgs", no_argument, NULL, 'M' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 1 },
		{ "tag-plugin", required_argument, NULL, PTAG_OPT_PLUGIN },
		{ "tag-timeout", required_argument, NULL, PTAG_OPT_TIMEOUT },
		{ 0 }
	};
	struct parse *ps = &r->ps;
	unsigned int mask_tmp = 0;
	int c;

	while ((c = getopt_long(argc, argv, "a:A:b:D:d:f:F:hi:o:Oqstw:vVM", opts, NULL)) != -1) {
		switch (c) {
		case 'a': {
			int bit = bs_mask_from_name(optarg);

			if (bit < 0) {
				fprintf(stderr, "Invalid action mask %s\n", optarg);
				return -1;
			}
			mask_tmp |= (unsigned int)bit;
			break;
		}
		case 'A': {
			unsigned int v = 0;

			if (sscanf(optarg, "%x", &v) != 1 || !v || v > 0xffff) {
				fprintf(stderr, "Invalid set action mask %s/0x%x\n", optarg, v);
				return -1;
			}
			mask_tmp = v;
			break;
		}
		case 'b':
			r->batch = (unsigned int)atoi(optarg);
			break;
		case 'D':
			r->input_dir = optarg;
			break;
		case 'd':
			r->dump_name = optarg;
			break;
		case 'f':
			fmt_set_all(ps, optarg);
			break;
		case 'F':
			if (fmt_set_one(ps, optarg))
				return -1;
			break;
		case 'h':
			ps->by_name = true;
			break;
		case 'i':
			if (r->ninputs < 256)
				r->inputs[r->ninputs++] = optarg;
			break;
		case 'o':
			r->output_name = optarg;
			break;
		case 'O':
			ps->text = false;
			break;
		case 'q':
			ps->dev_stats = false;
			break;
		case 's':
			ps->per_process = true;
			break;
		case 't':
			ps->track = true;
			break;
		case 'w':
			if (parse_stopwatch(ps, optarg))
				return -1;
			break;
		case 'M':
			ps->dump_msgs = false;
			break;
		case 'v':
			ps->verbose++;
			break;
		case 'V':
			printf("blkscope parse version %s (blkparse %s compatible)\n", BLKSCOPE_VERSION,
			       BLKPARSE_COMPAT);
			return 1;
		case 1:
			usage(stdout);
			return 1;
		case PTAG_OPT_PLUGIN:
		case PTAG_OPT_TIMEOUT:
			if (ptag_option(c, optarg))
				return -1;
			break;
		default:
			usage(stderr);
			return -1;
		}
	}
	while (optind < argc && r->ninputs < 256)
		r->inputs[r->ninputs++] = argv[optind++];
	if (!r->ninputs) {
		usage(stderr);
		return -1;
	}
	if (mask_tmp)
		ps->act_mask = mask_tmp;
	return 0;
}

/* Resolve the inputs; file mode gets one summary device per base name. */
static int setup_inputs(struct run *r)
{
	struct parse *ps = &r->ps;

	for (int i = 0; i < r->ninputs; i++)
		if (bs_input_add(&r->in, r->inputs[i], r->input_dir) < 0)
			return -1;
	ps->file_mode = !bs_input_is_stream(&r->in);
	if (!ps->file_mode && r->in.ndevs) {
		/* blkparse would read the stream and silently ignore the files */
		fprintf(stderr, "blkscope parse: %s: a stream input (dump, FIFO or -) cannot be mixed with per-CPU inputs\n",
			r->in.stream_path);
		return -1;
	}
	if (ps->file_mode) {
		ps->devs = calloc((size_t)r->in.ndevs, sizeof(*ps->devs));
		ps->ndevs = r->in.ndevs;
		for (int i = 0; i < r->in.ndevs; i++)
			ps->devs[i].name = r->in.devs[i].name;
	}
	return 0;
}

/* Statistics, the trailing stdout lines, closing; returns the exit status. */
static int finish(struct run *r)
{
	struct parse *ps = &r->ps;
	int ret = 0;

	ps_show_stats(ps, r->merge);
	/* blkparse lists skips while printing the device summaries */
	if (ps->verbose && !ps->file_mode && ps->text && ps->dev_stats)
		bs_merge_print_skips(r->merge, stderr);
	if (ps->text && pout_close(&ps->out) < 0)
		ret = 1;
	if (ps->have_drv_data && !r->dump_name)
		pout_printf(&r->added, "\ndiscarded traces containing low-level device driver "
				       "specific data (only available in binary output)\n");
	if (pout_close(&r->added) < 0)
		ret = 1;
	if (r->dump_name && bs_writer_close(&r->dump) < 0)
		ret = 1;
	bs_merge_close(r->merge);
	return ret;
}

int main(int argc, char **argv)
{
	struct run *r = calloc(1, sizeof(*r));
	struct bs_merge_opts mo = { 0 };
	struct parse *ps;
	bool tags_failed;
	int rc;

	if (!r)
		return 1;
	the_run = r;
	ps = &r->ps;
	ps->text = ps->dev_stats = ps->dump_msgs = true;
	ps->act_mask = 0xffff;
	ps->stop_end = ~0ULL;
	bs_set_progname("blkscope parse");

	rc = parse_options(r, argc, argv);
	if (rc)
		return rc < 0 ? 1 : 0;
	if (setup_inputs(r) < 0)
		return 1;
	names_init(ps);
	/* blkparse does this; "%'" groups thousands only if en_US exists */
	setlocale(LC_NUMERIC, "en_US");
	if (open_outputs(r) < 0)
		return 1;
	if (ps->file_mode)
		note_inputs(r);

	mo.batch = r->batch;
	mo.on_note = on_note;
	mo.ctx = r;
	if (!ps->file_mode) {
		mo.window_start = ps->stop_start;
		mo.window_end = ps->stop_end == ~0ULL ? 0 : ps->stop_end;
	}
	if (ptag_begin(note_now, one_event, r))	/* --tag-plugin (parse_tags.c) */
		return 1;
	r->merge = bs_merge_open(&r->in, &mo);
	if (!r->merge)
		return 1;
	run_events(r);
	tags_failed = ptag_end() < 0;
	if (!ps->file_mode)
		order_stream_devs(r);
	rc = finish(r);
	return tags_failed ? 1 : rc;
}
