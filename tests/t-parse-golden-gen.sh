#!/usr/bin/env bash
# blkscope parse vs the installed blkparse (Debian 1.2.0) on generated traces
# covering every action letter, PDU kind, notes, messages, 3 CPUs, 2 devices
# and out-of-order arrival: stdout, stderr, exit status, -o text and -d dumps
# must be byte-identical, for per-CPU files (split and mixed devices,
# native and byte-swapped), stdin streams and dumps read back; a dump of
# many buffers (written by the writer thread) and a dump to a full disk.
set -euo pipefail
: "${BIN:?}" "${TOP:?}"
. "$TOP/tests/lib/skip.sh"
need_tools blkparse python3
source "$TOP/tests/lib/parse.sh"

work=$(mktemp -d /tmp/t-parse-gen.XXXXXX)
small=
trap '[ -n "$small" ] && umount "$small"; rm -rf "$work"' EXIT
cd "$work"

"$BIN/bs-gen-trace" -o sda,sdb
"$BIN/bs-gen-trace" -o mixed
"$BIN/bs-gen-trace" -o swa,swb --swap
cat sda.blktrace.0 sda.blktrace.1 sda.blktrace.2 sdb.blktrace.0 sdb.blktrace.1 sdb.blktrace.2 >stream.bin
cat swa.blktrace.2 swa.blktrace.1 swa.blktrace.0 swb.blktrace.1 swb.blktrace.0 swb.blktrace.2 >swstream.bin
blkparse -O -d merged.dump -i sda -i sdb >/dev/null 2>&1

# sanity: the scenario really contains what it claims
blkparse -i sda -i sdb >all.txt 2>/dev/null
for a in Q M F G S R D C P U UT I X B A m; do
	grep -Eq "^ *[0-9]+,[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9]+ +$a " all.txt ||
		{ echo "FAIL: scenario has no '$a' line"; exit 1; }
done

# file mode: every option set
parse_golden -i sda -i sdb
parse_golden -i mixed
parse_golden -i swa -i swb
parse_golden sda.blktrace.1 sdb           # explicit per-CPU name, bare arguments
parse_same -D "$work" -i sda -i sdb -q
# pipe mode; -t is left out there (blkparse prints recycled heap memory for
# flows without an I, see docs/parse.md)
PARSE_SKIP_TRACK=1 PARSE_STDIN=stream.bin parse_golden -i -
PARSE_SKIP_TRACK=1 PARSE_STDIN=swstream.bin parse_golden -i -
PARSE_SKIP_TRACK=1 PARSE_STDIN=merged.dump parse_golden -i -

# a bulk workload (merges, plugs, completions on other CPUs, 2 CPUs):
# summaries with big numbers, -t with recycled tracking nodes, pipe batches
"$BIN/bs-gen-trace" -n 60000 -o bulk
cat bulk.blktrace.0 bulk.blktrace.1 >bulk.stream
for opts in "" "-t -s" "-t -s -h" "-q -s -w 0.5:3" "-O -d dump.bin" "-t -f %a|%u|%C\n -a issue"; do
	parse_same $opts -i bulk
	PARSE_STDIN=bulk.stream parse_same $opts -b 100 -i -
done

# thousands grouping: blkparse calls setlocale(LC_NUMERIC, "en_US"); build
# that locale privately (LOCPATH, no system change) and compare again
mkdir -p "$work/loc"
if command -v localedef >/dev/null && [ -e /usr/share/i18n/locales/en_US ] &&
	localedef -i en_US -f UTF-8 "$work/loc/en_US" >/dev/null 2>&1; then
	LOCPATH=$work/loc parse_same -s -t -i bulk
	LOCPATH=$work/loc PARSE_STDIN=bulk.stream parse_same -i -
	LOCPATH=$work/loc blkparse -i bulk >grouped.txt 2>/dev/null
	grep -q "[0-9],[0-9][0-9][0-9]" grouped.txt ||
		{ echo "FAIL: en_US locale built but blkparse printed no grouping"; exit 1; }
else
	echo "note: cannot build an en_US locale here; thousands grouping not compared"
fi

# a stream with lost records: skips, -v lists them
python3 - <<'PY'
import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.environ["TOP"] + "/tests/lib")
import blktrace
out = [blktrace.pack(r, pdu) for i, (_, r, pdu) in enumerate(blktrace.records(open('stream.bin', 'rb').read()))
       if i not in (20, 21, 40, 77)]
