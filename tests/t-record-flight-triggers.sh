#!/usr/bin/env bash
# The flight recorder's triggers and limits, each on a real loop device:
#  - SIGUSR1 (--trigger signal): a snapshot at once, named after the signal
#    and its sender; a SIGINT while armed writes nothing;
#  - --hold-off: a second signal inside it is held off;
#  - --max-snapshots 2: the recorder stops by itself after two;
#  - --dump-on-exit: SIGINT writes the history (kind exit);
#  - error: a write-zeroes a loop device refuses (EOPNOTSUPP) fires it, and
#    the trigger note carries the completion's error;
#  - drop: a 4 KiB kernel ring under fio loses events; the snapshot's end
#    notes count the drops inside the window and blkparse reports exactly
#    as many skips;
#  - a task that did I/O long before the window (its PROCESS note was
#    evicted from a 1 MiB history by fio) is still named in the snapshot;
#  - -o - with --max-snapshots 1: one stream that blkparse -i - reads.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require fio python3 blkdiscard
rec_workdir
rec_loop 64
W=$REC_WORK
check="python3 $(dirname "$0")/lib/flight-check.py"
PID=

start() {	# start NAME ARGS...: the recorder in the background, until it traces
	local name=$1
	shift
	"$REC" -v -d "$REC_LOOP" -D "$W/$name" "$@" 2>"$W/$name.err" &
	PID=$!
	rec_defer "kill $PID 2>/dev/null"
	for _ in $(seq 100); do
		grep -q "^blkscope record: tracing" "$W/$name.err" && return 0
		kill -0 "$PID" 2>/dev/null || { cat "$W/$name.err"; rec_die "$name: the recorder died"; }
		sleep 0.1
	done
	rec_die "$name: the recorder did not start"
}

finish() {	# finish NAME: SIGINT, wait; the exit status must be 0
	kill -INT "$PID" 2>/dev/null || true
	wait "$PID" || { cat "$W/$1.err"; rec_die "$1: exit status $?"; }
	cat "$W/$1.err"
}

io() {	# io COUNT: direct 4 KiB reads
	dd if="$REC_LOOP" of=/dev/null bs=4k count="$1" iflag=direct status=none
}

nsnaps() {
	find "$W/$1" -mindepth 1 -maxdepth 1 -type d | wc -l
}

wait_snaps() {	# wait_snaps NAME N: until N snapshots are written (5 s at most)
	for _ in $(seq 50); do
		[ "$(grep -c "^blkscope record: snapshot .* written" "$W/$1.err")" -ge "$2" ] && return 0
		sleep 0.1
	done
	cat "$W/$1.err"
	rec_die "$1: not $2 snapshots written within 5 s"
}

# 1. SIGUSR1 at once; hold-off; a stop while armed writes nothing more
start sig --ring 8M --trigger signal --after 200ms --hold-off 30s
io 200
t0=$(date +%s%N)
kill -USR1 "$PID"
wait_snaps sig 1
echo "SIGUSR1 -> snapshot on disk: $((($(date +%s%N) - t0) / 1000000)) ms"
io 10
kill -USR1 "$PID"
sleep 0.3
finish sig
[ "$(nsnaps sig)" = 1 ] || rec_die "signal: $(nsnaps sig) snapshots (hold-off 30s)"
grep -q "1 held off" "$W/sig.err" || rec_die "the second signal was not held off"
S=$(find "$W/sig" -mindepth 1 -maxdepth 1 -type d)
out=$($check "$S" "$REC_LOOP_NAME") || rec_die "signal snapshot invalid"
echo "$out"
grep -q "^trigger=signal expr=signal" <<<"$out" || rec_die "no signal trigger note"
grep -q "^pid [0-9]* dd$" <<<"$out" || rec_die "dd is not named"
case "$(basename "$S")" in *-signal) ;; *) rec_die "snapshot $(basename "$S") not named after signal" ;; esac

# 2. --max-snapshots 2: three signals, two snapshots, the recorder stops
start max --ring 8M --trigger signal --after 100ms --max-snapshots 2
for i in 1 2 3; do
	io 20
	kill -USR1 "$PID" 2>/dev/null || true
	sleep 0.5
done
for _ in $(seq 50); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
kill -0 "$PID" 2>/dev/null && rec_die "--max-snapshots 2: still running after 2 snapshots"
wait "$PID" || rec_die "--max-snapshots: exit status $?"
[ "$(nsnaps max)" = 2 ] || rec_die "--max-snapshots 2 wrote $(nsnaps max)"

