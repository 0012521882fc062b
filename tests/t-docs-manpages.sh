#!/usr/bin/env bash
# The man pages (docs/man/, mdoc) against what `make install` installs:
#  (a) `make install DESTDIR=... PREFIX=/usr` puts every page under
#      share/man/manN and the docs under share/doc/blkscope; each page
#      renders with `man -l` without a warning (and passes `mandoc -T lint`
#      when mandoc is installed, as in CI);
#  (b) every installed program has documentation whose option list names
#      exactly the options its --help prints: blkscope and blkscope-NAME in
#      the OPTIONS section of blkscope[-NAME].1, the tagging plugins
#      (tag-by-NAME, also the Python one) in the subsection ".Ss tag-by-NAME"
#      of blkscope-tags.7; every command `blkscope --help` lists has a page
#      and an entry in the COMMANDS section of blkscope.1, and every
#      installed blkscope-NAME program is listed there;
#  (c) man(1) finds the installed pages through MANPATH (`man blkscope`,
#      `man blkscope parse`, `man 7 blkscope-tags`).
# A new program or option without its page entry fails here, with a message
# that names the option and the page; docs/man/README.md says how to add one.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}

for tool in man nroff make; do
	command -v "$tool" >/dev/null || { echo "skip: $tool not installed (apt-get install man-db groff-base)"; exit 77; }
done

tmp=$(mktemp -d /tmp/blkscope-man.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# groff's mdoc macros may be missing even with groff installed (minimal
# images exclude /usr/share/groff from packages)
printf '.Dd January 1, 2026\n.Dt PROBE 1\n.Os\n.Sh NAME\n.Nm probe\n.Nd probe\n' >"$tmp/probe.1"
if ! MANWIDTH=80 man -l "$tmp/probe.1" 2>/dev/null | grep -q '^NAME'; then
	echo "skip: man -l cannot render an mdoc page here (groff's tmac files missing?)"
	exit 77
fi
root=$tmp/root
mandir=$root/usr/share/man
nfail=0
fail() {
	echo "FAIL: $*" >&2
	nfail=$((nfail + 1))
}
seen=0
ok() {	# a phase is ok if it added no failure
	[ "$nfail" -eq "$seen" ] && echo "ok: $*"
	seen=$nfail
}

# Options named by a --help text (stdin), one per line: the tokens -x / --xyz
# of the Usage block and of the option lines (indented lines that start with
# an option; only their first column, up to two blanks, so that options
# mentioned in a description do not count).
help_opts() {
	awk '
		/^[Uu]sage:/ { usage = 1 }
		usage && /^[[:space:]]*$/ { usage = 0 }
		usage { print; next }
		/^[[:space:]]+-(-[A-Za-z0-9]|[A-Za-z0-9]([ ,=]|$))/ {
			line = $0
			sub(/^[[:space:]]+/, "", line)
			sub(/  .*/, "", line)
			print line
		}' |
		{ grep -oE '(^|[][ ,/|])--?[A-Za-z0-9][A-Za-z0-9-]*' || true; } |
		sed -E 's/^[][ ,/|]//' | sort -u
}

# Options documented by page $1 in its section $2 (".Sh OPTIONS" or
# ".Ss tag-by-pid"): the Fl arguments of the .It lines, one per line.
# A .Sh section ends at the next .Sh, a .Ss subsection at the next .Ss/.Sh.
page_opts() {
	awk -v start="$2" '
		$0 == start { on = 1; next }
		on && start ~ /^\.Sh/ && /^\.Sh / { on = 0 }
		on && start ~ /^\.Ss/ && /^\.S[hs] / { on = 0 }
		on && /^\.It / { print }' "$1" |
		{ grep -oE 'Fl +(\\-|-)?[A-Za-z0-9](\\-|-|[A-Za-z0-9])*' || true; } |
		sed -E 's/^Fl +//; s/\\-/-/g; s/^/-/' | sort -u
}

# A page may document a help or version option that --help does not list
# about itself, if the program really takes it.
selfdoc_ok() {	# PROG OPTION HELPFILE
	local out rc=0
	out=$("$1" "$2" </dev/null 2>/dev/null) || rc=$?
	case $2 in
	-h|--help) [ "$rc" -eq 0 ] && [ "$out" = "$(cat "$3")" ] ;;
	-V|--version) [ "$rc" -eq 0 ] && [ -n "$out" ] ;;
	*) return 1 ;;
	esac
}

