# SPDX-License-Identifier: GPL-2.0
# cgroup.sh - a scratch cgroup tree for the tests that record per-cgroup
# I/O (source me after tests/lib/oracle.sh: removal goes through its
# oracle_defer, so the tree is gone at exit, also on failure).
#
# cg_io_root               the hierarchy holding the io controller: cgroup2
#                          if io is there, else the v1 blkio mount (what the
#                          kernel charges bios to); empty if none
# cg_make_tree             CG_ROOT (cg_io_root), CG_T=$CG_ROOT/blkscope-test.PID
#                          with a, a/w and b below it (io enabled down to the
#                          leaves on cgroup2); exports WL_CG_WRITE=$CG_T/a/w and
#                          WL_CG_READ=$CG_T/b for wl_cgroups; skips (77)
#                          without an io hierarchy

cg_io_root() {
	local m
	for m in $(findmnt -rn -t cgroup2 -o TARGET); do
		grep -qw io "$m/cgroup.controllers" 2>/dev/null && { echo "$m"; return; }
	done
	findmnt -rn -t cgroup -o TARGET,OPTIONS | awk '$2 ~ /(^|,)blkio(,|$)/ { print $1; exit }'
}

cg_make_tree() {
	CG_ROOT=$(cg_io_root)
	[ -n "$CG_ROOT" ] || { echo "SKIP: no cgroup hierarchy with the io controller"; exit 77; }
	CG_T=$CG_ROOT/blkscope-test.$$
	mkdir "$CG_T"
	oracle_defer "rmdir '$CG_T'"
	if [ -e "$CG_ROOT/cgroup.subtree_control" ]; then	# cgroup2: io must reach the leaves
		echo +io >"$CG_ROOT/cgroup.subtree_control"
		echo +io >"$CG_T/cgroup.subtree_control"
	fi
	mkdir "$CG_T/a" "$CG_T/b"
	oracle_defer "rmdir '$CG_T/a' '$CG_T/b'"
	[ -e "$CG_T/a/cgroup.subtree_control" ] && echo +io >"$CG_T/a/cgroup.subtree_control"
	mkdir "$CG_T/a/w"
	oracle_defer "rmdir '$CG_T/a/w'"
	export WL_CG_WRITE=$CG_T/a/w WL_CG_READ=$CG_T/b
}
