#!/usr/bin/env bash
# SIGKILL under load: the recorder cannot clean up, so the kernel must.  The
# BPF programs, links and maps it held (read from /proc/PID/fdinfo while it
# runs) must all be gone shortly after the kill, nothing may be left pinned
# in /sys/fs/bpf, the files written so far must still walk as whole records
# up to a possibly torn last one, and the next recording must work.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
. "$(dirname "$0")/lib/hard.sh"
rec_require fio python3 bpftool
rec_workdir
rec_loop 128

pins_before=$(find /sys/fs/bpf -mindepth 1 2>/dev/null | sort || true)
hard_fio_load "$REC_LOOP" 30
"$REC" -v -d "$REC_LOOP" -D "$REC_WORK" -o killed 2>"$REC_WORK/killed.err" &
pid=$!
rec_defer "kill -9 $pid 2>/dev/null"
hard_wait_for "$REC_WORK/killed.err" "tracing $REC_LOOP" 600 ||
	rec_die "recorder did not start: $(cat "$REC_WORK/killed.err")"
sleep 1
objs=$(hard_bpf_fds "$pid")
nprog=$(grep -c '^prog ' <<<"$objs" || true)
nlink=$(grep -c '^link ' <<<"$objs" || true)
nmap=$(grep -c '^map ' <<<"$objs" || true)
echo "recorder $pid holds: $nprog programs, $nlink links, $nmap maps"
[ "$nprog" -gt 0 ] && [ "$nlink" -gt 0 ] && [ "$nmap" -gt 0 ] ||
	rec_die "could not see the recorder's BPF objects in /proc/$pid/fdinfo: $objs"
while read -r kind id; do
	hard_bpf_alive "$kind" "$id" || rec_die "bpftool does not show $kind $id while the recorder runs"
done <<<"$objs"

kill -9 "$pid"
wait "$pid" 2>/dev/null || true
kill "$HARD_FIO_PID" 2>/dev/null || true
wait "$HARD_FIO_PID" 2>/dev/null || true

# the kernel frees them once the last reference goes (RCU: give it 10 s)
left=""
for _ in $(seq 100); do
	left=""
	while read -r kind id; do
		hard_bpf_alive "$kind" "$id" && left+="$kind $id; "
	done <<<"$objs"
	[ -z "$left" ] && break
	sleep 0.1
done
[ -z "$left" ] || rec_die "still in the kernel 10 s after SIGKILL: $left"
pins_after=$(find /sys/fs/bpf -mindepth 1 2>/dev/null | sort || true)
[ "$pins_before" = "$pins_after" ] || rec_die "/sys/fs/bpf changed: $(diff <(echo "$pins_before") <(echo "$pins_after"))"
echo "after SIGKILL: all $nprog programs, $nlink links, $nmap maps released; nothing pinned"

# files so far: whole records, except that the last one may be torn by the kill
for f in "$REC_WORK"/killed.blktrace.*; do
	python3 - "$f" <<'PY' || rec_die "$f: damaged before its end"
import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.environ["TOP"] + "/tests/lib")
import blktrace
data = open(sys.argv[1], "rb").read()
off = recs = 0
for o, r, _ in blktrace.records(data, whole=False):
    if r.magic != blktrace.MAGIC_V7:
        sys.exit("bad magic %#x at %d" % (r.magic, o))
    off = o + blktrace.HDR_SIZE + r.pdu_len
    recs += 1
print("%s: %d whole records, %d torn bytes at the end" % (sys.argv[1], recs, len(data) - off))
PY
done

# the next run works
"$REC" -d "$REC_LOOP" -D "$REC_WORK" -o next -- dd if="$REC_LOOP" of=/dev/null bs=4k count=16 iflag=direct status=none \
	2>"$REC_WORK/next.err" || { cat "$REC_WORK/next.err"; rec_die "the recording after SIGKILL failed"; }
rec_check_files "$REC_WORK" next
hard_walk "$REC_WORK" next >/dev/null
out=$(rec_blkparse -D "$REC_WORK" -i next)
[ "$(rec_count "$out" C)" -ge 16 ] || rec_die "the next recording misses completions: $out"
echo OK
