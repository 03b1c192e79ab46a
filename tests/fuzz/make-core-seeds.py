#!/usr/bin/env python3
# Writes the hand-made seeds of fuzz-core (corpus/core/*.bin) in the byte
# encoding fuzz-core.c decodes; run from tests/fuzz/ after changing it.
# The corpus also keeps minimised findings (corpus/core/finding-*.bin),
# as libFuzzer wrote them; this script leaves them alone.
import struct


def u16(v):
    return struct.pack('<H', v)


def output(slot, modes, current, kind):
    # modes: (flags, mHz); flags 1 seamless, 2 preferred, 0x80 720p
    b = bytes([0, slot, len(modes) - 1])
    for flags, mhz in modes:
        b += bytes([flags]) + u16(mhz // 4)
    return b + bytes([current, kind])


def surface_create(slot, w, h):
    return bytes([2, slot, 0]) + u16(w) + u16(h)


def surface(slot, what, *args):
    return bytes([2, slot, what]) + bytes(args)


def commit(slot, flags, boxes, hash_):
    # flags 0x10 has a hash, 0x20 unchanged; fuzz-core takes the count of
    # boxes as the byte modulo 5, so the low bits are chosen to make it so
    low = next(x for x in range(16) if (flags | x) % 5 == len(boxes))
    b = bytes([3, slot, flags | low])
    for x, y, w, h in boxes:
        b += u16(x) + u16(y) + bytes([w, h])
    return b + bytes([hash_])


def input_(kind):
    return bytes([5, kind])


def repaint(slot, force):
    return bytes([6, slot, force])


def misc(slot, what):
    # what % 5: 0 inhibit (0x80 set) or uninhibit, 1 power request,
    # 2 hotplug (0x40 clear) or new modes, 3 keep-awake, 4 pause/resume
    return bytes([7, slot, what])


INHIBIT = 0x82


def user_modes(slot, modes, current):
    # someone else set a mode: the output's new modes, as output()'s
    b = misc(slot, 0x43) + bytes([len(modes) - 1])
    for flags, mhz in modes:
        b += bytes([flags]) + u16(mhz // 4)
    return b + bytes([current])


def run(ms, scale=0):
    return bytes([8]) + u16(ms) + bytes([scale])


panel = [(3, 60000), (1, 48000), (1, 30000)]

# A blinking cursor on an idle panel, repaints held, then the user types.
s = output(0, panel, 0, 0) + surface_create(0, 800, 600)
s += surface(0, 1, 0, 60)
for i in range(12):
    s += commit(0, 0x10, [(80, 300, 8, 16)], i % 2) + repaint(0, 0)
    s += run(500)
s += input_(1) + repaint(0, 8) + run(3000, 3)
open('corpus/core/blink.bin', 'wb').write(s)

# Two outputs, a 24 fps video hint, an inhibitor, pause and resume,
# hotplug, then a long idle.
s = output(0, panel, 0, 0)
s += output(1, [(2, 60000), (1, 50000), (0, 24000)], 0, 1)
s += surface_create(1, 1280, 720) + surface(1, 1, 1, 255)
s += surface(1, 4, 24, 1) + surface(1, 6, 2, 0) + misc(0, INHIBIT)
for i in range(30):
    s += commit(1, 0x10, [(0, 0, 200, 200)], i % 4) + run(41)
s += misc(0, 4) + run(2000) + misc(0, 4) + misc(1, 2) + input_(0)
s += run(65535, 3)
open('corpus/core/video.bin', 'wb').write(s)

# Surfaces come and go, an output unplugged while dark.
s = output(2, [(3, 144000), (1, 60000)], 1, 1) + surface_create(3, 100, 100)
s += surface(3, 1, 2, 128) + surface(3, 2) + run(65535, 3) + run(65535, 3)
s += repaint(2, 0) + surface(3, 0) + bytes([1, 2]) + input_(2)
open('corpus/core/unplug.bin', 'wb').write(s)

# The user sets a mode at another resolution while idle, then types.
s = output(0, panel, 0, 0) + surface_create(0, 800, 600) + run(3000)
s += user_modes(0, [(0x83, 75000), (0x81, 30000)], 0) + run(3000)
s += input_(1) + run(1000) + misc(0, 4) + misc(0, 4) + run(5000)
s += user_modes(0, [(3, 60000), (1, 30000), (1, 48000)], 2) + run(65535, 3)
open('corpus/core/user-mode.bin', 'wb').write(s)

# Modes of unknown refresh (0 mHz, as an adapter reports a mode whose
# timings give none): the user's own beside a faster preferred one, where
# input stays at the user's; a 60 Hz user's mode beside a seamless 0 mHz
# one while idle, a game and an explicit rate; then a game taken off the
# user's 0 mHz mode by a client's 120 fps, beside a preferred 0 mHz mode
# it must not be moved to.
s = output(3, [(1, 0), (3, 204800)], 0, 2) + surface_create(0, 640, 480)
s += surface(0, 1, 3, 255) + input_(0) + run(5000, 1)
s += user_modes(3, [(3, 60000), (1, 0), (1, 30000)], 0) + run(65535)
s += surface(0, 6, 3, 0) + run(3000) + surface(0, 4, 0, 1)
s += surface(0, 4, 24, 1) + run(8000) + input_(1) + run(65535, 3)
s += output(2, [(1, 0), (3, 0), (1, 120000)], 0, 2)
s += surface_create(1, 640, 480) + surface(1, 1, 2, 255)
s += surface(1, 6, 3, 0) + surface(1, 4, 120, 1) + run(3000)
s += surface(1, 4, 0, 1) + run(8000) + input_(1) + run(8000)
open('corpus/core/unknown-refresh.bin', 'wb').write(s)
