#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every refusal of `blkscope replay` is one line naming the device and the
# reason, exit 1, and not a single I/O reaches the device: the kernel's
# counters (/sys/block/DEV/stat) do not move.  Refused:
#  - writes, flushes and discards without --allow-writes;
#  - a mounted device, also with --allow-writes, also a dry run;
#  - a partition of a mounted disk, and a disk with a mounted partition;
#  - a device held by another one (device-mapper), where dmsetup works;
#  - a device in use that sysfs does not show (swap): O_EXCL refuses it;
#  - I/O past the end of the device (and --wrap folds it in instead);
#  - I/O not aligned to the device's logical blocks (4096-byte sectors);
#  - a device that does not exist, a path that is not a block device.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
need_root "CAP_SYS_ADMIN for loop devices and mounts"
need_tools losetup python3 mkfs.ext4 mount umount addpart delpart
need_built "$BIN/blkscope-replay" "blkscope replay (needs liburing at build time)"
rec_workdir
W=$REC_WORK
RP=$BIN/blkscope-replay
G=$BIN/bs-gen-trace

# a trace of 7,0: reads and writes below 8 MiB; one with a read at 100 MiB; one at sector 1
cat >"$W/rw.txt" <<'EOF'
1000 0 7,0 N - 0 0 42 app
1000 0 7,0 Q R 2048 4096 42
2000 0 7,0 C R 2048 4096 42
3000 0 7,0 Q WS 4096 8192 42
4000 0 7,0 C WS 4096 8192 42
5000 0 7,0 Q WFS 0 0 42
6000 0 7,0 C WS 0 0 42
EOF
grep -v ' W' "$W/rw.txt" >"$W/ro.txt"
printf '1000 0 7,0 Q R 204800 4096 42\n2000 0 7,0 C R 204800 4096 42\n' >>"$W/ro.txt"
printf '1000 0 7,0 Q R 1 4096 42\n2000 0 7,0 C R 1 4096 42\n' >"$W/odd.txt"
for t in rw ro odd; do
	"$G" -w script -o "$W/$t" <"$W/$t.txt"
done

rec_loop 64
T=$REC_LOOP
T_NAME=$REC_LOOP_NAME

# refused WHAT WANT STATFILE CMD...: exit 1, one line with WANT, STATFILE unchanged
refused() {
	local what=$1 want=$2 stat=$3 rc=0 before
	shift 3
	before=$(cat "$stat")
	"$@" >"$W/out" 2>"$W/err" || rc=$?
	[ "$rc" -eq 1 ] && [ "$(wc -l <"$W/err")" -eq 1 ] && grep -qF -- "$want" "$W/err" ||
		{ cat "$W/out" "$W/err"; rec_die "$what: exit $rc; expected one line with '$want'"; }
	[ "$(cat "$stat")" = "$before" ] || rec_die "$what: refused, but the device saw I/O"
	[ ! -s "$W/out" ] || { cat "$W/out"; rec_die "$what: refused, but it printed a replay"; }
	echo "ok: $what: $(cat "$W/err")"
}
S=/sys/block/$T_NAME/stat

# ---- writes
refused "writes without --allow-writes" "only with --allow-writes" "$S" "$RP" -d "$T" "$W/rw"
refused "past the end" "end past the device's end" "$S" "$RP" -d "$T" "$W/ro"
before=$(cat "$S")
"$RP" -d "$T" --wrap --json "$W/wrap.json" "$W/ro" >"$W/out" || rec_die "--wrap: replay failed"
[ "$(cat "$S")" != "$before" ] && grep -q '"wrapped": 1' "$W/wrap.json" ||
	rec_die "--wrap: the I/O past the end was not folded in: $(cat "$W/wrap.json")"
echo "ok: --wrap folds the read at 100 MiB into the 64 MiB device"
"$RP" -d "$T" --reads-only "$W/rw" >/dev/null || rec_die "--reads-only: the reads of a trace with writes"
echo "ok: --reads-only replays the reads of a trace with writes"

# ---- 4096-byte logical blocks
F4K=$(mktemp /dev/shm/blkscope-rref.XXXXXX)
rec_defer "rm -f '$F4K'"
truncate -s 64M "$F4K"
L4K=$(losetup -f --show --sector-size 4096 "$F4K")
rec_defer "losetup -d '$L4K'"
refused "I/O not aligned to 4096-byte blocks" "not aligned to the device's 4096-byte logical blocks" \
	"/sys/block/$(basename "$L4K")/stat" "$RP" -d "$L4K" "$W/odd"

# ---- not a device
refused "a device that does not exist" "cannot open: No such file or directory" "$S" \
	"$RP" -d /dev/blkscope-no-such-device "$W/ro"
refused "not a block device" "not a block device" "$S" "$RP" -d "$W/rw.txt" "$W/ro"

# ---- mounted
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$T"
mkdir "$W/mnt"
mount -o ro "$T" "$W/mnt"	# read-only: the filesystem does no I/O of its own
rec_defer "umount '$W/mnt' 2>/dev/null"
sync
refused "a mounted device" "is mounted on" "$S" "$RP" -d "$T" "$W/ro"
refused "a mounted device, with --allow-writes" "is mounted on" "$S" "$RP" --allow-writes -d "$T" "$W/rw"
refused "a mounted device, dry run" "is mounted on" "$S" "$RP" -n -d "$T" "$W/ro"
umount "$W/mnt"

# ---- partitions: a partition of a mounted disk, a disk with a mounted partition
rec_loop 64
P=$REC_LOOP
P_NAME=$REC_LOOP_NAME
addpart "$P" 1 2048 32768 || rec_die "addpart failed"
rec_defer "delpart '$P' 1 2>/dev/null"
for i in $(seq 50); do [ -b "${P}p1" ] && break; sleep 0.1; done
[ -b "${P}p1" ] || rec_die "${P}p1 did not appear"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "${P}p1"
mount -o ro "${P}p1" "$W/mnt"
refused "a disk with a mounted partition" "its partition" "/sys/block/$P_NAME/stat" \
	"$RP" --allow-writes -d "$P" "$W/rw"
umount "$W/mnt"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$P"
mount -o ro "$P" "$W/mnt"
refused "a partition of a mounted disk" "its disk" "/sys/block/$P_NAME/stat" \
	"$RP" --allow-writes -d "${P}p1" "$W/rw"
umount "$W/mnt"

# ---- held by device-mapper (where dmsetup can make a device)
if command -v dmsetup >/dev/null && dmsetup create "blkscope-rref-$$" \
	--table "0 1024 linear $T 0" 2>/dev/null; then
	rec_defer "dmsetup remove 'blkscope-rref-$$' 2>/dev/null"
	refused "a device held by device-mapper" "is held by dm-" "$S" "$RP" --allow-writes -d "$T" "$W/rw"
	dmsetup remove "blkscope-rref-$$"
else
	echo "note: dmsetup cannot create a device here: holders not tested (the same check as mounts)"
fi

# ---- in use in a way sysfs does not show: swap
if command -v mkswap >/dev/null && mkswap -q "$T" >/dev/null 2>&1 && swapon "$T" 2>/dev/null; then
	rec_defer "swapoff '$T' 2>/dev/null"
	refused "a swap device (O_EXCL)" "the device is in use" "$S" "$RP" -d "$T" "$W/ro"
	swapoff "$T"
else
	echo "note: swapon is not allowed here: the O_EXCL refusal not tested"
fi
echo OK
