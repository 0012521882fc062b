// SPDX-License-Identifier: GPL-2.0
/*
 * btt_rbtree.c - red-black insert and erase with the Linux fix-up order
 * (see btt_rbtree.h for why the exact shape matters).  Written from the
 * classic algorithm description: insertion repaints a red uncle or rotates
 * once or twice at the grandparent; erasure splices out the node (or its
 * in-order successor) and repairs a missing black with the four sibling
 * cases, always looking at the right sibling first when the hole is on the
 * left, as Linux does.
 */
#include "btt_rbtree.h"

static inline int is_red(const struct btt_rb_node *n)
{
	return n && !n->black;
}

static inline int is_black(const struct btt_rb_node *n)
{
	return !n || n->black;
}

/* Point parent's link (or the root) that held old at new. */
static inline void change_child(struct btt_rb_node *old, struct btt_rb_node *new,
				struct btt_rb_node *parent, struct btt_rb_root *root)
{
	if (!parent)
		root->node = new;
	else	/* left or right: a coin toss with random keys */
		*btt_rb_child_link(parent, parent->left != old) = new;
}

/*
 * After a rotation: new takes old's place (parent and colour), old hangs
 * below new with the given colour.
 */
static inline void rotate_set_parents(struct btt_rb_node *old, struct btt_rb_node *new,
				      struct btt_rb_root *root, int black)
{
	struct btt_rb_node *parent = old->parent;

	new->parent = parent;
	new->black = old->black;
	old->parent = new;
	old->black = black;
	change_child(old, new, parent, root);
}

void btt_rb_insert_color(struct btt_rb_node *node, struct btt_rb_root *root)
{
	struct btt_rb_node *parent = node->parent, *gparent, *tmp;

	for (;;) {
		if (!parent) {
			node->black = 1;	/* the root */
			return;
		}
		if (parent->black)
			return;
		gparent = parent->parent;	/* red parent is never the root */
		tmp = gparent->right;
		if (parent != tmp) {		/* parent is a left child */
			if (is_red(tmp)) {	/* red uncle: repaint, go up */
				tmp->black = 1;
				parent->black = 1;
				node = gparent;
				parent = node->parent;
				node->black = 0;
				continue;
			}
			tmp = parent->right;
			if (node == tmp) {	/* inner child: rotate left at parent */
				tmp = node->left;
				parent->right = tmp;
				node->left = parent;
				if (tmp) {
					tmp->parent = parent;
					tmp->black = 1;
				}
				parent->parent = node;
				parent->black = 0;
				parent = node;
				tmp = node->right;
			}
			/* rotate right at gparent */
			gparent->left = tmp;
			parent->right = gparent;
			if (tmp) {
				tmp->parent = gparent;
				tmp->black = 1;
			}
			rotate_set_parents(gparent, parent, root, 0);
			return;
		} else {			/* mirror image */
			tmp = gparent->left;
			if (is_red(tmp)) {
				tmp->black = 1;
				parent->black = 1;
				node = gparent;
				parent = node->parent;
				node->black = 0;
				continue;
			}
			tmp = parent->left;
			if (node == tmp) {
				tmp = node->right;
				parent->left = tmp;
				node->right = parent;
				if (tmp) {
					tmp->parent = parent;
					tmp->black = 1;
				}
				parent->parent = node;
				parent->black = 0;
				parent = node;
				tmp = node->left;
			}
			gparent->right = tmp;
			parent->left = gparent;
			if (tmp) {
				tmp->parent = gparent;
				tmp->black = 1;
			}
			rotate_set_parents(gparent, parent, root, 0);
			return;
		}
	}
}

/* Unlink node; returns the parent where a black is missing, or NULL. */
static struct btt_rb_node *erase_splice(struct btt_rb_node *node, struct btt_rb_root *root)
{
	struct btt_rb_node *child = node->right, *tmp = node->left;
	struct btt_rb_node *parent, *rebalance;

	if (!tmp) {
		/* at most a right child; a lone child must be red */
		parent = node->parent;
		change_child(node, child, parent, root);
		if (child) {
			child->parent = parent;
			child->black = node->black;
			rebalance = NULL;
		} else {
			rebalance = node->black ? parent : NULL;
		}
	} else if (!child) {
		/* only a left child */
		parent = node->parent;
		tmp->parent = parent;
		tmp->black = node->black;
		change_child(node, tmp, parent, root);
		rebalance = NULL;
	} else {
		struct btt_rb_node *successor = child, *child2;

		tmp = child->left;
		if (!tmp) {
			/* the right child is the successor */
			parent = successor;
			child2 = successor->right;
		} else {
			/* the leftmost node of the right subtree */
			do {
				parent = successor;
				successor = tmp;
				tmp = tmp->left;
			} while (tmp);
			child2 = successor->right;
			parent->left = child2;
			successor->right = child;
			child->parent = successor;
		}
		tmp = node->left;
		successor->left = tmp;
		tmp->parent = successor;
		change_child(node, successor, node->parent, root);
		if (child2) {
			child2->parent = parent;
			child2->black = 1;
			rebalance = NULL;
		} else {
			rebalance = successor->black ? parent : NULL;
		}
		successor->parent = node->parent;
		successor->black = node->black;
	}
	return rebalance;
}

