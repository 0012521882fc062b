#!/usr/bin/env bash
# Drops are never silent: with a tiny ring (-b 4) under fio load the
# recorder counts drops per CPU, says "You have N dropped events", and the
# files show them as sequence gaps (blkparse's pipe mode reports skips).
# Every file still walks cleanly record by record, time-ordered.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require fio python3
rec_workdir
rec_loop 64

"$REC" -d "$REC_LOOP" -D "$REC_WORK" -b 4 -- fio --name=drops --filename="$REC_LOOP" --rw=randread \
	--bs=4k --ioengine=io_uring --iodepth=32 --direct=1 --runtime=1 --time_based \
	--output=/dev/null 2>"$REC_WORK/err" || { cat "$REC_WORK/err"; rec_die "record failed"; }
cat "$REC_WORK/err"
drops=$(sed -n 's/^You have \([0-9]*\) dropped events\{0,1\}.*/\1/p' "$REC_WORK/err")
[ -n "$drops" ] && [ "$drops" -gt 0 ] || rec_die "no drops reported with a 4 KiB ring under fio load"
total=$(awk '$1 == "Total:" { print $7 }' "$REC_WORK/err")
[ "$total" = "$drops" ] || rec_die "summary total drops $total != reported $drops"

walk=$(python3 "$(dirname "$0")/lib/record-walk.py" "$REC_WORK/$REC_LOOP_NAME".blktrace.*) ||
	rec_die "a file does not walk cleanly"
echo "$walk"
gaps=$(awk '{ sub("gaps=", "", $5); n += $5 } END { print n + 0 }' <<<"$walk")
# drops after a CPU's last recorded event leave no visible gap
[ "$gaps" -gt 0 ] && [ "$gaps" -le "$drops" ] || rec_die "sequence gaps $gaps do not match $drops drops"

out=$(cat "$REC_WORK/$REC_LOOP_NAME".blktrace.* | rec_blkparse -i -)
skips=$(sed -n 's/^Skips: \([0-9]*\) forward.*/\1/p' <<<"$out")
[ -n "$skips" ] && [ "$skips" -gt 0 ] || rec_die "blkparse -i - reports no skips"
echo "drops=$drops gaps=$gaps blkparse-skips=$skips"
echo OK
