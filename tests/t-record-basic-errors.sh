#!/usr/bin/env bash
# Each setup error is one clear line and a non-zero exit: missing
# capabilities (named), not a block device, a symlink at an output path
# (refused, never followed), an output directory that is not writable, two
# devices on one disk, bad options.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require setpriv capsh
rec_workdir
rec_loop 16

# expect_fail PATTERN CMD...: CMD fails and says PATTERN (one line) on stderr
expect_fail() {
	local pat=$1 rc=0
	shift
	"$@" >"$REC_WORK/out" 2>"$REC_WORK/err" || rc=$?
	[ "$rc" -ne 0 ] || rec_die "expected failure: $*"
	grep -q -- "$pat" "$REC_WORK/err" || { cat "$REC_WORK/err" >&2; rec_die "expected '$pat' from: $*"; }
}

# not root, no capabilities at all
expect_fail "missing CAP_BPF and CAP_PERFMON" \
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$REC" -d "$REC_LOOP" -w 0.1
# root without CAP_PERFMON (and without CAP_SYS_ADMIN, which would cover it)
expect_fail "missing CAP_PERFMON" \
	capsh --drop=cap_perfmon,cap_sys_admin -- -c "exec '$REC' -d '$REC_LOOP' -w 0.1"

expect_fail "/dev/null: not a block device" "$REC" -d /dev/null -w 0.1
expect_fail "/nonexistent/dev: No such file" "$REC" -d /nonexistent/dev -w 0.1
expect_fail "same disk" "$REC" -d "$REC_LOOP" -d "$REC_LOOP" -w 0.1
expect_fail "no device given" "$REC" -w 0.1
expect_fail "unknown action mask 'bogus'" "$REC" -d "$REC_LOOP" -a bogus -w 0.1
expect_fail "-A: '10000' is not a hex mask in 1..ffff" "$REC" -d "$REC_LOOP" -A 10000 -w 0.1

# a symlink at an output path is refused and its target left alone
echo precious >"$REC_WORK/target"
ln -s target "$REC_WORK/sym.blktrace.0"
expect_fail "sym.blktrace.0 is a symlink; refusing to follow it" "$REC" -d "$REC_LOOP" -D "$REC_WORK" -o sym -w 0.1
[ "$(cat "$REC_WORK/target")" = precious ] || rec_die "the symlink's target was modified"
[ -L "$REC_WORK/sym.blktrace.0" ] || rec_die "the symlink was replaced"

# an output directory on a read-only file system
mkdir "$REC_WORK/ro"
mount -t tmpfs -o ro,size=1m blkscope-ro "$REC_WORK/ro"
rec_defer "umount '$REC_WORK/ro'"
expect_fail "output directory $REC_WORK/ro is not writable" "$REC" -d "$REC_LOOP" -D "$REC_WORK/ro" -w 0.1
[ "$(wc -l <"$REC_WORK/err")" -eq 1 ] || rec_die "more than one line for one error: $(cat "$REC_WORK/err")"
echo OK
