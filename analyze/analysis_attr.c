// SPDX-License-Identifier: GPL-2.0
/*
 * analysis_attr.c - record --files --stacks in one analysis: the inputs'
 * attribution side files loaded before the extensions start (they label
 * files and stacks), then asked by the per-I/O model at each Q.
 */
#include "analysis_priv.h"

void analysis_attr_load(struct bs_analysis *a)
{
	a->attr = bs_attr_load(&a->in, &a->attr_src);
}

void analysis_attr_start(struct bs_analysis *a)
{
	if (!a->attr_src)
		return;
	/* the side files carry the Qs' absolute times; the model's are since genesis */
	bs_attr_src_genesis(a->attr_src, bs_merge_genesis(a->m));
	iom_set_attr(a->iom, bs_attr_src_lookup, a->attr_src);
}

void analysis_attr_free(struct bs_analysis *a)
{
	bs_attr_src_free(a->attr_src);
	bs_attr_dict_free(a->attr);
	a->attr_src = NULL;
	a->attr = NULL;
}

const struct bs_attr_dict *bs_analysis_attr(struct bs_analysis *a)
{
	return a->attr;
}

bool bs_analysis_attr_stats(struct bs_analysis *a, struct bs_attr_stats *st)
{
	if (!a->attr_src)
		return false;
	bs_attr_src_stats(a->attr_src, st);
	return true;
}
