# SPDX-License-Identifier: GPL-2.0
# hard.sh - helpers for the hardening tests (tests/t-hard-*.sh), on top of
# record.sh (rec_die, rec_defer, rec_loop, ...).  Source after record.sh.

# hard_wait_for FILE PATTERN [TENTHS]: wait until FILE contains PATTERN (10 s).
hard_wait_for() {
	local i
	for ((i = 0; i < ${3:-100}; i++)); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# hard_bpf_fds PID: "prog 12", "link 7", "map 40" lines, one per BPF object
# the process holds a descriptor of (from /proc/PID/fdinfo).
hard_bpf_fds() {
	local f
	for f in /proc/"$1"/fdinfo/*; do
		awk '/^prog_id:/ { print "prog", $2 } /^link_id:/ { print "link", $2 } /^map_id:/ { print "map", $2 }' "$f" 2>/dev/null
	done | sort -u
}

# hard_bpf_alive KIND ID: true while the kernel still has that object.
hard_bpf_alive() {
	bpftool "$1" show id "$2" >/dev/null 2>&1
}

# hard_fio_load DEV SECONDS [JOBS]: heavy random-read load in the background
# (io_uring, QD32, direct); sets HARD_FIO_PID, killed at exit.
hard_fio_load() {
	fio --name=hardload --filename="$1" --rw=randread --bs=4k --ioengine=io_uring \
		--iodepth=32 --direct=1 --numjobs="${3:-2}" --runtime="$2" --time_based \
		--output=/dev/null &
	HARD_FIO_PID=$!
	rec_defer "kill $HARD_FIO_PID 2>/dev/null; wait $HARD_FIO_PID 2>/dev/null"
}

# hard_summary_events ERRFILE CPU: events the recorder's summary gives for CPU.
hard_summary_events() {
	awk -v c="$2" '$1 == "CPU" && $2 == c ":" { print $3 }' "$1" | tail -1
}

# hard_walk DIR BASE: record-walk.py over the per-CPU files (dies on damage).
hard_walk() {
	python3 "$TOP/tests/lib/record-walk.py" "$1/$2".blktrace.* || rec_die "$1/$2: a file does not walk cleanly"
}

# hard_check_parse DIR BASE: blkscope parse and analyze read the files with
# no damage message and exit 0.
hard_check_parse() {
	local err
	err=$(mktemp)
	"$BIN"/blkscope parse -D "$1" -i "$2" >/dev/null 2>"$err" ||
		{ cat "$err"; rm -f "$err"; rec_die "blkscope parse $1/$2 failed"; }
	if grep -qi "damage\|bad magic\|truncated\|offset" "$err"; then
		cat "$err"; rm -f "$err"; rec_die "blkscope parse complained about $1/$2"
	fi
	"$BIN"/blkscope analyze --no-progress -i "$1/$2" >/dev/null 2>"$err" ||
		{ cat "$err"; rm -f "$err"; rec_die "blkscope analyze $1/$2 failed"; }
	rm -f "$err"
}
