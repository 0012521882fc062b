# SPDX-License-Identifier: GPL-2.0
# oracle.sh - shared helpers for the recorder fidelity tests: loop devices
# over /dev/shm files, the kernel's ftrace blk tracer as an oracle, and the
# record comparator.  Source it from a test that runs under
# `set -euo pipefail`.  It installs an EXIT trap that undoes everything
# registered with oracle_defer, in reverse order, also when the test fails.
#
# The ftrace blk tracer (docs/format.md §The ftrace blk tracer) is global
# state.  oracle_ftrace_start takes an flock on $ORACLE_LOCK for the whole
# capture so that two tests (or two engineers) cannot interleave, saves
# every setting it touches and oracle_ftrace_stop (or the EXIT trap)
# restores them.

ORACLE_DIR=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/oracle
ORACLE_TRACEFS=/sys/kernel/tracing
ORACLE_LOCK=${ORACLE_LOCK:-/run/lock/blkscope-oracle-tracefs.lock}
ORACLE_BUFFER_KB=${ORACLE_BUFFER_KB:-32768}	# per CPU; a 4 MiB fio run is ~60k events
export PYTHONDONTWRITEBYTECODE=1	# keep the source tree clean

. "$(dirname "${BASH_SOURCE[0]}")/skip.sh"
_oracle_cleanups=()

oracle_die() {
	echo "FAIL: $*" >&2
	exit 1
}

oracle_log() {
	echo "oracle: $*" >&2
}

# oracle_defer CMD: run CMD (a string for eval) at exit, last registered first.
oracle_defer() {
	_oracle_cleanups+=("$1")
}

