// SPDX-License-Identifier: GPL-2.0
/*
 * report_attr_out.c - who caused the I/O, written (report_attr.h): the
 * text section (files by bytes with a row per operation, the top code
 * paths), the JSON members "attribution", "files" and "stacks", the CSV
 * table files.csv, the HTML tables, and --folded (flamegraph.pl and
 * speedscope's folded stacks).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_escape.h"
#include "bs_stream.h"
#include "report_priv.h"

#define TEXT_FILES	20	/* files in the text report */
#define HTML_FILES	50
#define TOP_STACKS	10	/* code paths in the text report */
#define JSON_STACKS	1000	/* stacks in --json (the rest: --folded) */
#define FRAMES_MAX	(2 * BS_NAMES_FRAMES_MAX + 4)

/* "cache+direct": the classes a file's I/O had */
static void classes_text(uint16_t mask, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int c;

	buf[0] = 0;
	for (c = 0; c < BS_FC_COUNT; c++)
		if (mask & (1u << c))
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? "+" : "",
					      bs_fclass_name(c));
}

static void attribution_line(const struct bs_report *r, FILE *out)
{
	const struct attr_stats *st = &r->attr_stats;
	const struct bs_names_counts *c = &r->attr.dict->counts;

	fprintf(out, "%" PRIu64 " I/Os matched their attribution record", st->matched);
	if (st->unmatched)
		fprintf(out, ", %" PRIu64 " had none", st->unmatched);
	if (c->lost)
		fprintf(out, " (the recorder lost %" PRIu64 ": its ring was full)", c->lost);
	if (st->damaged)
		fprintf(out, "; %u side file(s) damaged, read up to the damage", st->damaged);
	fputs(".\n", out);
	if (c->kstack_lost || c->ustack_lost)
		fprintf(out,
			"The recorder's stack tables were full: %" PRIu64 " kernel and %" PRIu64
			" user stacks were not stored (record --stack-entries).\n",
			c->kstack_lost, c->ustack_lost);
	if (c->files_over)
		fprintf(out,
			"%" PRIu64 " I/Os were of files past the recorder's table: class only.\n",
			c->files_over);
	if (r->have_attr_stats && !st->matched && (st->unmatched || st->skipped))
		fprintf(out,
			"Warning: no Q of the trace matches its attribution files: are they from "
			"another recording of the same name?\n");
}

/* ---- text ---- */

static void files_text(struct bs_report *r, FILE *out)
{
	struct report_attr *ra = &r->attr;
	struct file_row **v = report_attr_rows_sorted(ra);
	char name[4200], safe[4200], cls[96], opn[32];
	size_t i, nfiles = 0;
	unsigned int k;

	fprintf(out,
		"==================== Files (record --files; latencies in µs) "
		"====================\n\n");
	fprintf(out,
		"Paths are as the recorder found them when it first saw each file; rows by "
		"bytes.\n");
	report_text_row_head(out, "FILE / OP");
	for (i = 0; i < ra->nrows && i < TEXT_FILES; i++) {
		classes_text(v[i]->classes, cls, sizeof(cls));
		bs_term_safe(safe, sizeof(safe),
			     report_attr_row_name(ra, v[i], name, sizeof(name)));
		fprintf(out, "%s%s%s%s\n", safe, v[i]->file ? "  [" : "", v[i]->file ? cls : "",
			v[i]->file ? "]" : "");
		for (k = 0; k < v[i]->nops; k++) {
			snprintf(opn, sizeof(opn), "  %s", report_op_names[v[i]->ops[k].op]);
			report_text_row(out, opn, &v[i]->ops[k].set);
		}
	}
	for (i = 0; i < ra->nrows; i++)
		nfiles += ra->rows[i].file != 0;
	if (ra->nrows > TEXT_FILES)
		fprintf(out, "... %zu more rows (see --json or --csv)\n", ra->nrows - TEXT_FILES);
	fprintf(out, "(%zu files; I/O of no file is in its class's row)\n\n", nfiles);
	free(v);
}

static int by_ios(const void *a, const void *b)
{
	const struct stack_weight *x = *(struct stack_weight *const *)a,
				  *y = *(struct stack_weight *const *)b;

	if (x->ios != y->ios)
		return x->ios < y->ios ? 1 : -1;
	if (x->comm != y->comm)
		return x->comm < y->comm ? -1 : 1;
	if (x->why != y->why)
		return x->why < y->why ? -1 : 1;
	return x->stack < y->stack ? -1 : x->stack > y->stack;
}

