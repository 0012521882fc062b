#!/usr/bin/env bash
# blkscope record on a small direct dd: a file for every possible CPU, blkparse
# reads them without complaint, one Q/G/D/C per 4 KiB write with the right
# sectors and the command's name (PROCESS notes), the host note, per-CPU sequence numbers
# without gaps; `-- COMMAND` passes stdio through and its exit status back.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require
rec_workdir
rec_loop 64

"$REC" -d "$REC_LOOP" -D "$REC_WORK" -- \
	dd if=/dev/zero of="$REC_LOOP" bs=4k count=32 oflag=direct status=none 2>"$REC_WORK/err" ||
	{ cat "$REC_WORK/err"; rec_die "record failed"; }
grep -q "=== $REC_LOOP_NAME ===" "$REC_WORK/err" || rec_die "no summary for $REC_LOOP_NAME on stderr"
rec_check_files "$REC_WORK" "$REC_LOOP_NAME"

out=$(rec_blkparse -D "$REC_WORK" -i "$REC_LOOP_NAME")
for a in Q G D C; do
	n=$(rec_count "$out" "$a")
	[ "$n" -eq 32 ] || rec_die "expected 32 $a events, got $n"
done
# Q lines: "maj,min cpu seq time pid Q WS sector + 8 [dd]", sectors 0, 8, ... 248
sectors=$(awk '$6 == "Q" && $7 == "WS" && $9 == "+" && $10 == 8 && $11 == "[dd]" { print $8 }' <<<"$out" | sort -n | tr '\n' ' ')
[ "$sectors" = "$(seq -s ' ' 0 8 248) " ] || rec_die "unexpected Q lines: $sectors"
# the device is the loop device's dev_t
mm=$(cat "/sys/class/block/$REC_LOOP_NAME/dev")
awk -v d="${mm/:/,}" '$6 == "Q" && $1 != d { bad = 1 } END { exit bad }' <<<"$out" ||
	rec_die "records do not carry device ${mm/:/,}"
# completions: no error
awk '$6 == "C" && $NF != "[0]" { bad = 1 } END { exit bad }' <<<"$out" || rec_die "a completion carries an error"
# the host note (docs/format.md), and export's host column from it
grep -qF "m   N blkscope host=$(uname -n) kernel=$(uname -r) boot_id=$(cat /proc/sys/kernel/random/boot_id)" <<<"$out" ||
	rec_die "no host note: $(grep -m1 ' m ' <<<"$out")"
hosts=$("$BIN/blkscope-export" --format csv -o - "$REC_WORK/$REC_LOOP_NAME" | awk -F, 'NR > 1 { print $1 }' | sort -u)
[ "$hosts" = "$(uname -n)" ] || rec_die "export's host column: '$hosts'"

# pipe mode checks the sequence numbers: every CPU from 1, no gaps
pipe=$(cat "$REC_WORK/$REC_LOOP_NAME".blktrace.* | rec_blkparse -i -)
grep -q '^Skips: 0 forward' <<<"$pipe" || rec_die "sequence gaps: $(grep Skips <<<"$pipe")"

# -- COMMAND: exit status comes back, stdin/stdout pass through untouched
rc=0
"$REC" -d "$REC_LOOP" -D "$REC_WORK" -o st -- sh -c 'exit 7' 2>/dev/null || rc=$?
[ "$rc" -eq 7 ] || rec_die "exit status 7 of the command came back as $rc"
rc=0
"$REC" -d "$REC_LOOP" -D "$REC_WORK" -o st --force -- /nonexistent/cmd 2>/dev/null || rc=$?
[ "$rc" -eq 127 ] || rec_die "a missing command should give 127, got $rc"
got=$(echo "hello through" | "$REC" -d "$REC_LOOP" -D "$REC_WORK" -o st --force -- cat 2>/dev/null)
[ "$got" = "hello through" ] || rec_die "stdin/stdout of the command were not passed through: '$got'"
echo "OK"
