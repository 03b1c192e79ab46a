#!/usr/bin/env python3
# Writes the hand-made seeds of fuzz-wayland (corpus/wayland/*.bin) in the
# byte encoding fuzz-wayland.c decodes; run from tests/fuzz/ after
# changing it.
#
# An input is a series of requests; the first byte of each is
#   client << 5 | op        (client taken modulo 3, op modulo 31)
# and a client that is not connected is connected (control version 4)
# before its request.  Then, by op (s: surface slot, modulo 4; i: object
# slot, modulo 2; A: a 32-bit argument, see arg32 below; a missing byte
# reads as 0):
#   0 connect: flags (stillframe_control_v1 version 4 - flags % 4)
#   1 disconnect (the client hangs up)   2 kill (the compositor drops it)
#   3 wl_surface create: s               4 wl_surface destroy: s
#   5 attach+damage+commit: s, flags (1: NULL buffer, 2: XRGB), w, h
#     (1 + byte % 64 each), offset/4 (u16), damage x, y, w, h
#   6 commit: s, flags (1: damage x y w h follows, 2: frame callback)
#   7 stillframe_manager_v1.get_surface: s
#   8 set_content_rate: s, A num, A den   9 set_refresh_range: s, A, A
#  10 set_priority: s, byte % 5           11 stillframe_surface_v1.destroy: s
#  12 wp_content_type_manager_v1.get_surface_content_type: s
#  13 set_content_type: s, byte % 6       14 wp_content_type_v1.destroy: s
#  15 create_inhibitor: s, i              16 inhibitor destroy: s, i
#  17 get_idle_notification: i, timeout ms (byte)
#  18 notification destroy: i
#  19 get_status (byte & 1: get_status_prometheus)
#  20 pause   21 resume
#  22 set_surface_hints: sel (bit 7 set: A surface id follows, else the
#     sel-th tracked surface), A num, A den, A min, A max, byte % 5 priority
#  23 set_output_power: sel (< 0xc0: eDP-1 / HDMI-A-1 by parity, else
#     "X-n"), byte % 4 power
#  24 record_trace   25 trace read   26 trace stop   27 trace destroy
#  28 stillframe_control_v1.destroy
#  29 destroy a manager: byte % 4 (hints, content type, inhibit, notifier)
#  30 the compositor's side (client ignored): kind % 3: 0 pointer motion
#     dx, dy (signed bytes); 1 left button pressed / released in turn;
#     2 output byte % 2 (eDP-1, HDMI-A-1) disabled / enabled in turn
import struct


def u16(v):
    return struct.pack('<H', v)


def arg(v):
    # arg32: kind & 3 == 0: kind >> 2 (0..63); 1: a u16 follows;
    # 2: 0xffffffff - (kind >> 2); 3: a u32 follows.
    if v < 64:
        return bytes([v << 2])
    if v < 65536:
        return bytes([1]) + u16(v)
    if v >= 0xffffffff - 63:
        return bytes([2 | (0xffffffff - v) << 2])
    return bytes([3]) + u16(v & 0xffff) + u16(v >> 16)


def op(code, client=0, *args):
    return bytes([client << 5 | code]) + bytes(args)


def connect(client, version=4):
    return op(0, client, 4 - version)


def create(s, client=0):
    return op(3, client, s)


def attach(s, w, h, client=0, flags=0, offset=0):
    return (op(5, client, s, flags, w - 1, h - 1) + u16(offset) +
            bytes([0, 0, w, h]))


def commit(s, client=0, damage=None, frame=False):
    flags = (1 if damage else 0) | (2 if frame else 0)
    b = op(6, client, s, flags)
    if damage:
        b += bytes(damage)
    return b


def rate(s, num, den, client=0):
    return op(8, client, s) + arg(num) + arg(den)


def range_(s, lo, hi, client=0):
    return op(9, client, s) + arg(lo) + arg(hi)


def motion(dx, dy):
    return op(30, 0, 0, dx & 0xff, dy & 0xff)


def button():
    return op(30, 0, 1)


def output_toggle(i):
    return op(30, 0, 2, i)


def admin(sel, num, den, lo, hi, prio, client=0, surface_id=None):
    b = op(22, client, sel | (0x80 if surface_id is not None else 0))
    if surface_id is not None:
        b += arg(surface_id)
    return b + arg(num) + arg(den) + arg(lo) + arg(hi) + bytes([prio])


