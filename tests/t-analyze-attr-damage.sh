#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Damaged and hostile attribution side files (tests/attr/gen-side.py's,
# then broken): the analyzer says which file and which offset in one line,
# keeps what came before the damage, and never crashes or loops:
#  - an attr file cut inside a record: the records before it still match
#    their Qs (the rest of that CPU's Qs: not attributed);
#  - a names file with a bad magic: ignored with a message;
#  - a names record longer than any valid one, a stack of 300 frames, a
#    path length past its record: damage at that record's offset, the
#    definitions before it kept;
#  - side files from another recording (no Q matches): a warning;
#  - 60 random mutations of both kinds of file: every run ends (exit 0 or
#    1), its JSON stays valid.
set -euo pipefail
: "${BIN:?}" "${TOP:?}"
export TOP
. "$TOP/tests/lib/skip.sh"
need_tools python3
work=$(mktemp -d /tmp/t-analyze-attr-damage.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
PATH=$BIN:$PATH

bs-gen-trace -n 3000 -s 3 -o a >/dev/null
python3 "$TOP/tests/attr/gen-side.py" . a $((8 << 20)) 0 a.expect.json >/dev/null
mkdir orig && cp a.* orig/
fresh() { rm -f a.*; cp orig/a.* .; }
matched() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["attribution"]["matched"])' "$1"; }

blkscope analyze --json full.json a >/dev/null
full=$(matched full.json)

# an attr file cut inside a record
size=$(stat -c %s a.blkscope-attr.1)
truncate -s $((size - 40)) a.blkscope-attr.1
blkscope analyze --json cut.json a >/dev/null 2>err.txt
grep -q "a.blkscope-attr.1: offset $((size - 64)): a record cut short" err.txt ||
	{ echo "FAIL: no damage line for the cut attr file:"; cat err.txt; exit 1; }
cut=$(matched cut.json)
[ "$cut" -lt "$full" ] && [ "$cut" -ge $((full - 3)) ] ||
	{ echo "FAIL: cut attr file: $cut of $full Qs matched, want all but the last two records"; exit 1; }
echo "ok: a cut attr file: $cut of $full Qs still matched"

# a names file with a bad magic: no attribution for that trace, said once
fresh
printf 'XXXX' | dd of=a.blkscope-names bs=1 seek=0 conv=notrunc status=none
blkscope analyze --json magic.json a >/dev/null 2>err.txt
grep -q "a.blkscope-names: offset 0: not a blkscope attribution file" err.txt ||
	{ echo "FAIL: bad magic not reported:"; cat err.txt; exit 1; }

# hostile records in the names file: each stops it at its offset
hostile() {	# NAME PYTHON-EXPR-OF-THE-RECORD
	fresh
	python3 - "$2" <<'EOF'
import os, struct, sys
sys.path.insert(0, os.path.join(os.environ["TOP"], "tests", "lib"))
import attrside
data = open("a.blkscope-names", "rb").read()
off = 32 + len(attrside.file_bytes(1, 0, 0, 0, "/db/wal/000001.log"))	# after the first definition
bad = eval(sys.argv[1])
open("a.blkscope-names", "wb").write(data[:off] + bad + data[off:])
open("off.txt", "w").write(str(off))
EOF
	blkscope analyze --json h.json a >/dev/null 2>err.txt || true
	grep -q "a.blkscope-names: offset $(cat off.txt): " err.txt ||
		{ echo "FAIL: $1: no damage line at offset $(cat off.txt):"; cat err.txt; exit 1; }
	python3 -c 'import json; d = json.load(open("h.json")); assert d["attribution"]["files"]' ||
		{ echo "FAIL: $1: the definitions before the damage are gone"; exit 1; }
	echo "ok: $1: $(head -1 err.txt)"
}
hostile "a record of 16 MiB" 'struct.pack("<HHI", 1, 0, 16 << 20)'
hostile "a stack of 300 frames" 'attrside.stack_bytes(9, ["f"] * 300, [])'
hostile "a path past its record" 'attrside._rec(1, struct.pack("<IIQIIQH", 9, 0, 5, 0, 0, 0, 4000) + b"/x")'

# side files of another recording: nothing matches, and the report says so
fresh
bs-gen-trace -n 3000 -s 4 -o other >/dev/null
python3 "$TOP/tests/attr/gen-side.py" . other $((8 << 20)) 0 other.expect.json >/dev/null
for f in other.blkscope-*; do mv "$f" "a${f#other}"; done
blkscope analyze --stats a >report.txt
grep -q "no Q of the trace matches its attribution files" report.txt ||
	{ echo "FAIL: side files of another recording not reported"; exit 1; }
echo "ok: side files of another recording: warned"

# random mutations: the runs end, the JSON parses (one Python for all: it is slow to start)
fresh
python3 - <<'EOF'
import os, random, shutil
for i in range(1, 61):
    r = random.Random(i)
    d = "m%d" % i
    os.mkdir(d)
    for name in os.listdir("orig"):
        shutil.copy(os.path.join("orig", name), d)
    for name in ("a.blkscope-names", "a.blkscope-attr.%d" % r.randrange(2)):
        path = os.path.join(d, name)
        data = bytearray(open(path, "rb").read())
        for _ in range(r.randrange(1, 12)):
            data[r.randrange(len(data))] = r.randrange(256)
        if r.random() < 0.3:
            del data[r.randrange(len(data)):]
        open(path, "wb").write(bytes(data))
EOF
for i in $(seq 60); do
	rc=0
	(cd "m$i" && timeout 20 blkscope analyze --group-by file --json m.json --folded m.folded a >/dev/null 2>&1) || rc=$?
	[ "$rc" -le 1 ] || { echo "FAIL: mutation $i: exit $rc"; exit 1; }
	[ "$rc" -eq 0 ] || rm -f "m$i/m.json"
done
python3 -c '
import glob, json
n = 0
for p in glob.glob("m*/m.json"):
    json.load(open(p))
    n += 1
print("%d valid JSON reports" % n)'
echo "ok: 60 mutations"
echo "PASS"
