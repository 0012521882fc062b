# Shared helpers for the export tests (source me; needs TOP, BIN).
#
# export_add_host_note FILE HOST   put the host note of `blkscope record`
#                                  (docs/format.md) before the first record
#                                  of per-CPU file FILE, on its device/CPU
# export_stat_py                   python3 code: nearest-rank percentiles etc.
# (every user of these helpers needs python3: sourcing this skips without it)

. "$TOP/tests/lib/skip.sh"
need_tools python3

export_add_host_note() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
path, host = sys.argv[1], sys.argv[2]
data = open(path, 'rb').read()
magic, seq, time, sector, nbytes, action, pid, dev, cpu, err, plen = struct.unpack_from('<IIQQIIIIIHH', data, 0)
text = f'blkscope host={host} kernel=6.1.0-test boot_id=00000000-0000-0000-0000-000000000001'.encode()
note = struct.pack('<IIQQIIIIIHH', magic, 0, max(time, 1) - 1, 0, 0, 0x04000002, 0, dev, cpu, 0, len(text)) + text
open(path, 'wb').write(note + data)
PY
}
