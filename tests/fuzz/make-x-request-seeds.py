#!/usr/bin/env python3
# Writes the seeds of fuzz-x-request into corpus/x-request/: every
# STILLFRAME request, valid, in both byte orders, and a few that are
# not (wrong length, unknown minor opcode, values out of their rules).
# A seed is one byte of byte order (1: the other one) and the request.
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "x-request")
MAJOR = 140

# (name, minor, words); QueryVersion's two 16-bit fields are one word.
REQUESTS = [
    ("query-version", 0, [1 | (2 << 16)]),
    ("get-status", 1, []),
    ("list-windows", 2, []),
    ("set-window-hint", 3, [0x400001, 24, 1, 30000, 60000, 0]),
    ("select-events", 4, [0x400001, 1]),
    ("set-paused", 5, [1]),
    ("set-output-power", 6, [0x3f, 2]),
    ("list-output-power", 7, []),
    ("start-trace", 8, []),
    ("read-trace", 9, [65536]),
    ("stop-trace", 10, []),
    ("hint-zero-den", 3, [0x400001, 24, 0, 0, 0, 0]),
    ("hint-both-priorities", 3, [0x400001, 0, 0, 0, 0, 3]),
    ("paused-2", 5, [2]),
    ("read-trace-small", 9, [100]),
    ("unknown-minor", 11, [0]),
    ("short-hint", 3, [0x400001]),
]


def encode(minor, words, big_endian):
    order = ">" if big_endian else "<"
    body = struct.pack(order + "BBH", MAJOR, minor, 1 + len(words))
    if minor == 0 and words:
        body += struct.pack(order + "HH", words[0] & 0xffff, words[0] >> 16)
    else:
        body += b"".join(struct.pack(order + "I", w) for w in words)
    return body


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, minor, words in REQUESTS:
        for big in (False, True):
            path = os.path.join(OUT, f"{name}-{'msb' if big else 'lsb'}")
            with open(path, "wb") as f:
                f.write(bytes([1 if big else 0]) +
                        encode(minor, words, big))


if __name__ == "__main__":
    main()
