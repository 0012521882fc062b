// SPDX-License-Identifier: GPL-2.0
/*
 * report_trigger.c - what made a flight recorder write this snapshot
 * (blkscope record --ring): each trigger note (docs/format.md, "The
 * trigger note") with, for a latency or error trigger, the I/O that fired
 * it as the model followed it (iom_trigger.c).  A block at the top of the
 * text report, a "triggers" array in the JSON, a banner in the HTML page
 * and a marker at the I/O's completion in its time charts.  Nothing at all
 * for a trace that is not a snapshot.
 *
 * The note's text comes from the trace: it is escaped for each output.
 */
#include <inttypes.h>
#include "bs_escape.h"
#include "iomodel/iom.h"
#include "report_priv.h"
#include "svg.h"

#define NS BS_NOT_SEEN
#define SHOWN 8		/* triggers listed in the text and HTML (every one in the JSON) */

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* "1.5ms", or "-" for a stage the model did not measure. */
static const char *stage_text(char *buf, size_t len, uint64_t ns)
{
	if (ns == NS)
		snprintf(buf, len, "-");
	else
		svg_fmt_ns(buf, len, (double)ns);
	return buf;
}

/* The trigger's one-line headline: "#1 write.D2C>50ms (latency) at 3.214560 s". */
static void headline(char *buf, size_t len, const struct iom_trigger *tr)
{
	char expr[BS_TRIGGER_EXPR_MAX * 4];

	bs_term_safe(expr, sizeof(expr), tr->note.expr);
	snprintf(buf, len, "#%u %s (%s) at %.6f s", tr->note.n, expr,
		 bs_trigger_kind_name(tr->note.kind), secs(tr->time));
}

/* What the note says about its I/O or its event; the second line of each trigger. */
static void what_fired(char *buf, size_t len, const struct iom_trigger *tr)
{
	const struct bs_trigger_note *n = &tr->note;
	char dev[32], rwbs[sizeof(n->rwbs) * 4], lat[32];

	bs_devname(n->device, dev, sizeof(dev));
	bs_term_safe(rwbs, sizeof(rwbs), n->rwbs);
	switch (n->kind) {
	case BS_TRIGGER_LATENCY:
		svg_fmt_ns(lat, sizeof(lat), (double)n->latency);
		snprintf(buf, len, "%s %" PRIu64 " + %u [%s]: the recorder measured %s", dev,
			 n->sector, n->bytes / 512, rwbs, lat);
		break;
	case BS_TRIGGER_ERROR:
		snprintf(buf, len, "%s %" PRIu64 " + %u [%s]: completed with error %d", dev,
			 n->sector, n->bytes / 512, rwbs, (int)(int16_t)n->error);
		break;
	case BS_TRIGGER_DROP:
		snprintf(buf, len, "%s: %" PRIu64 " events lost right before this point", dev,
			 n->lost);
		break;
	case BS_TRIGGER_SIGNAL:
		if (n->sender)
			snprintf(buf, len, "SIGUSR1 from pid %u", n->sender);
		else
			snprintf(buf, len, "SIGUSR1");
		break;
	default:
		snprintf(buf, len, "the recording stopped (--dump-on-exit)");
		break;
	}
}

/* The model's view of the I/O, or why there is none; "" when the trigger names no I/O. */
static void model_view(char *buf, size_t len, const struct iom_trigger *tr)
{
	const struct iom_trigger_io *io = &tr->io;
	char q2c[32], q2d[32], d2c[32];

	buf[0] = '\0';
	if (!tr->note.has_io ||
	    (tr->note.kind != BS_TRIGGER_LATENCY && tr->note.kind != BS_TRIGGER_ERROR))
		return;
	if (!tr->found) {
		snprintf(buf, len,
			 "not among this trace's I/Os: its Q came before the snapshot's window");
		return;
	}
	snprintf(buf, len,
		 "the %s I/O at %" PRIu64
		 " + %u queued at %.6f s by pid %u: Q2C %s = Q2D %s + D2C %s%s%s",
		 report_op_names[io->op < BS_OP_COUNT ? io->op : BS_OP_OTHER], io->sector,
		 io->bytes / 512, secs(io->t_q), io->pid, stage_text(q2c, sizeof(q2c), io->q2c),
		 stage_text(q2d, sizeof(q2d), io->q2d), stage_text(d2c, sizeof(d2c), io->d2c),
		 io->status == BS_IO_OPEN ? " (never completed)" : "",
		 io->flags & BS_IO_LOSS ? " (touched by lost events: in no latency figure)" : "");
}

