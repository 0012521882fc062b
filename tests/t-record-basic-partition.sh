#!/usr/bin/env bash
# A partition is traced like the kernel does it: records carry the
# partition's dev_t, the base name is the partition's kernel name, the LBA
# window is the partition (I/O elsewhere on the disk is filtered out, but P/U
# with sector 0 pass), and the remap shows where the I/O came from.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require addpart delpart
rec_workdir
rec_loop 64
addpart "$REC_LOOP" 1 2048 32768 || rec_die "addpart failed"
rec_defer "delpart '$REC_LOOP' 1"
part=${REC_LOOP}p1
for i in $(seq 50); do [ -b "$part" ] && break; sleep 0.1; done
[ -b "$part" ] || rec_die "$part did not appear"
udevadm settle 2>/dev/null || true

"$REC" -d "$part" -D "$REC_WORK" -- sh -c "
	dd if=/dev/zero of=$part bs=4k count=4 oflag=direct status=none
	dd if=/dev/zero of=$REC_LOOP bs=4k count=4 seek=10000 oflag=direct status=none" 2>"$REC_WORK/err" ||
	{ cat "$REC_WORK/err"; rec_die "record failed"; }
rec_check_files "$REC_WORK" "${REC_LOOP_NAME}p1"
out=$(rec_blkparse -D "$REC_WORK" -i "${REC_LOOP_NAME}p1")
pmm=$(cat "/sys/class/block/${REC_LOOP_NAME}p1/dev")
dmm=$(cat "/sys/class/block/$REC_LOOP_NAME/dev")
# (blkparse prints A lines with the remap's device_to, the whole disk)
awk -v d="${pmm/:/,}" 'NF > 6 && $1 ~ /^[0-9]+,[0-9]+$/ && $6 != "A" && $1 != d { bad = 1 } END { exit bad }' <<<"$out" ||
	rec_die "records not all on the partition's dev_t ${pmm/:/,}"
# the 4 partition writes at disk sectors 2048.. are in, the disk write at 80000 is not
q=$(awk '$6 == "Q" { print $8 }' <<<"$out" | sort -n | tr '\n' ' ')
[ "$q" = "2048 2056 2064 2072 " ] || rec_die "unexpected Q sectors: $q"
# the remap: "A WS 2048 + 8 <- (part) 0"
grep -Eq "^ *${dmm/:/,} .* A +WS 2048 \+ 8 <- \(${pmm/:/,}\) 0$" <<<"$out" || rec_die "no remap line for the first write: $out"
echo OK
