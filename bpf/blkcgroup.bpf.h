/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkcgroup.bpf.h - the cgroup a bio is charged to, and the --cgroup
 * filter over it (cgroup_ids, ncgroups, cgroup_id[] and cgroup_level[] are
 * blkrecord.bpf.c's read-only configuration).  Part of blkrecord.bpf.c.
 */
#ifndef BLKSCOPE_BLKCGROUP_BPF_H
#define BLKSCOPE_BLKCGROUP_BPF_H

/*
 * The cgroup a bio is charged to (blk_trace_bio_get_cgid(): the css of
 * bio->bi_blkg's blkcg), NULL without one.  Writeback bios are charged to
 * the cgroup that dirtied the pages, not to the flusher thread's.
 */
static __always_inline struct cgroup *bio_cgroup(const struct bio *bio)
{
	struct blkcg_gq *blkg;

	if (!bio || !bpf_core_field_exists(struct bio, bi_blkg))
		return NULL;
	blkg = BPF_CORE_READ(bio, bi_blkg);
	if (!blkg)
		return NULL;
	return BPF_CORE_READ(blkg, blkcg, css.cgroup);
}

/*
 * Is cg the cgroup with id `id` at depth `level`, or below it?  Since 6.1 a
 * cgroup points at all its ancestors (ancestors[level]); before, walk up
 * the parents, at most CGROUP_WALK_MAX levels.
 */
#define CGROUP_WALK_MAX	16

static __always_inline bool cgroup_under(struct cgroup *cg, int cg_level, __u64 id, __u32 level)
{
	struct cgroup *anc = NULL;
	int i;

	if (cg_level < (int)level || level > 1024)
		return false;
	if (bpf_core_field_exists(struct cgroup, ancestors)) {
		bpf_core_read(&anc, sizeof(anc), &cg->ancestors[level]);
		return anc && BPF_CORE_READ(anc, kn, id) == id;
	}
	anc = cg;
	for (i = 0; i < CGROUP_WALK_MAX && anc; i++) {
		if (i == cg_level - (int)level)
			return BPF_CORE_READ(anc, kn, id) == id;
		anc = BPF_CORE_READ(anc, self.parent, cgroup);
	}
	return false;
}

/* --cgroup: any of the selected subtrees; events without a cgroup never. */
static __always_inline bool cgroup_selected(struct cgroup *cg)
{
	int i, level;

	if (!cg)
		return false;
	level = BPF_CORE_READ(cg, level);
	for (i = 0; i < BR_MAX_CGROUPS; i++) {
		if (i >= ncgroups)
			break;
		if (cgroup_under(cg, level, cgroup_id[i], cgroup_level[i]))
			return true;
	}
	return false;
}

#define WANT_CGROUP	(cgroup_ids || ncgroups)

#endif /* BLKSCOPE_BLKCGROUP_BPF_H */
