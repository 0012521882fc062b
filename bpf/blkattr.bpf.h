/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkattr.bpf.h - record --files / --stacks, the kernel side: which file
 * and which code path a queued bio comes from, as one more ring slot after
 * its Q record (struct br_attr_slot, bpf/blkrecord.h).  Included by
 * blkrecord.bpf.c, whose rings it shares.
 *
 * Both options are read-only constants: when they are off the verifier
 * removes every instruction of this file from the Q program, so a
 * recording without them pays nothing.
 *
 * Files (docs/record.md, "Files"): a bio's first page tells whose page
 * cache it belongs to (folio->mapping->host, however late the flusher
 * writes it); direct I/O is told by the bio's completion function
 * (iomap's bi_private is the iomap_dio, whose kiocb names the file); the
 * journal by the buffer head's completion; swap by the swap completions.
 * The functions' addresses come from user space (kallsyms), 0 when the
 * kernel lacks one: that test is then never true.
 */
#ifndef BLKSCOPE_BLKATTR_BPF_H
#define BLKSCOPE_BLKATTR_BPF_H

const volatile bool attr_files;		/* --files */
const volatile bool attr_stacks;	/* --stacks */
const volatile __u64 fn_iomap_dio_end;	/* iomap_dio_bio_end_io */
const volatile __u64 fn_blkdev_dio_end;	/* blkdev_bio_end_io */
const volatile __u64 fn_blkdev_dio_end_async;	/* blkdev_bio_end_io_async */
const volatile __u64 fn_bh_end;		/* end_bio_bh_io_sync: a buffer head's bio */
const volatile __u64 fn_journal_bh_end;	/* journal_end_buffer_io_sync: jbd2's buffers */
const volatile __u64 fn_swap_write_end;	/* end_swap_bio_write */
const volatile __u64 fn_swap_read_end;	/* end_swap_bio_read */

/* Stack tables: sized by user space (1 entry when --stacks is off). */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, BR_KSTACK_DEPTH * sizeof(__u64));
} kstacks SEC(".maps");

/*
 * User stacks: the raw addresses, a cheap walk and a hash, at every Q.
 * Addresses mean nothing once the process has exited, so the first time
 * a process queues from a stack, the same walk is taken again as (build
 * id, file offset) per frame into `ubids`, keyed by (stack id, tgid):
 * symbolizing then needs only the binary with that build id.  Reading
 * build ids costs microseconds a frame (their ELF notes), far too much
 * for every Q; once per stack and process it is nothing.
 */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, BR_USTACK_DEPTH * sizeof(__u64));
} ustacks SEC(".maps");

struct ubid_frames {
	struct bpf_stack_build_id f[BR_USTACK_DEPTH];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u64);		/* user stack id << 32 | tgid */
	__type(value, struct ubid_frames);
} ubids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ubid_frames);
} ubid_scratch SEC(".maps");

#define PF_KTHREAD_FLAG	0x00200000	/* include/linux/sched.h PF_KTHREAD */
#define S_IFMT_BITS	00170000
#define S_IFBLK_BITS	0060000
#define S_IFREG_BITS	0100000
#define S_IFDIR_BITS	0040000
#define OP_WRITE_ZEROES	9		/* REQ_OP_WRITE_ZEROES */
#define ERR_NOENT	2
#define ERR_FAULT	14
#define ERR_NOSPC	28
#define ERR_E2BIG	7

static __always_inline void set_inode(struct br_attr_slot *a, struct inode *inode)
{
	a->ino = BPF_CORE_READ(inode, i_ino);
	a->gen = BPF_CORE_READ(inode, i_generation);
	a->fdev = BPF_CORE_READ(inode, i_sb, s_dev);
}

/* The folio a bio_vec page belongs to (a tail page points at its head). */
static __always_inline struct page *head_page(struct page *page)
{
	unsigned long head = BPF_CORE_READ(page, compound_head);

	return head & 1 ? (struct page *)(head - 1) : page;
}

/*
 * The page-cache owner of the bio's first page: a file, the block
 * device's own cache (metadata or raw access), or nothing.
 */
static __always_inline void classify_pages(struct bio *bio, __u32 opf, struct br_attr_slot *a)
{
	struct address_space *mapping;
	struct bio_vec *vec;
	struct page *page = NULL;
	struct inode *host;
	__u32 mode;

	__u32 idx = bio->bi_iter.bi_idx & 0xffff;

	vec = bio->bi_io_vec;
	if (vec)
		bpf_core_read(&page, sizeof(page), &vec[idx].bv_page);
	/*
	 * Pages of no file: on a device nobody holds (not mounted), the
	 * device's own user (O_DIRECT on /dev/X, a VM's disk); else metadata
	 * if flagged so, else some kernel buffer.
	 */
	if (!BPF_CORE_READ(bio, bi_bdev, bd_holder))
		a->cls = BS_FC_RAW;
	else
		a->cls = FLAG_SET(opf, __REQ_META) ? BS_FC_METADATA : BS_FC_OTHER;
	if (!page)
		return;
	mapping = BPF_CORE_READ(head_page(page), mapping);
	/* anonymous (bit 0) or movable (bit 1) pages: no file */
	if (!mapping || ((unsigned long)mapping & 3))
		return;
	host = BPF_CORE_READ(mapping, host);
	/* not an address_space after all (a slab page, say): its host would not point back */
	if (!host || BPF_CORE_READ(host, i_mapping) != mapping)
		return;
	mode = BPF_CORE_READ(host, i_mode) & S_IFMT_BITS;
	if (mode == S_IFBLK_BITS) {
		/* the device's own page cache: a mounted filesystem's metadata, or raw access */
		if (a->cls == BS_FC_OTHER)
			a->cls = BS_FC_METADATA;
		return;
	}
	set_inode(a, host);
	a->cls = mode == S_IFREG_BITS ? BS_FC_CACHE : BS_FC_METADATA;	/* directories, symlinks */
}

