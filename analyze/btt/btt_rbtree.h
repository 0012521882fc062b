/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btt_rbtree.h - an intrusive red-black tree that rebalances exactly like
 * the Linux kernel's lib/rbtree.c (which btt uses).
 *
 * Why our own and not any balanced tree: several btt results depend on the
 * SHAPE of its trees, not just on their contents.  The seek "median" is
 * the first node of a pre-order walk that qualifies, and the per-device
 * Q lookups (containment search, pruned range walk) return different Qs
 * for overlapping requests depending on where they sit.  Reproducing btt
 * number for number therefore needs the same insert and erase fix-ups.
 * Callers do the descent and link the node themselves (rb_link_node()
 * style), then call btt_rb_insert_color().
 */
#ifndef BLKSCOPE_BTT_RBTREE_H
#define BLKSCOPE_BTT_RBTREE_H

#include <stddef.h>
#include <stdint.h>

struct btt_rb_node {
	struct btt_rb_node *parent, *left, *right;
	int black;
};

struct btt_rb_root {
	struct btt_rb_node *node;
};

#define btt_rb_entry(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/*
 * parent's left (right == 0) or right (right == 1) link, by arithmetic:
 * which one is a coin toss with random keys, and gcc compiles the plain
 * conditional to a branch.
 */
static inline struct btt_rb_node **btt_rb_child_link(struct btt_rb_node *parent, uintptr_t right)
{
	size_t off =
		offsetof(struct btt_rb_node, left) +
		right * (offsetof(struct btt_rb_node, right) - offsetof(struct btt_rb_node, left));

	return (struct btt_rb_node **)((char *)parent + off);
}

static inline void btt_rb_link(struct btt_rb_node *node, struct btt_rb_node *parent,
			      struct btt_rb_node **link)
{
	node->parent = parent;
	node->left = node->right = NULL;
	node->black = 0;
	*link = node;
}

void btt_rb_insert_color(struct btt_rb_node *node, struct btt_rb_root *root);
void btt_rb_erase(struct btt_rb_node *node, struct btt_rb_root *root);
/* in-order neighbours (rb_prev()/rb_next()), NULL at either end */
struct btt_rb_node *btt_rb_prev(const struct btt_rb_node *node);
struct btt_rb_node *btt_rb_next(const struct btt_rb_node *node);
struct btt_rb_node *btt_rb_first(const struct btt_rb_root *root);

#endif /* BLKSCOPE_BTT_RBTREE_H */
