# SPDX-License-Identifier: GPL-2.0
# record.sh - helpers for the recorder's basic tests (tests/t-record-basic-*.sh)
# and its benchmark.  Source it under `set -euo pipefail`.  It installs an
# EXIT trap that undoes everything registered with rec_defer (loop devices,
# mounts, background recorders), last first, also when the test fails.

. "$(dirname "${BASH_SOURCE[0]}")/skip.sh"
_rec_cleanups=()

rec_die() {
	echo "FAIL: $*" >&2
	exit 1
}

# rec_defer CMD: run CMD (a string for eval) at exit, last registered first.
rec_defer() {
	_rec_cleanups+=("$1")
}

_rec_run_cleanups() {
	local rc=$? i
	set +e
	for ((i = ${#_rec_cleanups[@]} - 1; i >= 0; i--)); do
		eval "${_rec_cleanups[i]}"
	done
	_rec_cleanups=()
	exit "$rc"
}
trap _rec_run_cleanups EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

REC=${BIN:-}/blkscope-record
# under sudo, `record -- COMMAND` would run COMMAND as the calling user
unset SUDO_UID SUDO_GID SUDO_USER

# Root (CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN for loop devices) and the tools;
# without them the test is skipped (exit 77, tests/lib/skip.sh).
rec_require() {
	need_root "CAP_BPF + CAP_PERFMON to load BPF, CAP_SYS_ADMIN for loop devices"
	need_built "$REC" "the recorder needs clang, bpftool, libbpf and liburing"
	need_tools losetup blkparse dd "$@"
}

# rec_workdir: scratch directory REC_WORK, removed at exit.
rec_workdir() {
	REC_WORK=$(mktemp -d /tmp/blkscope-rec.XXXXXX)
	rec_defer "rm -rf '$REC_WORK'"
}

# rec_loop SIZE_MB: a loop device over /dev/shm; sets REC_LOOP and REC_LOOP_NAME.
rec_loop() {
	local f
	f=$(mktemp /dev/shm/blkscope-rec.XXXXXX)
	rec_defer "rm -f '$f'"
	truncate -s "${1}M" "$f"
	REC_LOOP=$(losetup -P -f --show "$f") || rec_die "losetup -f failed (no free loop device?)"
	rec_defer "losetup -d '$REC_LOOP'"
	REC_LOOP_NAME=$(basename "$REC_LOOP")
	udevadm settle 2>/dev/null || true
}

# rec_ncpus: number of possible CPUs (= per-CPU files the recorder writes).
rec_ncpus() {
	local r last
	r=$(cat /sys/devices/system/cpu/possible)
	last=${r##*[-,]}
	echo $((last + 1))
}

# rec_check_files DIR BASE: one file per possible CPU, no extra CPU numbers.
rec_check_files() {
	local dir=$1 base=$2 n cpu
	n=$(rec_ncpus)
	for ((cpu = 0; cpu < n; cpu++)); do
		[ -f "$dir/$base.blktrace.$cpu" ] || rec_die "missing $dir/$base.blktrace.$cpu"
	done
	[ ! -e "$dir/$base.blktrace.$n" ] || rec_die "unexpected $dir/$base.blktrace.$n"
}

# rec_blkparse ARGS...: blkparse, failing on "Bad magic" or a version complaint.
rec_blkparse() {
	local out err
	err=$(mktemp)
	out=$(blkparse "$@" 2>"$err") || { cat "$err" >&2; rm -f "$err"; rec_die "blkparse $* failed"; }
	if grep -Eq 'Bad magic|unsupported trace version|trace info has error' "$err" ||
		grep -Eq 'Bad magic|unsupported trace version|trace info has error' <<<"$out"; then
		cat "$err" >&2
		rm -f "$err"
		rec_die "blkparse complained reading $*"
	fi
	rm -f "$err"
	printf '%s\n' "$out"
}

# rec_count TEXT ACTION: blkparse lines with that action letter (column 6).
rec_count() {
	awk -v a="$2" '$6 == a { n++ } END { print n + 0 }' <<<"$1"
}
