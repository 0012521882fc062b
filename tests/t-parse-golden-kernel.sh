#!/usr/bin/env bash
# blkscope parse vs the installed blkparse on traces the kernel itself wrote
# (ftrace blk tracer, bin + nocontext-info, committed under samples/): the
# stream read from stdin by both (blkparse -i - < F vs blkscope parse -i - < F)
# and read by name (blkscope parse F), with every option set of the
# generated-trace test; -O -d dumps compared byte for byte.
set -euo pipefail
: "${BIN:?}" "${TOP:?}"
. "$TOP/tests/lib/skip.sh"
need_tools blkparse
source "$TOP/tests/lib/parse.sh"

work=$(mktemp -d /tmp/t-parse-kernel.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"

for f in ftrace-loop-none ftrace-loop-deadline ftrace-loop-discard; do
	cp "$TOP/samples/$f.bin" .
	# The discard capture has remaps: their 16-byte PDUs recycle the heap
	# chunks blkparse -t later reads uninitialised (docs/parse.md), so its
	# -t figures are garbage there; the other two have none.
	skip=
	[ $f = ftrace-loop-discard ] && skip=1
	PARSE_SKIP_TRACK=$skip PARSE_STDIN=$f.bin parse_golden -i -

	# by name: a regular file that is not X.blktrace.N is read as one stream
	blkparse -i - <$f.bin >ref.txt 2>ref.err
	"$BIN/blkscope-parse" $f.bin >my.txt 2>my.err
	if cmp -s ref.txt my.txt && cmp -s ref.err my.err; then
		echo "same: blkscope parse $f.bin"
	else
		echo "DIFF: blkscope parse $f.bin"
		diff ref.txt my.txt | head -8
		PARSE_FAILS=$((PARSE_FAILS + 1))
	fi
	grep -q ' C ' my.txt || { echo "FAIL: $f.bin shows no completions"; exit 1; }
done

# blkscope's own recordings committed by the recorder's tests (per-CPU files
# with TIMESTAMP/PROCESS notes): file mode and pipe mode.  -t is left out:
# blkparse's -t there reads recycled PROCESS-note buffers (docs/parse.md).
nrec=0
for d in "$TOP"/samples/rec-*/; do
	[ -e "$d/loop0.blktrace.0" ] || continue
	nrec=$((nrec + 1))
	mkdir -p "rec$nrec" && cp "$d"/loop0.blktrace.* "rec$nrec/"
	(cd "rec$nrec" && PARSE_SKIP_TRACK=1 parse_golden -i loop0) >rec.log
	cat rec.log
	PARSE_FAILS=$((PARSE_FAILS + $(grep -c '^DIFF' rec.log || true)))
	cat "rec$nrec"/loop0.blktrace.* >rec.bin
	PARSE_SKIP_TRACK=1 PARSE_STDIN=rec.bin parse_golden -i -
done
echo "recorder samples compared: $nrec"

if [ "$PARSE_FAILS" -ne 0 ]; then
	echo "FAIL: $PARSE_FAILS comparisons differ"
	exit 1
fi
echo "PASS"
