#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the seeds of fuzz-hold (fuzz-hold.c documents the encoding):
# an xterm-like blink (a GC change and a cell drawn, twice), an
# xclock-like tick (RENDER trapezoids of other lengths), a BIG-REQUESTS
# PutImage, and streams cut mid-request.
import os
import struct
import sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "corpus", "hold")
os.makedirs(out, exist_ok=True)


def request(major, data, words, fill=0, big=False):
    if big:
        body = struct.pack("<BBHI", major, data, 0, words)
        return body + bytes([fill]) * (words * 4 - 8)
    return struct.pack("<BBH", major, data, words) + bytes([fill]) * (
        words * 4 - 4)


def seed(name, flags, cut, budget, stream):
    cut_byte = min(255, cut * 255 // max(1, len(stream)))
    with open(os.path.join(out, name), "wb") as f:
        f.write(bytes([flags, cut_byte, budget]) + stream)


gc = request(56, 0, 3, 0x44)
on = request(76, 1, 5, 0x11)
off = request(76, 1, 5, 0x22)
blink = gc + on + gc + off
seed("blink-shown", 0b0100, len(gc + on), 255, gc + on + gc + on)
seed("blink-hidden-waits", 0b1000, len(gc + off), 255, gc + off + blink)
seed("blink-new-request", 0b0100, len(blink), 255,
     blink + request(1, 0, 8, 0x33))
trap1 = request(139, 10, 12, 0x55)
trap2 = request(139, 10, 16, 0x66)
copy = request(62, 224, 7, 0x77)
seed("tick-shapes", 0b0010, len(trap1 + copy), 255,
     trap1 + copy + trap2 + copy)
seed("big-request", 0b0000, 0, 255, request(72, 2, 40, 0x01, big=True))
seed("cut-header", 0b0001, len(blink), 255, blink + b"\x4c\x01")
seed("too-much", 0b0000, len(gc), 1, gc + gc + gc + gc + gc)
