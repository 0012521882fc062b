#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fidelity of the filters: blkscope's -a/-A (category mask), --lba and -p
# against the kernel's own act_mask, start_lba/end_lba and pid filters
# (/sys/class/block/DEV/trace/*), each set on the ftrace side for the same
# capture.  The kernel's rules (docs/format.md §Filters): an event passes when
# ANY of its categories is in the mask (P/U are READ); the LBA range is
# inclusive and sector 0 always passes; the pid filter also hides
# completions that run in other contexts.
# exclusive: yes
set -euo pipefail
. "${TOP:?}/tests/lib/oracle.sh"
oracle_require_root
[ -n "${ORACLE_DRYRUN:-}" ] || oracle_require_recorder
oracle_workdir
oracle_loop_setup 64
D=$ORACLE_LOOP_NAME

ORACLE_FT_FILTERS="act_mask=write" ORACLE_REC_OPTS="-a write" \
	oracle_run_case mask_write "$D" wl_direct_rw --expect Q:WS --expect C:WS \
	--expect-none Q:RS --expect-none P --expect-none U
ORACLE_FT_FILTERS="act_mask=queue,complete" ORACLE_REC_OPTS="-A 90" \
	oracle_run_case mask_queue_complete "$D" wl_large_split --expect Q:WS --expect C:WS \
	--expect-none X --expect-none D:WS
ORACLE_FT_FILTERS="start_lba=800 end_lba=808" ORACLE_REC_OPTS="--lba 800:808" \
	oracle_run_case lba_window "$D" wl_lba_edges --expect Q:WS@800 --expect Q:WS@808 --expect P \
	--expect-none Q@792 --expect-none Q@816

# The pid filter needs the pid before the I/O starts: gated-dio blocks on a
# FIFO until both recorders run, then does all its I/O from its own pid.
mkfifo "$ORACLE_WORK/gate" "$ORACLE_WORK/done"
python3 "$ORACLE_DIR/gated-dio" "/dev/$D" 1600 4 "$ORACLE_WORK/gate" "$ORACLE_WORK/done" &
gpid=$!
oracle_defer "kill $gpid 2>/dev/null"
release="echo go >'$ORACLE_WORK/gate'; cat '$ORACLE_WORK/done' >/dev/null; sleep 0.3"
oracle_settle
oracle_ftrace_start "$D" "$ORACLE_WORK/pid.ftrace"
echo "$gpid" >"/sys/class/block/$D/trace/pid"
if [ -n "${ORACLE_DRYRUN:-}" ]; then
	bash -c "$release"
	oracle_ftrace_stop
	python3 "$ORACLE_DIR/ftrace-to-blktrace" "$ORACLE_WORK/pid.ftrace" "$ORACLE_WORK/pid"
else
	"$BIN/blkscope" record -p "$gpid" -d "/dev/$D" -D "$ORACLE_WORK" -o pid -- bash -c "$release" \
		>"$ORACLE_WORK/pid.record.log" 2>&1 ||
		{ cat "$ORACLE_WORK/pid.record.log"; oracle_ftrace_stop; oracle_die "pid: blkscope record failed"; }
	oracle_ftrace_stop
fi
wait "$gpid" || oracle_die "gated-dio failed"
echo "== pid: gated-dio (pid $gpid) on $D, pid filter on both sides"
oracle_compare "$ORACLE_WORK/pid.ftrace" "$ORACLE_WORK/pid" --expect Q:WS --expect Q:RS --min-events 8 \
	--expect-none C:WS --expect-none C:RS ||
	oracle_die "pid: blkscope's records differ from the kernel's (artefacts in $ORACLE_WORK)"
