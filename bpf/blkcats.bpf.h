/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkcats.bpf.h - the categories of an action word (BS_TC_*), derived from
 * an opf without branches, and the version-8 zone categories.  Part of
 * blkrecord.bpf.c; uses the op numbers of blkkernel.bpf.h.
 */
#ifndef BLKSCOPE_BLKCATS_BPF_H
#define BLKSCOPE_BLKCATS_BPF_H

/* 1 if v is 0, else 0, without a branch (BPF has no set-on-condition) */
static __always_inline __u32 is_zero(__u32 v)
{
	__u64 x = (__u64)v - 1;	/* wraps to 2^64 - 1 for 0 alone */

	barrier_var(x);		/* kept as arithmetic: a compare would be a branch */
	return (__u32)(x >> 63);
}

/* 1 if the request flag is set in opf, else 0 */
#define FLAG_SET(opf, bit) (((opf) >> bpf_core_enum_value(enum req_flag_bits, bit)) & 1)

/*
 * The categories __blk_add_trace() derives from an opf (docs/format.md
 * §Categories from the request flags).  Computed without branches: each
 * branch here would double the paths the verifier walks through the rest
 * of record() (the action is compared later, so the paths do not merge),
 * which made loading the programs take seconds.
 */
static __always_inline __u32 opf_categories(__u32 opf)
{
	__u32 op = opf & OP_MASK;
	__u32 cats = BS_TC_READ << (op & 1);	/* odd ops write */

	cats |= FLAG_SET(opf, __REQ_SYNC) * BS_TC_SYNC;
	cats |= FLAG_SET(opf, __REQ_RAHEAD) * BS_TC_AHEAD;
	cats |= FLAG_SET(opf, __REQ_META) * BS_TC_META;
	cats |= FLAG_SET(opf, __REQ_PREFLUSH) * BS_TC_FLUSH;
	cats |= FLAG_SET(opf, __REQ_FUA) * BS_TC_FUA;
	cats |= (is_zero(op ^ OP_DISCARD) | is_zero(op ^ OP_SECURE_ERASE)) * BS_TC_DISCARD;
	cats |= is_zero(op ^ OP_FLUSH) * BS_TC_FLUSH;
	return BS_TC_ACT(cats);
}

/* cat's high-word bit if op is the running kernel's op_name, else 0 */
#define ZONE_CAT(op, op_name, cat) \
	(is_zero((op) ^ bpf_core_enum_value(enum req_op, op_name)) * BS_TC_HI(cat))

/*
 * The version-8 category of a zone operation or write-zeroes (6.19's
 * __blk_add_trace() maps each REQ_OP_ZONE_* to one), as its bit in the
 * action's high word, stashed at BR_HI_SHIFT.  Op numbers come from the
 * running kernel's enum req_op (they were renumbered over time).
 */
static __always_inline __u32 zone_stash(__u32 op)
{
	if (!zone_categories || !bpf_core_enum_value_exists(enum req_op, REQ_OP_ZONE_APPEND))
		return 0;
	/* the ops are distinct, so at most one term is not 0; no branches, as opf_categories() */
	return (ZONE_CAT(op, REQ_OP_ZONE_APPEND, BS_TC_ZONE_APPEND) |
		ZONE_CAT(op, REQ_OP_ZONE_RESET, BS_TC_ZONE_RESET) |
		ZONE_CAT(op, REQ_OP_ZONE_RESET_ALL, BS_TC_ZONE_RESET_ALL) |
		ZONE_CAT(op, REQ_OP_ZONE_FINISH, BS_TC_ZONE_FINISH) |
		ZONE_CAT(op, REQ_OP_ZONE_OPEN, BS_TC_ZONE_OPEN) |
		ZONE_CAT(op, REQ_OP_ZONE_CLOSE, BS_TC_ZONE_CLOSE) |
		ZONE_CAT(op, REQ_OP_WRITE_ZEROES, BS_TC_WRITE_ZEROES)) << BR_HI_SHIFT;
}

#endif /* BLKSCOPE_BLKCATS_BPF_H */
