#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The architecture rules of issue 10, checked by a plain scan of the C
# sources (comments, strings and preprocessor lines removed; functions
# found by brace counting).  Every violation is printed as file:line.
#
# 1. exit() is called only in a file that defines main(), and there only
#    from main(), from a function whose name contains "usage", or right
#    after a call to such a function (`usage(stdout); exit(0);` for -h);
#    everything else returns errors.  _exit() (a forked child that failed
#    to exec) is allowed anywhere.
# 2. Library code (analyze/, tags/host/, format/, util/, parquet/, replay/) keeps its state in
#    context objects: no mutable global variables (extern or not) and no
#    file-scope mutable statics.  `const` data is fine.
# 3. No file under analyze/ is longer than 700 lines.
# 4. No C function is longer than 120 lines (from its name to its closing
#    brace).
# 5. parquet/ (libbsparquet.a) is a base-level library: it includes its own
#    headers, util/'s and the system's, nothing of format/, analyze/, tags/.
#
# The exceptions below are deliberate and short; each says why.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$TOP"
. tests/lib/skip.sh
need_tools python3

# file:function pairs allowed over 120 lines: they mirror an upstream
# dispatcher case by case, and splitting them would hide the one-to-one
# correspondence with blkparse/btt that makes them checkable.
#   parse_line_event: blkparse's process_default(), one case per action letter.
#   parse_base_opt: btt's handle_args(), one case per option.
LONG_FUNCTION_EXCEPTIONS="
analyze/parse/parse_line.c:parse_line_event
analyze/analysis_opts.c:parse_base_opt
"
# file:name pairs of file-scope mutable state allowed in library code
# (none at present).
GLOBAL_EXCEPTIONS="
"

python3 - "$LONG_FUNCTION_EXCEPTIONS" "$GLOBAL_EXCEPTIONS" <<'PY'
import os
import re
import subprocess
import sys

LIBRARY_DIRS = ("analyze/", "tags/host/", "format/", "util/", "parquet/", "replay/")
# cli/ holds the front-ends (one <cmd>_main.c per program): exit() and
# printing are theirs, rule 1 applies as everywhere
CODE_DIRS = ("analyze/", "tags/", "format/", "util/", "parquet/", "record/", "bpf/", "replay/",
             "cli/")
BASE_LIBS = {"parquet/": ("parquet/", "util/")}   # a base library: the directories it may include
MAX_ANALYZE_FILE = 700
MAX_FUNCTION = 120
long_ok = set(sys.argv[1].split())
global_ok = set(sys.argv[2].split())


def tracked():
    try:
        out = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout
        return out.split()
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d in CODE_DIRS:
            for root, _, names in os.walk(d):
                files += [os.path.join(root, n) for n in names]
        return files


def strip(text):
    """Comments, string and char literals and preprocessor lines blanked
    out, keeping every newline so that line numbers stay right."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if at_line_start and c == "#":      # preprocessor line, with continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append("\n")
                    i += 2
                    continue
                i += 1
            continue
        at_line_start = False
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
            continue
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * max(0, j - i - 1) + c)
            i = j + 1
            continue
        if c == "\n":
            at_line_start = True
        out.append(c)
        i += 1
    return "".join(out)


NAME_RE = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
NOT_NAMES = {"SEC", "__attribute__", "__declspec", "if", "while", "for", "switch", "return", "sizeof"}


def func_name(header):
    header = re.sub(r"\bSEC\s*\([^)]*\)", " ", header)
    header = re.sub(r"__attribute__\s*\(\(.*?\)\)", " ", header, flags=re.S)
    for m in NAME_RE.finditer(header):
        name = m.group(1)
        if name in NOT_NAMES:
            continue
        if name.startswith("BPF_"):           # BPF_PROG(name, ...)
            arg = re.match(r"\s*(\w+)", header[m.end():])
            return arg.group(1) if arg else name
        return name
    return None


def scan(path, code):
    """Top-level items: ('func', name, first_line, last_line, body) and
    ('decl', text, line) for declarations ending in ';' at depth 0."""
    items = []
    depth = 0
    stmt_start = 0          # offset where the current top-level statement began
    func = None
    i = 0
    line_of = lambda off: code.count("\n", 0, off) + 1
    while i < len(code):
        c = code[i]
        if c == "{":
            if depth == 0:
                header = code[stmt_start:i]
                flat = " ".join(header.split())
                if flat.endswith(")") and "=" not in flat.split("(")[0]:
                    name = func_name(header)
                    if name:
                        first = line_of(stmt_start + len(header) - len(header.lstrip()))
                        func = (name, first, i)
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0 and func:
                name, first, body_start = func
                items.append(("func", name, first, line_of(i), code[body_start:i + 1]))
                func = None
                stmt_start = i + 1
        elif c == ";" and depth == 0:
            text = code[stmt_start:i]
            items.append(("decl", " ".join(text.split()), line_of(stmt_start + len(text) - len(text.lstrip()))))
            stmt_start = i + 1
        i += 1
    return items


def header_lines(code, body, first):
    """Lines between a function's name and its opening brace."""
    start = code.find(body)
    return code.count("\n", 0, start) + 1 - first


