#!/usr/bin/env bash
# --events LIST: only the listed actions are recorded, and the programs of
# the others are not loaded.  Under fio with --events Q,D,C blkparse sees
# only Q, D and C (as many of each: one bio per request at 4k random
# reads, less the completions the kernel ran no program for), btt still
# computes Q2C and D2C for every completed I/O, and the recorder's
# summary counts exactly these events.  A bad list and a trigger that needs
# a left-out event are refused (exit 2).
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require fio btt
rec_workdir
rec_loop 64
W=$REC_WORK

"$REC" -d "$REC_LOOP" -D "$W/qdc" --events Q,D,C -- fio --name=ev --filename="$REC_LOOP" \
	--rw=randread --bs=4k --ioengine=io_uring --iodepth=8 --direct=1 --runtime=1 --time_based \
	--output=/dev/null 2>"$W/qdc.err" || { cat "$W/qdc.err"; rec_die "record failed"; }
cat "$W/qdc.err"
out=$(cd "$W/qdc" && rec_blkparse -i "$REC_LOOP_NAME")
letters=$(awk 'NF >= 7 && $1 ~ /^[0-9]+,[0-9]+$/ && $6 != "m" { print $6 }' <<<"$out" | sort -u | tr '\n' ' ')
[ "$letters" = "C D Q " ] || rec_die "--events Q,D,C recorded: $letters"
q=$(rec_count "$out" Q) d=$(rec_count "$out" D) c=$(rec_count "$out" C)
# completions the kernel ran no program for (docs/record.md, "Unrecorded
# completions") are counted by the recorder against the disk's own count
unrec=$(awk '$1 == "Unrecorded:" { print $2 }' "$W/qdc.err")
echo "Q $q D $d C $c unrecorded ${unrec:-0}"
[ "$q" -gt 1000 ] && [ "$q" = "$d" ] && [ "$d" = $((c + ${unrec:-0})) ] || rec_die "Q $q D $d C $c"
total=$(awk '$1 == "Total:" { print $2 }' "$W/qdc.err")
[ "$total" = $((q + d + c)) ] || rec_die "the summary counts $total events, blkparse $((q + d + c))"
(cd "$W/qdc" && blkparse -O -d "$W/qdc.dump" -i "$REC_LOOP_NAME" >/dev/null)
btt -i "$W/qdc.dump" -o "$W/qdc.btt" >/dev/null
awk -v n="$c" '($1 == "Q2C" || $1 == "D2C") && $5 == n { k++ } END { exit k != 2 }' "$W/qdc.btt.avg" ||
	{ cat "$W/qdc.btt.avg"; rec_die "btt does not have Q2C and D2C for all $c I/Os"; }

for bad in "--events Z" "--events ," "--events Q,D --ring 8M --trigger D2C>1s" \
	"--events D,C --ring 8M --trigger Q2C>1s"; do
	set +e
	# shellcheck disable=SC2086
	"$REC" -d "$REC_LOOP" $bad 2>"$W/bad.err"
	rc=$?
	set -e
	[ "$rc" = 2 ] && [ "$(wc -l <"$W/bad.err")" = 1 ] || { cat "$W/bad.err"; rec_die "'$bad': exit $rc"; }
done
echo OK
