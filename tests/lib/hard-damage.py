#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""hard-damage.py BIN WORKDIR COUNT SEED [--extra DIR] [--make-only] SAMPLE...:
the analyzer-faults test.

Makes COUNT damaged copies of the sample traces (byte flips, truncations,
splices of another trace's bytes, zeroed or repeated blocks, damaged zstd
frames), as single-stream dumps and as per-CPU files, and runs
`blkscope parse` and `blkscope analyze` on each (two at a time, 20 s
timeout).  Every run must end either with exit 0 and a report on stdout,
or with a non-zero exit and a message naming the file; any line about
damaged data names the file and a byte offset, and there is at most one
such line (the reader stops at the first damage).  Other warnings (e.g.
blkparse's own "Bad fs action") may appear.  A signal, a timeout or a sanitizer report fails.
Prints a summary of the outcomes; exits 1 listing the first failures.
--extra DIR also checks every file in DIR (committed inputs that once
failed); --make-only writes the copies and stops.
"""
import concurrent.futures
import os
import shutil
import random
import re
import subprocess
import sys

bindir, work, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
args = sys.argv[5:]
make_only = "--make-only" in args     # just write the copies (to extract a regression input)
extra = []                            # --extra DIR: committed regression inputs, checked too
if "--extra" in args:
    i = args.index("--extra")
    d = args[i + 1]
    extra = sorted(os.path.join(d, f) for f in os.listdir(d))
    del args[i:i + 2]
args = [a for a in args if a != "--make-only"]
samples = [d for d in (open(p, "rb").read() for p in args) if d]
rng = random.Random(seed)
SAN = re.compile(rb"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:")
# An analyzer built without libzstd refuses a .zst input with one line naming
# the file: a clean refusal, not a damage message (it has no offset to name).
NO_ZSTD = re.compile(rb"built without libzstd")
# Without the zstd command no zstd copies are made (the draws stay the same).
HAVE_ZSTD_CMD = shutil.which("zstd") is not None


def damage(data):
    """One to three random injuries; returns the bytes and what was done."""
    data = bytearray(data)
    what = []
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["flip", "flip", "truncate", "splice", "zero", "repeat", "header"])
        if not data:
            break
        off = rng.randrange(len(data))
        if kind == "flip":
            for _ in range(rng.randint(1, 8)):
                o = rng.randrange(len(data))
                data[o] ^= 1 << rng.randrange(8)
            what.append("flip@%d" % off)
        elif kind == "truncate":
            del data[off:]
            what.append("truncate@%d" % off)
        elif kind == "splice":
            other = rng.choice(samples)
            a = rng.randrange(len(other))
            chunk = other[a:a + rng.randint(1, 600)]
            if rng.random() < 0.5:
                data[off:off] = chunk
            else:
                data[off:off + len(chunk)] = chunk
            what.append("splice@%d+%d" % (off, len(chunk)))
        elif kind == "zero":
            n = rng.choice([4, 16, 48, 200])
            data[off:off + n] = bytes(min(n, len(data) - off))
            what.append("zero@%d+%d" % (off, n))
        elif kind == "repeat":
            n = rng.randint(1, 300)
            data[off:off] = data[off:off + n]
            what.append("repeat@%d+%d" % (off, n))
        else:
            # a header field set to an extreme: pdu_len, cpu, device, time
            rec = off - off % 48
            field = rng.choice([(46, 2), (40, 4), (36, 4), (8, 8), (4, 4)])
            val = rng.choice([0, 0xff, 0xffff, 0xffffffff, 0x7fffffff, 1 << 20])
            b = (val & ((1 << (8 * field[1])) - 1)).to_bytes(field[1], "little")
            data[rec + field[0]:rec + field[0] + field[1]] = b
            what.append("field%d=%#x@%d" % (field[0], val, rec))
    return bytes(data), ",".join(what)


def make(i):
    """Write copy i; returns (input argument, the file named in messages, how)."""
    data, how = damage(rng.choice(samples))
    zst = rng.random() < 0.1 and HAVE_ZSTD_CMD
    if zst:
        data = subprocess.run(["zstd", "-q", "-c"], input=data, stdout=subprocess.PIPE, check=True).stdout
        data, how2 = damage(data)
        how = "zstd(" + how + ")+" + how2
    if i % 2:
        path = os.path.join(work, "d%d.blktrace.0%s" % (i, ".zst" if zst else ""))
        arg = os.path.join(work, "d%d" % i)
    else:
        path = os.path.join(work, "s%d.%s" % (i, "zst" if zst else "bin"))
        arg = path
    with open(path, "wb") as f:
        f.write(data)
    return arg, path, how


def check(job):
    prog, arg, path, how = job
    argv = [os.path.join(bindir, "blkscope"), prog]
    argv += ["--no-progress", "-i", arg] if prog == "analyze" else ["-i", arg, "-o", "/dev/null"]
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=20)
    except subprocess.TimeoutExpired:
        return "hang", "%s %s (%s): no end within 20 s" % (prog, path, how)
    err = p.stderr
    if p.returncode < 0 or p.returncode >= 128:
        return "crash", "%s %s (%s): killed by signal / status %d\n%s" % (prog, path, how, p.returncode, err[-2000:].decode(errors="replace"))
    if SAN.search(err):
        return "sanitizer", "%s %s (%s): sanitizer report\n%s" % (prog, path, how, err[-3000:].decode(errors="replace"))
    if p.returncode == 0 and not p.stdout and prog == "analyze":
        return "noreport", "%s %s (%s): exit 0 without a report" % (prog, path, how)
    names = (os.path.basename(path).encode(), os.path.basename(arg).encode())
    lines = [l for l in err.splitlines() if l.strip()]
    named = [l for l in lines if any(n in l for n in names)]
    damaged = [l for l in lines if re.search(rb"bad magic|version|truncated|pdu|absurd|zstd|damage|corrupt",
                                             l.replace(path.encode(), b"FILE").replace(arg.encode(), b"FILE"), re.I)
               and not NO_ZSTD.search(l)]
    for l in damaged:
        # a complaint about the data names the file and the byte offset
        if not any(n in l for n in names) or not re.search(rb"offset \d+", l):
            return "unclear", "%s %s (%s): damage message without file and offset: %r" % (prog, path, how, l)
    if len(damaged) > 1:
        return "unclear", "%s %s (%s): %d damage messages for one file:\n%s" % (prog, path, how, len(damaged), b"\n".join(damaged).decode(errors="replace"))
    if p.returncode != 0 and not named:
        # refusing: at least one line must say which file is at fault
        return "unclear", "%s %s (%s): exit %d, no message names the file:\n%s" % (prog, path, how, p.returncode, err[-1000:].decode(errors="replace"))
    kind = "ok-report" if p.returncode == 0 else "refused"
    return kind + ("-damage-noted" if damaged else ""), None


jobs = []
for i in range(count):
    arg, path, how = make(i)
    jobs += [("parse", arg, path, how), ("analyze", arg, path, how)]
if make_only:
    sys.exit(0)
for path in extra:
    # per-CPU files are read by base name, anything else as a dump
    arg = path.split(".blktrace.")[0] if ".blktrace." in path else path
    jobs += [("parse", arg, path, "regression input"), ("analyze", arg, path, "regression input")]
outcomes, failures = {}, []
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
    for kind, msg in ex.map(check, jobs):
        outcomes[kind] = outcomes.get(kind, 0) + 1
        if msg:
            failures.append(msg)
print("damaged copies: %d, regression inputs: %d, runs: %d; outcomes: %s" % (count, len(extra), len(jobs),
      ", ".join("%s=%d" % kv for kv in sorted(outcomes.items()))))
for f in failures[:10]:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
