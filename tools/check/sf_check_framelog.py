# SPDX-License-Identifier: MIT
"""A witness's frame log, read as it grows.

Both witnesses write the same lines (times: CLOCK_MONOTONIC ms, %.3f):

    screen W H TILE             the watched screen, in TILE x TILE tiles
    frame T N IDX:HASH:INK ...  something reached the screen at T; the
                                N tiles whose pixels changed, each with
                                the hash of its new pixels and their ink
                                (the pixels not of the tile's most common
                                colour; older logs: IDX:HASH) (N may be 0:
                                a repaint or drawing that changed nothing)
    input T WHAT...             input the witness injected at T
    mode T MHZ                  (fake-KMS) the output's refresh from T on
    crtc T CRTC MHZ             (sf-bench-x) a CRTC's refresh from T on

The Weston side's lines come from the fake-KMS test double (every frame
that reached its "hardware"), the X side's from sf-bench-x --frames (the
damage of the root and of each top-level, the screen read back there
with GetImage).  Other lines are
ignored.
"""


class FrameLog:
    def __init__(self, path):
        self.path = path
        self.offset = 0
        self.partial = b""
        self.screen = None          # (w, h, tile)
        self.tiles = {}             # the current hash of every tile
        self.frames = []            # (t, {idx: hash})
        self.ink = {}               # hash: its ink, where logged
        self.inputs = []            # (t, words)
        self.modes = []             # (t, mhz)
        self.crtc = None            # the CRTC whose refresh is followed
        self.errors = []

    def read(self):
        """Reads what was added since the last call."""
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except FileNotFoundError:
            return
        self.offset += len(data)
        data = self.partial + data
        lines = data.split(b"\n")
        self.partial = lines.pop()
        for raw in lines:
            self.parse(raw.decode("ascii", "replace").split())

    def parse(self, w):
        if not w:
            return
        try:
            if w[0] == "screen":
                self.screen = (int(w[1]), int(w[2]), int(w[3]))
            elif w[0] == "frame":
                t, n = float(w[1]), int(w[2])
                changes = {}
                for pair in w[3:3 + n]:
                    idx, h, *ink = pair.split(":")
                    changes[int(idx)] = h
                    if ink:
                        self.ink[h] = int(ink[0])
                self.tiles.update(changes)
                self.frames.append((t, changes))
            elif w[0] == "input":
                self.inputs.append((float(w[1]), w[2:]))
            elif w[0] == "mode":
                self.modes.append((float(w[1]), int(w[2])))
            elif w[0] == "crtc":
                mhz = int(w[3])
                if self.crtc is None and mhz > 0:
                    self.crtc = w[2]
                if w[2] == self.crtc:
                    self.modes.append((float(w[1]), mhz))
            elif w[0] == "error":
                self.errors.append(" ".join(w[2:]))
        except (IndexError, ValueError):
            self.errors.append("unreadable line: " + " ".join(w))

    def columns(self):
        w, _, tile = self.screen
        return (w + tile - 1) // tile

    def box_of(self, tiles):
        """The pixel rectangle (x, y, w, h) around a set of tiles."""
        if not tiles:
            return None
        cols = self.columns()
        tile = self.screen[2]
        xs = [i % cols for i in tiles]
        ys = [i // cols for i in tiles]
        x0, y0 = min(xs) * tile, min(ys) * tile
        x1 = min((max(xs) + 1) * tile, self.screen[0])
        y1 = min((max(ys) + 1) * tile, self.screen[1])
        return (x0, y0, x1 - x0, y1 - y0)
