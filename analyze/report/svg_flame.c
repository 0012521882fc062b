// SPDX-License-Identifier: GPL-2.0
/*
 * svg_flame.c - the HTML page's flame graph of the I/O (record --stacks):
 * an icicle, all I/O on top, then the processes, their user frames from
 * the outermost, the kernel's down to the function that queued the bio;
 * a frame's width is its share of the I/Os.
 *
 * Bounded: the tree is built from the (process, stack) weights (at most
 * FLAME_MAX_NODES distinct prefixes), and only frames at least 1/1000 of
 * the width are drawn (at most FLAME_MAX_DRAWN; the rest is counted in a
 * note).  Hover: each frame's <title> (name, I/Os, share, bytes); click:
 * the frame fills the width (its ancestors stay, full width), click the
 * top bar to go back.  Without the script the graph is whole and static.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_escape.h"
#include "report_priv.h"

#define FLAME_MAX_NODES	200000
#define FLAME_MAX_DRAWN	4000
#define FLAME_MAX_DEPTH	160
#define FLAME_W		1200.0
#define FLAME_ROW	17
#define FRAMES_MAX	(2 * BS_NAMES_FRAMES_MAX + 4)

enum fkind { FK_ALL, FK_PROC, FK_USER, FK_KERNEL, FK_NOTE };

struct fnode {
	/* interned: the dictionary's, the report's process names, or a literal */
	const char *name;
	/* first child, next sibling (0: none; node 0 is the root) */
	uint32_t parent, child, next;
	uint64_t ios, bytes;
	uint16_t depth;
	uint8_t kind;
};

struct flame {
	struct fnode *n;
	size_t nn;
	struct bs_hash kids;	/* (parent, name) -> node */
	bool full;		/* FLAME_MAX_NODES reached: the rest in their parents */
	size_t drawn, hidden;
	int maxdepth;
};

static uint32_t child(struct flame *fl, uint32_t parent, const char *name, uint8_t kind)
{
	uint64_t k = bs_hash_mix((uint64_t)parent << 32 ^ (uint64_t)(uintptr_t)name), *v;
	struct fnode *c;

	for (;; k = bs_hash_mix(k + 1)) {	/* names are interned: the pointer is the name */
		v = bs_hash_get(&fl->kids, k);
		if (!v)
			break;
		if (fl->n[*v].parent == parent && fl->n[*v].name == name)
			return (uint32_t)*v;
	}
	if (fl->nn >= FLAME_MAX_NODES) {
		fl->full = true;
		return parent;
	}
	fl->n = bs_xreallocarray(fl->n, fl->nn + 1, sizeof(*fl->n));
	c = &fl->n[fl->nn];
	*c = (struct fnode){ .name = name, .parent = parent, .next = fl->n[parent].child,
			     .depth = (uint16_t)(fl->n[parent].depth + 1), .kind = kind };
	fl->n[parent].child = (uint32_t)fl->nn;
	bs_hash_put(&fl->kids, k, fl->nn, NULL);
	return (uint32_t)fl->nn++;
}

static void add_path(struct flame *fl, const struct report_attr *ra, const struct stack_weight *w)
{
	const struct attr_stack *st = attr_stack(ra->dict, w->stack);
	const char *fr[FRAMES_MAX];
	size_t n = report_attr_folded_frames(ra, w, fr, FRAMES_MAX), nk = st ? st->nkernel : 0, i;
	uint32_t at = 0;

	fl->n[0].ios += w->ios;
	fl->n[0].bytes += w->bytes;
	for (i = 0; i < n && i < FLAME_MAX_DEPTH; i++) {
		uint8_t kind = i == 0	  ? FK_PROC
			: fr[i][0] == '[' ? FK_NOTE
			: i >= n - nk	  ? FK_KERNEL
					  : FK_USER;

		at = child(fl, at, fr[i], kind);
		fl->n[at].ios += w->ios;
		fl->n[at].bytes += w->bytes;
	}
}

/* A frame's color: by kind, its shade by its name (stable from page to page). */
static void color(const struct fnode *n, char *buf, size_t len)
{
	uint64_t h = bs_hash_bytes(n->name, strlen(n->name));
	int v = (int)(h % 40);

	switch (n->kind) {
	case FK_USER:	/* warm: the application */
		snprintf(buf, len, "rgb(%d,%d,%d)", 225 + v % 30, 120 + v * 2, 40 + v);
		break;
	case FK_KERNEL:	/* cool: the kernel */
		snprintf(buf, len, "rgb(%d,%d,%d)", 90 + v, 150 + v, 215 + v % 40);
		break;
	case FK_PROC:
		snprintf(buf, len, "rgb(%d,%d,%d)", 170 + v, 200 + v % 20, 150 + v);
		break;
	default:
		snprintf(buf, len, "rgb(%d,%d,%d)", 200, 200, 200);
	}
}