static struct stack_weight **weights_sorted(const struct report_attr *ra)
{
	struct stack_weight **v = bs_xcalloc(ra->nsw + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < ra->nsw; i++)
		v[i] = &ra->sw[i];
	if (ra->nsw)
		qsort(v, ra->nsw, sizeof(*v), by_ios);
	return v;
}

/* One code path on one line, root first: the process, every user frame, the kernel's ends. */
static void path_line(const struct report_attr *ra, const struct stack_weight *w, FILE *out)
{
	const char *fr[FRAMES_MAX];
	size_t n = report_attr_folded_frames(ra, w, fr, FRAMES_MAX), i;
	const struct attr_stack *st = attr_stack(ra->dict, w->stack);
	size_t nk = st ? st->nkernel : 0, user_end = n - nk;

	fputs("    ", out);
	for (i = 0; i < n; i++) {
		/*
		 * the kernel part: its first two frames (the entry) and last three (the submission)
		 */
		if (i >= user_end + 2 && i + 3 < n) {
			if (i == user_end + 2)
				fputs(" > ...", out);
			continue;
		}
		if (i)
			fputs(" > ", out);
		bs_term_text(out, fr[i]);
	}
	fputc('\n', out);
}

static void stacks_text(struct bs_report *r, FILE *out)
{
	struct report_attr *ra = &r->attr;
	struct stack_weight **v = weights_sorted(ra);
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < ra->nsw; i++)
		total += ra->sw[i].ios;
	fprintf(out,
		"==================== Code paths (record --stacks), top %d by I/Os "
		"====================\n\n",
		TOP_STACKS);
	fprintf(out,
		"Root first: process > user frames > kernel frames (--folded FILE writes them "
		"all).\n");
	for (i = 0; i < ra->nsw && i < TOP_STACKS; i++) {
		fprintf(out, "%10" PRIu64 " I/Os %5.1f%% %10.3f MB\n", v[i]->ios,
			total ? 100.0 * (double)v[i]->ios / (double)total : 0.0,
			(double)v[i]->bytes / 1e6);
		path_line(ra, v[i], out);
	}
	if (ra->nsw > TOP_STACKS)
		fprintf(out, "... %zu more (process, stack) pairs\n", ra->nsw - TOP_STACKS);
	fputc('\n', out);
	free(v);
}

void report_attr_text(struct bs_report *r, FILE *out)
{
	if (!r->attr.dict)
		return;
	if (r->attr.files_on)
		files_text(r, out);
	if (r->attr.stacks_on)
		stacks_text(r, out);
	if (r->attr.files_on || r->attr.stacks_on)
		attribution_line(r, out);
	fputc('\n', out);
}

/* ---- JSON ---- */

static void json_file(struct bs_report *r, const struct file_row *row, FILE *f)
{
	const struct attr_file *fi = attr_file(r->attr.dict, row->file);
	char name[4200];
	unsigned int c, k, n = 0;

	fputs("{\"name\":", f);
	bs_json_string(f, report_attr_row_name(&r->attr, row, name, sizeof(name)));
	fputs(",\"path\":", f);
	if (fi && !(fi->flags & BS_NF_NO_PATH))
		bs_json_string(f, fi->path);
	else
		fputs("null", f);
	fputs(",\"classes\":[", f);
	for (c = 0; c < BS_FC_COUNT; c++)
		if (row->classes & (1u << c))
			fprintf(f, "%s\"%s\"", n++ ? "," : "", bs_fclass_name(c));
	if (fi)
		fprintf(f,
			"],\"device\":\"%u,%u\",\"inode\":%" PRIu64
			",\"generation\":%u,\"deleted\":%s,",
			fi->fdev >> 20, fi->fdev & 0xfffff, fi->ino, fi->gen,
			fi->flags & BS_NF_DELETED ? "true" : "false");
	else
		fputs("],\"device\":null,\"inode\":null,\"generation\":null,\"deleted\":false,", f);
	fputs("\"operations\":[", f);
	for (k = 0; k < row->nops; k++) {
		fprintf(f, "%s{\"op\":\"%s\",", k ? "," : "", report_op_names[row->ops[k].op]);
		report_json_slice(f, &row->ops[k].set);
		fputc('}', f);
	}
	fputs("]}", f);
}

