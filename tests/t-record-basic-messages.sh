#!/usr/bin/env bash
# What the recorder tells its user (record/rec_say.c; docs/man/blkscope-record.1):
#  - one start line on stderr naming the device, the files and how it
#    stops (Ctrl-C; -w; the command), before the command's own output;
#  - a summary that names the files written and the command to run next,
#    and that command works on them (analyze of the suggested path);
#  - -v shows the device's sectors, first and last (the last is size - 1,
#    from /sys/block/DEV/size), and --lba as given;
#  - an idle device: "no block I/O was recorded", no suggestion to analyze;
#  - -q: nothing on stderr but that warning; plain files and stdout unchanged;
#  - -o -: the start line says stdout, no files, no suggestion.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require
rec_workdir
rec_loop 64
cd "$REC_WORK"
n=$(rec_ncpus)
size=$(cat "/sys/block/$REC_LOOP_NAME/size")
mm=$(cat "/sys/block/$REC_LOOP_NAME/dev")
files="out/$REC_LOOP_NAME.blktrace.0"
[ "$n" -gt 1 ] && files="out/$REC_LOOP_NAME.blktrace.{0..$((n - 1))}"

# 1. a command: start line first, the files and the next step at the end
"$REC" -d "$REC_LOOP" -D out -v -- sh -c "echo command-ran >&2; dd if=/dev/zero of=$REC_LOOP bs=4k count=3 oflag=direct status=none" \
	2>err || { cat err; rec_die "record failed"; }
start="blkscope record: recording $REC_LOOP (${mm/:/,}) into $files until sh exits (Ctrl-C stops both)"
grep -qxF "$start" err || { cat err; rec_die "no start line '$start'"; }
[ "$(grep -n -m1 -F 'blkscope record: recording' err | cut -d: -f1)" -lt "$(grep -n -m1 command-ran err | cut -d: -f1)" ] ||
	rec_die "the start line came after the command's output"
grep -qxF "blkscope record: tracing $REC_LOOP (${mm/:/,}), sectors 0..$((size - 1)) ($size sectors)" err ||
	{ cat err; rec_die "-v: the sectors are not 0..size-1 ($size sectors)"; }
grep -qE "^  Files:  $(sed 's/[.{}]/\\&/g' <<<"$files") \($n files?, [0-9]+ KiB\)$" err ||
	{ cat err; rec_die "the summary does not name the files"; }
next=$(sed -n 's/^Next: //p' err)
[ "$next" = "blkscope analyze out/$REC_LOOP_NAME" ] || { cat err; rec_die "next step: '$next'"; }
$BIN/blkscope ${next#blkscope } >report 2>aerr || { cat aerr; rec_die "the suggested '$next' failed"; }
grep -q "^Q2C " report || rec_die "the suggested analysis has no Q2C row"

# 2. --lba as given, -w as the way it stops
"$REC" -d "$REC_LOOP" -D out -o lba --lba 8:15 -v -w 0.2 2>err || { cat err; rec_die "record --lba failed"; }
grep -qxF "blkscope record: tracing $REC_LOOP (${mm/:/,}), sectors 8..15 (--lba)" err || { cat err; rec_die "--lba range"; }
grep -q "^blkscope record: recording .* for 0.2 s (Ctrl-C stops sooner)$" err || { cat err; rec_die "-w start line"; }

# 3. idle: no I/O, so no suggestion to analyze, and the device is named
"$REC" -d "$REC_LOOP" -D out -o idle -w 0.2 2>err || { cat err; rec_die "idle record failed"; }
grep -qxF "blkscope record: no block I/O was recorded on $REC_LOOP: was it idle? (its files hold notes only)" err ||
	{ cat err; rec_die "idle: not said"; }
! grep -q "^Next:" err || rec_die "idle: suggested an analysis of notes only"
rc=0; $BIN/blkscope analyze out/idle >/dev/null 2>aerr || rc=$?
[ "$rc" = 1 ] && grep -q "no events in out/idle: notes only" aerr || { cat aerr; rec_die "analyze of an idle recording: exit $rc"; }

# 4. -q: the warning alone; quiet with I/O: nothing at all
"$REC" -d "$REC_LOOP" -D out -o q1 -q -w 0.2 2>err || rec_die "record -q failed"
[ "$(cat err)" = "blkscope record: no block I/O was recorded on $REC_LOOP: was it idle? (its files hold notes only)" ] ||
	{ cat err; rec_die "-q on an idle device"; }
"$REC" -d "$REC_LOOP" -D out -o q2 -q -- dd if=/dev/zero of="$REC_LOOP" bs=4k count=1 oflag=direct status=none 2>err ||
	rec_die "record -q failed"
[ ! -s err ] || { cat err; rec_die "-q printed something"; }
rec_check_files out q2

# 5. -o -: stdout named, no files, no suggestion
"$REC" -d "$REC_LOOP" -o - -w 0.2 2>err >stream.bin || rec_die "record -o - failed"
grep -q "^blkscope record: recording $REC_LOOP (${mm/:/,}) to stdout for 0.2 s" err || { cat err; rec_die "-o - start line"; }
! grep -q "^  Files:\|^Next:" err || rec_die "-o -: files or a suggestion"
echo OK
