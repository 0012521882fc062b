// SPDX-License-Identifier: GPL-2.0
/*
 * analysis_attr.c - record --files --stacks in one analysis: the inputs'
 * attribution side files loaded before the extensions start (they label
 * files and stacks), then asked by the per-I/O model at each Q.
 */
#include "analysis_priv.h"

void analysis_attr_load(struct analysis *a)
{
	a->attr = attr_load(&a->in, &a->attr_src, &a->msgs.sink);
}

void analysis_attr_start(struct analysis *a)
{
	if (!a->attr_src)
		return;
	/* the side files carry the Qs' absolute times; the model's are since genesis */
	attr_src_genesis(a->attr_src, bs_merge_genesis(a->m));
	iom_set_attr(a->iom, attr_src_lookup, a->attr_src);
}

void analysis_attr_free(struct analysis *a)
{
	attr_src_free(a->attr_src);
	attr_dict_free(a->attr);
	a->attr_src = NULL;
	a->attr = NULL;
}

const struct attr_dict *analysis_attr(struct analysis *a)
{
	return a->attr;
}

bool analysis_attr_stats(struct analysis *a, struct attr_stats *st)
{
	if (!a->attr_src)
		return false;
	attr_src_stats(a->attr_src, st);
	return true;
}