# compare NAME PROG HELPFILE PAGE SECTION: options of --help vs the page.
# Prints one FAIL line per difference; returns the number of differences.
compare() {
	local name=$1 prog=$2 help=$3 page=$4 section=$5 src opt n=0
	src="docs/man/$(basename "$page")"
	help_opts <"$help" >"$tmp/h.opts"
	page_opts "$page" "$section" >"$tmp/p.opts"
	if [ ! -s "$tmp/h.opts" ]; then
		fail "$name: found no option in '$name --help' (is its format still 'Usage:' plus '  -x, --xyz  text' lines?)"
		return 1
	fi
	while read -r opt; do
		fail "$name: option $opt is printed by '$name --help' but missing from '$section' of $src (add an '.It Fl ...' entry for it)"
		n=$((n + 1))
	done < <(comm -23 "$tmp/h.opts" "$tmp/p.opts")
	while read -r opt; do
		selfdoc_ok "$prog" "$opt" "$help" && continue
		fail "$name: option $opt is documented in '$section' of $src but '$name --help' does not print it (removed or renamed?)"
		n=$((n + 1))
	done < <(comm -13 "$tmp/h.opts" "$tmp/p.opts")
	return "$n"
}

# ---- (a) install, render, lint
env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
	make -s -C "$TOP" install DESTDIR="$root" PREFIX=/usr ${SANITIZE:+SANITIZE=$SANITIZE} \
	>"$tmp/install.log" 2>&1 || { cat "$tmp/install.log" >&2; echo "FAIL: make install" >&2; exit 1; }

for src in "$TOP"/docs/man/*.[1-9]; do
	page=$mandir/man${src##*.}/$(basename "$src")
	[ -f "$page" ] || fail "make install did not install $(basename "$src") as $page"
done
for doc in README.md docs/*.md; do
	[ -f "$root/usr/share/doc/blkscope/$(basename "$doc")" ] ||
		fail "make install did not install $doc into /usr/share/doc/blkscope"
done

pages=("$mandir"/man[1-9]/*)
[ "${#pages[@]}" -ge 6 ] || fail "only ${#pages[@]} man pages installed"
if ! command -v mandoc >/dev/null; then
	echo "note: mandoc not installed, pages checked with man --warnings only"
fi
for page in "${pages[@]}"; do
	name=$(basename "$page")
	warn=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >"$tmp/render") || fail "$name: man -l failed"
	[ -z "$warn" ] || fail "$name: man --warnings -l: $warn"
	grep -q '^NAME' "$tmp/render" && grep -q '^SEE ALSO' "$tmp/render" ||
		fail "$name: the rendered page has no NAME or SEE ALSO section"
	if command -v mandoc >/dev/null; then
		lint=$(mandoc -T lint -W warning "$page" 2>&1) || true
		[ -z "$lint" ] || fail "$name: mandoc -T lint: $lint"
	fi
done
ok "${#pages[@]} pages installed and rendered without warnings"

# ---- (b) every installed program documented, options in step with --help
progs=("$root/usr/bin/blkscope" "$root"/usr/libexec/blkscope/*)
for py in "$root"/usr/share/blkscope/python/*.py; do
	if [ -x "$py" ] && command -v python3 >/dev/null; then progs+=("$py"); fi
done
nprogs=0
for prog in "${progs[@]}"; do
	name=$(basename "$prog" .py)
	case $name in
	blkscope|blkscope-*) page=$mandir/man1/$name.1 section=".Sh OPTIONS" ;;
	tag-by-*) page=$mandir/man7/blkscope-tags.7 section=".Ss $name" ;;
	*) fail "installed program $name: no rule says where it is documented (see docs/man/README.md)"; continue ;;
	esac
	if ! "$prog" --help </dev/null >"$tmp/help" 2>&1; then
		fail "$name: '$name --help' fails; every installed program needs --help"
		continue
	fi
	if [ ! -f "$page" ]; then
		fail "$name: installed, but there is no man page for it: add docs/man/$(basename "$page") (see docs/man/README.md)"
		continue
	fi
	if ! grep -qxF "$section" "$page"; then
		fail "$name: installed, but docs/man/$(basename "$page") has no '$section' documenting it and its options"
		continue
	fi
	compare "$name" "$prog" "$tmp/help" "$page" "$section" || true
	nprogs=$((nprogs + 1))
done
ok "the options of $nprogs programs match their pages"

# The front-end's command list, its pages and blkscope.1's COMMANDS.
"$root/usr/bin/blkscope" --help |
	awk '/^Commands:/ { on = 1; next } on && /^[[:space:]]*$/ { exit } on { print $1 }' >"$tmp/cmds"
[ -s "$tmp/cmds" ] || fail "'blkscope --help' lists no commands"
awk '$0 == ".Sh COMMANDS" { on = 1; next } on && /^\.Sh / { on = 0 } on && /^\.It Cm / { print $3 }' \
	"$mandir/man1/blkscope.1" | sort >"$tmp/cmds.page"
while read -r cmd; do
	[ -f "$mandir/man1/blkscope-$cmd.1" ] ||
		fail "command '$cmd' (blkscope --help) has no page: add docs/man/blkscope-$cmd.1"
done <"$tmp/cmds"
sort "$tmp/cmds" >"$tmp/cmds.help"
while read -r cmd; do
	fail "command '$cmd' is listed by 'blkscope --help' but has no '.It Cm $cmd' in COMMANDS of docs/man/blkscope.1"
done < <(comm -23 "$tmp/cmds.help" "$tmp/cmds.page")
while read -r cmd; do
	fail "docs/man/blkscope.1 documents command '$cmd' in COMMANDS, but 'blkscope --help' does not list it"
done < <(comm -13 "$tmp/cmds.help" "$tmp/cmds.page")
for prog in "$root"/usr/libexec/blkscope/blkscope-*; do
	cmd=${prog##*/blkscope-}
	grep -qxF "$cmd" "$tmp/cmds" ||
		fail "blkscope-$cmd is installed, but 'blkscope --help' does not list '$cmd' under Commands"