seeds = {}

# A video player's hints, double-buffered over two commits.
s = create(0) + attach(0, 64, 64) + op(7, 0, 0) + rate(0, 24, 1)
s += range_(0, 48000, 60000) + op(10, 0, 0, 1) + commit(0, frame=True)
s += op(12, 0, 0) + op(13, 0, 0, 2) + commit(0, damage=[0, 0, 8, 8])
s += op(19, 0, 0) + op(11, 0, 0) + commit(0) + op(14, 0, 0) + commit(0)
seeds['hints'] = s

# Objects outliving their surface, then used (the last is an error).
s = create(1) + attach(1, 16, 16) + op(7, 0, 1) + op(12, 0, 1)
s += op(15, 0, 1, 0) + op(4, 0, 1) + op(13, 0, 1, 3) + op(16, 0, 1, 0)
s += op(14, 0, 1) + op(10, 0, 1, 2)
seeds['inert'] = s

# Idle inhibitors and notifications, with input in between.
s = create(0) + attach(0, 32, 32) + op(15, 0, 0, 0) + op(15, 0, 0, 1)
s += op(17, 0, 0, 0) + op(17, 0, 1, 200) + motion(5, -5) + button()
s += op(16, 0, 0, 1) + op(4, 0, 0) + motion(1, 1) + button() + op(18, 0, 0)
s += op(29, 0, 2) + op(29, 0, 3) + button()
seeds['idle'] = s

# Outputs unplugged and back under mapped, hinted surfaces.
s = create(0) + attach(0, 64, 64) + op(7, 0, 0) + rate(0, 10, 1)
s += commit(0, frame=True) + create(1) + attach(1, 32, 32)
s += output_toggle(0) + commit(0, damage=[0, 0, 4, 4], frame=True)
s += op(23, 0, 0, 2) + output_toggle(1) + op(19, 0, 0) + output_toggle(0)
s += commit(1) + op(4, 0, 0) + output_toggle(1)
seeds['outputs'] = s

# Control: status, pause, administrator hints, output power, a trace
# read by one client and refused to another (busy).
s = create(0) + attach(0, 8, 8) + commit(0)
s += op(20) + op(19, 0, 0) + op(19, 0, 1) + op(21)
s += admin(0, 30, 1, 0, 0, 2) + commit(0)
s += op(23, 0, 0, 2) + op(23, 0, 1, 1) + op(23, 0, 0, 0)
s += op(24) + commit(0) + op(25) + op(24, 1) + op(26) + op(25)
s += op(27) + op(27, 1) + op(28)
seeds['control'] = s

# Every control version: a request beyond the bound one is refused.
for version in (1, 2, 3):
    s = connect(1, version) + op(19, 1, 0) + op(20, 1) + op(21, 1)
    s += op(23, 1, 0, 0) + op(19, 1, 1) + op(24, 1)
    seeds['control-v%d' % version] = s

# Each invalid request alone, after a valid start.
base = create(0) + attach(0, 4, 4) + op(7, 0, 0)
invalid = {
    'zero-den': rate(0, 5, 0),
    'range': range_(0, 60000, 30000),
    'priority': op(10, 0, 0, 4),
    'hint-twice': op(7, 0, 0),
    'content-twice': op(12, 0, 0) + op(12, 0, 0),
    'destroyed': op(4, 0, 0) + rate(0, 1, 1),
    'admin-hint': admin(0, 1, 0, 0, 0, 0),
    'admin-surface': admin(0, 0, 0, 0, 0, 0, surface_id=0xfffffff0),
    'power': op(23, 0, 0, 3),
    'output': op(23, 0, 0xc5, 1),
}
for name, tail in invalid.items():
    seeds['error-' + name] = base + tail

# Three clients; one is dropped by the compositor mid-sequence, one
# hangs up holding an inhibitor and a trace.
s = create(0, 0) + create(0, 1) + create(0, 2) + op(15, 1, 0, 0)
s += op(24, 2) + op(7, 0, 0) + op(2, 0) + attach(0, 64, 64, client=1)
s += op(1, 1) + op(19, 2, 0) + op(25, 2)
seeds['clients'] = s

for name, data in seeds.items():
    with open('corpus/wayland/%s.bin' % name, 'wb') as out:
        out.write(data)
