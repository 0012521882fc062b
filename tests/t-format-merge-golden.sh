#!/usr/bin/env bash
# format/'s merge must order records exactly as blkparse does: compare the
# dump it yields with `blkparse -O -d` byte for byte, in file mode (per-CPU
# files, several batch sizes, byte-swapped input), pipe mode (stdin), pipe
# mode over a dump, and with sequence gaps.  zstd input must give the same
# bytes as the plain files.  Reading the files ahead (-a: on a thread, as
# `parse` does; -A: each chunk read by its stream when needed, as when the
# dump's writer thread is busy) must change nothing, also across many
# chunks of a file and at a truncated or damaged one.
set -euo pipefail
. "$TOP/tests/lib/skip.sh"
need_tools blkparse python3 zstd
work=$(mktemp -d /tmp/t-merge.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"

same() {	# label ref ours
	if ! cmp -s "$2" "$3"; then
		echo "DIFFERENT: $1 ($(cmp "$2" "$3" 2>&1 | head -1))"
		exit 1
	fi
	echo "identical: $1 ($(stat -c %s "$2") bytes)"
}

for seed in 1 2 3; do
	rm -f g.blktrace.*
	bs-gen-trace -w merge -s $seed -o g
	for b in 512 1 7; do
		blkparse -b $b -O -d ref.bin -i g >/dev/null
		bs-merge-dump -b $b ours.bin g
		same "files seed=$seed batch=$b" ref.bin ours.bin
		bs-merge-dump -a -b $b ours.bin g
		same "files seed=$seed batch=$b, read ahead" ref.bin ours.bin
	done
	cat g.blktrace.* > cat.bin
	blkparse -O -d ref.bin -i - < cat.bin >/dev/null 2>&1
	bs-merge-dump ours.bin - < cat.bin
	same "stdin seed=$seed" ref.bin ours.bin
	blkparse -O -d ref2.bin -i - < ref.bin >/dev/null 2>&1
	bs-merge-dump ours2.bin - < ref.bin
	same "stdin of a dump seed=$seed" ref2.bin ours2.bin
	bs-merge-dump ours3.bin ref.bin
	same "dump file argument seed=$seed" ref2.bin ours3.bin
done

# sequence gaps (every 97th record dropped) in pipe mode
python3 - <<'PY'
import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.environ["TOP"] + "/tests/lib")
import blktrace
out = bytearray()
for k, (_, r, pdu) in enumerate(blktrace.records(open('cat.bin', 'rb').read()), 1):
    if k % 97:
        out += blktrace.pack(r, pdu)
open('gap.bin', 'wb').write(out)
PY
blkparse -O -d ref.bin -i - < gap.bin >/dev/null 2>&1
bs-merge-dump ours.bin - < gap.bin
same "stdin with sequence gaps" ref.bin ours.bin

# Read ahead over many chunks: 2 x 9 MB files read in 1 MiB chunks, the
# records (some with PDUs, notes) straddling chunk boundaries
bs-gen-trace -n 400000 -c 2 -o big
blkparse -O -d ref.bin -i big >/dev/null
bs-merge-dump -a ours.bin big
same "2 files of 9 MB, read ahead" ref.bin ours.bin
bs-merge-dump -A ours.bin big
same "2 files of 9 MB, read ahead, each chunk read by its stream" ref.bin ours.bin
# ... cut inside a record and damaged (a bad magic) past the first chunks:
# the same records and the same one-line error, offset included, as when
# each stream reads for itself
cp big.blktrace.0 cut.blktrace.0
head -c 5000011 big.blktrace.1 > cut.blktrace.1
cp big.blktrace.1 bad.blktrace.1
python3 - <<'PY'	# the first record past 3 MiB of CPU 0's file loses its magic
import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.environ["TOP"] + "/tests/lib")
import blktrace
data = bytearray(open("big.blktrace.0", "rb").read())
off = next(o for o, _, _ in blktrace.records(bytes(data)) if o >= 3 << 20)
data[off:off + 4] = b"XXXX"
open("bad.blktrace.0", "wb").write(data)
PY
for t in cut bad; do
	bs-merge-dump self.bin $t 2> self.err || true
	grep -q offset self.err || { echo "no error line for $t: $(cat self.err)"; exit 1; }
	for a in -a -A; do
		bs-merge-dump $a ahead.bin $t 2> ahead.err || true
		same "$t files, read ahead ($a)" self.bin ahead.bin
		cmp -s self.err ahead.err || { echo "DIFFERENT errors for $t:"; cat self.err ahead.err; exit 1; }
	done
	echo "same error: $(head -1 ahead.err)"
	# parse reads ahead on a thread of its own with -O -d /dev/null (no
	# writer thread), on the writer's thread with -O -d FILE
	st1=0 st2=0
	blkscope-parse --force -O -d file.bin -i $t > out1 2> err1 || st1=$?
	blkscope-parse -O -d /dev/null -i $t > out2 2> err2 || st2=$?
	[ $st1 = $st2 ] && cmp -s out1 out2 && cmp -s err1 err2 ||
		{ echo "parse -O -d /dev/null differs for $t ($st1 $st2)"; diff err1 err2; exit 1; }