static void json_stack(const struct report_attr *ra, const struct stack_weight *w, FILE *f)
{
	const char *fr[FRAMES_MAX];
	size_t n = report_attr_folded_frames(ra, w, fr, FRAMES_MAX), i;
	const struct attr_stack *st = attr_stack(ra->dict, w->stack);

	fputs("{\"process\":", f);
	bs_json_string(f, ra->comms[w->comm]);
	fprintf(f,
		",\"stack\":%u,\"ios\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"q2c_ns\":%" PRIu64
		",\"d2c_ns\":%" PRIu64
		",\"kernel_frames\":%u,\"user_frames\":%u,\"user_cut\":%s,\"frames\":[",
		w->stack, w->ios, w->bytes, w->q2c, w->d2c, st ? st->nkernel : 0,
		st ? st->nuser : 0, st && (st->flags & BS_NS_USER_SHORT) ? "true" : "false");
	for (i = 1; i < n; i++) {	/* the process is its own member */
		if (i > 1)
			fputc(',', f);
		bs_json_string(f, fr[i]);
	}
	fputs("]}", f);
}

void report_attr_json(struct bs_report *r, FILE *f)
{
	struct report_attr *ra = &r->attr;
	const struct bs_names_counts *c;
	const struct attr_stats *st = &r->attr_stats;
	size_t i;

	if (!ra->dict)
		return;
	c = &ra->dict->counts;
	fprintf(f,
		",\n\"attribution\":{\"files\":%s,\"stacks\":%s,\"matched\":%" PRIu64
		",\"unmatched\":%" PRIu64 ",\"skipped\":%" PRIu64
		",\"side_files\":%u,\"damaged\":%u,\"recorder\":{\"qs\":%" PRIu64
		",\"lost\":%" PRIu64 ",\"kstack_lost\":%" PRIu64 ",\"ustack_lost\":%" PRIu64
		",\"files\":%" PRIu64 ",\"files_no_path\":%" PRIu64 ",\"files_over\":%" PRIu64
		",\"stacks\":%" PRIu64 "}}",
		ra->files_on ? "true" : "false", ra->stacks_on ? "true" : "false", st->matched,
		st->unmatched, st->skipped, st->files, st->damaged, c->qs, c->lost, c->kstack_lost,
		c->ustack_lost, c->files, c->files_no_path, c->files_over, c->stacks);
	if (ra->files_on) {
		struct file_row **v = report_attr_rows_sorted(ra);

		fputs(",\n\"files\":[", f);
		for (i = 0; i < ra->nrows; i++) {
			if (i)
				fputs(",\n", f);
			json_file(r, v[i], f);
		}
		fputc(']', f);
		free(v);
	}
	if (ra->stacks_on) {
		struct stack_weight **v = weights_sorted(ra);

		fputs(",\n\"stacks\":[", f);
		for (i = 0; i < ra->nsw && i < JSON_STACKS; i++) {
			if (i)
				fputs(",\n", f);
			json_stack(ra, v[i], f);
		}
		fputc(']', f);
		free(v);
	}
}

/* ---- CSV ---- */

static void csv_ns(FILE *f, const struct sketch *sk, uint32_t ppm)
{
	if (sk->n)
		fprintf(f, ",%" PRIu64, ppm == 1000000 ? sk->max : sketch_quantile(sk, ppm));
	else
		fputc(',', f);
}

