// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_health.c - each side's health in a comparison.  A side whose trace
 * lost events or stops at damage gives percentiles of the I/Os that are
 * whole, but a change measured on it is no evidence: no percentile change
 * is called significant then, --fail-if cannot judge (an error, not a
 * pass), and every output says which side and why.
 */
#include "bs_escape.h"
#include "compare.h"
#include "iomodel/iom.h"
#include "report/report.h"

bool cmp_side_unreliable(const struct cmp_side *s)
{
	const struct iom_health *h = s->r ? report_health(s->r) : NULL;

	return h && (h->lost_events || h->loss.ios || h->damaged);
}

void cmp_health_check(struct cmp *c)
{
	c->no_verdict = cmp_side_unreliable(&c->side[0]) || cmp_side_unreliable(&c->side[1]);
}

void cmp_health_text(const struct cmp *c, FILE *out)
{
	struct report_findings f;
	char safe[600];

	for (int i = 0; i < 2; i++) {
		report_health_findings(c->side[i].r ? report_health(c->side[i].r) : NULL, &f);
		if (!f.n)
			continue;
		fprintf(out, "%s is not clean (%s):\n", i ? "AFTER" : "BEFORE",
			bs_term_safe(safe, sizeof(safe), c->side[i].path));
		for (unsigned int k = 0; k < f.n; k++)
			fprintf(out, "  %s\n", bs_term_safe(safe, sizeof(safe), f.line[k]));
	}
	if (c->no_verdict)
		fprintf(out,
			"NO VERDICT: events were lost or an input is damaged on the %s side; the "
			"figures "
			"below are of the I/Os that are whole, but no change is called significant "
			"and "
			"--fail-if cannot judge.\n",
			cmp_side_unreliable(&c->side[0])
				? (cmp_side_unreliable(&c->side[1]) ? "before and after" : "before")
				: "after");
}

void cmp_health_json(const struct cmp_side *s, FILE *f)
{
	struct report_findings fl;

	report_health_findings(s->r ? report_health(s->r) : NULL, &fl);
	fprintf(f, ",\"health\":{\"clean\":%s,\"reliable\":%s,\"findings\":[",
		fl.n ? "false" : "true", cmp_side_unreliable(s) ? "false" : "true");
	for (unsigned int k = 0; k < fl.n; k++) {
		if (k)
			fputc(',', f);
		bs_json_string(f, fl.line[k]);
	}
	fputs("]}", f);
}

void cmp_health_html(const struct cmp *c, FILE *f)
{
	for (int i = 0; i < 2; i++) {
		if (!c->side[i].r || !report_health(c->side[i].r))
			continue;
		if (!iom_health_off(report_health(c->side[i].r)))
			continue;
		fprintf(f, "<p style='background:#fde0d0;padding:6px'><b>%s is not clean</b>: ",
			i ? "after" : "before");
		bs_xml_text(f, c->side[i].path);
		fputs(" (see the headline)</p>\n", f);
	}
}