static void erase_color(struct btt_rb_node *parent, struct btt_rb_root *root)
{
	struct btt_rb_node *node = NULL, *sibling, *tmp1, *tmp2;

	for (;;) {
		sibling = parent->right;
		if (node != sibling) {		/* node is the left child */
			if (is_red(sibling)) {
				/* case 1: rotate left at parent */
				tmp1 = sibling->left;
				parent->right = tmp1;
				sibling->left = parent;
				tmp1->parent = parent;
				tmp1->black = 1;
				rotate_set_parents(parent, sibling, root, 0);
				sibling = tmp1;
			}
			tmp1 = sibling->right;
			if (is_black(tmp1)) {
				tmp2 = sibling->left;
				if (is_black(tmp2)) {
					/* case 2: repaint sibling, move up */
					sibling->parent = parent;
					sibling->black = 0;
					if (is_red(parent)) {
						parent->black = 1;
					} else {
						node = parent;
						parent = node->parent;
						if (parent)
							continue;
					}
					return;
				}
				/* case 3: rotate right at sibling */
				tmp1 = tmp2->right;
				sibling->left = tmp1;
				tmp2->right = sibling;
				parent->right = tmp2;
				if (tmp1) {
					tmp1->parent = sibling;
					tmp1->black = 1;
				}
				tmp1 = sibling;
				sibling = tmp2;
			}
			/* case 4: rotate left at parent, repaint */
			tmp2 = sibling->left;
			parent->right = tmp2;
			sibling->left = parent;
			tmp1->parent = sibling;
			tmp1->black = 1;
			if (tmp2)
				tmp2->parent = parent;
			rotate_set_parents(parent, sibling, root, 1);
			return;
		} else {			/* mirror image */
			sibling = parent->left;
			if (is_red(sibling)) {
				tmp1 = sibling->right;
				parent->left = tmp1;
				sibling->right = parent;
				tmp1->parent = parent;
				tmp1->black = 1;
				rotate_set_parents(parent, sibling, root, 0);
				sibling = tmp1;
			}
			tmp1 = sibling->left;
			if (is_black(tmp1)) {
				tmp2 = sibling->right;
				if (is_black(tmp2)) {
					sibling->parent = parent;
					sibling->black = 0;
					if (is_red(parent)) {
						parent->black = 1;
					} else {
						node = parent;
						parent = node->parent;
						if (parent)
							continue;
					}
					return;
				}
				tmp1 = tmp2->left;
				sibling->right = tmp1;
				tmp2->left = sibling;
				parent->left = tmp2;
				if (tmp1) {
					tmp1->parent = sibling;
					tmp1->black = 1;
				}
				tmp1 = sibling;
				sibling = tmp2;
			}
			tmp2 = sibling->right;
			parent->left = tmp2;
			sibling->right = parent;
			tmp1->parent = sibling;
			tmp1->black = 1;
			if (tmp2)
				tmp2->parent = parent;
			rotate_set_parents(parent, sibling, root, 1);
			return;
		}
	}
}

void btt_rb_erase(struct btt_rb_node *node, struct btt_rb_root *root)
{
	struct btt_rb_node *rebalance = erase_splice(node, root);

	if (rebalance)
		erase_color(rebalance, root);
}

struct btt_rb_node *btt_rb_first(const struct btt_rb_root *root)
{
	struct btt_rb_node *n = root->node;

	while (n && n->left)
		n = n->left;
	return n;
}

struct btt_rb_node *btt_rb_next(const struct btt_rb_node *node)
{
	struct btt_rb_node *parent;

	if (node->right) {
		node = node->right;
		while (node->left)
			node = node->left;
		return (struct btt_rb_node *)node;
	}
	/* up while we come from the right: the first parent reached from its left */
	while ((parent = node->parent) && node == parent->right)
		node = parent;
	return parent;
}

struct btt_rb_node *btt_rb_prev(const struct btt_rb_node *node)
{
	struct btt_rb_node *parent;

	if (node->left) {
		node = node->left;
		while (node->right)
			node = node->right;
		return (struct btt_rb_node *)node;
	}
	while ((parent = node->parent) && node == parent->left)
		node = parent;
	return parent;
}
