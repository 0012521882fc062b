#!/bin/bash
# blkscope analyze vs btt 2.09 on hand-written traces, each aimed at one of
# btt's matching rules: merges, plugs (IO and timer unplugs, still plugged
# at the end), requeues, dm/md remaps, splits, pre-culling, zero-byte
# events, duplicate and overlapping sectors, process naming, several
# devices, seek ties that need btt's tree shape.  The report and the side
# files (-l -q -z -p -I -o -X -s -B -Q -u -L -Z -P) must equal btt's byte
# for byte.
set -euo pipefail
source "$TOP/tests/lib/analyze.sh"
bt_need_tools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# every case is checked with these option sets
check() {
	local base=$1
	bt_compare_all "$base"
	bt_compare_all "$base" -A
	bt_compare_all "$base" -a -d 0.000002
	bt_compare_all "$base" -l @ -q @ -z @ -p @.perio -I @.iostat
	bt_compare_all "$base" -I @.iostat -S 1 -t 0.000002 -T 0.5
	bt_compare_all "$base" -r -A
	bt_compare_all "$base" -o @ -X
	bt_compare_all "$base" -s @ -B @ -Q @ -u @
	bt_compare_cwd_files "$base" -Z -L 0.000003 -P x
	echo "ok: $base"
}

# merges (back and front), plug + IO unplug + timer unplug, a plug left
# open at the end; TIME CPU DEV ACT FLAGS SECTOR BYTES PID [ARGS]
bt_mktrace merges <<'EOF'
0 0 8,0 N - 0 0 100 fio
0 1 8,0 N - 0 0 0 swapper/1
1000 0 8,0 Q WS 2048 4096 100
1500 0 8,0 G WS 2048 4096 100
1700 0 8,0 P - 0 0 100
2000 0 8,0 Q WS 2056 4096 100
2100 0 8,0 M WS 2056 4096 100
2200 0 8,0 Q WS 2040 4096 100
2300 0 8,0 F WS 2040 4096 100
2500 0 8,0 I WS 2040 12288 100
2800 0 8,0 U - 0 0 100 1
3000 0 8,0 D WS 2040 12288 100
5000 1 8,0 Q R 900000 65536 100
5100 1 8,0 G R 900000 65536 100
5200 1 8,0 P - 0 0 100
5300 1 8,0 I R 900000 65536 100
9000 1 8,0 UT - 0 0 0 3
9100 1 8,0 D R 900000 65536 0
900000 1 8,0 C WS 2040 12288 0
1000000 0 8,0 C R 900000 65536 0
1500000 0 8,0 Q R 100 4096 100
1500100 0 8,0 G R 100 4096 100
1500200 0 8,0 P - 0 0 100
1500300 0 8,0 I R 100 4096 100
EOF
check merges

# requeue: D, R, D again, C; a requeue of an unknown request
bt_mktrace requeue <<'EOF'
0 0 8,16 N - 0 0 7 kworker/2:1H
1000 0 8,16 Q W 5000 8192 7
1200 0 8,16 G W 5000 8192 7
1300 0 8,16 I W 5000 8192 7
1400 0 8,16 D W 5000 8192 7
2000 1 8,16 R W 5000 8192 0
2500 1 8,16 I W 5000 8192 7
3000 1 8,16 D W 5000 8192 7
3500 0 8,16 R W 7000 8192 7
9000 0 8,16 C W 5000 8192 0
EOF
check requeue

# a dm device (253,0) over 8,0 and an md device (9,1) over 8,16: Q on the
# volume, A onto the disk, the disk's own Q/G/I/D/C, C on the volume
bt_mktrace remap <<'EOF'
0 0 253,0 N - 0 0 42 dd
1000 0 253,0 Q W 100 4096 42
1500 0 8,0 A W 2148 4096 42 253,0 100
1600 0 8,0 Q W 2148 4096 42
1700 0 8,0 G W 2148 4096 42
1800 0 8,0 I W 2148 4096 42
1900 0 8,0 D W 2148 4096 42
5000 1 8,0 C W 2148 4096 0
5100 1 253,0 C W 100 4096 0
6000 0 9,1 Q R 800 8192 42
6100 0 8,16 A R 1824 8192 42 9,1 800
6200 0 8,16 Q R 1824 8192 42
6300 0 8,16 G R 1824 8192 42
6400 0 8,16 I R 1824 8192 42
6500 0 8,16 D R 1824 8192 42
9000 1 8,16 C R 1824 8192 0
9100 1 9,1 C R 800 8192 0
9500 0 253,0 Q W 300 4096 42
9600 0 8,0 A W 2348 4096 42 253,0 300
9700 0 8,0 Q W 2348 4096 42
9800 0 8,0 G W 2348 4096 42
9900 0 8,0 I W 2348 4096 42
10000 0 8,0 D W 2348 4096 42
15000 1 8,0 C W 2348 4096 0
15100 1 253,0 C W 300 4096 0
EOF
check remap

