#!/usr/bin/env python3
"""Random per-CPU blktrace files that stress the merge: equal times across
CPUs (tie order), PROCESS notes and MESSAGE records mixed in, files longer
than one batch.  usage: gen_merge_trace.py SEED OUTBASE [--swap]"""
import random
import struct
import sys

seed, base = int(sys.argv[1]), sys.argv[2]
endian = '>' if '--swap' in sys.argv else '<'
random.seed(seed)
MAGIC = 0x65617407
DEV = 7 << 20


def rec(seq, t, sector, nbytes, action, pid, cpu, pdu=b''):
    return struct.pack(endian + 'IIQQIIIIIHH', MAGIC, seq, t, sector, nbytes,
                       action, pid, DEV, cpu, 0, len(pdu)) + pdu


for cpu in range(3):
    out = bytearray()
    t = 1000000 + random.randint(0, 50)
    seq = 0
    for _ in range(random.randint(1500, 2500)):
        r = random.random()
        if r < 0.05:
            comm = b'proc%d' % random.randint(0, 9)
            out += rec(0, t, 0, 0, 0x04000000, random.randint(1, 50), cpu,
                       comm.ljust(16, b'\0'))
            continue
        if r < 0.07:
            out += rec(0, t, 0, 0, 0x04000002, random.randint(1, 50), cpu, b'hello msg')
            continue
        seq += 1
        t += random.choice([0, 0, 1, 5, 100, 1000])
        act = random.choice([0x00110001, 0x00120001, 0x01420007, 0x01820008])
        pdu = b''
        if random.random() < 0.03:
            act, pdu = 0x0011000a, struct.pack('>Q', random.randint(1, 9))
        out += rec(seq, t, random.randint(0, 1 << 20), 4096, act,
                   random.randint(1, 50), cpu, pdu)
    with open('%s.blktrace.%d' % (base, cpu), 'wb') as f:
        f.write(out)
