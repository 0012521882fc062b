#!/usr/bin/env bash
# fuzz/seed.sh OUTDIR - write the seed corpora of every fuzz target under
# OUTDIR/<target>/, made at run time from samples/ (nothing big is
# committed): every sample trace as is, byte-swapped and zstd-compressed
# (generated scenario traces supply the swapped form and version 8), each behind the
# mode bytes the target expects; tag-plugin answer streams; format strings
# and option values.  Needs BIN (bs-gen-trace) and zstd.
set -euo pipefail
for t in zstd python3; do
	command -v $t >/dev/null || { echo "fuzz/seed.sh: needs $t (Debian package $t)" >&2; exit 1; }
done
out=$1
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
raw=$(mktemp -d /tmp/fuzz-seed.XXXXXX)
trap 'rm -rf "$raw"' EXIT
mkdir -p "$out"/{fuzz_trace,fuzz_tagresp,fuzz_parse,fuzz_analyze,fuzz_attr}

# raw traces: samples, generated native + swapped (v7 and v8), zstd copies of all
n=0
for f in "$TOP"/samples/*.bin "$TOP"/samples/rec-*/*.blktrace.*; do
	[ -s "$f" ] || continue
	cp "$f" "$raw/t$((n++))"
done
"$BIN"/bs-gen-trace -D "$raw" -o gen >/dev/null
"$BIN"/bs-gen-trace -D "$raw" -S -o swp >/dev/null
"$BIN"/bs-gen-trace -D "$raw" -c 1 -n 300 -s 7 -o bulk >/dev/null
"$BIN"/bs-gen-trace -D "$raw" -n 300 -s 5 --devices 3 -o multi >/dev/null
"$BIN"/bs-gen-trace -D "$raw" -w tags -n 300 -p 6 -u 2 -o tags >/dev/null
"$BIN"/bs-gen-trace -D "$raw" -w merge -S -o mrg >/dev/null
# version 8: the zoned scenario, native and swapped; a 64-byte v7 dump
"$BIN"/bs-gen-trace -D "$raw" -V -Z -o zon >/dev/null
"$BIN"/bs-gen-trace -D "$raw" -V -Z -S -o zsw >/dev/null
"$BIN"/bs-convert -V 7w "$TOP/samples/ftrace-loop-none.bin" "$raw/t$((n++))"
for f in "$raw"/{gen,swp,bulk,multi,tags,mrg,zon,zsw}.blktrace.*; do
	# (n is counted apart: a redirection is expanded in the child process)
	if [ -s "$f" ]; then
		head -c 16384 "$f" >"$raw/t$n"
		n=$((n + 1))
	fi
	rm -f "$f"
done
for f in "$raw"/t*; do
	zstd -q -c "$f" >"$f.zst"
done

python3 - "$out" "$raw" <<'PY'
import os, struct, sys
out, raw = sys.argv[1], sys.argv[2]
traces = sorted(os.path.join(raw, f) for f in os.listdir(raw))

def put(target, name, data):
    with open(os.path.join(out, target, name), "wb") as f:
        f.write(data)

