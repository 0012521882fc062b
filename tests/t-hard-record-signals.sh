#!/usr/bin/env bash
# SIGINT and SIGTERM under heavy load: with fio (2 jobs, QD32, io_uring)
# hammering the device, a recorder stopped by a signal exits 0, prints its
# summary, and has drained and flushed everything: each per-CPU file holds
# exactly the records the summary counted for that CPU (events + notes),
# walks cleanly, and blkparse / blkscope parse / analyze read it without a
# complaint.  (t-record-basic-stop covers the same signals with a light dd
# load; this is the heavy-load half of the hardening issue.)
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
. "$(dirname "$0")/lib/hard.sh"
rec_require fio python3
rec_workdir
rec_loop 256

for sig in INT TERM; do
	base=sig$sig
	hard_fio_load "$REC_LOOP" 30
	"$REC" -v -d "$REC_LOOP" -D "$REC_WORK" -o "$base" 2>"$REC_WORK/$base.err" &
	pid=$!
	rec_defer "kill -9 $pid 2>/dev/null"
	hard_wait_for "$REC_WORK/$base.err" "tracing $REC_LOOP" 600 ||
		rec_die "SIG$sig: recorder did not start: $(cat "$REC_WORK/$base.err")"
	sleep 1		# rings and write queues are busy by now
	kill -"$sig" "$pid"
	rc=0
	timeout 30 tail --pid="$pid" -f /dev/null || rec_die "SIG$sig: recorder still running 30 s after the signal"
	wait "$pid" || rc=$?
	kill "$HARD_FIO_PID" 2>/dev/null || true
	wait "$HARD_FIO_PID" 2>/dev/null || true
	cat "$REC_WORK/$base.err"
	[ "$rc" -eq 0 ] || rec_die "SIG$sig under load: exit status $rc"
	grep -q "Total:" "$REC_WORK/$base.err" || rec_die "SIG$sig: no summary"
	rec_check_files "$REC_WORK" "$base"
	walk=$(hard_walk "$REC_WORK" "$base")
	echo "$walk"
	total=0
	for f in "$REC_WORK/$base".blktrace.*; do
		cpu=${f##*.}
		recs=$(awk -v f="$f" '$1 == f { sub("records=", "", $2); print $2 }' <<<"$walk")
		want=$(hard_summary_events "$REC_WORK/$base.err" "$cpu")
		[ -n "$want" ] || rec_die "SIG$sig: no summary line for CPU $cpu"
		# the summary counts events; the file also holds the notes
		notes=$(awk -v f="$f" '$1 == f { sub("notes=", "", $4); print $4 }' <<<"$walk")
		[ $((recs - notes)) -eq "$want" ] || [ "$recs" -eq "$want" ] ||
			rec_die "SIG$sig: CPU $cpu: the summary counted $want events, the file holds $recs records ($notes notes): not all flushed"
		total=$((total + recs))
	done
	[ "$total" -gt 10000 ] || rec_die "SIG$sig: only $total records under heavy load?"
	out=$(rec_blkparse -D "$REC_WORK" -i "$base")
	[ "$(rec_count "$out" C)" -gt 0 ] || rec_die "SIG$sig: blkparse sees no completions"
	hard_check_parse "$REC_WORK" "$base"
	echo "SIG$sig: $total records, drained and valid"
	rm -f "$REC_WORK/$base".blktrace.*
done
echo OK