static __always_inline void classify(struct bio *bio, struct br_attr_slot *a)
{
	__u32 opf = bio->bi_opf, op = opf & OP_MASK;
	__u64 end = (__u64)bio->bi_end_io;
	void *priv = bio->bi_private;

	if (!bio->bi_iter.bi_size || op == OP_FLUSH || op == OP_DISCARD || op == OP_SECURE_ERASE ||
	    op == OP_WRITE_ZEROES) {
		a->cls = BS_FC_NODATA;
		return;
	}
	if (fn_iomap_dio_end && end == fn_iomap_dio_end) {
		struct inode *inode =
			BPF_CORE_READ((struct iomap_dio *)priv, iocb, ki_filp, f_inode);

		a->cls = BS_FC_DIRECT;
		if (inode)
			set_inode(a, inode);
		return;
	}
	if ((fn_blkdev_dio_end && end == fn_blkdev_dio_end) ||
	    (fn_blkdev_dio_end_async && end == fn_blkdev_dio_end_async)) {
		a->cls = BS_FC_RAW;
		return;
	}
	if ((fn_swap_write_end && end == fn_swap_write_end) ||
	    (fn_swap_read_end && end == fn_swap_read_end)) {
		a->cls = BS_FC_SWAP;
		return;
	}
	if (fn_bh_end && end == fn_bh_end && fn_journal_bh_end &&
	    (__u64)BPF_CORE_READ((struct buffer_head *)priv, b_end_io) == fn_journal_bh_end) {
		a->cls = BS_FC_JOURNAL;
		return;
	}
	classify_pages(bio, opf, a);
}

static __always_inline void count_attr(__u32 idx, int what)
{
	struct br_counters *cnt = bpf_map_lookup_elem(&counters, &idx);

	if (!cnt)
		return;
	if (what == 0)
		__sync_fetch_and_add(&cnt->attr_drops, 1);
	else if (what == 1)
		__sync_fetch_and_add(&cnt->kstack_lost, 1);
	else
		__sync_fetch_and_add(&cnt->ustack_lost, 1);
}

/* The first Q of a (user stack, process): its frames as (build id, offset), once. */
static __always_inline void take_build_ids(void *ctx, __u64 key, __u32 idx)
{
	struct ubid_frames *buf;
	__u32 zero = 0;

	if (bpf_map_lookup_elem(&ubids, &key))
		return;
	buf = bpf_map_lookup_elem(&ubid_scratch, &zero);
	if (!buf)
		return;
	/* the frames it does not fill are zeroed: status EMPTY ends the stack */
	if (bpf_get_stack(ctx, buf, sizeof(*buf), BPF_F_USER_STACK | BPF_F_USER_BUILD_ID) <= 0)
		return;
	if (bpf_map_update_elem(&ubids, &key, buf, BPF_NOEXIST) == -ERR_NOSPC)
		count_attr(idx, 2);	/* the table is full: this process's stack stays unnamed */
}

/*
 * The stacks of the context queueing the bio: the kernel's, and for a
 * user task its user stack (frame pointers).  A full table (-EEXIST: a
 * hash bucket taken by another stack, -ENOMEM) is counted, never guessed.
 */
static __always_inline void take_stacks(void *ctx, struct br_attr_slot *a, __u32 idx)
{
	struct task_struct *task = bpf_get_current_task_btf();
	long id;

	id = bpf_get_stackid(ctx, &kstacks, 0);
	a->kstack = (__s32)id;
	if (id < 0 && id != -ERR_FAULT)
		count_attr(idx, 1);
	if (task->flags & PF_KTHREAD_FLAG) {
		a->flags |= BR_ATTR_KTHREAD;
		a->ustack = -ERR_FAULT;
		return;
	}
	a->tgid = task->tgid;
	id = bpf_get_stackid(ctx, &ustacks, BPF_F_USER_STACK);
	a->ustack = (__s32)id;
	if (id < 0 && id != -ERR_FAULT)
		count_attr(idx, 2);
	if (id >= 0)
		take_build_ids(ctx, (__u64)id << 32 | a->tgid, idx);
	a->exe_ino = BPF_CORE_READ(task, mm, exe_file, f_inode, i_ino);
	a->exe_dev = BPF_CORE_READ(task, mm, exe_file, f_inode, i_sb, s_dev);
}

/* After a recorded Q: its attribution slot, in the same ring. */
static __always_inline void attr_emit(void *ctx, struct bio *bio, const struct qmark *qm)
{
	struct br_attr_slot *a = (struct br_attr_slot *)ring_reserve(qm->ring, qm->cpu);

	if (!a) {
		count_attr(qm->idx, 0);
		return;
	}
	a->time = qm->time;
	a->device = qm->device;
	a->ino = 0;
	a->fdev = a->gen = 0;
	a->kstack = a->ustack = -ERR_NOENT;
	a->tgid = 0;
	a->exe_ino = 0;
	a->exe_dev = 0;
	a->cls = BS_FC_UNKNOWN;
	a->flags = 0;
	a->pad = 0;
	if (attr_files)
		classify(bio, a);
	if (attr_stacks)
		take_stacks(ctx, a, qm->idx);
	ring_commit_magic((struct bs_trace *)a, BR_ATTR_MAGIC, qm->seq);
}

#endif /* BLKSCOPE_BLKATTR_BPF_H */
