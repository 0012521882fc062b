#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tag-by-pid.py - the reference tagging plugin, in Python (same tags as tags/tag-by-pid).

Usage: tag-by-pid.py [-g NAME:PID[,PID...]]...

One tag per process that queues (Q) or issues (D) I/O, labelled "COMM (PID)"
("? (PID)" without a PROCESS note); -g puts pids into one tag named NAME.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blkscope_tag as bt  # noqa: E402


def parse_group(arg):
    name, sep, pids = arg.partition(":")
    if not sep or not name or not pids:
        raise argparse.ArgumentTypeError("'%s': expected NAME:PID[,PID...]" % arg)
    try:
        return name, [int(p, 10) for p in pids.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("'%s': pids must be decimal numbers" % arg)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog="example: blkscope analyze --tag-plugin "
                                        "'tags/python/tag-by-pid.py -g db:812,813' sda")
    ap.add_argument("-g", "--group", action="append", type=parse_group, default=[],
                    metavar="NAME:PID[,PID...]", help="put these pids into one tag named NAME")
    args = ap.parse_args()

    group_of = {}                   # pid -> group name
    for name, pids in args.group:
        for pid in pids:
            if group_of.get(pid, name) != name:
                ap.error("pid %d is already in group '%s'" % (pid, group_of[pid]))
            group_of[pid] = name
    labels = {}                     # pid -> "COMM (PID)"
    tags = {}                       # pid or group name -> tag
    next_tag = [0]

    def handle(ev, out):
        if ev.is_note:
            if ev.basic == bt.BLK_TN_PROCESS and ev.pid not in group_of:
                labels[ev.pid] = b"%s (%d)" % (ev.comm_bytes, ev.pid)
            return
        if ev.basic not in (bt.BLK_TA_QUEUE, bt.BLK_TA_ISSUE):
            return
        key = group_of.get(ev.pid, ev.pid)
        tag = tags.get(key)
        if tag is None:
            tag = tags[key] = next_tag[0]
            next_tag[0] += 1
            label = key if ev.pid in group_of else labels.get(ev.pid, b"? (%d)" % ev.pid)
            out.new_tag(tag, label)
        out.tag_io(tag)

    bt.run(handle)


if __name__ == "__main__":
    main()
