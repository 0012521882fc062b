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

# The Debian package of a tool the tests use (tools/deps.sh installs them all).
tool_package() {
	case "$1" in
	blkparse|btt|iowatcher) echo blktrace ;;
	nm) echo binutils ;;
	losetup|setpriv|flock|taskset|prlimit|blkdiscard|addpart|delpart) echo util-linux ;;
	mkfs.ext4|filefrag) echo e2fsprogs ;;
	capsh) echo libcap2-bin ;;
	modprobe) echo kmod ;;
	/usr/bin/time) echo time ;;
	node) echo nodejs ;;
	man|nroff) echo "man-db groff-base" ;;
	timeout|mkfifo|dd) echo coreutils ;;
	cmp) echo diffutils ;;
	*) echo "${1##*/}" ;;
	esac
}

# need_tools TOOL...: skip unless every TOOL is in PATH, naming what to install.
need_tools() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null ||
			skip "needs $t (Debian package $(tool_package "$t"); make deps installs every test's tools)"
	done
}

# need_built FILE WHAT: skip unless FILE (a program built only when optional
# build dependencies are present) exists.
need_built() {
	[ -x "$1" ] || skip "$1 is not built: ${2:-optional build dependencies missing} (make deps, then make)"
}
