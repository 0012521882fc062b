// SPDX-License-Identifier: GPL-2.0
/*
 * report_health.c - the trace's health where the reader looks: a block at
 * the top of the text report, a banner at the top of the HTML page, the
 * "health" object of the JSON (docs/json-schema.md), whenever events were
 * lost, an input is damaged or cut short, or I/O is unaccounted for.  A
 * report built on such input must never look clean.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "bs_devname.h"
#include "bs_escape.h"
#include "iomodel/iom.h"
#include "report_priv.h"

static double mb(uint64_t bytes)
{
	return (double)bytes / 1e6;
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

static void add(struct report_findings *f, const char *fmt, ...)
{
	va_list ap;

	if (f->n == REPORT_MAX_FINDINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(f->line[f->n++], sizeof(f->line[0]), fmt, ap);
	va_end(ap);
}

/* The latest last event of the streams: where the trace ends. */
static uint64_t trace_end(const struct iom_health *h)
{
	uint64_t end = 0;
	uint32_t i;

	for (i = 0; i < h->ncpus; i++)
		if (h->cpus[i].last_time > end)
			end = h->cpus[i].last_time;
	return end;
}

static void cut_lines(const struct iom_health *h, struct report_findings *f)
{
	uint64_t end = trace_end(h);
	char dev[32];
	uint32_t i;

	for (i = 0; i < h->ncpus; i++) {
		const struct iom_cpu_cover *c = &h->cpus[i];

		if (!iom_cover_cut(h, c))
			continue;
		bs_devname(c->device, dev, sizeof(dev));
		add(f,
		    "CUT SHORT: device %s, CPU %u: its file has no end note from the recorder and "
		    "ends at %.6f s, the trace at %.6f s: its events after that are missing",
		    dev, c->cpu, secs(c->last_time), secs(end));
	}
}

void report_health_findings(const struct iom_health *h, struct report_findings *f)
{
	f->n = 0;
	if (!h)
		return;
	if (h->lost_events)
		add(f,
		    "LOST EVENTS: %" PRIu64
		    " events were lost (sequence gaps and the recorder's own "
		    "count): %" PRIu64
		    " I/Os (%.3f MB) whose life overlapped a loss are counted but in no "
		    "latency figure",
		    h->lost_events, h->loss.ios, mb(h->loss.bytes));
	else if (h->loss.ios)
		add(f,
		    "LOST EVENTS: %" PRIu64
		    " I/Os (%.3f MB) may have lost events: counted but in no "
		    "latency figure",
		    h->loss.ios, mb(h->loss.bytes));
	if (h->damaged && h->cut)
		add(f,
		    "CUT SHORT: %s ends at %.6f s without the recorder's end note, the other files "
		    "go on: "
		    "the per-I/O figures stop there; %" PRIu64
		    " later events of the other files are not in "
		    "them (btt's sections read every file to its end)",
		    h->damage_file, secs(h->damage_time), h->after_damage);
	else if (h->damaged)
		add(f,
		    "DAMAGED INPUT: %s is damaged at byte %" PRIu64
		    " (its last good event at %.6f s): "
		    "the per-I/O figures stop there; %" PRIu64
		    " later events of the other files are "
		    "not in them (btt's sections read every file to its end or its damage)",
		    h->damage_file, h->damage_offset, secs(h->damage_time), h->after_damage);
	/* else said above; these: files the probe could not read (compressed) */
	if (!h->damaged)
		cut_lines(h, f);
	if (h->open_stale.ios)
		add(f,
		    "NEVER COMPLETED: %" PRIu64
		    " I/Os (%.3f MB) queued more than 1 s before the end "
		    "of the trace have no completion",
		    h->open_stale.ios, mb(h->open_stale.bytes));
	if (h->c_unmatched.late || h->d_unmatched.late || h->other_unmatched.late)
		add(f, "UNMATCHED: %" PRIu64 " completions, %" PRIu64 " dispatches and %" PRIu64
		    " other events past the first second belong to no I/O seen queued (events lost "
		    "without a trace of it, or a trace not from the kernel)", h->c_unmatched.late,
		    h->d_unmatched.late, h->other_unmatched.late);
	if (h->evicted)
		add(f,
		    "GIVEN UP: %" PRIu64
		    " I/Os were given up unfinished: more than %u were in flight at "
		    "once (no disk holds that many: completions were lost, or the trace is "
		    "crafted)",
		    h->evicted, 1u << 18);
	if (h->superseded)
		add(f,
		    "SUPERSEDED: %" PRIu64 " bios were given up: more than %d waited at one sector",
		    h->superseded, 64);
}

/* One stream's coverage row (text). */
static void cover_row(FILE *out, const struct iom_health *h, const struct iom_cpu_cover *c)
{
	char dev[32];

	bs_devname(c->device, dev, sizeof(dev));
	fprintf(out,
		"  %-9s cpu %-4u %12.6f - %12.6f s %12" PRIu64 " events  %6" PRIu64
		" gaps (%" PRIu64 " missing)",
		dev, c->cpu, secs(c->first_time), secs(c->last_time), c->events, c->gaps,
		c->missing);
	if (c->end_note)
		fprintf(out, "  recorder: %" PRIu64 " dropped", c->rec_drops);
	else if (iom_cover_cut(h, c))
		fprintf(out, "  NO END NOTE");
	fputc('\n', out);
}