# a split bio: Q of 1 MiB split in two; the halves are issued separately
bt_mktrace split <<'EOF'
0 0 8,0 N - 0 0 9 fio
1000 0 8,0 Q R 10000 1048576 9
1100 0 8,0 X R 10000 1048576 9 11024
1200 0 8,0 G R 10000 524288 9
1300 0 8,0 I R 10000 524288 9
1400 0 8,0 D R 10000 524288 9
1500 0 8,0 G R 11024 524288 9
1600 0 8,0 I R 11024 524288 9
1700 0 8,0 D R 11024 524288 9
5000 1 8,0 C R 10000 524288 0
6000 1 8,0 C R 11024 524288 0
7000 0 8,0 Q R 20000 4096 9
7100 0 8,0 B R 20000 4096 9
7200 0 8,0 G R 20000 4096 9
7300 0 8,0 I R 20000 4096 9
7400 0 8,0 D R 20000 4096 9
9000 1 8,0 C R 20000 4096 0
EOF
check split

# pre-culling (D/C/G/message before the first Q), zero-byte flushes,
# PC and cgroup-flagged events, a message once the device is live
bt_mktrace precull <<'EOF'
0 0 8,0 N - 0 0 5 jbd2/sda1-8
100 0 8,0 D W 64 4096 5
200 0 8,0 C W 64 4096 0
250 0 8,0 m - 0 0 5 early message
300 0 8,0 G W 64 4096 5
1000 0 8,0 Q FWS 0 0 5
1100 0 8,0 D FN 0 0 5
1200 0 8,0 C FN 0 0 0
2000 0 8,0 Q WS 128 4096 5
2100 0 8,0 G WS 128 4096 5
2150 0 8,0 m - 0 0 5 hello from the trace
2200 0 8,0 I WS 128 4096 5
2300 0 8,0 D WSp 0 4096 5
2400 0 8,0 D WS 128 4096 5
2450 0 8,0 Q Wc 4000 4096 5
2500 0 8,0 C WSp 0 4096 0
9000 1 8,0 C WS 128 4096 0
EOF
check precull

# same start sector queued twice (the newer Q replaces the older one),
# overlapping Qs, a G inside a Q's range, a D covering several Qs
bt_mktrace overlap <<'EOF'
1000 0 8,0 Q W 100 4096 1
2000 0 8,0 Q W 100 8192 1
2500 0 8,0 Q W 104 4096 1
2600 0 8,0 Q W 96 16384 1
3000 0 8,0 G W 104 4096 1
3100 0 8,0 G W 100 4096 1
3200 0 8,0 I W 100 4096 1
4000 0 8,0 M W 108 4096 1
5000 0 8,0 D W 96 16384 1
6000 0 8,0 D W 100 8192 1
20000 0 8,0 C W 100 8192 1
21000 0 8,0 C W 96 16384 1
EOF
check overlap

# process names: a shared name, a name cut at '/', pid 0, a pid never named
bt_mktrace procs <<'EOF'
0 0 8,0 N - 0 0 11 postgres
0 0 8,0 N - 0 0 12 postgres
0 0 8,0 N - 0 0 13 kworker/u8:2
0 0 8,0 N - 0 0 0 swapper/0
1000 0 8,0 Q R 1000 4096 11
1100 0 8,0 G R 1000 4096 11
1200 0 8,0 I R 1000 4096 11
1300 0 8,0 D R 1000 4096 11
2000 0 8,0 Q R 3000 4096 12
2100 0 8,0 G R 3000 4096 12
2200 0 8,0 I R 3000 4096 12
2300 0 8,0 D R 3000 4096 13
3000 0 8,0 Q W 5000 4096 77
3100 0 8,0 G W 5000 4096 77
3200 0 8,0 I W 5000 4096 77
3300 0 8,0 D W 5000 4096 77
9000 0 8,0 C R 1000 4096 0
9100 0 8,0 C R 3000 4096 13
9200 0 8,0 C W 5000 4096 99
300000000 0 8,0 Q W 5000 4096 13
300000100 0 8,0 G W 5000 4096 13
300000200 0 8,0 I W 5000 4096 13
300000300 0 8,0 D W 5000 4096 13
300009000 0 8,0 C W 5000 4096 0
EOF
check procs

# three devices interleaved; the seek distances tie so that btt's tree
# shape decides the median and the order of the modes
{
	t=1000
	for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
		for dev in 8,0 8,16 8,32; do
			s=$(( (i * 7919 + ${dev#*,} * 13) % 5000 * 8 ))
			echo "$t 0 $dev Q R $s 4096 1"
			echo "$((t + 100)) 0 $dev G R $s 4096 1"
			echo "$((t + 200)) 0 $dev I R $s 4096 1"
			echo "$((t + 300)) 0 $dev D R $s 4096 1"
			echo "$((t + 90000)) 1 $dev C R $s 4096 0"
			t=$((t + 1000))
		done
	done
} | bt_mktrace multi
check multi
bt_compare_all multi -D "8,32;8,0"
bt_compare_all multi -A -e pid000000001

# ties in the seek counts: two medians candidates, several modes
bt_mktrace ties <<'EOF'
1000 0 8,0 Q R 1000 4096 1
2000 0 8,0 Q R 3000 4096 1
3000 0 8,0 Q R 1000 4096 1
4000 0 8,0 Q R 3000 4096 1
5000 0 8,0 Q R 1000 4096 1
6000 0 8,0 Q R 7000 4096 1
7000 0 8,0 Q R 1000 4096 1
EOF
check ties
