#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The fidelity comparator must accept an exact copy of the kernel's records
# and reject every single-field change, a missing or extra record, and each
# broken blkscope invariant.  Needs no recorder: the "blkscope" side is the
# real ftrace capture of a small workload turned into per-CPU blktrace files
# (tests/oracle/ftrace-to-blktrace), then mutated one way at a time.
# exclusive: yes
set -euo pipefail
. "${TOP:?}/tests/lib/oracle.sh"
oracle_require_root
oracle_workdir
oracle_loop_setup 32

# Direct writes and reads: Q/G/P/U(depth PDU)/D/C on two CPUs.
ORACLE_DRYRUN=1 oracle_run_case base "$ORACLE_LOOP_NAME" wl_direct_rw --expect Q --expect C --expect U

W=$ORACLE_WORK
ED="python3 $ORACLE_DIR/edit-records"
ncpu=$(ls "$W"/base.blktrace.* | wc -l)
[ "$ncpu" -ge 1 ] || oracle_die "converter wrote no files"

# blkparse must accept the fixture itself (else the fixture is wrong).
blkparse -i "$W/base" >"$W/base.txt" 2>&1 || oracle_die "blkparse rejected the unmutated fixture"
grep -q "Bad magic" "$W/base.txt" && oracle_die "blkparse: bad magic in the unmutated fixture"

# File and record index of the first event, the first PROCESS note and the first U.
locate() {	# KIND -> "file index"
	local f i
	for f in "$W"/base.blktrace.*; do
		if i=$($ED "$f" find "$1"); then
			echo "$(basename "$f") $i"
			return 0
		fi
	done
	oracle_die "fixture has no $1 record"
}
loc=$(locate event); read -r ev_file ev_idx <<<"$loc"
loc=$(locate process); read -r pr_file pr_idx <<<"$loc"
loc=$(locate unplug); read -r un_file un_idx <<<"$loc"

pass=0
# mutate NAME EXPECTED_REGEX SETUP...: copy the fixture, run SETUP (with
# $M = the mutant's directory), then the comparator must fail and say why.
mutate() {
	local name=$1 expect=$2 rc=0
	shift 2
	M=$W/mut-$name
	mkdir "$M"
	cp "$W"/base.blktrace.* "$W/base.ftrace" "$M/"
	eval "$*"
	python3 "$ORACLE_DIR/compare-records" "$M/base.ftrace" "$M/base" >"$M/out" 2>&1 || rc=$?
	if [ "$rc" -ne 1 ]; then
		cat "$M/out"
		oracle_die "mutation '$name' not detected (comparator exit $rc, want 1)"
	fi
	grep -Eq -- "$expect" "$M/out" || { cat "$M/out"; oracle_die "mutation '$name': output lacks /$expect/"; }
	pass=$((pass + 1))
}

mutate bytes   'differs in bytes'   '$ED $M/$ev_file set $ev_idx bytes 4608'
mutate sector  'differs in sector'  '$ED $M/$ev_file set $ev_idx sector 123456'
mutate pid     'differs in pid'     '$ED $M/$ev_file set $ev_idx pid 1'
mutate action  'differs in action'  '$ED $M/$ev_file set $ev_idx action 0x01010001'
mutate device  'differs in device'  '$ED $M/$ev_file set $ev_idx device 0x00700063'
mutate error   'differs in error'   '$ED $M/$ev_file set $ev_idx error 5'
mutate updepth 'differs in pdu'     '$ED $M/$un_file set $un_idx pdu 0000000000000002'
mutate pdulen  'differs in pdu_len, pdu' '$ED $M/$un_file set $un_idx pdu ""'
mutate missing '1 kernel events missing from blkscope' \
	'$ED $M/$ev_file delete $ev_idx; $ED $M/$ev_file renumber'
mutate extra   '1 blkscope events the kernel does not have' \
	'$ED $M/$ev_file dup $ev_idx; $ED $M/$ev_file renumber'
mutate seqgap  'sequence [0-9]+, expected' '$ED $M/$ev_file set $ev_idx sequence 7'
mutate noteseq 'note with nonzero' '$ED $M/$pr_file set $pr_idx sequence 3'
# time: an event earlier than the record before it (or, if it is the file's
# first record, later than the one after it); either way time goes back
# (the maximum alone was not seen when the event was its file's last record)
if [ "$ev_idx" -gt 0 ]; then bad_time=0; else bad_time=0x7fffffffffffffff; fi
mutate time    'time goes backwards' '$ED $M/$ev_file set $ev_idx time $bad_time'
mutate cpu     'cpu field' '$ED $M/$ev_file set $ev_idx cpu 9'
mutate noproc  'no PROCESS note before' '$ED $M/$pr_file delete $pr_idx'
mutate nots    '0 TIMESTAMP notes' '$ED $M/base.blktrace.0 delete 0'
mutate twots   '2 TIMESTAMP notes' '$ED $M/base.blktrace.0 dup 0'
mutate magic   'bad magic 0x65617408' '$ED $M/$ev_file set $ev_idx magic 0x65617408'
mutate trunc   'truncated' 'truncate -s -7 $M/$ev_file'
mutate gapfile 'not contiguous' 'cp $M/base.blktrace.0 $M/base.blktrace.$((ncpu + 1))'
mutate lost    'lost 12 events on CPU 1' '$ED $M/base.ftrace append-text "CPU:1 [LOST 12 EVENTS]"; cat $W/base.ftrace >>$M/base.ftrace'
mutate junk    'not a v7 record' 'printf "garbage" >>$M/base.ftrace'
mutate emptyk  'the kernel recorded only 0 events' ': >$M/base.ftrace'
echo "comparator self-test: unmutated fixture passes, $pass mutations detected"
