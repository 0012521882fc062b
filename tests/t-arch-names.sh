#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The naming and layout rules of docs/architecture.md ("Names and rooms"),
# checked on the built objects and the sources.  Every violation is printed
# as file:line or object: symbol.
#
# 1. Every symbol a directory's objects export (nm -g --defined-only on
#    $BUILD/obj/DIR/*.o, main() aside) starts with one of the prefixes the
#    table in docs/architecture.md gives that directory, and every source
#    file's name starts with one of them: the table is the rule, this test
#    reads it from the document so the two cannot drift apart.
# 2. Private headers end in _priv.h (no _internal.h, _int.h, _impl.h).
# 3. Every header's include guard is BLKSCOPE_..._H.
# 4. C sources and headers: lines of at most 100 columns (a tab is 8),
#    files of at most 700 lines, in every code directory.
# 5. Only format/ knows the record layouts: the magic, the versions and the
#    record sizes (BS_TRACE_MAGIC*, BS_TRACE_VERSION*, BS_TRACE_SIZE,
#    BS_TRACE2_SIZE) appear nowhere else in product code.  The BPF program
#    (bpf/) builds records in the kernel, where format/ cannot be linked, and
#    tests/ and fuzz/ craft damaged records on purpose: they are exempt.
# 6. Library code does not print on stderr (fprintf/vfprintf/fputs/putc to
#    stderr, perror): it returns a struct bs_err or tells its sink
#    (util/bs_msg.h); only the front-ends in cli/ print.  One exception,
#    util/bs_alloc.c: out of memory, it says so and aborts (nothing is left
#    to return to).
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$TOP"
. tests/lib/skip.sh
need_tools python3 nm
BUILD=${BUILD:-build}
[ -d "$BUILD/obj" ] || skip "no $BUILD/obj: build first"

python3 - "$BUILD" <<'PY'
import os
import re
import subprocess
import sys

build = sys.argv[1]
CODE_DIRS = ("analyze/", "tags/", "format/", "util/", "record/", "bpf/", "replay/",
             "parquet/", "cli/")
MAX_COLS, MAX_LINES = 100, 700
LAYOUT = re.compile(r"\bBS_TRACE(_MAGIC\w*|_VERSION\w*|_SIZE|2_SIZE)\b")
LAYOUT_EXEMPT = ("format/", "bpf/", "tests/", "fuzz/")
LIBRARY_DIRS = ("util/", "format/", "parquet/", "tags/host/", "analyze/")
PRINTS = re.compile(r"\b(v?fprintf\s*\(\s*stderr\b|perror\s*\(|"
                    r"(fputs|fputc|putc)\s*\([^;]*,\s*stderr\s*\))")
PRINT_EXEMPT = ("util/bs_alloc.c",)
violations = []


def tracked():
    out = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True)
    return out.stdout.split()


def prefix_table():
    """Rows of the table under '## Names and rooms': (dir, [prefixes])."""
    text = open("docs/architecture.md", encoding="utf-8").read()
    m = re.search(r"^## Names and rooms\n(.*?)(?=^## )", text, re.S | re.M)
    if not m:
        sys.exit("docs/architecture.md has no '## Names and rooms' section")
    rows = []
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[1].startswith("`") or cells[0].startswith("-"):
            continue
        d = cells[1].strip("`")
        prefixes = re.findall(r"`([a-z0-9_]+_)`", cells[2])
        if d.endswith("/") and prefixes:
            rows.append((d, prefixes))
    if not rows:
        sys.exit("docs/architecture.md: the names table has no rows")
    return rows


def exported(obj):
    out = subprocess.run(["nm", "-g", "--defined-only", obj], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRCVWG":
            sym = parts[2]
            if sym.startswith("__odr_asan."):      # ASan's twin of a global (SANITIZE=1)
                sym = sym[len("__odr_asan."):]
            elif sym.startswith(("__asan", "__ubsan", "__sancov")):
                continue
            yield sym


files = tracked()
rows = prefix_table()
for d, prefixes in rows:
    objdir = os.path.join(build, "obj", d)
    srcs = sorted(f for f in files if os.path.dirname(f) + "/" == d and f.endswith(".c"))
    for src in srcs:
        base = os.path.basename(src)[:-2]
        if not any(base.startswith(p) or base == p[:-1] for p in prefixes):
            violations.append("%s: file name does not start with %s" % (src, " or ".join(prefixes)))
        obj = os.path.join(objdir, base + ".o")
        if not os.path.exists(obj):
            continue            # not built in this configuration (no liburing, no BPF)
        for sym in exported(obj):
            if sym == "main" or any(sym.startswith(p) for p in prefixes):
                continue
            violations.append("%s: exports %s (prefix %s)" % (src, sym, " or ".join(prefixes)))

code = [f for f in files if f.endswith((".c", ".h")) and f.startswith(CODE_DIRS)]
checked = [f for f in files if f.endswith((".c", ".h")) and
           f.startswith(CODE_DIRS + ("tests/", "fuzz/"))]
for path in code:
    if re.search(r"_(internal|int|impl)\.h$", path):
        violations.append("%s: a private header's name ends in _priv.h" % path)
for path in sorted(checked):
    raw = open(path, encoding="utf-8", errors="replace").read()
    lines = raw.split("\n")
    if path.endswith(".h") and path.startswith(CODE_DIRS) and not path.endswith("vmlinux.h"):
        g = re.search(r"^#ifndef\s+(\w+)", raw, re.M)
        if not g or not g.group(1).startswith("BLKSCOPE_") or not g.group(1).endswith("_H"):
            violations.append("%s:1: include guard %s (want BLKSCOPE_..._H)"
                              % (path, g.group(1) if g else "missing"))
    if len(lines) - 1 > MAX_LINES:
        violations.append("%s: %d lines (max %d)" % (path, len(lines) - 1, MAX_LINES))
    for n, line in enumerate(lines, 1):
        width = len(line.expandtabs(8))
        if width > MAX_COLS:
            violations.append("%s:%d: %d columns (max %d)" % (path, n, width, MAX_COLS))
        if path.startswith(LIBRARY_DIRS) and path not in PRINT_EXEMPT and PRINTS.search(line) \
                and not line.lstrip().startswith(("*", "/*", "//")):
            violations.append("%s:%d: library code prints on stderr (return a struct bs_err "
                              "or tell the sink)" % (path, n))
        if not path.startswith(LAYOUT_EXEMPT) and LAYOUT.search(line):
            violations.append("%s:%d: record layout outside format/ (%s)"
                              % (path, n, LAYOUT.search(line).group(0)))

for v in violations:
    print(v)
if violations:
    print("FAIL: %d violation(s) of the naming and layout rules" % len(violations))
    sys.exit(1)
print("OK: %d directories' symbols and file names carry their prefixes; %d files within "
      "%d columns and %d lines; guards, private headers, record layouts and printing as the "
      "rules say"
      % (len(rows), len(checked), MAX_COLS, MAX_LINES))
PY
