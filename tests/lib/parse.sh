# Shared helpers for the blkscope parse tests (source it; needs BIN and TOP).
# parse_same ARGS... : run blkparse and blkscope parse with ARGS in the current
# directory; stdout, stderr and the exit status must be identical.
# With PARSE_STDIN=file both read that file on stdin.
# A "-d FILE" argument is rewritten per tool and the dumps are compared too.

: "${BIN:?set BIN to the build/bin directory}"
PARSE_FAILS=0

parse_run() {	# tool outdir args...
	local tool=$1 dir=$2; shift 2
	local args=() a prev=
	for a in "$@"; do
		if [ "$prev" = "-d" ] && [ "$a" != "-" ]; then a="$dir/dump"; fi
		if [ "$prev" = "-o" ]; then a="$dir/text"; fi
		args+=("$a"); prev=$a
	done
	local rc=0
	if [ -n "${PARSE_STDIN:-}" ]; then
		"$tool" "${args[@]}" <"$PARSE_STDIN" >"$dir/out" 2>"$dir/err" || rc=$?
	else
		"$tool" "${args[@]}" >"$dir/out" 2>"$dir/err" || rc=$?
	fi
	echo "$rc" >"$dir/rc"
}

parse_same() {
	local ref my
	ref=$(mktemp -d /tmp/bsp-ref.XXXXXX)
	my=$(mktemp -d /tmp/bsp-my.XXXXXX)
	parse_run blkparse "$ref" "$@"
	parse_run "$BIN/blkscope-parse" "$my" "$@"
	local ok=1 f
	for f in out err rc dump text; do
		[ -e "$ref/$f" ] || [ -e "$my/$f" ] || continue
		# PARSE_IGNORE_ERR=1: error wording may differ (ours names the program)
		[ "$f" = err ] && [ -n "${PARSE_IGNORE_ERR:-}" ] && continue
		if ! cmp -s "$ref/$f" "$my/$f"; then
			ok=0
			echo "DIFF ($f) for: blkparse $*${PARSE_STDIN:+ < $PARSE_STDIN}"
			if [ "$f" = dump ]; then
				cmp "$ref/$f" "$my/$f" | head -2
			else
				diff "$ref/$f" "$my/$f" | head -8
			fi
		fi
	done
	if [ $ok = 1 ]; then
		echo "same: $*${PARSE_STDIN:+ < $PARSE_STDIN}"
	else
		PARSE_FAILS=$((PARSE_FAILS + 1))
	fi
	rm -rf "$ref" "$my"
}

# The option sets every golden test runs (one per line; "@" = the inputs).
parse_option_sets() {
	cat <<'SETS'
@
-t @
-s @
-t -s @
-s -h @
-q @
-q -s -t @
-a complete @
-a queue -a issue @
-a write -a pc @
-A 0x400 @
-A 0x50 @
-w 0.00003 @
-w 0.00001:0.003046 @
-b 4 @
-b 4 -t -s @
-f %D_%2c_%8s_%5T.%9t_%5p_%2a_%3d_%n+%N_%e_%M:%m_%S_%P_%g_%-6C|\n @
-F Q,Q:%S+%n\t%C\n -F D,D:%-8S%8n|%P|\n -F U,U(%U)\n @
-f %z|%c|%s|%%|%5a|%-5a|\n @
-t -f %a_%u\n -a complete @
-O -d DUMP @
-O -d DUMP -M @
-d DUMP @
-d DUMP -b 4 @
-O -d DUMP -a issue -a complete @
-O -d DUMP -w 0.00002:0.004 @
-o TEXT -s @
SETS
}

# parse_golden INPUT-ARGS... : every option set against these inputs.
# PARSE_SKIP_TRACK=1 leaves out the -t sets: in pipe mode blkparse's -t
# values for flows without G or I come from recycled heap memory.
parse_golden() {
	local line
	while IFS= read -r line; do
		if [ -n "${PARSE_SKIP_TRACK:-}" ] && [[ " $line " == *" -t "* ]]; then
			continue
		fi
		local args=()
		local w
		for w in $line; do
			case $w in
			@) args+=("$@") ;;
			DUMP) args+=(dump.bin) ;;
			TEXT) args+=(text.txt) ;;
			*) args+=("$w") ;;
			esac
		done
		parse_same "${args[@]}"
	done < <(parse_option_sets)
}