def mutable_decl(text):
    """The declared name if TEXT (a top-level declaration) defines or
    declares a mutable variable, else None."""
    if not text or text.startswith("typedef") or text.startswith("_Static_assert"):
        return None
    if re.fullmatch(r"(struct|union|enum)\s+\w+", text):
        return None                          # a forward declaration
    if "{" in text:                          # struct/enum definition, maybe with a declarator
        tail = text[text.rfind("}") + 1:].strip()
        if not tail:
            return None
        head = text[:text.find("{")]
        text = head + " " + tail
    words = re.findall(r"[A-Za-z_]\w*", text.split("=")[0])
    if "const" in words[:3] or re.search(r"\*\s*const\s+\w+\s*(\[|$|=)", text.split("=")[0]):
        return None
    before_eq = text.split("=")[0]
    first_paren = before_eq.find("(")
    if first_paren >= 0 and not re.match(r"\(\s*\*", before_eq[first_paren:]):
        return None                          # a function prototype or a macro call
    m = re.search(r"(\w+)\s*(\[[^\]]*\]\s*)*$", before_eq.strip())
    if not m and re.search(r"\(\s*\*\s*(\w+)", before_eq):
        m = re.search(r"\(\s*\*\s*(\w+)", before_eq)
    return m.group(1) if m else None


violations = []
files = [f for f in tracked() if f.endswith((".c", ".h")) and f.startswith(CODE_DIRS)]
for path in sorted(files):
    raw = open(path, encoding="utf-8", errors="replace").read()
    nlines = raw.count("\n")
    if path.startswith("analyze/") and nlines > MAX_ANALYZE_FILE:
        violations.append("%s:%d: file has %d lines (max %d under analyze/)" % (path, nlines, nlines, MAX_ANALYZE_FILE))
    # 5. a base library includes only the directories below it
    for lib, may in BASE_LIBS.items():
        if not path.startswith(lib):
            continue
        for n, text in enumerate(raw.split("\n"), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', text)
            if m and not any(os.path.isfile(d + m.group(1)) for d in may):
                violations.append('%s:%d: includes "%s", not in %s' % (path, n, m.group(1), " ".join(may)))
    code = strip(raw)
    items = scan(path, code)
    funcs = [it for it in items if it[0] == "func"]
    has_main = any(f[1] == "main" for f in funcs)
    # 1. exit()
    for kind, name, first, last, body in funcs:
        allowed = has_main and (name == "main" or "usage" in name.lower())
        if allowed:
            continue
        for m in re.finditer(r"(?<![\w.>])exit\s*\(", body):
            before = body[:m.start()].rstrip()
            prev = before[before.rfind(";", 0, len(before) - 1) + 1:] if before.endswith(";") else ""
            if has_main and re.search(r"\w*usage\w*\s*\(", prev, re.I):
                continue                     # usage(...); exit(...);
            line = first + body[:m.start()].count("\n") + header_lines(code, body, first)
            where = "a file without main()" if not has_main else "%s(), not main() or a usage function" % name
            violations.append("%s:%d: exit() in %s" % (path, line, where))
    # 4. long functions
    for kind, name, first, last, body in funcs:
        length = last - first + 1
        if length > MAX_FUNCTION and "%s:%s" % (path, name) not in long_ok:
            violations.append("%s:%d: function %s() has %d lines (max %d)" % (path, first, name, length, MAX_FUNCTION))
    # 2. mutable globals in library code
    if path.startswith(LIBRARY_DIRS):
        for it in items:
            if it[0] != "decl":
                continue
            text, line = it[1], it[2]
            var = mutable_decl(text)
            if var and "%s:%s" % (path, var) not in global_ok:
                kind = "file-scope static" if text.startswith("static") else \
                    "extern global" if text.startswith("extern") else "global variable"
                violations.append("%s:%d: mutable %s '%s' (keep state in a context object)" % (path, line, kind, var))

for v in violations:
    print(v)
if violations:
    print("FAIL: %d violation(s) of the architecture rules" % len(violations))
    sys.exit(1)
print("OK: exit() only in main/usage, no mutable globals in library code, analyze/ files <= %d lines, "
      "functions <= %d lines (%d files)" % (MAX_ANALYZE_FILE, MAX_FUNCTION, len(files)))
PY
