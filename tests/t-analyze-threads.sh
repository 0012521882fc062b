#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# --threads: with two threads (the default with two or more CPUs) the
# reports file their samples on a second thread (analyze/btt/btt_sink_thread.c),
# per-CPU files are read and merged on a third (analyze/analysis_reader.c) and
# btt's full seek logs are folded on a fourth (analyze/btt/btt_seek_folder.c).
# Every output must be byte for byte what --threads=1 writes:
#  - traces: random I/O (many batches), bulk (Qs never completed: drained
#    through the thread at the end), the two-device scenario, a real
#    recording, and a crafted trace whose second half carries cgroup ids (the
#    sample engine forks mid-run and keeps feeding the same thread) and whose
#    PROCESS notes come all along the trace (the reader hands them over in
#    their place among the events);
#  - outputs: the text report, -A, --json, --csv, --html, --group-by,
#    --interval, side files (-l -q);
#  - -v says the threads were used (so the comparison is not of two
#    single-threaded runs): the model's thread not with --threads=1 or a tagging
#    plugin, the reader not with --threads=1, -T or a stream on stdin;
#  - seek logs folded many times over (2M random events: tied D2D modes, so
#    btt's seek tree is rebuilt), also past a --seek-values budget, where the
#    values kept depend on where each fold falls: the same on both sides,
#    and the stderr line saying how many seeks were left out;
#  - a run stopped by --memory-limit with the thread running exits 1 with
#    its message (no hang, no leak under ASan);
#  - --threads=0 and --threads=3 are refused.
set -euo pipefail
source "$TOP/tests/lib/skip.sh"
need_tools python3 cmp
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "one CPU: the second thread is never used"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
A="$BIN/blkscope-analyze"
fail=0

"$BIN/bs-gen-trace" -w random -s 3 -n 400000 -o rnd
"$BIN/bs-gen-trace" -w random -s 1 -n 2000000 -o big
"$BIN/bs-gen-trace" -w bulk -n 200000 -o bulk
"$BIN/bs-gen-trace" -w scenario -o sc,sc2
"$BIN/bs-gen-trace" -o pend -w hostile-pending -n 300000	# never completed: memory grows
cp "$TOP/samples/rec-deadline-buffered/"loop0.blktrace.* .

# a crafted trace: 3000 I/Os on two CPUs, cgroup ids from the middle on
python3 - <<'PY' >cg.script
import random
rnd = random.Random(5)
t = 1000
for i in range(3000):
    flags = "W" if i % 3 else "R"
    if i >= 1500:
        flags += "c%d" % (11 + i % 2)
    cpu, pid, sec = i % 2, 100 + i // 50, 8 * rnd.randrange(1 << 20)
    if i % 50 == 0:	# a new process every 50 I/Os, named just before
        print(f"{t} {cpu} 8,0 N - 0 0 {pid} proc{pid}")
    for act in "QGID":
        t += rnd.randint(1, 40)
        print(f"{t} {cpu} 8,0 {act} {flags} {sec} 4096 {pid}")
    t += rnd.randint(1, 40)
    print(f"{t} {1 - cpu} 8,0 C {flags} {sec} 4096 0")
PY
"$BIN/bs-gen-trace" -w script -o cg <cg.script

# run_both NAME TRACE ARGS...: ARGS with --threads=1 and =2 in their own
# directories; stdout, stderr (minus the rate) and every file must agree.
run_both() {
	local name=$1 trace=$2 n
	shift 2
	for n in 1 2; do
		rm -rf "out$n" && mkdir "out$n"
		(cd "out$n" && "$A" --threads=$n "$@" "$work/$trace" >stdout 2>stderr) ||
			{ echo "FAIL: $name: --threads=$n exited $?: $(cat "out$n/stderr")"; fail=1; return; }
	done
	if ! diff -r out1 out2 >/dev/null; then
		echo "FAIL: $name: --threads=1 and --threads=2 differ:"
		diff -r out1 out2 | head -5
		fail=1
	fi
}

for tr in rnd bulk sc loop0 cg; do
	run_both "$tr text" $tr
	run_both "$tr -A -l lat -q q2c" $tr -A -l lat -q q2c
	run_both "$tr json" $tr --json -
	run_both "$tr csv+html" $tr --csv csv --html r.html
	run_both "$tr group-by pid, interval" $tr --group-by pid --interval 1ms --json -
done
run_both "big text" big
# 400000: the budget runs out only after the logs have grown past their
# first size, so a log sized from the values after a fold on one side and
# before it on the other would fold elsewhere and keep other values (that
# mutation fails here; with 150000 it did not)
run_both "big -X, --seek-values 400000" big -X --seek-values 400000
grep -q "beyond the --seek-values limit" out2/stderr ||
	{ echo "FAIL: big --seek-values 400000 left no seek out"; cat out2/stderr; fail=1; }
run_both "cg group-by cgroup" cg --group-by cgroup --json -
run_both "cg group-by cgroup csv" cg --group-by cgroup --csv csv

# the thread was used where it should be, and only there
"$A" -v rnd >/dev/null 2>v2
"$A" -v --threads=1 rnd >/dev/null 2>v1
"$A" -v --tag-plugin "$BIN/tag-by-pid" rnd >/dev/null 2>vt
"$A" -v -T 0.01 rnd >/dev/null 2>vT
"$A" -v - <rnd.blktrace.0 >/dev/null 2>vs
grep -q "the I/Os followed on a third" v2 ||
	{ echo "FAIL: -v does not say the model's thread was used"; cat v2; fail=1; }
grep -q "input is read on a second thread" v2 ||
	{ echo "FAIL: -v does not say the reader thread was used"; cat v2; fail=1; }
for v in v2 vt; do	# a plugin keeps the samples inline, not the folds
	grep -q "seek logs are folded on a second thread" $v ||
		{ echo "FAIL: -v does not say the seek folder was used ($v)"; cat $v; fail=1; }
done
if grep -q "seek logs are folded on a second thread" v1; then
	echo "FAIL: a seek folder with --threads=1"
	fail=1
fi
if grep -q "the I/Os followed on a third" v1 vt; then
	echo "FAIL: the model on a thread of its own with --threads=1 or with a tagging plugin"
	fail=1
fi
if grep -q "input is read on a second thread" v1 vT vs; then
	echo "FAIL: a reader thread with --threads=1, -T or a stream"
	fail=1
fi
run_both "rnd -T" rnd -T 0.01
run_both "cg tagged" cg --tag-plugin "$BIN/tag-by-pid" --json -

# stopped mid-run with the thread running: exit 1, one message, no report
set +e
timeout 60 "$A" --memory-limit 16M -v -i rnd -i pend >mem.out 2>mem.err
rc=$?
set -e
if [ "$rc" != 1 ] || ! grep -q "memory-limit" mem.err || ! grep -q "second thread" mem.err; then
	echo "FAIL: --memory-limit stop with the thread: exit $rc, stderr:"
	cat mem.err
	fail=1
fi

for bad in 0 3 x; do
	if "$A" --threads=$bad rnd >/dev/null 2>bad.err; then
		echo "FAIL: --threads=$bad accepted"
		fail=1
	fi
done

[ $fail = 0 ] && echo "ok: --threads=2 output identical to --threads=1 on 5 traces x 5 outputs (+cgroup groups, -T, a plugin, seek folds past a budget); threads used only where allowed; memory-limit stop clean"
exit $fail