for i, p in enumerate(traces):
    data = open(p, "rb").read()
    # fuzz_trace: stream reader, dump merge, per-CPU merge split in the middle
    put("fuzz_trace", "s%d" % i, bytes([0, 0]) + data)
    put("fuzz_trace", "d%d" % i, bytes([1 | (8 << 2), 0]) + data)
    put("fuzz_trace", "f%d" % i, bytes([2, 128]) + data)
    if i % 3 == 0:
        # fuzz_parse: flags, -f, -F, -w, -a, trace
        fmt = b"%D %2c %8s %5T.%9t %5p %2a %3d %S + %n (%N) [%C] %e %u %M %m %z\\n"
        put("fuzz_parse", "p%d" % i, bytes([0x01 | 0x10]) + fmt + b"\0Q,%a %d %S\\t%U\\n\0" +
            b"0.001:5\0read\0" + data)
        put("fuzz_parse", "q%d" % i, bytes([0x02 | 0x04 | 0x08 | 0x20 | 0x80]) +
            b"%P\0C,%-10p %P %N\\r\\b\0 0.5\0write\0" + data)
    if i % 2 == 0:
        # fuzz_analyze: flags (2 bytes), 9 option values, plugin cmd, trace (per-CPU, dump, 2 CPUs)
        av = [b"db=1,2,3", b"comm", b"100ms", b"2.5", b"1", b"0", b"1e9", b"0.1", b"512", b"tag-by-pid"]
        flags = [0x1000 | 0x2000 | 0x400, 0x4000 | 0x1000 | 0x02 | 0x200, 0x8000 | 0x01 | 0x04 | 0x400][i // 2 % 3]
        put("fuzz_analyze", "t%d" % i, struct.pack("<H", flags) + b"\0".join(av) + b"\0" + data)

# fuzz_analyze: flags (2 bytes), 9 option values, the plugin command
vals = [b"db=1,2,3", b"comm", b"100ms", b"2.5", b"1", b"0.0001", b"10", b"0.1", b"512",
        b"tag-by-pid -g 'db:812,813' \"x\\\"y\" a\\ b"]
put("fuzz_analyze", "all", struct.pack("<H", 0x1ff) + b"\0".join(vals) + b"\0")
put("fuzz_analyze", "some", struct.pack("<H", 0x1000 | 0x06) + b"\0".join(vals) + b"\0")
vals2 = [b"a:7", b"pid", b"0.5s", b"1e-3", b"2", b"1:2", b"3", b"1e9", b"0x10", b"'a b' \"c\""]
put("fuzz_analyze", "alt", struct.pack("<H", 0x1ff) + b"\0".join(vals2) + b"\0")

# fuzz_tagresp: events, window, pdu_len, then answers
def new_tag(tag, label):
    lab = label + b"\0"
    return struct.pack("<III", 1, tag, len(lab)) + lab
def tag_io(tag):
    return struct.pack("<II", 2, tag)
END = struct.pack("<I", 0)
good = new_tag(1, b"db") + new_tag(2, b"web") + b"".join(
    (tag_io(1 + e % 2) + (tag_io(2) if e % 5 == 0 else b"") + END) for e in range(8))
put("fuzz_tagresp", "good", bytes([7, 3, 0]) + good)
put("fuzz_tagresp", "window1", bytes([7, 0, 16]) + good)
put("fuzz_tagresp", "short", bytes([7, 15, 4]) + good[:-3])
put("fuzz_tagresp", "untagged", bytes([3, 2, 0]) + END * 4)
put("fuzz_tagresp", "redeclare", bytes([1, 1, 0]) + new_tag(5, b"a") + new_tag(5, b"b") + tag_io(5) + END)

# fuzz_attr: flags, the names file's length, a names file (docs/format.md,
# "Attribution side files"), attr bytes (records at the trace's Q times when bit 1)
def rec(typ, body):
    return struct.pack("<HHI", typ, 0, len(body)) + body
def fdef(i, path, flags=0):
    return rec(1, struct.pack("<IIQIIQH", i, 7 << 20 | 1, 10 + i, 3, flags, 0, len(path)) + path)
def sdef(i, kernel, user, flags=0):
    body = struct.pack("<IIHH", i, flags, len(kernel), len(user))
    for f in kernel + user:
        body += struct.pack("<H", len(f)) + f
    return rec(2, body)
names = (b"BSNAMES\1" + struct.pack("<IIIIQ", 1, 8 << 20, 0xffffffff, 3, 0) + fdef(1, b"/db/wal.log") +
         fdef(2, b"/db/t1.ibd") + fdef(3, b"", 2) + fdef(4, b"/tmp/x", 1) +
         sdef(1, [b"submit_bio_noacct_nocheck", b"ext4_io_submit"], [b"pwrite64", b"main"]) +
         sdef(2, [b"submit_bio_noacct_nocheck", b"wb_workfn"], [], 1) + rec(3, struct.pack("<8Q", *range(8))))
ids = bytes([1, 1, 1, 2, 2, 3, 3, 0, 4, 4, 1, 5, 0, 0, 7, 1, 2, 8, 2, 1, 2, 4, 2, 1])
attr_hdr = b"BSATTR\0\1" + struct.pack("<IIIIQ", 1, 8 << 20, 0, 3, 0)
for flags in (0, 1, 2, 3):
    tail = ids if flags & 2 else attr_hdr + b"".join(
        struct.pack("<QQIIIBBH", 1000 * (i + 1), 8 * i, 3 * i + 1, i % 5, i % 3, i % 9, 0, 0) for i in range(8))
    put("fuzz_attr", "n%d" % flags, bytes([flags]) + struct.pack("<H", len(names)) + names + tail)
PY
echo "seeds: $(for d in "$out"/*; do printf '%s=%s ' "$(basename "$d")" "$(ls "$d" | wc -l)"; done)"