int report_attr_csv(struct bs_report *r, const char *dir)
{
	struct report_attr *ra = &r->attr;
	struct file_row **v;
	char path[4096], name[4200], cls[96];
	FILE *f;
	size_t i;
	unsigned int k;

	if (!ra->files_on)
		return 0;
	snprintf(path, sizeof(path), "%s/files.csv", dir);
	f = report_create_file(path, r->create_flags, &r->msg);
	if (!f)
		return -1;
	fputs("name,path,classes,device,inode,generation,deleted,op,ios,completed,bytes,q2c_p50_ns,"
	      "q2c_p99_ns,"
	      "q2c_max_ns,d2c_p50_ns,d2c_p99_ns,d2c_max_ns\n",
	      f);
	v = report_attr_rows_sorted(ra);
	for (i = 0; i < ra->nrows; i++) {
		const struct attr_file *fi = attr_file(ra->dict, v[i]->file);

		classes_text(v[i]->classes, cls, sizeof(cls));
		for (k = 0; k < v[i]->nops; k++) {
			struct sketch one[BS_ST_COUNT];
			const struct report_lat *ls = &v[i]->ops[k].set;
			const struct sketch *st = report_lat_stages(ls, one);

			bs_csv_field(f, report_attr_row_name(ra, v[i], name, sizeof(name)));
			fputc(',', f);
			if (fi && !(fi->flags & BS_NF_NO_PATH))
				bs_csv_field(f, fi->path);
			fprintf(f, ",%s,", cls);
			if (fi)
				fprintf(f, "\"%u,%u\",%" PRIu64 ",%u,%d", fi->fdev >> 20,
					fi->fdev & 0xfffff, fi->ino, fi->gen,
					!!(fi->flags & BS_NF_DELETED));
			else
				fputs(",,,0", f);
			fprintf(f, ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64,
				report_op_names[v[i]->ops[k].op], ls->ios, ls->completed,
				ls->bytes);
			csv_ns(f, &st[BS_ST_Q2C], 500000);
			csv_ns(f, &st[BS_ST_Q2C], 990000);
			csv_ns(f, &st[BS_ST_Q2C], 1000000);
			csv_ns(f, &st[BS_ST_D2C], 500000);
			csv_ns(f, &st[BS_ST_D2C], 990000);
			csv_ns(f, &st[BS_ST_D2C], 1000000);
			fputc('\n', f);
		}
	}
	free(v);
	return report_close_file(f, path, &r->msg);
}

/* ---- HTML ---- */

void report_attr_html(struct bs_report *r, FILE *f)
{
	struct report_attr *ra = &r->attr;
	char name[4200], opn[32];
	size_t i;
	unsigned int k;

	if (!ra->dict)
		return;
	if (ra->stacks_on) {
		fputs("<h2>Where the I/O comes from (record --stacks)</h2>\n", f);
		svg_flame(ra, f);
	}
	if (ra->files_on) {
		struct file_row **v = report_attr_rows_sorted(ra);

		fputs("<h2>By file (record --files; paths as first seen)</h2>\n", f);
		report_html_row_head(f, "file / op");
		for (i = 0; i < ra->nrows && i < HTML_FILES; i++) {
			fputs("<tr><th style=\"text-align:left\" colspan=12>", f);
			bs_xml_text(f, report_attr_row_name(ra, v[i], name, sizeof(name)));
			fputs("</th></tr>\n", f);
			for (k = 0; k < v[i]->nops; k++) {
				snprintf(opn, sizeof(opn), "%s", report_op_names[v[i]->ops[k].op]);
				report_html_row(f, opn, NULL, &v[i]->ops[k].set);
			}
		}
		fputs("</table></div>\n", f);
		if (ra->nrows > HTML_FILES)
			fprintf(f, "<p class=note>%zu more files: see --json or --csv.</p>\n",
				ra->nrows - HTML_FILES);
		free(v);
	}
}

/* ---- --folded ---- */

/* A frame as a folded-stack field: ';' separates frames and a newline lines: neither inside one. */
static void folded_frame(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' ? ':' : (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

int report_attr_folded(struct bs_report *r)
{
	struct report_attr *ra = &r->attr;
	const char *path = ra->folded_path, *fr[FRAMES_MAX];
	struct stack_weight **v;
	FILE *f;
	size_t i, n, k;

	f = report_create_file(path, r->create_flags, &r->msg);
	if (!f)
		return -1;
	v = weights_sorted(ra);
	for (i = 0; i < ra->nsw; i++) {
		uint64_t w = report_attr_weight(v[i], ra->folded_weight);

		if (!w)
			continue;
		n = report_attr_folded_frames(ra, v[i], fr, FRAMES_MAX);
		for (k = 0; k < n; k++) {
			if (k)
				fputc(';', f);
			folded_frame(f, fr[k]);
		}
		fprintf(f, " %" PRIu64 "\n", w);
	}
	free(v);
	return report_close_file(f, path, &r->msg);
}