done

# byte-swapped input: headers come out native, PDUs raw, like blkparse
bs-gen-trace -w merge -s 4 --swap -o s
blkparse -O -d ref.bin -i s >/dev/null
bs-merge-dump ours.bin s
same "byte-swapped files" ref.bin ours.bin

# zstd-compressed per-CPU files read like the plain ones
bs-gen-trace -w merge -s 5 -o z
bs-merge-dump plain.bin z
mkdir zz && for f in z.blktrace.*; do zstd -q -o zz/$f.zst $f; done
bs-merge-dump zst.bin zz/z
same "zstd per-CPU files" plain.bin zst.bin

# Up to 64 CPUs, times that tie within and across files, first records
# that tie with the earliest: the order blkparse's sorted list gives every
# tie (format/bs_merge_file.c keeps the streams in a loser tree instead, of
# one to six levels here).
for seed in $(seq 1 40); do
	rm -f t.blktrace.*
	python3 - "$seed" <<'PY' | bs-gen-trace -w script -o t
import random, sys
random.seed(int(sys.argv[1]))
sector = 0
for cpu in range(random.choice([2, 3, 4, 5, 7, 9, 12, 17, 33, 64])):
    if random.random() < 0.2:
        continue                    # a CPU without records: its file is empty
    t = random.choice([0, 0, 1, 2, 5])
    for _ in range(random.randint(1, 40)):
        sector += 8
        print(f"{t} {cpu} 8,0 Q R {sector} 4096 {100 + cpu}")
        t += random.choice([0, 0, 0, 1, 1, 2, 3])
PY
	for b in 512 1 3; do
		blkparse -b $b -O -d ref.bin -i t >/dev/null
		bs-merge-dump -b $b ours.bin t
		cmp -s ref.bin ours.bin || { echo "DIFFERENT: ties seed=$seed batch=$b"; exit 1; }
	done
done
echo "identical: 40 tie-heavy traces on up to 64 CPUs, batches 512, 1, 3"

# 300 per-CPU files (a tree of nine levels), written directly: each file
# gets runs of records, times tie across files and with the first records
rm -f w.blktrace.*
python3 - <<'PY'
import os, random, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.environ["TOP"] + "/tests/lib")
import blktrace
random.seed(7)
ncpu, sector = 300, 0
Q = blktrace.TA_QUEUE | (blktrace.TC_QUEUE | blktrace.TC_READ) << 16
out = {c: bytearray() for c in range(ncpu)}
t = {c: random.choice([0, 0, 3]) for c in range(ncpu)}
seq = {c: 0 for c in range(ncpu)}
for _ in range(20000):
    c = random.randrange(ncpu)
    for _ in range(random.randint(1, 6)):
        sector += 8
        seq[c] += 1
        out[c] += blktrace.pack(blktrace.Record(blktrace.MAGIC_V7, seq[c], t[c], sector, 4096, Q,
                                                1000 + c, 8 << 20, c, 0, 0))
        t[c] += random.choice([0, 0, 1, 2, 5])
for c in range(ncpu):
    open("w.blktrace.%d" % c, "wb").write(out[c])
PY
for b in 512 2; do
	blkparse -b $b -O -d ref.bin -i w >/dev/null
	bs-merge-dump -b $b ours.bin w
	same "300 CPU files batch=$b" ref.bin ours.bin
done

