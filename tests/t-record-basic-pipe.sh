#!/usr/bin/env bash
# `-o -` streams whole records of every CPU to stdout in blktrace's pipe
# format: `blkscope record -o - | blkparse -i -` shows the I/O with no
# skips; the recorder's own messages stay on stderr, and a command's stdout
# is kept out of the record stream; records arrive while recording.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require
rec_workdir
rec_loop 64

"$REC" -d "$REC_LOOP" -o - -- sh -c "echo from-the-command; dd if=/dev/zero of=$REC_LOOP bs=4k count=16 oflag=direct status=none" \
	>"$REC_WORK/stream" 2>"$REC_WORK/err" || { cat "$REC_WORK/err"; rec_die "record -o - failed"; }
grep -q from-the-command "$REC_WORK/err" || rec_die "the command's stdout did not go to stderr"
grep -q "Total:" "$REC_WORK/err" || rec_die "no summary on stderr"
if grep -aq from-the-command "$REC_WORK/stream"; then rec_die "command output leaked into the record stream"; fi
size=$(stat -c %s "$REC_WORK/stream")
[ "$size" -gt 0 ] || rec_die "empty stream"

out=$(rec_blkparse -i - <"$REC_WORK/stream")
for a in Q D C; do
	n=$(rec_count "$out" "$a")
	[ "$n" -eq 16 ] || rec_die "expected 16 $a events in the stream, got $n"
done
grep -q '^Skips: 0 forward' <<<"$out" || rec_die "skips in the stream: $(grep Skips <<<"$out")"

# and through a real pipe
out=$("$REC" -d "$REC_LOOP" -o - -- dd if="$REC_LOOP" of=/dev/null bs=4k count=4 iflag=direct status=none 2>/dev/null |
	rec_blkparse -i -)
[ "$(rec_count "$out" C)" -eq 4 ] || rec_die "expected 4 completions through the pipe: $out"

# live: records of a quiet CPU reach stdout while recording, not only at the end
"$REC" -v -d "$REC_LOOP" -o - -w 5 >"$REC_WORK/live" 2>"$REC_WORK/live.err" &
pid=$!
rec_defer "kill $pid 2>/dev/null"
for i in $(seq 100); do grep -q "tracing $REC_LOOP" "$REC_WORK/live.err" && break; sleep 0.05; done
dd if=/dev/zero of="$REC_LOOP" bs=4k count=2 oflag=direct status=none
sleep 1
live=$(rec_blkparse -i - <"$REC_WORK/live")
[ "$(rec_count "$live" C)" -eq 2 ] || rec_die "records did not arrive while recording: $live"
kill -INT "$pid"
wait "$pid" || rec_die "live recorder failed"
echo OK