void report_triggers_text(const struct iom_health *h, FILE *out)
{
	char a[512], b[512], c[512];
	uint32_t i;

	if (!h || !h->ntriggers)
		return;
	fprintf(out, "==================== Snapshot Trigger ====================\n\n");
	fprintf(out,
		"A flight-recorder snapshot: %" PRIu64
		" trigger%s fired in its window; the first opened it.\n\n",
		h->ntriggers + h->triggers_more, h->ntriggers + h->triggers_more == 1 ? "" : "s");
	for (i = 0; i < h->ntriggers && i < SHOWN; i++) {
		headline(a, sizeof(a), &h->triggers[i]);
		what_fired(b, sizeof(b), &h->triggers[i]);
		model_view(c, sizeof(c), &h->triggers[i]);
		fprintf(out, "%s\n  %s\n", a, b);
		if (c[0])
			fprintf(out, "  this analysis: %s\n", c);
	}
	if (h->ntriggers > SHOWN || h->triggers_more)
		fprintf(out, "... and %" PRIu64 " more (the first %d in the JSON report)\n",
			h->ntriggers - i + h->triggers_more, IOM_MAX_TRIGGERS);
	fputc('\n', out);
}

void report_triggers_html(const struct iom_health *h, FILE *out)
{
	char a[512], b[512], c[512];
	uint32_t i;

	if (!h || !h->ntriggers)
		return;
	fputs("<div class=\"trigger\" id=\"trigger\"><h2>Flight-recorder snapshot</h2><ul>\n", out);
	for (i = 0; i < h->ntriggers && i < SHOWN; i++) {
		headline(a, sizeof(a), &h->triggers[i]);
		what_fired(b, sizeof(b), &h->triggers[i]);
		model_view(c, sizeof(c), &h->triggers[i]);
		fprintf(out, "<li data-trigger=\"%u\" data-time-ns=\"%" PRIu64 "\"><b>",
			h->triggers[i].note.n, h->triggers[i].time);
		bs_xml_text(out, a);
		fputs("</b>: ", out);
		bs_xml_text(out, b);
		if (c[0]) {
			fputs("<br>this analysis: ", out);
			bs_xml_text(out, c);
		}
		fputs("</li>\n", out);
	}
	if (h->ntriggers > SHOWN || h->triggers_more)
		fprintf(out, "<li>... and %" PRIu64 " more (the first %d in --json)</li>\n",
			h->ntriggers - i + h->triggers_more, IOM_MAX_TRIGGERS);
	fputs("</ul><p class=note>Time charts mark each trigger with a red line.</p></div>\n", out);
}

static void json_ns(FILE *f, const char *key, uint64_t ns)
{
	if (ns == NS)
		fprintf(f, ",\"%s\":null", key);
	else
		fprintf(f, ",\"%s\":%" PRIu64, key, ns);
}

static void io_json(FILE *f, const struct iom_trigger *tr)
{
	const struct iom_trigger_io *io = &tr->io;

	if (!tr->found) {
		fputs("null", f);
		return;
	}
	fprintf(f,
		"{\"sector\":%" PRIu64
		",\"bytes\":%u,\"op\":\"%s\",\"pid\":%u,\"status\":\"%s\",\"lossy\":%s",
		io->sector, io->bytes, report_op_names[io->op < BS_OP_COUNT ? io->op : BS_OP_OTHER],
		io->pid, io->status == BS_IO_OPEN ? "open" : "complete",
		io->flags & BS_IO_LOSS ? "true" : "false");
	json_ns(f, "q_ns", io->t_q);
	json_ns(f, "d_ns", io->t_d);
	json_ns(f, "c_ns", io->t_c);
	json_ns(f, "q2c_ns", io->q2c);
	json_ns(f, "q2d_ns", io->q2d);
	json_ns(f, "d2c_ns", io->d2c);
	fputc('}', f);
}

void report_triggers_json(const struct iom_health *h, FILE *f)
{
	uint32_t i;
	char dev[32];

	fputs("\"triggers\":[", f);
	for (i = 0; h && i < h->ntriggers; i++) {
		const struct iom_trigger *tr = &h->triggers[i];
		const struct bs_trigger_note *n = &tr->note;

		fprintf(f, "%s{\"n\":%u,\"kind\":\"%s\",\"expr\":", i ? "," : "", n->n,
			bs_trigger_kind_name(n->kind));
		bs_json_string(f, n->expr);
		fprintf(f, ",\"time_ns\":%" PRIu64, tr->time);
		if (n->has_io) {
			bs_devname(n->device, dev, sizeof(dev));
			fprintf(f,
				",\"device\":\"%s\",\"sector\":%" PRIu64 ",\"bytes\":%u,\"rwbs\":",
				dev, n->sector, n->bytes);
			bs_json_string(f, n->rwbs);
		}
		if (n->kind == BS_TRIGGER_LATENCY)
			fprintf(f, ",\"latency_ns\":%" PRIu64, n->latency);
		if (n->kind == BS_TRIGGER_ERROR)
			fprintf(f, ",\"error\":%d", (int)(int16_t)n->error);
		if (n->kind == BS_TRIGGER_DROP)
			fprintf(f, ",\"lost\":%" PRIu64, n->lost);
		if (n->kind == BS_TRIGGER_SIGNAL)
			fprintf(f, ",\"sender\":%u", n->sender);
		if (n->kind == BS_TRIGGER_LATENCY || n->kind == BS_TRIGGER_ERROR) {
			fputs(",\"io\":", f);
			io_json(f, tr);
		}
		fputc('}', f);
	}
	fprintf(f, "],\"triggers_more\":%" PRIu64, h ? h->triggers_more : 0);
}
