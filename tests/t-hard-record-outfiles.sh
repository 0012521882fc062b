#!/usr/bin/env bash
# Output files in a directory other users can write to (docs/security.md,
# "Output files"), and what `-- COMMAND` inherits.  The recorder runs as
# root; nothing already at an output name may be opened, written or
# followed, each refusal is one line naming the file, and a refused run
# leaves no file of its own behind:
#  - a file another user created at the name: refused, still theirs, unchanged
#    (also with --force);
#  - a FIFO at the name: refused at once, not a recorder blocked in open();
#  - a symlink at the name, a hard link to another file: refused, target unchanged;
#  - a -D that is a symlink (also written "DIR/"): refused, nothing written
#    through it;
#  - our own file from an earlier run: refused with a hint; --force replaces it;
#  - the command sees only fds 0-2 even when the recorder was given more,
#    and every descriptor the recorder opens itself is close-on-exec.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require setpriv
rec_workdir
rec_loop 16
unset SUDO_UID SUDO_GID SUDO_USER

chmod 755 "$REC_WORK"
shared=$REC_WORK/shared	# like /tmp: world-writable, sticky
mkdir -m 1777 "$shared"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"; }

# refuse PATTERN OPTIONS...: one line with PATTERN, non-zero, within 20 s
refuse() {
	local pat=$1 rc=0
	shift
	timeout 20 "$REC" -d "$REC_LOOP" -w 0.2 "$@" >/dev/null 2>"$REC_WORK/err" || rc=$?
	[ "$rc" -ne 124 ] || rec_die "still blocked after 20 s: $*"
	[ "$rc" -ne 0 ] || rec_die "accepted: $*"
	grep -q -- "$pat" "$REC_WORK/err" || { cat "$REC_WORK/err" >&2; rec_die "want '$pat' from: $*"; }
	[ "$(wc -l <"$REC_WORK/err")" -eq 1 ] || { cat "$REC_WORK/err" >&2; rec_die "not one line: $*"; }
	echo "refused: $(cat "$REC_WORK/err")"
}
# no_files DIR BASE: the refused run left none of its files behind
no_files() {
	local f
	for f in "$1/$2".blktrace.*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		[ -n "${3:-}" ] && [ "$f" = "$3" ] && continue
		rec_die "left behind: $f"
	done
}

# another user's file (on CPU 1, so CPU 0's file is created first and must be removed again)
as_nobody sh -c "echo theirs >'$shared/their.blktrace.1'"
sum=$(md5sum <"$shared/their.blktrace.1")
refuse "their.blktrace.1 exists and belongs to uid 65534" -D "$shared" -o their
refuse "belongs to uid 65534" -D "$shared" -o their --force
[ "$(md5sum <"$shared/their.blktrace.1")" = "$sum" ] || rec_die "another user's file was written into"
[ "$(stat -c %u "$shared/their.blktrace.1")" = 65534 ] || rec_die "another user's file changed owner"
no_files "$shared" their "$shared/their.blktrace.1"

# a FIFO: open(O_WRONLY) on it would wait for a reader forever
as_nobody mkfifo "$shared/fifo.blktrace.0"
start=$(date +%s)
refuse "fifo.blktrace.0 exists and is a FIFO" -D "$shared" -o fifo
refuse "is a FIFO" -D "$shared" -o fifo --force
[ $(($(date +%s) - start)) -lt 30 ] || rec_die "the FIFO refusals took too long"
[ -p "$shared/fifo.blktrace.0" ] || rec_die "the FIFO was replaced"

# symlinks at an output name: to another file, dangling (O_CREAT would create its target)
echo precious >"$REC_WORK/target"
as_nobody ln -s ../target "$shared/sym.blktrace.0"
refuse "sym.blktrace.0 is a symlink; refusing to follow it" -D "$shared" -o sym --force
as_nobody ln -s ../created-through-link "$shared/dang.blktrace.0"
refuse "is a symlink" -D "$shared" -o dang
[ "$(cat "$REC_WORK/target")" = precious ] || rec_die "the symlink's target was modified"
[ ! -e "$REC_WORK/created-through-link" ] || rec_die "a file was created through a dangling symlink"

# a hard link to a file of ours elsewhere (root's, so "ours" by owner, but 2 links)
ln "$REC_WORK/target" "$shared/hard.blktrace.0"
refuse "hard links" -D "$shared" -o hard --force
[ "$(cat "$REC_WORK/target")" = precious ] || rec_die "the hard link's file was modified"