done
for page in "$mandir"/man1/blkscope-*.1; do
	cmd=$(basename "$page" .1)
	cmd=${cmd#blkscope-}
	grep -qxF "$cmd" "$tmp/cmds" ||
		fail "docs/man/blkscope-$cmd.1 exists, but 'blkscope --help' lists no command '$cmd'"
done
ok "commands $(tr '\n' ' ' <"$tmp/cmds")have pages and COMMANDS entries"

# The comparison itself must catch a drift both ways (a copy of a page with
# one option entry removed and one bogus entry added).
prog=$root/usr/libexec/blkscope/blkscope-parse
"$prog" --help >"$tmp/help.parse"
awk '/^\.It Fl t ,/ { next } { print } /^\.Sh OPTIONS/ { getline; print; print ".It Fl \\-bogus\\-option"; }' \
	"$mandir/man1/blkscope-parse.1" >"$tmp/blkscope-parse.1"
n=0
compare blkscope-parse "$prog" "$tmp/help.parse" "$tmp/blkscope-parse.1" ".Sh OPTIONS" 2>"$tmp/selftest" || n=$?
nfail=$((nfail - n))	# each difference found here was planted: not a failure
if [ "$n" -ne 3 ] || ! grep -q -- '--bogus-option is documented' "$tmp/selftest" ||
	! grep -q -- 'option --track-ios is printed' "$tmp/selftest"; then
	cat "$tmp/selftest" >&2
	fail "self-test: the option comparison missed a planted drift ($n differences reported, 3 expected)"
fi
ok "a planted drift is reported ($n differences)"

# ---- (c) man finds the pages
export MANPATH=$mandir
unset MANOPT MANSECT
for page in "${pages[@]}"; do
	name=$(basename "$page")
	want=${name%.*}
	got=$(man -w "${name##*.}" "$want" 2>/dev/null) || got=
	[ "$got" = "$page" ] || fail "MANPATH=$mandir man -w ${name##*.} $want gives '$got', not $page"
done
MANWIDTH=80 man blkscope >"$tmp/man.out" 2>&1 || fail "man blkscope failed: $(head -3 "$tmp/man.out")"
grep -q '^BLKSCOPE(1)' "$tmp/man.out" && grep -q '^ *blkscope .* record block I/O' "$tmp/man.out" ||
	fail "man blkscope did not show blkscope(1): $(head -3 "$tmp/man.out")"
[ "$(man -w blkscope parse 2>/dev/null)" = "$mandir/man1/blkscope-parse.1" ] ||
	fail "'man blkscope parse' does not open blkscope-parse(1) (man-db's subpages)"
MANWIDTH=80 man 7 blkscope-tags 2>&1 | grep -q '^BLKSCOPE-TAGS(7)' || fail "man 7 blkscope-tags failed"
ok "man finds every page through MANPATH"

[ "$nfail" -eq 0 ] || { echo "$nfail failures" >&2; exit 1; }
echo "PASS"
