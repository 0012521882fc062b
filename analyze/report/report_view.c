// SPDX-License-Identifier: GPL-2.0
/*
 * report_view.c - what other layers read and set of a report (report.h):
 * compare pairs the devices, processes, groups and files of two reports,
 * export writes the groups and the time series, the tag extension prints
 * the tags.  struct bs_report stays private (report_priv.h), so a change
 * to how the report keeps its state touches analyze/report/ only.
 */
#include "report_priv.h"

uint64_t report_interval_ns(const struct bs_report *r)
{
	return r->interval_ns;
}

int report_sort(const struct bs_report *r)
{
	return r->sort;
}

bool report_groups_used(const struct bs_report *r)
{
	return r->groups_used;
}

bool report_grouping_given(const struct bs_report *r)
{
	return r->group_by != GROUP_BY_NONE || r->explicit_pids.len;
}

void report_default_to_text(struct bs_report *r)
{
	if (!r->text && !r->json_path && !r->csv_dir && !r->html_path && !r->svg_dir)
		r->text = true;
}

void report_set_groups_only(struct bs_report *r, bool on)
{
	r->groups_only = on;
}

void report_set_timeline(struct bs_report *r, bool on)
{
	r->timeline = on;
}

uint64_t report_end_time(const struct bs_report *r)
{
	return r->end_time;
}

void report_set_end_time(struct bs_report *r, uint64_t end_time)
{
	r->end_time = end_time;
}

int report_last_group(const struct bs_report *r)
{
	return r->last_group;
}

size_t report_ndevs(const struct bs_report *r)
{
	return r->ndev;
}

uint32_t report_dev(const struct bs_report *r, size_t i)
{
	return r->devs[i].device;
}

size_t report_nprocs(const struct bs_report *r)
{
	return r->nproc;
}

const struct report_proc *report_proc_at(const struct bs_report *r, size_t i)
{
	return r->proc_list[i];
}

uint32_t report_proc_pid(const struct report_proc *p)
{
	return p->pid;
}

const char *report_proc_comm(const struct report_proc *p)
{
	return p->comm;
}

const struct report_lat *report_proc_slice(const struct report_proc *p)
{
	return report_proc_set(p);
}

size_t report_ngroups(const struct bs_report *r)
{
	return r->ngroup;
}

bool report_group_is_tag(const struct bs_report *r, size_t g)
{
	return r->groups[g].tag >= 0;
}

const struct report_lat *report_group_slice(const struct bs_report *r, size_t g)
{
	return &r->groups[g].set;
}

int report_group_series(const struct bs_report *r, size_t g)
{
	return r->groups[g].slot;
}

bool report_group_has_series(const struct bs_report *r, size_t g)
{
	return r->groups[g].slot >= 1 && r->groups[g].slot <= TS_SLOT_MAX;
}

/* A tag's group: -1 when no I/O got the tag (or the plugin never declared it). */
static int tag_group(const struct bs_report *r, int tag)
{
	return tag >= 0 && (size_t)tag < r->ntag ? r->tag_group[tag] : -1;
}

const struct report_lat *report_tag_slice(const struct bs_report *r, int tag)
{
	int g = tag_group(r, tag);

	return g >= 0 ? &r->groups[g].set : NULL;
}

const char *report_tag_name(struct bs_report *r, int tag)
{
	int g = tag_group(r, tag);

	if (g >= 0)
		return report_group_name(r, g);
	return tag >= 0 && (size_t)tag < r->ntag && r->tag_label[tag] ? r->tag_label[tag] : "";
}

const struct report_lat *report_untagged_slice(const struct bs_report *r)
{
	return r->untagged_group >= 0 ? &r->groups[r->untagged_group].set : NULL;
}

const struct ts_series *report_series(const struct bs_report *r)
{
	return &r->ts;
}

const struct iom_health *report_health(const struct bs_report *r)
{
	return r->health;
}

const struct bs_dev_counters *report_counters(const struct bs_report *r, int *n)
{
	*n = r->ncounters;
	return r->counters;
}

size_t report_nfiles(const struct bs_report *r)
{
	return r->attr.files_on ? r->attr.nrows : 0;
}

const char *report_file_slice(const struct bs_report *r, size_t i, char *buf, size_t len,
			      struct report_lat *all)
{
	const struct file_row *row = &r->attr.rows[i];

	for (unsigned int k = 0; k < row->nops; k++)
		report_lat_merge(all, &row->ops[k].set);
	return report_attr_row_name(&r->attr, row, buf, len);
}
