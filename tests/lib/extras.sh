# Shared helpers for the analyze "extras" tests (source me; needs TOP, BIN).
#
# extras_harness DIR [NAME [CFLAGS...]]
#                           build tests/extras/harness.c with the extras
#                           sources (no btt engine) into DIR/NAME (default
#                           harness); echoes the path.  SANITIZE=1 builds
#                           with ASan+UBSan.
# extras_validate JSON      validate against docs/analyze-schema.json
# extras_need_python        skip (exit 77) if python3 is missing

EXTRAS_DIR="$TOP/tests/extras"
EXTRAS_SCHEMA="$TOP/docs/analyze-schema.json"

. "$(dirname "${BASH_SOURCE[0]}")/skip.sh"

extras_need_python() {
	need_tools python3
}

extras_harness() {
	local dir=$1 name=${2:-harness} cc=${CC:-cc} san=()
	shift $(($# < 2 ? $# : 2))
	[ "${SANITIZE:-}" = 1 ] && san=(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
	"$cc" -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -std=gnu11 -D_GNU_SOURCE "${san[@]}" "$@" \
		-I"$TOP/format" -I"$TOP/util" -I"$TOP/analyze" -I"$TOP/analyze/report" -o "$dir/$name" \
		"$EXTRAS_DIR/harness.c" "$TOP"/analyze/report/*.c "$TOP"/analyze/attr/*.c "$TOP"/util/*.c "$TOP/format/bs_attr.c" "$TOP/format/bs_side.c" "$TOP/format/bs_writer.c" "$TOP/format/bs_writer_thread.c" "$TOP/format/bs_codec.c" "$TOP/format/bs_stream.c" "$TOP/format/bs_readahead.c" "$TOP/format/bs_outfile.c" "$TOP/format/bs_notes.c" "$TOP/format/bs_native.c" -pthread -lm >&2
	echo "$dir/$name"
}

extras_validate() {
	python3 "$EXTRAS_DIR/jsonschema_lite.py" "$EXTRAS_SCHEMA" "$1"
}
