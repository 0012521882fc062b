#!/usr/bin/env bash
# The flight recorder on a real latency spike: a loop device whose backing
# file lives on an ext4 (itself on a loop device over /dev/shm) that
# fsfreeze stops for 300 ms, under a direct-write + fsync loop.  With
# --ring and --trigger 'D2C>100ms' exactly one snapshot is written; btt
# sees the stall in it (D2C max >= 0.25 s); it holds the history from
# before the trigger and the --after window; its trigger note names a C
# record of the stall; every pid is named; blkparse reading the snapshot
# merged (its dump, in pipe mode) reports no skips; blkscope analyze of
# the snapshot names the trigger and finds the I/O that fired it (text
# block, JSON triggers[0].io with the recorder's D2C, a marker in the
# HTML charts).  The same run without the freeze writes no snapshot.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require fio python3 btt fsfreeze mkfs.ext4 mount
rec_workdir
W=$REC_WORK
check="python3 $(dirname "$0")/lib/flight-check.py"

# ext4 on a loop over /dev/shm, holding the backing file of the traced loop device
rec_loop 256
LA=$REC_LOOP
mkfs.ext4 -q "$LA"
mkdir "$W/mnt"
mount "$LA" "$W/mnt"
rec_defer "umount '$W/mnt'"
truncate -s 64M "$W/mnt/backing"
LB=$(losetup -f --show "$W/mnt/backing") || rec_die "losetup on the ext4 file failed"
rec_defer "losetup -d '$LB'"
rec_defer "fsfreeze -u '$W/mnt' 2>/dev/null"	# runs first: never leave it frozen
NAME=$(basename "$LB")

# workload FREEZE: 3.3 s of 4k direct writes with an fsync after each; with
# FREEZE=1 the ext4 under the backing file is frozen for 300 ms at 2 s
# (fio may take most of a second to start on a loaded machine: the history
# before the trigger must still reach 0.8 s)
workload() {
	fio --name=spike --filename="$LB" --rw=write --bs=4k --direct=1 --fsync=1 \
		--ioengine=sync --runtime=3.3 --time_based --output=/dev/null &
	sleep 2
	if [ "$1" = 1 ]; then
		fsfreeze -f "$W/mnt"
		sleep 0.3
		fsfreeze -u "$W/mnt"
	fi
	wait
}

run() {	# run DIR FREEZE
	"$REC" -d "$LB" -D "$1" --ring 64M --trigger 'D2C>100ms' --after 500ms -- \
		bash -c "$(declare -f workload); LB=$LB W=$W workload $2" 2>"$1.err" ||
		{ cat "$1.err"; rec_die "record failed"; }
	cat "$1.err"
}

run "$W/spike" 1
mapfile -t snaps < <(find "$W/spike" -mindepth 1 -maxdepth 1 -type d)
[ "${#snaps[@]}" = 1 ] || rec_die "${#snaps[@]} snapshots for one stall"
S=${snaps[0]}
case "$(basename "$S")" in
*-D2C-gt-100ms) ;;
*) rec_die "snapshot directory $(basename "$S") does not name its trigger" ;;
esac
rec_check_files "$S" "$NAME"
out=$($check "$S" "$NAME") || rec_die "the snapshot is not a valid recording"
echo "$out"
read -r trig hist after <<<"$(awk 'NR == 1 { split($4, h, "="); split($5, a, "=");
	split($3, l, "="); print l[2], h[2], a[2] }' <<<"$out")"
[ "$trig" -ge 250000000 ] || rec_die "the trigger note's latency $trig ns is not the stall"
[ "$hist" -ge 800000000 ] || rec_die "only $hist ns of history before the trigger"
[ "$after" -ge 300000000 ] && [ "$after" -le 600000000 ] ||
	rec_die "$after ns recorded after the trigger (--after 500ms)"
grep -q "^pid [0-9]* fio$" <<<"$out" || rec_die "fio is not named"

# btt sees the stall; blkparse reads the snapshot without skips or unnamed pids
(cd "$S" && blkparse -O -d "$W/snap.dump" -i "$NAME" >/dev/null)
btt -i "$W/snap.dump" -o "$W/snap.btt" >/dev/null
d2c_max=$(awk '$1 == "D2C" { print $4; exit }' "$W/snap.btt.avg")
echo "btt D2C max: $d2c_max s"
awk -v m="$d2c_max" 'BEGIN { exit !(m >= 0.25) }' || rec_die "btt D2C max $d2c_max < 0.25 s"
parsed=$(rec_blkparse -i - <"$W/snap.dump")
skips=$(sed -n 's/^Skips: \([0-9]*\) forward.*/\1/p' <<<"$parsed")
[ "$skips" = 0 ] || rec_die "blkparse reports ${skips:-no count of} skips in the snapshot"
grep -q '(null)' <<<"$parsed" && rec_die "blkparse prints an unnamed pid"

# the analyzer says what triggered the snapshot and finds that I/O
(cd "$S" && "$BIN/blkscope-analyze" --json "$W/snap.json" --html "$W/snap.html" "$NAME" >"$W/snap.txt") ||
	rec_die "analyze of the snapshot failed"
grep -q "^==================== Snapshot Trigger" "$W/snap.txt" || rec_die "no trigger block in the text report"
grep -q "^#1 D2C>100ms (latency) at " "$W/snap.txt" || rec_die "the text report does not name trigger #1"
python3 - "$W/snap.json" "$d2c_max" <<'PY' || rec_die "the JSON report's trigger is wrong"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["triggers"][0]
io = t["io"]
assert t["n"] == 1 and t["kind"] == "latency" and t["expr"] == "D2C>100ms", t
assert io is not None, "the trigger's I/O was not found"
assert io["status"] == "complete" and not io["lossy"], io
assert io["c_ns"] == t["time_ns"], (io["c_ns"], t["time_ns"])
assert io["d2c_ns"] == t["latency_ns"], ("model D2C", io["d2c_ns"], "recorder", t["latency_ns"])
assert io["d2c_ns"] >= 250000000, io
assert io["d2c_ns"] <= float(sys.argv[2]) * 1e9 + 1, "D2C above btt's maximum"
print("trigger #1: I/O at %d + %d, D2C %.3f ms (the recorder: %.3f ms)" %
      (io["sector"], io["bytes"] // 512, io["d2c_ns"] / 1e6, t["latency_ns"] / 1e6))
PY
grep -q 'class="trig" data-trigger="1"' "$W/snap.html" || rec_die "no trigger marker in the HTML charts"
grep -q '<div class="trigger"' "$W/snap.html" || rec_die "no trigger banner in the HTML page"

# the same workload without the stall: nothing written
run "$W/calm" 0
[ -z "$(find "$W/calm" -mindepth 1 -maxdepth 1)" ] || rec_die "a calm run wrote a snapshot"
grep -q "^Flight recorder: 0 snapshots" "$W/calm.err" || rec_die "the calm run does not say 0 snapshots"
echo OK
