#!/usr/bin/env bash
# Who `record -- COMMAND` runs as (docs/security.md, "Root recorder").
# The recorder runs as root; the command must not:
#  - --user nobody / --user 65534 / --user UID:GID: every uid and gid is the
#    user's, the groups are the user's own (not root's, not the recorder's
#    extra groups), and no capability is left in any set;
#  - under sudo (SUDO_UID/SUDO_GID) without --user: the calling user;
#    --keep-root keeps root; without SUDO_UID nothing changes;
#  - an unknown user, --user without a command, --user with --keep-root:
#    refused with one line, before anything is recorded;
#  - the command's exit status still comes back.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require setpriv
rec_workdir
rec_loop 16
unset SUDO_UID SUDO_GID SUDO_USER

nobody_gid=$(id -g nobody) || rec_die "no user 'nobody' on this system"
# status_as NAME OPTIONS...: the command's /proc/self/status (its own shell)
status_as() {
	local name=$1
	shift
	"$REC" -d "$REC_LOOP" -D "$REC_WORK" -o "$name" "$@" -- sh -c 'cat /proc/$$/status' \
		2>"$REC_WORK/$name.err" || { cat "$REC_WORK/$name.err" >&2; rec_die "run $name failed"; }
}
field() {	# field STATUS NAME: the value of "NAME:" (tabs as spaces)
	awk -v f="$2:" '$1 == f { $1 = ""; sub(/^ /, ""); print }' <<<"$1"
}
# expect_user STATUS UID GID GROUPS: all ids, the exact groups, no capabilities
expect_user() {
	local st=$1 uid=$2 gid=$3 groups=$4 c
	[ "$(field "$st" Uid)" = "$uid $uid $uid $uid" ] || rec_die "Uid: $(field "$st" Uid), want $uid"
	[ "$(field "$st" Gid)" = "$gid $gid $gid $gid" ] || rec_die "Gid: $(field "$st" Gid), want $gid"
	[ "$(field "$st" Groups)" = "$groups" ] || rec_die "Groups: '$(field "$st" Groups)', want '$groups'"
	for c in CapInh CapPrm CapEff CapAmb; do
		[ "$(field "$st" $c)" = 0000000000000000 ] || rec_die "$c: $(field "$st" $c), want none"
	done
}

# the recorder itself carries extra groups (4, 27, 0): none may reach the command
st=$(setpriv --groups 0,4,27 "$REC" -d "$REC_LOOP" -D "$REC_WORK" -o byname --user nobody \
	-- sh -c 'cat /proc/$$/status' 2>"$REC_WORK/byname.err") ||
	{ cat "$REC_WORK/byname.err" >&2; rec_die "--user nobody failed"; }
expect_user "$st" 65534 "$nobody_gid" "$nobody_gid"
rec_check_files "$REC_WORK" byname
echo "--user nobody: uid 65534, gid $nobody_gid, groups $nobody_gid, no capabilities"

st=$(status_as byuid --user 65534)
expect_user "$st" 65534 "$nobody_gid" "$nobody_gid"
# a uid without a passwd entry: UID:GID, and then no other group
st=$(status_as bypair --user 54321:54322)
expect_user "$st" 54321 54322 54322
echo "--user 65534 and --user 54321:54322: as asked"

# sudo: the calling user by default, said on stderr; --keep-root keeps root
st=$(SUDO_UID=65534 SUDO_GID=$nobody_gid SUDO_USER=nobody status_as sudo)
expect_user "$st" 65534 "$nobody_gid" "$nobody_gid"
grep -q "from SUDO_UID" "$REC_WORK/sudo.err" || rec_die "no note about SUDO_UID: $(cat "$REC_WORK/sudo.err")"
st=$(SUDO_UID=65534 SUDO_GID=$nobody_gid status_as keep --keep-root)
[ "$(field "$st" Uid)" = "0 0 0 0" ] || rec_die "--keep-root: Uid $(field "$st" Uid)"
[ "$(field "$st" CapEff)" != 0000000000000000 ] || rec_die "--keep-root lost the capabilities"
st=$(status_as plain)
[ "$(field "$st" Uid)" = "0 0 0 0" ] || rec_die "without sudo or --user: Uid $(field "$st" Uid)"
echo "SUDO_UID: the calling user; --keep-root and no sudo: root"

# the command's status comes back through the switch
rc=0
"$REC" -d "$REC_LOOP" -D "$REC_WORK" -o status --user nobody -- sh -c 'exit 7' 2>/dev/null || rc=$?
[ "$rc" -eq 7 ] || rec_die "exit status 7 came back as $rc"

# refusals: one line, status 2, no file left behind
refuse() {
	local pat=$1 rc=0
	shift
	"$REC" -d "$REC_LOOP" -D "$REC_WORK" -o refused "$@" >/dev/null 2>"$REC_WORK/refused.err" || rc=$?
	[ "$rc" -eq 2 ] || { cat "$REC_WORK/refused.err" >&2; rec_die "status $rc (want 2) for: $*"; }
	grep -q -- "$pat" "$REC_WORK/refused.err" || { cat "$REC_WORK/refused.err" >&2; rec_die "want '$pat' for: $*"; }
	[ "$(wc -l <"$REC_WORK/refused.err")" -eq 1 ] || { cat "$REC_WORK/refused.err" >&2; rec_die "not one line: $*"; }
	! ls "$REC_WORK"/refused.blktrace.* >/dev/null 2>&1 || rec_die "files left behind by: $*"
}
refuse "no such user" --user no-such-user-blkscope -- true
refuse "bad --user" --user 1:x -- true
refuse "apply to -- COMMAND" --user nobody -w 0.1
refuse "contradict" --user nobody --keep-root -- true
SUDO_UID=abc refuse "SUDO_UID=abc" -- true
echo "bad users refused with one line"
echo OK