open('gap.bin', 'wb').write(b''.join(out))
PY
for opts in "-v" "-v -q" "-v -O" "-v -b 8 -s" "-O -d dump.bin -b 16"; do
	PARSE_STDIN=gap.bin parse_same $opts -i -
done
blkparse -i - <gap.bin >gap.txt 2>/dev/null
grep -q "Skips: [1-9]" gap.txt || { echo "FAIL: gap.bin has no skips"; exit 1; }

# our own dump reads back like blkparse's, and blkscope reads dumps directly
"$BIN/blkscope-parse" -O -d ours.dump -i sda -i sdb >/dev/null 2>&1
cmp merged.dump ours.dump
blkparse -i - <merged.dump >ref.txt 2>ref.err
"$BIN/blkscope-parse" merged.dump >my.txt 2>my.err
cmp ref.txt my.txt
cmp ref.err my.err

# errors: missing input, bad masks, bad stopwatch, bad format escape
PARSE_IGNORE_ERR=1 parse_same -i nonexistent
parse_same -a nosuchmask -i sda
parse_same -A 0x10000 -i sda
parse_same -w 5:1 -i sda
parse_same -f 'x\q' -i sda

# the dump written by its own thread (format/bs_writer_thread.c, two CPUs,
# a regular file): a dump of many 1 MiB buffers is blkparse's byte for byte;
# a full disk (/dev/full: written inline; a file on a 2 MiB tmpfs, as root:
# written by the thread) gives blkparse's message and exit status, and the
# file keeps whole records
"$BIN/bs-gen-trace" -w bulk -n 300000 -o big >/dev/null
blkparse -O -d big.ref -i big >/dev/null 2>&1
"$BIN/blkscope-parse" -O -d big.my -i big >/dev/null 2>&1
[ "$(stat -c %s big.my)" -gt $((8 << 20)) ] || { echo "FAIL: the dump is too small to span buffers"; exit 1; }
cmp big.ref big.my || { echo "FAIL: a dump of many buffers differs from blkparse's"; exit 1; }
if [ -w /dev/full ]; then
	rc_ref=0; blkparse -O -d /dev/full -i big >/dev/null 2>ref.full || rc_ref=$?
	rc_my=0; "$BIN/blkscope-parse" -O -d /dev/full -i big >/dev/null 2>my.full || rc_my=$?
	if [ "$rc_ref" != "$rc_my" ] || ! grep -qx "/dev/full: No space left on device" my.full; then
		echo "FAIL: dump to a full disk: exit $rc_my (blkparse $rc_ref), stderr: $(cat my.full)"
		exit 1
	fi
fi
if [ "$(id -u)" = 0 ] && mkdir small && mount -t tmpfs -o size=2m none small; then
	small=$work/small
	rc_ref=0; blkparse -O -d small/ref.dump -i big >/dev/null 2>ref.full || rc_ref=$?
	rm -f small/ref.dump
	rc_my=0; "$BIN/blkscope-parse" -O -d small/my.dump -i big >/dev/null 2>my.full || rc_my=$?
	if [ "$rc_ref" != "$rc_my" ] || ! grep -qx "small/my.dump: No space left on device" my.full; then
		echo "FAIL: dump to a full tmpfs: exit $rc_my (blkparse $rc_ref), stderr: $(cat my.full)"
		exit 1
	fi
	# whole records: a prefix of the whole dump that reads back without damage
	size=$(stat -c %s small/my.dump)
	[ "$size" -gt 0 ] && cmp -s -n "$size" small/my.dump big.my ||
		{ echo "FAIL: the cut dump ($size bytes) is not a prefix of the whole one"; exit 1; }
	"$BIN/blkscope-parse" -i small/my.dump >/dev/null 2>back.err ||
		{ echo "FAIL: the cut dump does not read back: $(cat back.err)"; exit 1; }
	if grep -q "truncated\|offset" back.err; then
		echo "FAIL: the cut dump ends in a partial record: $(cat back.err)"
		exit 1
	fi
	umount small
	small=
fi

if [ "$PARSE_FAILS" -ne 0 ]; then
	echo "FAIL: $PARSE_FAILS comparisons differ"
	exit 1
fi
echo "PASS"
