#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tag-by-action.py LETTERS - test plugin: tags every Q, D or C event
(letters in LETTERS, e.g. "DC") with a tag named after its action, so a test
can see which event of an I/O its tag came from."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../tags/python"))
import blkscope_tag as bt  # noqa: E402

letters = {"Q": bt.BLK_TA_QUEUE, "D": bt.BLK_TA_ISSUE, "C": bt.BLK_TA_COMPLETE}
wanted = {letters[c]: c for c in sys.argv[1]}
tags = {}


def handle(ev, out):
    if ev.is_note or ev.basic not in wanted:
        return
    name = wanted[ev.basic]
    if name not in tags:
        tags[name] = 100 + len(tags)        # sparse numbers on purpose
        out.new_tag(tags[name], "by-" + name)
    out.tag_io(tags[name])


bt.run(handle)
