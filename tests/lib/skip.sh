# SPDX-License-Identifier: GPL-2.0
# skip.sh - the skip convention (source me).  A test that lacks something it
# needs and cannot provide itself (root, BPF, the recorder, which is only
# built where clang/bpftool/libbpf exist, or a tool such as blkparse, zstd,
# fio or chromium) exits 77; tests/run-tests.sh reports it as SKIP with the
# test's last output line as the reason.  A genuine failure is never a skip.

# skip REASON: one line on stderr, exit 77.
skip() {
	echo "SKIP: $*" >&2
	exit 77
}

# need_root WHY: skip unless running as root.
need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (${*:-CAP_SYS_ADMIN})"
}

# need_tools TOOL...: skip unless every TOOL is in PATH.
need_tools() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null || skip "needs $t in PATH"
	done
}

# need_built FILE WHAT: skip unless FILE (a program built only when optional
# build dependencies are present) exists.
need_built() {
	[ -x "$1" ] || skip "$1 is not built: ${2:-optional build dependencies missing}"
}
