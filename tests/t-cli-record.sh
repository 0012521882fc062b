#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The recorder's warnings and refusals about its command line:
#  - a device of size 0 (an unbound loop device, from losetup -f) is
#    recorded with a warning that no I/O can reach it;
#  - -p PID with no such process running: a warning;
#  - an output directory that holds BASE.blktrace.<cpu> in the other form
#    (.zst when writing plain files, plain when writing .zst) is refused,
#    nothing created, unless --force, which removes the other form first:
#    never a mixed set that parse reads twice;
#  - --files/--stacks with -o - or --ring, --stack-entries without
#    --stacks or out of range: refused (exit 2); an earlier run's
#    attribution side files next to a run without them: refused unless
#    --force, which removes them.
# Needs root and the recorder (exit 77 otherwise); loop devices are
# detached in the EXIT trap.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require losetup timeout
rec_workdir
cd "$REC_WORK"

# 1. an unbound loop device: size 0
free=$(losetup -f) || skip "no free loop device"
rec_defer "losetup -d '$free' 2>/dev/null || true"
[ -b "$free" ] || skip "$free has no device node"
[ "$(cat "/sys/block/$(basename "$free")/size" 2>/dev/null || echo 0)" = 0 ] || rec_die "$free is bound"
rc=0; timeout 20 "$REC" -d "$free" -D size0 -w 0.3 >out 2>err || rc=$?
grep -q "warning: $free has size 0" err || { cat err; rec_die "no warning for a size-0 device (exit $rc)"; }
echo "ok: size-0 device warned about"

rec_loop 16
# 2. -p naming no running process (pid_max is at most 2^22)
pid=4194000
while kill -0 "$pid" 2>/dev/null; do pid=$((pid + 1)); done
timeout 20 "$REC" -d "$REC_LOOP" -D nopid -p "$pid" -w 0.3 >out 2>err ||
	{ cat err; rec_die "record -p $pid failed"; }
grep -q "warning: -p $pid: no such process is running" err || { cat err; rec_die "no warning for -p $pid"; }
echo "ok: -p with no such process warned about"

# 3. the other form of the files is there
if [ -n "$(command -v zstd)" ] && "$REC" --help | grep -q -- --zstd; then
	mkdir mixed
	echo junk >"mixed/$REC_LOOP_NAME.blktrace.0.zst"
	rc=0; timeout 20 "$REC" -d "$REC_LOOP" -D mixed -w 0.3 >out 2>err || rc=$?
	[ "$rc" -ne 0 ] || rec_die "plain files written next to .zst ones"
	grep -q "blktrace.0.zst is there from an earlier run" err || { cat err; rec_die "refusal message"; }
	[ -z "$(find mixed -name '*.blktrace.[0-9]*' ! -name '*.zst')" ] || rec_die "refused run left files"
	timeout 20 "$REC" -d "$REC_LOOP" -D mixed -w 0.3 --force >out 2>err || { cat err; rec_die "--force failed"; }
	[ ! -e "mixed/$REC_LOOP_NAME.blktrace.0.zst" ] || rec_die "--force left the .zst file"
	grep -q "removed" err || rec_die "--force did not say what it removed"
	# and the other way round: .zst next to plain files
	rc=0; timeout 20 "$REC" -d "$REC_LOOP" -D mixed -w 0.3 --zstd >out 2>err || rc=$?
	[ "$rc" -ne 0 ] && grep -q "blktrace.0 is there from an earlier run" err || { cat err; rec_die ".zst next to plain accepted"; }
	echo "ok: a mixed .zst/plain set refused, --force removes the other form"
fi

# 4. --files / --stacks: what they cannot go with
refuse() {	# WHAT ARGS...: exit 2 and one line naming WHAT
	local what=$1 rc=0
	shift
	timeout 20 "$REC" -d "$REC_LOOP" "$@" >out 2>err || rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <err)" = 1 ] && grep -q -- "$what" err ||
		{ cat err; rec_die "$* not refused as it should (exit $rc)"; }
}
refuse "cannot be combined with -o -" --files -o -
refuse "cannot be combined with --ring" --stacks -D ring --ring 16M --trigger signal
refuse "sizes the tables of --stacks" --files --stack-entries 1024 -D x
refuse "--stack-entries" --stacks --stack-entries 10 -D x
# side files of an earlier run, and a run without the options
mkdir side
timeout 20 "$REC" -d "$REC_LOOP" -D side --files -w 0.3 >out 2>err || { cat err; rec_die "--files failed"; }
ls "side/$REC_LOOP_NAME.blkscope-names" >/dev/null || rec_die "--files wrote no names file"
rc=0; timeout 20 "$REC" -d "$REC_LOOP" -D side --force -w 0.3 >out 2>err || rc=$?
grep -q "removed .* attribution file" err || { cat err; rec_die "--force left the side files (exit $rc)"; }
[ -z "$(find side -name '*.blkscope-*')" ] || rec_die "side files left after --force"
timeout 20 "$REC" -d "$REC_LOOP" -D side --files --force -w 0.3 >out 2>err || { cat err; rec_die "--files failed"; }
rm side/*.blktrace.*
rc=0; timeout 20 "$REC" -d "$REC_LOOP" -D side -w 0.3 >out 2>err || rc=$?
[ "$rc" = 1 ] && grep -q "earlier run with --files or --stacks" err || { cat err; rec_die "stale side files accepted"; }
echo "ok: --files/--stacks refusals; stale side files refused, removed with --force"
echo PASS
