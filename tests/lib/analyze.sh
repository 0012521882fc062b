# Shared helpers for the analyze tests (source me).
#
# bt_mktrace BASE < script   writes BASE.blktrace.<cpu> from a text script,
#                            one record per line (bs-gen-trace -w script; the
#                            format is in tests/gen/gen_script.c):
#   TIME_NS CPU MAJ,MIN ACT FLAGS SECTOR BYTES PID [ARGS...]
#
# bt_oracle BASE OUT [ARGS]  runs blkparse -O -d + btt over BASE into OUT
# bt_compare_all BASE [ARGS] our report and side files vs btt's, byte for byte
# bt_need_tools              skips the test (exit 77) unless the oracle tools are installed

bt_mktrace() {
	rm -f "$1".blktrace.*	# a shorter script may use fewer CPUs
	"$BIN/bs-gen-trace" -w script -o "$1"
}

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