void report_health_text(const struct iom_health *h, FILE *out)
{
	struct report_findings f;
	uint32_t i;

	report_health_findings(h, &f);
	if (!f.n)
		return;
	fprintf(out, "==================== Trace Health: NOT CLEAN ====================\n\n");
	for (i = 0; i < f.n; i++)
		fprintf(out, "%s\n", f.line[i]);
	fprintf(out, "\nWhat each CPU's file of each device covers:\n");
	for (i = 0; i < h->ncpus && i < 64; i++)
		cover_row(out, h, &h->cpus[i]);
	if (h->ncpus > 64)
		fprintf(out, "  ... and %u more (every one in the JSON report's health object)\n",
			h->ncpus - 64);
	fputc('\n', out);
}

void report_health_html(const struct iom_health *h, FILE *out)
{
	struct report_findings f;
	uint32_t i;

	report_health_findings(h, &f);
	if (!f.n)
		return;
	fprintf(out, "<div class=\"health\" role=\"alert\"><h2>This trace is not clean</h2><ul>\n");
	for (i = 0; i < f.n; i++) {
		fputs("<li>", out);
		bs_xml_text(out, f.line[i]);
		fputs("</li>\n", out);
	}
	fprintf(out, "</ul></div>\n");
}

static void tally_json(FILE *f, const char *key, const struct iom_tally *t)
{
	fprintf(f, "\"%s\":{\"ios\":%" PRIu64 ",\"bytes\":%" PRIu64 "}", key, t->ios, t->bytes);
}

static void unmatched_json(FILE *f, const char *key, const struct iom_unmatched *u)
{
	fprintf(f, "\"%s\":{\"n\":%" PRIu64 ",\"late\":%" PRIu64 "}", key, u->n, u->late);
}

static void streams_json(const struct iom_health *h, FILE *f)
{
	char dev[32];
	uint32_t i;

	fputs("\"streams\":[", f);
	for (i = 0; i < h->ncpus; i++) {
		const struct iom_cpu_cover *c = &h->cpus[i];

		bs_devname(c->device, dev, sizeof(dev));
		fprintf(f,
			"%s{\"device\":\"%s\",\"cpu\":%u,\"events\":%" PRIu64
			",\"first_ns\":%" PRIu64 ",\"last_ns\":%" PRIu64
			",\"sequence_gaps\":%" PRIu64 ",\"sequence_missing\":%" PRIu64
			",\"end_note\":%s,\"cut_short\":%s",
			i ? "," : "", dev, c->cpu, c->events, c->first_time, c->last_time, c->gaps,
			c->missing, c->end_note ? "true" : "false",
			iom_cover_cut(h, c) ? "true" : "false");
		if (c->end_note)
			fprintf(f, ",\"recorder_events\":%" PRIu64 ",\"recorder_drops\":%" PRIu64,
				c->rec_events, c->rec_drops);
		fputc('}', f);
	}
	fputc(']', f);
}

void report_health_json(const struct iom_health *h, uint64_t btt_open, FILE *f)
{
	struct report_findings fl;
	uint32_t i;

	report_health_findings(h, &fl);
	fprintf(f, "\"health\":{\"clean\":%s,\"findings\":[", fl.n ? "false" : "true");
	for (i = 0; i < fl.n; i++) {
		if (i)
			fputc(',', f);
		bs_json_string(f, fl.line[i]);
	}
	fprintf(f, "],\"lost_events\":%" PRIu64 ",\"damage\":", h->lost_events);
	if (h->damaged) {
		fputs("{\"file\":", f);
		bs_json_string(f, h->damage_file);
		fprintf(f,
			",\"kind\":\"%s\",\"offset\":%" PRIu64 ",\"last_good_ns\":%" PRIu64
			",\"events_after\":%" PRIu64 "}",
			h->cut ? "cut short" : "damaged", h->damage_offset, h->damage_time,
			h->after_damage);
	} else {
		fputs("null", f);
	}
	fputs(",\"ios\":{", f);
	tally_json(f, "complete", &h->done);
	fputc(',', f);
	tally_json(f, "open", &h->open);
	fputc(',', f);
	tally_json(f, "open_stale", &h->open_stale);
	fputc(',', f);
	tally_json(f, "lossy", &h->loss);
	fputc(',', f);
	tally_json(f, "split", &h->split);
	fputs("},\"unmatched\":{", f);
	unmatched_json(f, "completions", &h->c_unmatched);
	fputc(',', f);
	unmatched_json(f, "dispatches", &h->d_unmatched);
	fputc(',', f);
	unmatched_json(f, "other", &h->other_unmatched);
	fprintf(f,
		"},\"negative_stages\":%" PRIu64 ",\"superseded\":%" PRIu64 ",\"evicted\":%" PRIu64
		",\"flush_requests\":%" PRIu64 ",\"passthrough\":%" PRIu64
		",\"btt_never_completed\":%" PRIu64 ",",
		h->negative_stages, h->superseded, h->evicted, h->flush_requests, h->passthrough,
		btt_open);
	streams_json(h, f);
	fputc('}', f);
}

/* One line where btt's sections and the per-I/O ones part ways (text report). */
void report_btt_differs(const struct iom_health *h, uint64_t btt_open, FILE *out)
{
	if (!btt_open)
		return;
	fprintf(out, "btt's sections above: %" PRIu64 " queued bios btt never saw complete",
		btt_open);
	if (h && h->split.ios)
		fprintf(out,
			" (%" PRIu64
			" bios here were split: btt completes a bio only with a C whose "
			"range holds all of it; docs/analyze.md, \"btt's model and ours\")",
			h->split.ios);
	fprintf(out, "; the sections below complete every I/O whose completions were seen.\n\n");
}
