#!/usr/bin/env bash
# Stopping: SIGINT and SIGTERM stop a recording cleanly (exit 0, rings
# drained, summary printed, files readable), -w stops by itself, and a signal
# sent with kill(1) to a recorder running a command reaches the command too.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require
rec_workdir
rec_loop 64

# wait_for_file FILE PATTERN: up to 10 s
wait_for() {
	local i
	for i in $(seq 100); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

for sig in INT TERM; do
	base=sig$sig
	"$REC" -v -d "$REC_LOOP" -D "$REC_WORK" -o "$base" 2>"$REC_WORK/$base.err" &
	pid=$!
	rec_defer "kill $pid 2>/dev/null"
	wait_for "$REC_WORK/$base.err" "tracing $REC_LOOP" || rec_die "recorder did not start: $(cat "$REC_WORK/$base.err")"
	dd if="$REC_LOOP" of=/dev/null bs=4k count=8 iflag=direct status=none
	kill -"$sig" "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$REC_WORK/$base.err"; rec_die "SIG$sig: exit status $rc"; }
	grep -q "Total:" "$REC_WORK/$base.err" || rec_die "SIG$sig: no summary"
	rec_check_files "$REC_WORK" "$base"
	out=$(rec_blkparse -D "$REC_WORK" -i "$base")
	[ "$(rec_count "$out" C)" -eq 8 ] || rec_die "SIG$sig: expected 8 completions: $out"
done

# -w: stops by itself
start=$(date +%s%N)
"$REC" -d "$REC_LOOP" -D "$REC_WORK" -o wait -w 0.5 2>/dev/null || rec_die "-w 0.5 failed"
elapsed=$((($(date +%s%N) - start) / 1000000))
# the bound covers start-up (loading and verifying the programs: ~2 s of
# system CPU, several times that on a loaded machine), not only the 0.5 s
[ "$elapsed" -lt 15000 ] || rec_die "-w 0.5 took $elapsed ms"
rec_check_files "$REC_WORK" wait

# kill -TERM to the recorder running a command: the command gets it too
rc=0
"$REC" -d "$REC_LOOP" -D "$REC_WORK" -o cmd -- sleep 30 2>/dev/null &
pid=$!
sleep 1
kill -TERM "$pid"
wait "$pid" || rc=$?
[ "$rc" -eq 143 ] || rec_die "command killed by SIGTERM should give 143, got $rc"

# -w with a command still running: the command is ended, its status returned
rc=0
"$REC" -d "$REC_LOOP" -D "$REC_WORK" -o cmdw -w 0.5 -- sleep 30 2>/dev/null || rc=$?
[ "$rc" -eq 143 ] || rec_die "-w ending a command should give 143, got $rc"
echo OK
