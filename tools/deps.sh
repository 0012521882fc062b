#!/bin/sh
# tools/deps.sh - install everything blkscope's build, tests and benchmarks
# use: the one list of dependencies (`make deps` runs this script, and so
# does .ci/run; the README's quick start calls it directly because a fresh
# machine may not have make yet).
#
#   tools/deps.sh            install what is missing (Debian/Ubuntu, as root)
#   tools/deps.sh --list     print the Debian package names, one a line
#   tools/deps.sh --check    say what is missing, install nothing (exit 1 if any)
#
# On Debian and Ubuntu it runs `apt-get update` and `apt-get install` only
# when a package is missing, then installs the DuckDB module for node
# (@duckdb/node-api, used by the export tests) into $BLKSCOPE_DUCKDB_DIR
# (default /var/tmp/blkscope-duckdb) when it is not there yet: running it
# twice does nothing the second time.  Elsewhere it prints what to install.
set -eu

# Debian package: what needs it.  Keep tests/README.md's "needs" column and
# tests/lib/skip.sh's package names in step with this list.
PACKAGES='
make                build
gcc                 build
libc6-dev           build
linux-libc-dev      build
pkg-config          build
libzstd-dev         build: .zst traces (optional; without it .zst inputs are refused)
zlib1g-dev          build: the recorder (libbpf links it)
libelf-dev          build: the recorder
libbpf-dev          build: the recorder
liburing-dev        build: the recorder
clang               build: the recorder (BPF programs), tests: fuzzing
llvm                build: the recorder
bpftool             build: the recorder (skeletons)
libclang-rt-dev     tests: libFuzzer (t-hard-fuzz)
blktrace            tests, benchmarks: blkparse, btt, iowatcher (the oracles)
fio                 tests, benchmarks: load for the recorder
zstd                tests: compressed traces
python3             tests: models and checkers
chromium            tests: the HTML reports rendered (t-analyze-extras-html, t-compare-cli)
nodejs              tests: DuckDB over the exports
npm                 tests: installs @duckdb/node-api
util-linux          tests: losetup, setpriv, flock, taskset, prlimit, blkdiscard, addpart
e2fsprogs           tests: mkfs.ext4 (a disk that fills up)
libcap2-bin         tests: capsh (t-record-basic-errors)
kmod                tests: modprobe (zram, I/O schedulers)
procps              tests: ps, pgrep
time                tests, benchmarks: /usr/bin/time (CPU time and peak memory)
bc                  benchmarks: arithmetic (bench-record)
man-db              tests: man pages render (t-docs-manpages)
groff-base          tests: man pages render
mandoc              tests: man pages lint
locales             tests: a UTF-8 locale for blkparse (t-parse-golden-gen)
valgrind            benchmarks: instruction counts (bench-export)
'
DUCKDB_DIR=${BLKSCOPE_DUCKDB_DIR:-/var/tmp/blkscope-duckdb}

names() {
	printf '%s\n' "$PACKAGES" | awk 'NF { print $1 }'
}

# the Debian packages not installed
missing() {
	for p in $(names); do
		case "$p" in
		nodejs|npm)
			# node may come from another repository (nodesource bundles npm
			# and conflicts with Debian's npm): a working command is enough
			command -v "${p%js}" >/dev/null 2>&1 && continue ;;
		esac
		s=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
		case "$s" in *" installed") ;; *) echo "$p" ;; esac
	done
}

have_duckdb() {
	[ -d "$DUCKDB_DIR/node_modules/@duckdb/node-api" ]
}

elsewhere() {
	cat <<EOT
tools/deps.sh: not a Debian or Ubuntu system (no apt-get and dpkg-query): install these
with your package manager (Debian names; the tools each provides in brackets):
EOT
	printf '%s\n' "$PACKAGES" | awk 'NF { printf "  %-18s", $1; $1 = ""; print $0 }'
	cat <<EOT
  and the npm package @duckdb/node-api:
    npm install --prefix $DUCKDB_DIR @duckdb/node-api
The analyzer alone needs only a C compiler, make and pkg-config (libzstd optional).
EOT
	for t in cc make pkg-config; do
		command -v "$t" >/dev/null 2>&1 || exit 1
	done
}

case "${1:-}" in
--list)
	names
	exit 0 ;;
--check|'')
	;;
-h|--help)
	sed -n '2,16s/^# \{0,1\}//p' "$0"
	exit 0 ;;
*)
	echo "tools/deps.sh: unknown option '$1' (--list, --check or none)" >&2
	exit 2 ;;
esac

if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-query >/dev/null 2>&1; then
	elsewhere
	exit 0
fi
need=$(missing | tr '\n' ' ')
if [ "${1:-}" = --check ]; then
	[ -z "$need" ] || echo "missing Debian packages: $need"
	have_duckdb || echo "missing: @duckdb/node-api in $DUCKDB_DIR"
	[ -z "$need" ] && have_duckdb
	exit
fi
if [ -n "$need" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "tools/deps.sh: missing packages; as root, run: apt-get install $need" >&2
		exit 1
	fi
	echo "tools/deps.sh: installing $need"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	# shellcheck disable=SC2086 # one word a package
	apt-get install -y -q --no-install-recommends $need
fi
if ! have_duckdb; then
	echo "tools/deps.sh: installing @duckdb/node-api into $DUCKDB_DIR"
	mkdir -p "$DUCKDB_DIR"
	# only the DuckDB tests need it: without it they skip, the build does not care
	if ! npm install --prefix "$DUCKDB_DIR" --no-audit --no-fund @duckdb/node-api; then
		echo "tools/deps.sh: warning: npm could not install @duckdb/node-api; the DuckDB tests" \
			"(t-export-duckdb, t-export-fleet, t-export-parquet-duckdb) will skip" >&2
		exit 0
	fi
fi
echo "tools/deps.sh: every dependency is installed"