static void draw_node(struct flame *fl, FILE *f, uint32_t i, double x, double min_w)
{
	const struct fnode *n = &fl->n[i];
	double w = fl->n[0].ios ? FLAME_W * (double)n->ios / (double)fl->n[0].ios : 0;
	char col[32];
	uint32_t c;

	if (w < min_w || fl->drawn >= FLAME_MAX_DRAWN) {
		fl->hidden++;
		return;
	}
	fl->drawn++;
	if (n->depth > fl->maxdepth)
		fl->maxdepth = n->depth;
	color(n, col, sizeof(col));
	fprintf(f, "<g data-x=\"%.3f\" data-w=\"%.3f\" data-d=\"%u\"><title>", x, w, n->depth);
	bs_xml_text(f, n->name);
	fprintf(f,
		"\n%" PRIu64
		" I/Os (%.2f%%), %.3f MB</title><rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
		"height=\"%d\" fill=\"%s\"/><text x=\"%.2f\" y=\"%d\">",
		n->ios, 100.0 * (double)n->ios / (double)fl->n[0].ios, (double)n->bytes / 1e6, x,
		n->depth * FLAME_ROW, w, FLAME_ROW - 1, col, x + 3, n->depth * FLAME_ROW + 12);
	if (w > 20) {	/* as much of the name as fits at ~7 px a character */
		char cut[256];
		size_t fit = (size_t)((w - 6) / 7), len = strlen(n->name);

		snprintf(cut, sizeof(cut), "%s", n->name);
		if (len > fit && fit >= 3 && fit < sizeof(cut)) {
			cut[fit - 2] = '.';
			cut[fit - 1] = '.';
			cut[fit] = 0;
		} else if (len > fit) {
			cut[0] = 0;
		}
		bs_xml_text(f, cut);
	}
	fputs("</text></g>\n", f);
	for (c = n->child; c; c = fl->n[c].next) {
		draw_node(fl, f, c, x, min_w);
		x += FLAME_W * (double)fl->n[c].ios / (double)fl->n[0].ios;
	}
}

/* Click to zoom: the frame and what is under it fill the width, its ancestors span it. */
static const char flame_script[] =
	"(function(){var s=document.getElementById('flame');if(!s)return;"
	"var G=[].slice.call(s.querySelectorAll('g[data-d]')),W=1200;"
	"function lab(g,w){var "
	"t=g.querySelector('text'),n=g.querySelector('title').textContent.split('\\n')[0],"
	"f=Math.floor((w-6)/7);t.textContent=w<=20?'':n.length<=f?n:f>=3?n.slice(0,f-2)+'..':'';}"
	"function zoom(z){var x0=+z.dataset.x,w0=+z.dataset.w,d0=+z.dataset.d;"
	"G.forEach(function(g){var "
	"x=+g.dataset.x,w=+g.dataset.w,d=+g.dataset.d,r=g.querySelector('rect'),"
	"t=g.querySelector('text'),nx,nw;"
	"if(d<d0){if(x<=x0+1e-6&&x+w>=x0+w0-1e-6){nx=0;nw=W;}else{g.style.display='none';return;}}"
	"else if(x>=x0-1e-6&&x+w<=x0+w0+1e-6){nx=(x-x0)/w0*W;nw=w/w0*W;}"
	"else{g.style.display='none';return;}"
	"g.style.display='';r.setAttribute('x',nx.toFixed(2));r.setAttribute('width',nw.toFixed(2))"
	";"
	"t.setAttribute('x',(nx+3).toFixed(2));lab(g,nw);});}"
	"G.forEach(function(g){g.style.cursor='pointer';g.addEventListener('click',function(){zoom("
	"g);});});})();";

void svg_flame(const struct report_attr *ra, FILE *f)
{
	struct flame fl = { 0 };
	size_t i;

	fl.n = bs_xcalloc(1, sizeof(*fl.n));
	fl.n[0].name = "all I/O";
	fl.n[0].kind = FK_ALL;
	fl.nn = 1;
	for (i = 0; i < ra->nsw; i++)
		if (ra->sw[i].ios)
			add_path(&fl, ra, &ra->sw[i]);
	if (!fl.n[0].ios) {
		fputs("<p class=note>No I/O with a stack.</p>\n", f);
		goto out;
	}
	/* drawn first into memory: the height is known at the end */
	{
		char *body = NULL;
		size_t blen = 0;
		FILE *m = open_memstream(&body, &blen);

		if (!m)
			goto out;
		draw_node(&fl, m, 0, 0, FLAME_W / 1000);
		fclose(m);
		fprintf(f,
			"<figure class=flame><svg id=flame xmlns=\"http://www.w3.org/2000/svg\" "
			"viewBox=\"0 0 %.0f %d\" "
			"font-family=\"monospace\" font-size=\"11\" "
			"style=\"width:100%%;height:auto\">\n",
			FLAME_W, (fl.maxdepth + 1) * FLAME_ROW);
		fwrite(body, 1, blen, f);
		free(body);
		fputs("</svg></figure>\n", f);
	}
	fprintf(f,
		"<p class=note>Width: I/Os. Root first: all I/O, the process (the Q's), its user "
		"frames "
		"(warm colors) from the outermost, the kernel's (cool) down to the function that "
		"queued the bio. "
		"Click a frame to zoom, the top bar to go back; hover for figures.%s",
		fl.full ? " Too many distinct stacks: the deepest frames of the rarest are merged "
			  "into their callers."
			: "");
	if (fl.hidden)
		fprintf(f, " %zu frames narrower than 0.1%% are not drawn (--folded has them all).",
			fl.hidden);
	fprintf(f, "</p>\n<script>%s</script>\n", flame_script);
out:
	free(fl.n);
	bs_hash_free(&fl.kids);
}