# a symlinked -D, also with a trailing slash (which would make open() follow it)
mkdir "$REC_WORK/real"
as_nobody ln -s ../real "$shared/dirlink"
refuse "output directory $shared/dirlink is a symlink" -D "$shared/dirlink"
refuse "is a symlink" -D "$shared/dirlink/"
[ -z "$(ls -A "$REC_WORK/real")" ] || rec_die "files were written through a symlinked -D: $(ls "$REC_WORK/real")"
as_nobody touch "$shared/notdir"
refuse "is not a directory" -D "$shared/notdir"
refuse "a base name without '/'" -D "$shared" -o ../escape
echo "planted files, FIFOs, symlinks, hard links and a symlinked -D: refused, untouched"

# our own files from an earlier run: refused (nothing lost), --force replaces them
"$REC" -d "$REC_LOOP" -D "$REC_WORK/own" -o own -w 0.2 2>/dev/null || rec_die "first run failed"
rec_check_files "$REC_WORK/own" own
# mark the old file (junk after its records): kept by a refusal, gone after --force
printf 'not a record' >>"$REC_WORK/own/own.blktrace.0"
sum=$(md5sum <"$REC_WORK/own/own.blktrace.0")
refuse "own.blktrace.0 exists (from an earlier run?); remove it, use another -D/-o, or pass --force" \
	-D "$REC_WORK/own" -o own
[ "$(md5sum <"$REC_WORK/own/own.blktrace.0")" = "$sum" ] || rec_die "the refused run changed a file"
"$REC" -d "$REC_LOOP" -D "$REC_WORK/own" -o own -w 0.2 --force 2>/dev/null || rec_die "--force failed"
! grep -q 'not a record' "$REC_WORK/own/own.blktrace.0" || rec_die "--force kept the old file"
rec_check_files "$REC_WORK/own" own
rec_blkparse -D "$REC_WORK/own" -i own >/dev/null
echo "an earlier run's files: refused, --force replaces them"

# -- COMMAND inherits fds 0-2 only, even when the recorder was given fd 9
# (files) and when its stdout is the record stream (-o -)
fds=$("$REC" -d "$REC_LOOP" -D "$REC_WORK" -o fds -- sh -c 'ls /proc/$$/fd' 9<"$REC_WORK/target" 2>/dev/null |
	tr '\n' ' ')
[ "$fds" = "0 1 2 " ] || rec_die "the command inherited fds: $fds"
"$REC" -d "$REC_LOOP" -o - -- sh -c 'exec >&2; ls /proc/$$/fd' 9<"$REC_WORK/target" 2>"$REC_WORK/fds.err" >/dev/null
fds=$(grep -xE '[0-9]+' "$REC_WORK/fds.err" | tr '\n' ' ')
[ "$fds" = "0 1 2 " ] || rec_die "with -o -, the command inherited fds: $fds"
echo "the command sees fds: $fds"

# every fd the recorder opens itself (files, BPF maps/programs/links, ring
# epoll, io_uring) is close-on-exec: start it with nothing but 0-2 open
bash -c 'for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
	exec "$@"' _ "$REC" -d "$REC_LOOP" -D "$REC_WORK" -o cloexec -- sleep 30 2>/dev/null &
rec=$!
rec_defer "kill $rec 2>/dev/null; wait $rec 2>/dev/null"
for _ in $(seq 100); do pgrep -P "$rec" -x sleep >/dev/null && break; sleep 0.1; done
pgrep -P "$rec" -x sleep >/dev/null || rec_die "the recorder did not start its command"
n=0
for info in /proc/"$rec"/fdinfo/*; do
	fd=${info##*/}
	[ "$fd" -gt 2 ] || continue
	flags=$(awk '$1 == "flags:" { print $2 }' "$info" 2>/dev/null) || continue
	[ -n "$flags" ] || continue
	(( (8#$flags & 8#2000000) != 0 )) ||
		rec_die "fd $fd -> $(readlink "/proc/$rec/fd/$fd") is not close-on-exec (flags $flags)"
	n=$((n + 1))
done
[ "$n" -ge 3 ] || rec_die "only $n recorder fds seen"
kill -INT "$rec"
wait "$rec" || true
echo "all $n descriptors of the recorder are close-on-exec"
echo OK
