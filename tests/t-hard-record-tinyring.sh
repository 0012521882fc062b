#!/usr/bin/env bash
# A tiny ring (-b 4) under heavy load, read back by blkscope itself: the
# drops are counted, the files show them as sequence gaps, and blkscope
# parse (pipe mode over the concatenated files: its Skips line) and
# blkscope analyze read the gapped files without a damage complaint.
# (t-record-basic-drops checks the same recording against blkparse.)
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
. "$(dirname "$0")/lib/hard.sh"
rec_require fio python3
rec_workdir
rec_loop 64

"$REC" -d "$REC_LOOP" -D "$REC_WORK" -b 4 -o tiny -- fio --name=tiny --filename="$REC_LOOP" --rw=randread \
	--bs=4k --ioengine=io_uring --iodepth=32 --numjobs=2 --direct=1 --runtime=2 --time_based \
	--output=/dev/null 2>"$REC_WORK/err" || { cat "$REC_WORK/err"; rec_die "record failed"; }
cat "$REC_WORK/err"
drops=$(awk '$1 == "Total:" { print $7 }' "$REC_WORK/err")
[ -n "$drops" ] && [ "$drops" -gt 0 ] || rec_die "no drops counted with a 4 KiB ring under fio load"
walk=$(hard_walk "$REC_WORK" tiny)
echo "$walk"
gaps=$(awk '{ sub("gaps=", "", $5); n += $5 } END { print n + 0 }' <<<"$walk")
[ "$gaps" -gt 0 ] && [ "$gaps" -le "$drops" ] || rec_die "sequence gaps $gaps vs $drops drops"

hard_check_parse "$REC_WORK" tiny
out=$(cat "$REC_WORK"/tiny.blktrace.* | "$BIN"/blkscope parse -i - 2>"$REC_WORK/perr") ||
	{ cat "$REC_WORK/perr"; rec_die "blkscope parse -i - failed"; }
! grep -qi "offset\|bad magic" "$REC_WORK/perr" || { cat "$REC_WORK/perr"; rec_die "blkscope parse -i - complained"; }
skips=$(sed -n 's/^Skips: \([0-9]*\) forward.*/\1/p' <<<"$out")
[ -n "$skips" ] && [ "$skips" -gt 0 ] || rec_die "blkscope parse -i - reports no skips"
echo "drops=$drops gaps=$gaps blkscope-parse-skips=$skips"
echo OK
