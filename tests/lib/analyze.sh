# Shared helpers for the analyze tests (source me).
#
# bt_mktrace BASE < script   writes BASE.blktrace.<cpu> from a text script,
#                            one record per line ('#' starts a comment):
#   TIME_NS CPU MAJ,MIN ACT FLAGS SECTOR BYTES PID [ARGS...]
# ACT: Q M F G S R D C P U UT I X B A N(process note) m(message) TS(timestamp)
# FLAGS: any of R W D(discard) F(flush) U(fua) S(sync) A(ahead) M(meta),
#        p (passthrough instead of FS), c (cgroup flag), '-' for none.
# ARGS: U/UT depth; X new-sector; A FROM_MAJ,MIN FROM_SECTOR; N comm; m text.
#
# bt_oracle BASE OUT [ARGS]  runs blkparse -O -d + btt over BASE into OUT
# bt_compare_all BASE [ARGS] our report and side files vs btt's, byte for byte
# bt_need_tools              skips the test (exit 77) unless the oracle tools are installed

bt_mktrace() {
	python3 -c "$_BT_MKTRACE_PY" "$1"
}

_BT_MKTRACE_PY=$(cat <<'PYEOF'
import struct, sys
base = sys.argv[1]
TC = dict(R=1, W=2, F=4, S=8, A=1 << 11, M=1 << 12, D=1 << 13, U=1 << 15)
ACT = dict(Q=(1, 0x10), M=(2, 0x10), F=(3, 0x10), G=(4, 0x10), S=(5, 0x10),
           R=(6, 0x20), D=(7, 0x40), C=(8, 0x80), P=(9, 0x10), U=(10, 0x10),
           UT=(11, 0x10), I=(12, 0x10), X=(13, 0), B=(14, 0), A=(15, 0x10))
REQ = set(["I", "D", "C", "R"])
recs = {}
for lineno, line in enumerate(sys.stdin, 1):
    line = line.split("#", 1)[0].split()
    if not line:
        continue
    t, cpu, dev, act, flags, sector, nbytes, pid = line[:8]
    args = line[8:]
    ma, mi = (int(x) for x in dev.split(","))
    device = (ma << 20) | mi
    t, cpu, sector, nbytes, pid = int(t), int(cpu), int(sector), int(nbytes), int(pid)
    pdu = b""
    if act in ("N", "m", "TS"):
        action = 0x04000000 | {"N": 0, "TS": 1, "m": 2}[act]
        if act == "N":
            pdu = args[0].encode()[:16].ljust(16, b"\0")
        elif act == "m":
            pdu = " ".join(args).encode()
        else:
            pdu = struct.pack("<II", 1700000000, 0)
        if "c" in flags:
            action |= 0x100
            pdu = struct.pack("<Q", 1) + pdu
    else:
        basic, cat = ACT[act]
        for ch in flags:
            if ch in TC:
                cat |= TC[ch]
        if act in REQ:
            cat |= 0x200 if "p" in flags else 0x100
        action = (cat << 16) | basic
        if "c" in flags:
            action |= 0x100
        if act in ("U", "UT", "X"):
            pdu = struct.pack(">Q", int(args[0]))
        elif act == "A":
            fma, fmi = (int(x) for x in args[0].split(","))
            pdu = struct.pack(">IIQ", (fma << 20) | fmi, device, int(args[1]))
    recs.setdefault(cpu, []).append((t, device, sector, nbytes, action, pid, pdu, act))
for cpu in range(max(recs) + 1 if recs else 1):
    out = []
    seq = 0
    for (t, device, sector, nbytes, action, pid, pdu, act) in sorted(recs.get(cpu, []), key=lambda r: r[0]):
        s = 0
        if act not in ("N", "m", "TS"):
            seq += 1
            s = seq
        out.append(struct.pack("<IIQQIIIIIHH", 0x65617407, s, t, sector, nbytes, action,
                               pid, device, cpu, 0, len(pdu)) + pdu)
    with open("%s.blktrace.%d" % (base, cpu), "wb") as f:
        f.write(b"".join(out))
PYEOF
)

# btt's report for the per-CPU files of BASE, the way a btt user gets it;
# a BASE that is a regular file is a dump already: btt reads it as it is.
bt_oracle() {
	local base=$1 out=$2
	shift 2
	if [ -f "$base" ]; then
		btt -i "$base" "$@" >"$out"
		return
	fi
	blkparse -O -d "$out.dump" -i "$base" >/dev/null
	btt -i "$out.dump" "$@" >"$out"
}

# Our report and side files vs btt's for BASE with btt options ARGS.
# '@' in an option stands for the side-file name: btt gets "btt", we get
# "ours", and every btt_*.dat / btt.* file must equal its ours_* / ours.*
# twin (-l -q -z -p -I -o -X).  Runs in the current directory.
bt_compare_all() {
	local base=$1
	shift
	local args=("$@") ours=() theirs=() a
	rm -f btt_*.dat btt.* ours_*.dat ours.*
	for a in "${args[@]}"; do
		theirs+=("${a//@/btt}")
		ours+=("${a//@/ours}")
	done
	bt_oracle "$base" "$base.btt.out" "${theirs[@]}"
	blkscope-analyze --btt-only "$base" "${ours[@]}" >"$base.ours.out" 2>"$base.ours.err" || {
		echo "FAIL: blkscope-analyze $base ${ours[*]} exited $?" >&2
		cat "$base.ours.err" >&2
		return 1
	}
	if ! diff -u "$base.btt.out" "$base.ours.out" >"$base.diff"; then
		echo "FAIL: report differs from btt for $base ${args[*]}:" >&2
		head -40 "$base.diff" >&2
		return 1
	fi
	local f
	for f in btt_*.dat btt.*; do
		[ -e "$f" ] || continue
		local o=${f//btt/ours}
		if ! cmp -s "$f" "$o"; then
			echo "FAIL: side file $o differs from btt's $f ($base ${args[*]}):" >&2
			diff -u "$f" "$o" | head -30 >&2
			return 1
		fi
	done
	rm -f btt_*.dat btt.* ours_*.dat ours.*
}

. "$(dirname "${BASH_SOURCE[0]}")/skip.sh"

bt_need_tools() {
	need_tools blkparse btt python3
}

# Options whose side files land in the current directory under fixed names
# (-L: <maj>,<min>_*_plat.dat, -Z: *_live.dat): btt and we run in separate
# directories and every such file btt writes must be there, identical.
bt_compare_cwd_files() {
	local base=$1
	shift
	local abs f
	abs=$(cd "$(dirname "$base")" && pwd)/$(basename "$base")
	rm -rf btt.d ours.d && mkdir btt.d ours.d
	blkparse -O -d btt.d/dump -i "$abs" >/dev/null
	(cd btt.d && btt -i dump "$@" >report && rm -f dump ./*_fp.dat)
	(cd ours.d && blkscope-analyze --btt-only "$abs" "$@" >report)
	for f in btt.d/*; do
		if ! cmp -s "$f" "ours.d/${f#btt.d/}"; then
			echo "FAIL: ${f#btt.d/} differs from btt's ($base $*):" >&2
			diff -u "$f" "ours.d/${f#btt.d/}" 2>&1 | head -20 >&2
			return 1
		fi
	done
	rm -rf btt.d ours.d
}
