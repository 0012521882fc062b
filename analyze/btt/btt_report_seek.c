// SPDX-License-Identifier: GPL-2.0
/*
 * btt_report_seek.c - btt's "Device Q2Q/D2D Seek Information" sections
 * (btt/output.c output_seek_mode_info and friends): one row per device
 * and the "Overall" summary, with btt's exact formats and mode quirks.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_hash.h"
#include "btt_priv.h"
#include "bs_stream.h"

/*
 * The "Overall" seek summary accumulates every device's modes.  btt keeps
 * them in a list, newest first, with one node per distinct mode; a trace
 * with 100k devices can have 100k distinct modes, so they live in an
 * array in insertion order (the list is that array read backwards) with a
 * hash from mode to index.
 */
struct mode_acc {
	long long mode;
	int nseeks;
};

struct seek_acc {
	long long nseeks, median;
	double mean;
	struct mode_acc *v;
	size_t n, cap;
	struct bs_hash idx;	/* mode -> index in v */
};

static void seek_acc_modes(struct seek_acc *sa, const struct btt_seek_modes *m)
{
	int i;

	for (i = 0; i < m->nmds; i++) {
		bool fresh;
		uint64_t *k = bs_hash_put(&sa->idx, (uint64_t)m->modes[i], sa->n, &fresh);

		if (!fresh) {
			sa->v[*k].nseeks += m->most_seeks;
			continue;
		}
		BS_GROW(sa->v, sa->cap, sa->n, 64);
		sa->v[sa->n].mode = m->modes[i];
		sa->v[sa->n].nseeks = m->most_seeks;
		sa->n++;
	}
}

/*
 * btt walks its list (newest first) keeping a chain of the most frequent
 * modes: a strictly larger count restarts the chain, an equal one is put
 * in front (btt also looks for the same mode in the chain to merge their
 * counts, which never matches: the list holds each mode once).  So the
 * mode printed is the oldest of those with the largest count, and "more"
 * counts the others.
 */
static void seek_overall(FILE *fp, struct seek_acc *sa)
{
	const struct mode_acc *best = NULL;
	size_t i, chain = 0;

	for (i = sa->n; i-- > 0;) {
		const struct mode_acc *this = &sa->v[i];

		if (!best || this->nseeks > best->nseeks) {
			best = this;
			chain = 1;
		} else if (this->nseeks == best->nseeks) {
			best = this;
			chain++;
		}
	}
	fprintf(fp, "%10s | %15lld %15.1lf %15lld | %lld(%d)", "Average", sa->nseeks,
		sa->mean / sa->nseeks, sa->median / sa->nseeks, best ? best->mode : 0,
		best ? best->nseeks : 0);
	if (chain > 1)
		fprintf(fp, "\n%10s   %15s %15s %15s   ...(%d more)\n", "", "", "", "",
			(int)(chain - 1));
}

void btt_report_seek_info(const struct btt_engine *e, FILE *fp, const char *title,
			  struct btt_dev **devs, int n, int q2q)
{
	struct seek_acc sa;
	int i, n_seeks = 1;

	memset(&sa, 0, sizeof(sa));
	btt_report_section(fp, title);
	fprintf(fp, "%10s | %15s %15s %15s | %-15s\n", "DEV", "NSEEKS", "MEAN", "MEDIAN", "MODE");
	fprintf(fp,
		"---------- | --------------- --------------- --------------- | ---------------\n");
	for (i = 0; i < n; i++) {
		struct btt_seek *s = q2q ? &devs[i]->q2q_seek : &devs[i]->d2d_seek;
		struct btt_seek_modes m;
		long long median;
		double mean;
		int nmodes, k;
		char hdr[15];

		if (s->nseeks <= 0)
			continue;
		mean = btt_seek_mean(s);
		median = btt_seek_median(s);
		nmodes = btt_seek_mode(s, &m);
		if (s->dropped)
			bs_msg(&e->o.warn, BS_MSG_WARN,
			       "%s %s: %llu seeks had distances beyond the "
			       "--seek-values limit; MEDIAN and MODE leave them out",
			       btt_dev_hdr(hdr, sizeof(hdr), devs[i]->device), q2q ? "Q2Q" : "D2D",
			       (unsigned long long)s->dropped);
		fprintf(fp, "%10s | %15lld %15.1lf %15lld | %lld(%d)",
			btt_dev_hdr(hdr, sizeof(hdr), devs[i]->device), s->nseeks, mean, median,
			nmodes > 0 ? m.modes[0] : 0, m.most_seeks);
		if (nmodes > 2) {
			fprintf(fp, "\n%10s   %15s %15s %15s   ...(%d more)\n", "", "", "", "",
				nmodes - 1);
		} else {
			for (k = 1; k < nmodes; k++)
				fprintf(fp, " %lld", m.modes[k]);
			fprintf(fp, "\n");
		}
		if (e->o.xvg) {
			fprintf(e->o.xvg, "%s %s %lld %.9lf %lld %lld %d", q2q ? "QSK" : "DSK",
				btt_dev_plain(hdr, sizeof(hdr), devs[i]->device), s->nseeks, mean,
				median, nmodes > 0 ? m.modes[0] : 0, m.most_seeks);
			for (k = 1; k < nmodes; k++)
				fprintf(e->o.xvg, " %lld", m.modes[k]);
			fprintf(e->o.xvg, "\n");
		}
		sa.nseeks += s->nseeks;
		sa.mean += s->nseeks * mean;
		/* wrapping, as btt's sum does in practice: damaged sectors give huge medians */
		sa.median = (long long)((unsigned long long)sa.median +
					(unsigned long long)s->nseeks * (unsigned long long)median);
		n_seeks++;
		seek_acc_modes(&sa, &m);
		free(m.modes);
	}
	if (n_seeks > 1) {
		fprintf(fp, "---------- | --------------- --------------- --------------- | "
			    "---------------\n");
		fprintf(fp, "%10s | %15s %15s %15s | %-15s\n", "Overall", "NSEEKS", "MEAN",
			"MEDIAN", "MODE");
		seek_overall(fp, &sa);
		fprintf(fp, "\n");
	}
	fprintf(fp, "\n");
	free(sa.v);
	bs_hash_free(&sa.idx);
}