# 2b. --budget: each snapshot of a full 1 MiB history is ~1 MiB; with a
# 2 MiB budget every new one removes the one before, the newest stays
start budget --ring 1M --trigger signal --after 0s --budget 2M
for i in 1 2 3; do
	io 8000
	kill -USR1 "$PID"
	wait_snaps budget "$i"
done
finish budget
[ "$(nsnaps budget)" = 1 ] || rec_die "--budget: $(nsnaps budget) snapshots kept"
[ "$(grep -c "removed snapshot .*--budget 2 MiB" "$W/budget.err")" = 2 ] || rec_die "--budget: not 2 removed"
newest=$(sed -n 's/.*snapshot \(.*\) written.*/\1/p' "$W/budget.err" | tail -1)
[ -d "$newest" ] || rec_die "--budget: the newest snapshot $newest was removed"
[ "$(du -sk "$W/budget" | cut -f1)" -le 2048 ] || rec_die "--budget: more than 2 MiB on disk"

# 3. --dump-on-exit: SIGINT writes the history
start dump --ring 8M --dump-on-exit
io 50
finish dump
S=$(find "$W/dump" -mindepth 1 -maxdepth 1 -type d)
[ -n "$S" ] || rec_die "--dump-on-exit wrote nothing"
out=$($check "$S" "$REC_LOOP_NAME") || rec_die "dump snapshot invalid"
grep -q "^trigger=exit" <<<"$out" || rec_die "no exit trigger note"

# 4. error: write-zeroes is refused by a loop device
start err --ring 8M --trigger write.error --after 100ms
io 20
blkdiscard -z -o 0 -l 1M "$REC_LOOP" 2>/dev/null || true
io 5
sleep 0.3
finish err
[ "$(nsnaps err)" = 1 ] || rec_die "error: $(nsnaps err) snapshots"
S=$(find "$W/err" -mindepth 1 -maxdepth 1 -type d)
out=$($check "$S" "$REC_LOOP_NAME") || rec_die "error snapshot invalid"
grep -q "^trigger=error expr=write.error" <<<"$out" || rec_die "no error trigger"
python3 - "$S" <<'PY' || rec_die "the error trigger note does not carry the error of its C"
import glob, os, sys
sys.path.insert(0, os.path.join(os.environ.get("TOP", "."), "tests", "lib"))
import blktrace
errs, note = set(), None
for p in glob.glob(sys.argv[1] + "/*"):
    for _, r, pdu in blktrace.records(open(p, "rb").read()):
        if blktrace.basic(r.action) == blktrace.TA_COMPLETE and r.error:
            errs.add(r.error)
        if r.action == 0x04000102 and b"blkscope trigger" in pdu:
            note = dict(w.split("=", 1) for w in pdu[8:].decode().split() if "=" in w)
assert note and int(note["error"]) in errs and int(note["error"]) != 0, (note, errs)
PY

# 5. drop: -b 4 under fio; the end notes' drops = blkparse's skips
fio_run() {
	fio --name=flight --filename="$REC_LOOP" --rw=randread --bs=4k --ioengine=io_uring \
		--iodepth=32 --direct=1 --runtime=1 --time_based --output=/dev/null
}
"$REC" -d "$REC_LOOP" -D "$W/drop" -b 4 --ring 16M --trigger drop --after 300ms --max-snapshots 1 \
	-- bash -c "$(declare -f fio_run); REC_LOOP=$REC_LOOP fio_run" 2>"$W/drop.err" || true
cat "$W/drop.err"
S=$(find "$W/drop" -mindepth 1 -maxdepth 1 -type d)
[ -n "$S" ] || rec_die "drop: no snapshot"
out=$($check "$S" "$REC_LOOP_NAME") || rec_die "drop snapshot invalid"
head -1 <<<"$out"
drops=$(sed -n '1s/.* drops=\([0-9]*\).*/\1/p' <<<"$out")
[ "$drops" -gt 0 ] || rec_die "the drop snapshot's end notes count no drops"
# the snapshot's files merged by time (as the recorder's -o - writes them)
# into blkparse's pipe mode, which checks the sequences: every lost event is
# a skip.  blkparse can count a few more ("slip" when a late event splits
# a gap, docs/format.md "Merging"), never fewer.
python3 - "$S" "$W/drop.stream" <<'PY'
import glob, os, sys
sys.path.insert(0, os.path.join(os.environ.get("TOP", "."), "tests", "lib"))
import blktrace
recs = []
for p in glob.glob(sys.argv[1] + "/*"):
    d = open(p, "rb").read()
    recs += [(r.time, d[o:o + 48 + r.pdu_len]) for o, r, _ in blktrace.records(d)]
