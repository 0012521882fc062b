#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""record-messages.py TOP [--list]: the recorder's messages against its man page.

Every message `blkscope record` prints on stderr that starts with its name
(fprintf(stderr, "blkscope record: ...") or "%s: ..." with PROG, in
record/*.c and its front-end cli/record_*.c) must appear in the DIAGNOSTICS section of
docs/man/blkscope-record.1, and every line listed there must be a message
the code prints.  Both sides are reduced to a skeleton: in the code each
conversion (%s, %llu, %.3f...) becomes one placeholder, in the man page
each <word> does (a literal display: "blkscope record: <dev>: not a block
device"); runs of placeholders and the punctuation between them collapse
into one.  --list prints the code's skeletons (to write the man page).
"""
import os
import re
import sys

top = sys.argv[1]
CONV = re.compile(r"%[-+ #0]*(\*|\d+)?(\.(\*|\d+))?(hh|h|ll|l|z|j|t)?[diouxXeEfgGcsp]")


def literal_run(src, i):
    """The C string literals concatenated from src[i] on: (text, end index)."""
    out = []
    n = len(src)
    while True:
        while i < n and src[i] in " \t\n":
            i += 1
        if src.startswith("/*", i):
            i = src.index("*/", i) + 2
            continue
        if i >= n or src[i] != '"':
            return "".join(out), i
        i += 1
        while src[i] != '"':
            if src[i] == "\\":
                c = src[i + 1]
                out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(c, c))
                i += 2
            else:
                out.append(src[i])
                i += 1
        i += 1


def skeleton(text, placeholder):
    s = placeholder.sub("\x00", text)
    # placeholders with only punctuation between them are one value ("%ld.%03ld", "%s%s%s")
    s = re.sub(r"\x00([.,:/-]?\x00)+", "\x00", s)
    return s.replace("\x00", "<>").strip()


def sources():
    """record/*.c, then the front-end cli/record_*.c: (shown name, path)."""
    for d, prefix in (("record", ""), ("cli", "record_")):
        path = os.path.join(top, d)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if name.endswith(".c") and name.startswith(prefix):
                yield (name if d == "record" else "cli/" + name), os.path.join(path, name)


def code_messages():
    msgs = {}
    for name, path in sources():
        src = open(path).read()
        for m in re.finditer(r"fprintf\(stderr,", src):
            text, j = literal_run(src, m.end())
            if text.startswith("%s: "):
                rest = src[j:j + 40]
                if not re.match(r"\s*,\s*PROG\b", rest):
                    continue
                text = "blkscope record: " + text[4:]
            if not text.startswith("blkscope record: "):
                continue
            for line in text.rstrip("\n").split("\n"):
                if skeleton(line, CONV) == "blkscope record: <>":
                    continue        # an error text made elsewhere (below), printed
                msgs.setdefault(skeleton(line, CONV), "%s:%d" % (name, src.count("\n", 0, m.start()) + 1))
        # errors handed back in a struct bs_err (util/bs_msg.h), printed "blkscope record: TEXT"
        for m in re.finditer(r"bs_err_set\(\s*[^,()]+,\s*[^,()]+,", src):
            text, j = literal_run(src, m.end())
            if not text:
                continue
            line = "blkscope record: " + text.rstrip("\n")
            msgs.setdefault(skeleton(line, CONV), "%s:%d" % (name, src.count("\n", 0, m.start()) + 1))
    return msgs


def man_messages():
    page = open(os.path.join(top, "docs", "man", "blkscope-record.1")).read()
    diag = page.split("\n.Sh DIAGNOSTICS\n", 1)[1].split("\n.Sh ", 1)[0]
    lines = []
    for block in re.findall(r"\.Bd -literal[^\n]*\n(.*?)\n\.Ed", diag, re.S):
        for line in block.split("\n"):
            line = line.replace("\\e", "\\").replace("\\-", "-").replace("\\&", "")
            if line.startswith("blkscope record: "):
                lines.append(line)
    return {skeleton(l, re.compile(r"<[^<>\s][^<>]*>")): l for l in lines}


code, man = code_messages(), man_messages()
if "--list" in sys.argv:
    for k in sorted(code):
        print(k, "   #", code[k])
    sys.exit(0)
bad = 0
for k in sorted(code):
    if k not in man:
        print("not in the man page's DIAGNOSTICS: %s   (%s)" % (k, code[k]))
        bad += 1
for k in sorted(man):
    if k not in code:
        print("in the man page but printed nowhere: %s" % man[k])
        bad += 1
print("%d messages in record/, %d in the man page; %d differences" % (len(code), len(man), bad))
sys.exit(1 if bad else 0)