_oracle_run_cleanups() {
	local rc=$? i
	set +e
	for ((i = ${#_oracle_cleanups[@]} - 1; i >= 0; i--)); do
		eval "${_oracle_cleanups[i]}"
	done
	_oracle_cleanups=()
	exit "$rc"
}
trap _oracle_run_cleanups EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# under sudo, `record -- COMMAND` would run COMMAND as the calling user
unset SUDO_UID SUDO_GID SUDO_USER

oracle_require_root() {
	need_root "CAP_SYS_ADMIN: loop devices, tracefs, BPF"
	need_tools losetup python3 blkparse
}

oracle_require_recorder() {
	need_built "${BIN:-}/blkscope-record" "the recorder needs clang, bpftool, libbpf and liburing"
}

# ---------------------------------------------------------------------------
# (a) loop devices over files in /dev/shm

# oracle_loop_setup SIZE_MB [SCHEDULER]
# Sets ORACLE_LOOP (/dev/loopN), ORACLE_LOOP_NAME (loopN), ORACLE_LOOP_FILE.
oracle_loop_setup() {
	local size_mb=$1 sched=${2:-}
	ORACLE_LOOP_FILE=$(mktemp /dev/shm/blkscope-oracle.XXXXXX)
	oracle_defer "rm -f '$ORACLE_LOOP_FILE'"
	truncate -s "${size_mb}M" "$ORACLE_LOOP_FILE"
	# -P: partitions allowed, so that addpart (BLKPG) works later.
	ORACLE_LOOP=$(losetup -P -f --show "$ORACLE_LOOP_FILE") ||
		oracle_die "losetup -f failed (no free loop device?)"
	oracle_defer "losetup -d '$ORACLE_LOOP'"
	ORACLE_LOOP_NAME=$(basename "$ORACLE_LOOP")
	if [ -n "$sched" ]; then
		oracle_set_scheduler "$ORACLE_LOOP_NAME" "$sched"
	fi
	oracle_settle
}

# oracle_set_scheduler DISK SCHED: e.g. loop3 mq-deadline; restored at exit.
oracle_set_scheduler() {
	local disk=$1 sched=$2 f old
	f=/sys/block/$disk/queue/scheduler
	old=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$f")
	if ! grep -qw -- "$sched" "$f"; then
		modprobe "$sched" 2>/dev/null || modprobe "${sched/-/_}" 2>/dev/null || true
	fi
	grep -qw -- "$sched" "$f" || oracle_die "I/O scheduler $sched not available for $disk: $(cat "$f")"
	oracle_defer "echo '$old' > '$f'"
	echo "$sched" >"$f"
	[ "$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$f")" = "$sched" ] || oracle_die "could not set scheduler $sched on $disk"
}

# oracle_loop_addpart START_SECTOR NR_SECTORS: partition 1 through BLKPG.
# Sets ORACLE_PART (/dev/loopNp1) and ORACLE_PART_NAME (loopNp1).
oracle_loop_addpart() {
	local start=$1 nr=$2 i
	addpart "$ORACLE_LOOP" 1 "$start" "$nr" || oracle_die "addpart $ORACLE_LOOP 1 $start $nr failed"
	oracle_defer "delpart '$ORACLE_LOOP' 1 2>/dev/null"
	ORACLE_PART_NAME=${ORACLE_LOOP_NAME}p1
	ORACLE_PART=/dev/$ORACLE_PART_NAME
	for i in $(seq 50); do
		[ -b "$ORACLE_PART" ] && break
		sleep 0.1
	done
	[ -b "$ORACLE_PART" ] || oracle_die "$ORACLE_PART did not appear after addpart"
	oracle_settle
}

# oracle_zram_setup SIZE_MB: a fresh zram device (bio-based: Q and bio C
# events, no request path).  Sets ORACLE_ZRAM (/dev/zramN), ORACLE_ZRAM_NAME.
oracle_zram_setup() {
	local id C=/sys/class/zram-control
	[ -w "$C/hot_add" ] || skip "needs zram ($C/hot_add missing: CONFIG_ZRAM, modprobe zram)"
	id=$(cat "$C/hot_add") || oracle_die "zram hot_add failed"
	ORACLE_ZRAM_NAME=zram$id
	ORACLE_ZRAM=/dev/$ORACLE_ZRAM_NAME
	oracle_defer "echo 1 > /sys/block/$ORACLE_ZRAM_NAME/reset; echo $id > $C/hot_remove"
	echo "$1M" >"/sys/block/$ORACLE_ZRAM_NAME/disksize" || oracle_die "cannot size $ORACLE_ZRAM_NAME"
	oracle_settle
}

# Let udev finish probing a new device: its reads must not land in a capture.
oracle_settle() {
	udevadm settle 2>/dev/null || true
	sleep 0.2
}

# oracle_devnum NAME: kernel-encoded dev_t (major<<20|minor) of a block device.
oracle_devnum() {
	local mm
	mm=$(cat "/sys/class/block/$1/dev")
	echo $(((${mm%%:*} << 20) | ${mm##*:}))
}

# ---------------------------------------------------------------------------
# (b) the kernel's ftrace blk tracer, bin + nocontext-info (docs/format.md
# §The ftrace blk tracer)

_ORACLE_FT_SAVED=()	# "file<TAB>value" in save order; restored in reverse
_ORACLE_FT_PID=
_ORACLE_FT_DEV=
_ORACLE_FT_MOUNTED=

_oracle_ft_save() {	# FILE: remember its current value
	local v
	v=$(cat "$1")
	# buffer_size_kb reads "7 (expanded: 1408)" before first use.
	case $v in *"(expanded: "*) v=${v##*expanded: }; v=${v%)} ;; esac
	_ORACLE_FT_SAVED+=("$1"$'\t'"$v")
}

_oracle_ft_restore() {
	local i f v errexit=${-//[^e]/}
	set +e	# best effort; the caller's errexit comes back at the end
	if [ -n "$_ORACLE_FT_PID" ]; then
		kill "$_ORACLE_FT_PID" 2>/dev/null
		wait "$_ORACLE_FT_PID" 2>/dev/null
		_ORACLE_FT_PID=
	fi
	for ((i = ${#_ORACLE_FT_SAVED[@]} - 1; i >= 0; i--)); do
		f=${_ORACLE_FT_SAVED[i]%%$'\t'*}
		v=${_ORACLE_FT_SAVED[i]#*$'\t'}
		case $f in
		*/trace/*)
			# The device's filters only exist while it is enabled;
			# "disabled" means there was nothing to restore.
			[ "$v" = disabled ] && continue ;;
		*/set_event)
			[ -n "$v" ] && echo "$v" >"$f"
			continue ;;
		esac
		echo "$v" >"$f" 2>/dev/null || echo "oracle: could not restore $f to '$v'" >&2
	done
	_ORACLE_FT_SAVED=()
	[ -e "$ORACLE_TRACEFS/trace" ] && echo >"$ORACLE_TRACEFS/trace" 2>/dev/null
	if [ -n "$_ORACLE_FT_MOUNTED" ]; then
		umount "$ORACLE_TRACEFS" && _ORACLE_FT_MOUNTED=
	fi
	if [ -n "${_ORACLE_FT_LOCKFD:-}" ]; then
		eval "exec ${_ORACLE_FT_LOCKFD}>&-"
		_ORACLE_FT_LOCKFD=
	fi
	[ -z "$errexit" ] || set -e
}

# oracle_ftrace_start BLOCKDEV_NAME OUTFILE  (e.g. loop3 or loop3p1)
# Captures that device's blk-tracer records into OUTFILE until oracle_ftrace_stop.
oracle_ftrace_start() {
	local dev=$1 out=$2 T=$ORACLE_TRACEFS D f
	D=/sys/class/block/$dev/trace
	[ -d "$D" ] || oracle_die "$D missing: kernel without CONFIG_BLK_DEV_IO_TRACE?"
	exec {_ORACLE_FT_LOCKFD}>"$ORACLE_LOCK"
	flock -w 300 "$_ORACLE_FT_LOCKFD" || oracle_die "tracefs busy: could not lock $ORACLE_LOCK in 300 s"
	oracle_defer _oracle_ft_restore
	if [ ! -e "$T/current_tracer" ]; then
		mount -t tracefs nodev "$T" || oracle_die "cannot mount tracefs on $T"
		_ORACLE_FT_MOUNTED=1
	fi
	grep -qw blk "$T/available_tracers" || oracle_die "no ftrace blk tracer (CONFIG_BLK_DEV_IO_TRACE)"
	[ "$(cat "$T/current_tracer")" = nop ] ||
		oracle_die "tracefs in use: current_tracer is $(cat "$T/current_tracer"), not nop"
	[ "$(cat "$D/enable")" = 0 ] || oracle_die "$dev is already being traced ($D/enable = 1)"

	# Save in the order of setting; restore runs backwards.
	_oracle_ft_save "$T/tracing_on"
	_oracle_ft_save "$T/buffer_size_kb"
	_oracle_ft_save "$T/set_event"
	_oracle_ft_save "$T/options/bin"
	_oracle_ft_save "$T/options/context-info"
	_oracle_ft_save "$T/current_tracer"
	echo 0 >"$T/tracing_on"
	echo >"$T/set_event"	# other events would interleave their own formats
	echo "$ORACLE_BUFFER_KB" >"$T/buffer_size_kb"
	echo blk >"$T/current_tracer"
	# blk_classic/blk_cgroup exist only while the blk tracer is current,
	# so they are saved after (and restored before) the tracer switch.
	# ORACLE_FT_CGROUP=1: the kernel prefixes events with cgroup ids.
	for f in blk_classic blk_cgroup; do
		_oracle_ft_save "$T/options/$f"
		echo 0 >"$T/options/$f"
	done
	echo "${ORACLE_FT_CGROUP:-0}" >"$T/options/blk_cgroup"
	echo 1 >"$T/options/bin"
	echo 0 >"$T/options/context-info"
	echo >"$T/trace"
	for f in enable act_mask start_lba end_lba pid; do
		_oracle_ft_save "$D/$f"
	done
	_ORACLE_FT_DEV=$dev
	cat "$T/trace_pipe" >"$out" &
	_ORACLE_FT_PID=$!
	echo 1 >"$T/tracing_on"
	# Enabling the device last: sysfs defaults (all categories, the
	# device's LBA window, no pid filter) are what blkscope must match,
	# unless ORACLE_FT_FILTERS="act_mask=write start_lba=800 ..." asks
	# for the kernel's own filters (written after enable: they exist only
	# while the device is traced).
	echo 1 >"$D/enable"
	for f in ${ORACLE_FT_FILTERS:-}; do
		echo "${f#*=}" >"$D/${f%%=*}" || oracle_die "cannot set $D/${f%%=*} to ${f#*=}"
	done
}

# oracle_ftrace_stop: stop recording, drain trace_pipe, restore everything.
# Fails if the ring buffer overran (events lost).
oracle_ftrace_stop() {
	local T=$ORACLE_TRACEFS i left overrun=0 n
	echo 0 >"/sys/class/block/$_ORACLE_FT_DEV/trace/enable"
	for i in $(seq 100); do
		left=0
		for f in "$T"/per_cpu/cpu*/stats; do
			n=$(sed -n 's/^entries: //p' "$f")
			left=$((left + n))
		done
		[ "$left" -eq 0 ] && break
		sleep 0.05
	done
	sleep 0.2	# let cat write what it read
	for f in "$T"/per_cpu/cpu*/stats; do
		n=$(sed -n 's/^overrun: //p' "$f")
		overrun=$((overrun + n))
	done
	_oracle_ft_restore
	[ "$left" -eq 0 ] || oracle_die "ftrace: $left events still unread after 5 s"
	[ "$overrun" -eq 0 ] || oracle_die "ftrace ring buffer overran: $overrun events lost (raise ORACLE_BUFFER_KB)"
}

# ---------------------------------------------------------------------------
# (c) recording with blkscope and comparing

# oracle_record DEV DIR BASE CMD...: blkscope record -d DEV while CMD runs,
# with the extra options in ORACLE_REC_OPTS (e.g. "-a write --lba 800:808").
# ORACLE_REC_MODE selects the output path under test:
#   files (default)  DIR/BASE.blktrace.<cpu>
#   stream           -o - to a pipe, split by cpu afterwards (split-stream)
#   zstd             --zstd, decompressed afterwards with zstd -d
oracle_record() {
	local dev=$1 dir=$2 base=$3 f
	shift 3
	# shellcheck disable=SC2086 # ORACLE_REC_OPTS is a word list
	case ${ORACLE_REC_MODE:-files} in
	files)
		"$BIN/blkscope" record ${ORACLE_REC_OPTS:-} -d "$dev" -D "$dir" -o "$base" -- "$@" ;;
	stream)
		"$BIN/blkscope" record ${ORACLE_REC_OPTS:-} -d "$dev" -o - -- "$@" >"$dir/$base.stream" &&
			python3 "$ORACLE_DIR/split-stream" "$dir/$base.stream" "$dir/$base" ;;
	zstd)
		need_tools zstd
		"$BIN/blkscope" record ${ORACLE_REC_OPTS:-} --zstd -d "$dev" -D "$dir" -o "$base" -- "$@" || return
		ls "$dir/$base".blktrace.*.zst >/dev/null || oracle_die "--zstd wrote no .zst files"
		for f in "$dir/$base".blktrace.*.zst; do
			zstd -q -d "$f" -o "${f%.zst}" || oracle_die "zstd -d $f failed"
		done ;;
	*)
		oracle_die "ORACLE_REC_MODE=$ORACLE_REC_MODE: files, stream or zstd" ;;
	esac
}

# oracle_compare CAPTURE DIR/BASE [compare-records options]
oracle_compare() {
	python3 "$ORACLE_DIR/compare-records" "$@"
}

# oracle_run_case NAME DEVNAME WORKLOAD_FN [compare-records options...]
# The whole fidelity protocol for one workload on /dev/DEVNAME: ftrace on,
# blkscope recording while the workload runs, ftrace off, compare.
# Artefacts stay in $ORACLE_WORK/NAME.* for inspection on failure.
# ORACLE_DRYRUN=1 replaces blkscope by a conversion of the ftrace capture
# itself (tests/oracle/ftrace-to-blktrace): it exercises the harness and the
# workloads without the recorder, and proves nothing about the recorder.
oracle_run_case() {
	local name=$1 devname=$2 fn=$3 start
	shift 3
	start=$(date +%s.%N)
	rm -f "$ORACLE_WORK/$name".*
	oracle_settle
	oracle_ftrace_start "$devname" "$ORACLE_WORK/$name.ftrace"
	if [ -n "${ORACLE_DRYRUN:-}" ]; then
		WL_DEV=/dev/$devname "$ORACLE_DIR/run-workload" "$fn" ||
			{ oracle_ftrace_stop; oracle_die "$name: workload $fn failed"; }
		oracle_ftrace_stop
		python3 "$ORACLE_DIR/ftrace-to-blktrace" "$ORACLE_WORK/$name.ftrace" "$ORACLE_WORK/$name"
	else
		WL_DEV=/dev/$devname oracle_record "/dev/$devname" "$ORACLE_WORK" "$name" \
			"$ORACLE_DIR/run-workload" "$fn" >"$ORACLE_WORK/$name.record.log" 2>&1 ||
			{ cat "$ORACLE_WORK/$name.record.log" >&2; oracle_ftrace_stop; oracle_die "$name: blkscope record failed"; }
		oracle_ftrace_stop
		# completions the recorder measured as not recorded (docs/record.md)
		set -- "$@" --unrecorded-completions "$(awk '$1 == "Unrecorded:" { n += $2 } END { print n + 0 }' \
			"$ORACLE_WORK/$name.record.log")"
	fi
	echo "== $name: workload $fn on $devname${ORACLE_DRYRUN:+ (DRY RUN: ftrace converted, recorder NOT tested)}"
	oracle_compare "$ORACLE_WORK/$name.ftrace" "$ORACLE_WORK/$name" "$@" ||
		oracle_die "$name: blkscope's records differ from the kernel's (artefacts in $ORACLE_WORK)"
	printf '== %s: OK (%.1f s)\n' "$name" "$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { print a - b }')"
}

# oracle_workdir: a scratch directory, removed at exit unless ORACLE_KEEP=1.
oracle_workdir() {
	ORACLE_WORK=$(mktemp -d /tmp/blkscope-oracle.XXXXXX)
	if [ -z "${ORACLE_KEEP:-}" ]; then
		oracle_defer "rm -rf '$ORACLE_WORK'"
	else
		oracle_defer "echo 'oracle: artefacts kept in $ORACLE_WORK' >&2"
	fi
}