recs.sort(key=lambda x: x[0])
open(sys.argv[2], "wb").write(b"".join(b for _, b in recs))
PY
# "Skips: RANGES forward (EVENTS - x%)"
skipped=$(blkparse -i - <"$W/drop.stream" | sed -n 's/^Skips: [0-9]* forward (\([0-9]*\) .*/\1/p')
echo "blkparse skipped $skipped events; the end notes count $drops drops"
[ "$skipped" -ge "$drops" ] && [ "$skipped" -le $((drops + drops / 100)) ] ||
	rec_die "blkparse skipped $skipped events, the end notes count $drops"

# 6. a task seen long before the window keeps its name; 7. one stream on stdout
cat >"$W/oldtask.py" <<'PY'
import mmap, os, sys
with open("/proc/self/comm", "w") as f:
    f.write("flight-oldtask")
buf = mmap.mmap(-1, 4096)
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECT)
os.preadv(fd, [buf], 0)
sys.stdin.readline()             # the history is overwritten meanwhile
os.preadv(fd, [buf], 1 << 20)
PY
mkfifo "$W/go"
"$REC" -v -d "$REC_LOOP" -o - --ring 1M --trigger signal --after 100ms --max-snapshots 1 \
	>"$W/old.stream" 2>"$W/old.err" &
PID=$!
rec_defer "kill $PID 2>/dev/null"
for _ in $(seq 100); do grep -q "^blkscope record: tracing" "$W/old.err" && break; sleep 0.1; done
python3 "$W/oldtask.py" "$REC_LOOP" <"$W/go" &
OLD=$!
exec 7>"$W/go"
sleep 0.2
fio_run
echo >&7
exec 7>&-
wait "$OLD"
kill -USR1 "$PID"
wait "$PID" || { cat "$W/old.err"; rec_die "old task: exit status $?"; }
cat "$W/old.err"
grep -q "History: .* (--ring 1024 KiB" "$W/old.err" || rec_die "no history line"
evicted=$(python3 - "$W/old.stream" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ.get("TOP", "."), "tests", "lib"))
import blktrace
names, first = {}, None
for _, r, pdu in blktrace.records(open(sys.argv[1], "rb").read()):
    if r.action == 0x04000000:
        names[r.pid] = blktrace.comm(pdu).decode()
    elif not blktrace.is_note(r.action) and first is None:
        first = r.time
print(sum(1 for n in names.values() if n == "flight-oldtask"))
PY
)
[ "$evicted" = 1 ] || rec_die "the old task is not named exactly once in the stream ($evicted)"
parsed=$(rec_blkparse -i - <"$W/old.stream")
grep -q "flight-oldtask" <<<"$parsed" || rec_die "blkparse does not name the old task"
skips=$(sed -n 's/^Skips: \([0-9]*\) forward.*/\1/p' <<<"$parsed")
[ "$skips" = 0 ] || rec_die "blkparse -i - reports ${skips:-no count of} skips in the stream"

# 8. a full disk: the snapshot is cut at a whole record, the recorder goes on
mkdir "$W/tiny"
mount -t tmpfs -o size=1M tmpfs "$W/tiny"
rec_defer "umount '$W/tiny'"
start tiny --ring 16M --trigger signal --after 0s
io 20000
kill -USR1 "$PID"
wait_snaps tiny 0
for _ in $(seq 50); do grep -q "cut short" "$W/tiny.err" && break; sleep 0.1; done
kill -USR1 "$PID"	# the disk is still full: nothing can be written, nothing is left
sleep 0.5
finish tiny
grep -q "snapshot .* is cut short by a write error" "$W/tiny.err" || rec_die "full disk: not said"
grep -q "failed before anything was written; removed" "$W/tiny.err" ||
	rec_die "full disk: an empty snapshot was left"
[ "$(nsnaps tiny)" = 1 ] || rec_die "full disk: $(nsnaps tiny) snapshot directories"
python3 "$(dirname "$0")/lib/record-walk.py" "$W"/tiny/*/* || rec_die "full disk: a file is not whole records"

# bad command lines: exit 2 with one line
for bad in "--trigger D2C>" "--trigger bogus" "--trigger 9,9:D2C>1ms" "--ring 1K --trigger signal" \
	"--trigger signal" "--ring 8M" "--ring 8M --trigger drop -o -"; do
	set +e
	# shellcheck disable=SC2086
	"$REC" -d "$REC_LOOP" $bad 2>"$W/bad.err"
	rc=$?
	set -e
	[ "$rc" = 2 ] && [ "$(wc -l <"$W/bad.err")" = 1 ] || { cat "$W/bad.err"; rec_die "'$bad': exit $rc"; }
done
echo OK
