# hide.sh - a PATH without some tools (source me), to run a test as it runs
# on a machine where they are not installed.
#
# hide_tools DIR TOOL...   fills DIR with a link to every program of $PATH
#                          but TOOL... (first of a name wins, as in a PATH
#                          lookup) and prints DIR: PATH=$(hide_tools d blkparse)
hide_tools() {
	local dir=$1 d f name hidden
	shift
	hidden=" $* "
	mkdir -p "$dir"
	local IFS=:
	for d in $PATH; do
		[ -d "$d" ] || continue
		for f in "$d"/*; do
			name=${f##*/}
			[ -x "$f" ] && [ ! -d "$f" ] && [ ! -e "$dir/$name" ] || continue
			case $hidden in *" $name "*) continue ;; esac
			ln -s "$f" "$dir/$name"
		done
	done
	echo "$dir"
}
