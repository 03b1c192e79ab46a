# SPDX-License-Identifier: MIT
"""The verdict: what the stock side's screen and the stillframe side's
showed, measured alike, against the invariants of doc/invisibility.md.

Every figure comes from a witness's frame log (sf_check_framelog), the
pictures the witnesses read back at rest (sf_check_picture) and the
times the check itself gave input or printed; nothing from stillframe.
Tiles are compared by position: both sides place the client alike (the
same server, output size and window manager).
"""

import math
import statistics

# The invariants, numbered as in doc/invisibility.md ("The invariants").
INVARIANTS = {
    "key-latency": (1, "no key reaches the screen later than on stock"),
    "focused-animation": (2, "the focused window is never held or "
                          "throttled while it animates"),
    "new-drawing": (3, "a hold never delays drawing it has not seen "
                    "repeat"),
    "caret-shown": (4, "a held caret is left in its shown state"),
    "hold-deadline": (5, "a blink or tick is held no longer than its "
                      "deadline"),
    "idle-refresh": (6, "no mode switch while the user is idle other "
                     "than the idle drop"),
    "active-refresh": (7, "no mode switch while the user is active, and "
                       "no mode kept for less than a second"),
    "health": (8, "no crash, error or hung client that stock does not "
               "have"),
    "idle-saving": (9, "while the user is idle, what only blinks or "
                    "ticks is repainted at most a quarter as often as "
                    "on stock"),
    "at-rest": (10, "at rest after input, the window shows what stock "
                "shows: nothing held is lost"),
}

ANSWER_WITHIN_MS = 1000.0       # a key not answered by then: unanswered
KEY_ANSWER_MS = 300.0           # a key stock answers later shows nothing
QUIET_AFTER_IDLE_MS = 5000.0    # idle figures start this long after input
ANIMATION_FPS = 8.0             # stock's rate from which a region animates
ANIMATION_RATIO = 0.8
PRINT_MEDIAN_SLACK_MS = 100.0
PRINT_MAX_SLACK_MS = 500.0
CARET_SLACK_MS = 1500.0         # the contract's wait for a shown phase
DEADLINE_SLACK_MS = 2500.0
SHORTEST_MODE_MS = 1000.0
REST_STILL_MS = 2500.0          # a region still this long is at rest
REST_LEVELS = 4                 # at rest, a colour this close is the same
SAVING_FACTOR = 4.0
SAVING_FROM_PER_MIN = 20.0


def box_tiles(log, box):
    if not box or not log.screen:
        return set()
    x, y, w, h = box
    tile = log.screen[2]
    cols = log.columns()
    return {r * cols + c
            for r in range(y // tile, (y + h + tile - 1) // tile)
            for c in range(x // tile, (x + w + tile - 1) // tile)}


class Timeline:
    """One side's frames, with each tile's history."""

    def __init__(self, side):
        self.side = side
        self.log = side["log"]
        self.frames = self.log.frames
        self.area = box_tiles(self.log, side["box"])
        self.history = {}           # idx -> [(t, hash)]
        for t, changes in self.frames:
            for idx, h in changes.items():
                self.history.setdefault(idx, []).append((t, h))

    def keys(self):
        return [t for t, w in self.log.inputs if w and w[0] == "key"]

    def first_change_after(self, t, limit, ignore=frozenset()):
        for ft, changes in self.frames:
            if ft <= t:
                continue
            if ft > limit:
                return None
            if any(i in self.area and i not in ignore for i in changes):
                return ft
        return None

    def latency(self, t, within, ignore=frozenset()):
        answer = self.first_change_after(t, t + within, ignore)
        return None if answer is None else answer - t

    def changing_frames(self, a, b):
        return sum(1 for t, c in self.frames
                   if a <= t < b and any(i in self.area for i in c))

    def all_frames(self, a, b):
        return sum(1 for t, _ in self.frames if a <= t < b)

    def state_at(self, idx, t):
        state = None
        for ht, h in self.history.get(idx, ()):
            if ht > t:
                break
            state = h
        return state

    def tile_changes(self, idx, a, b):
        return [(t, h) for t, h in self.history.get(idx, ()) if a <= t < b]

    def modes(self):
        return self.log.modes

    def native_mhz(self):
        return self.log.modes[0][1] if self.log.modes else 60000


def median(values):
    return statistics.median(values) if values else None


def switches_in(modes, a, b):
    """The mode switches in [a, b): (t, from, to)."""
    out = []
    prev = None
    for t, mhz in modes:
        if prev is not None and mhz != prev and a <= t < b:
            out.append((t, prev, mhz))
        prev = mhz
    return out


def short_modes(modes, a, b):
    """Modes kept for less than SHORTEST_MODE_MS between two switches
    inside [a, b]: a dip the user may see as a flicker."""
    out = []
    changes = [(t, m) for i, (t, m) in enumerate(modes)
               if i == 0 or m != modes[i - 1][1]]
    for (t0, m), (t1, _) in zip(changes, changes[1:]):
        if t0 >= a and t1 <= b and t1 - t0 < SHORTEST_MODE_MS:
            out.append((t0, m, t1 - t0))
    return out


def classify_tile(changes, initial):
    """'blink' (two pictures in turn), 'tick' (new pictures about once a
    second or slower), 'other', or None without changes."""
    if not changes:
        return None
    states = [initial] + [h for _, h in changes]
    distinct = set(states)
    if len(distinct) == 2 and len(changes) >= 4:
        return "blink"
    if len(changes) >= 2:
        span = changes[-1][0] - changes[0][0]
        if span / (len(changes) - 1) >= 800.0:
            return "tick"
    return "other"


def longest_away(tl, idx, shown, a, b):
    """The longest time in [a, b) the tile showed something else than
    SHOWN."""
    longest = 0.0
    away_since = a if tl.state_at(idx, a) != shown else None
    for t, h in tl.tile_changes(idx, a, b):
        if h != shown and away_since is None:
            away_since = t
        elif h == shown and away_since is not None:
            longest = max(longest, t - away_since)
            away_since = None
    if away_since is not None:
        longest = max(longest, b - away_since)
    return longest


def longest_still(tl, idx, a, b):
    times = [a] + [t for t, _ in tl.tile_changes(idx, a, b)] + [b]
    return max(t1 - t0 for t0, t1 in zip(times, times[1:]))


class Verdict:
    def __init__(self):
        self.failures = []
        self.figures = {}
        # What the check could not judge, and why: printed with the
        # verdict, never a failure.
        self.notes = []

    def fail(self, invariant, reason):
        self.failures.append({"invariant": invariant,
                              "number": INVARIANTS[invariant][0],
                              "rule": INVARIANTS[invariant][1],
                              "reason": reason})


# A key that comes this long after the one before starts a burst: the
# output may have dropped its rate meanwhile, and the key must bring it
# back no later than stock shows it; after IDLE_MS, the holds of an
# idle user have begun too.
AFTER_PAUSE_MS = 400.0
AFTER_IDLE_MS = 3000.0
KEYS_FOR_A_MEDIAN = 4
# A group of keys whose answers on stock spread wider than this (the
# middle half of them, in frames of the native mode, and in ms) is not
# judged by its median: a client, window manager or machine that
# answers the same key anywhere between 0 and 490 ms (a compositing
# manager that redraws on a beat of its own) puts the medians of two
# runs of stock 100 ms apart, and one frame of difference means nothing
# there.  A client that draws on frame callbacks answers one to three
# frames after the key, so a frame lost to a hold still shows.
KEY_SPREAD_FRAMES = 4.0
KEY_SPREAD_MIN_MS = 50.0
# Below that, a group fails when its keys come later than stock's by
# more than half a frame (the mean of the middle half of each side's
# answers: a median of 7 keys that fall on two frames jumps a whole
# frame with one key), and by at least KEY_MIN_ERRORS standard errors
# of that difference (Yuen's test: the middle halves' means, each
# side's spread taken from its answers with the outer quarters pulled
# in).  Two runs of stock do differ: on a loaded machine by 11 ms for a
# GTK 4 editor whose answers spread over 40 ms (1.96 errors), by 22 ms
# for a video player whose keys show with its next video frame (1.87);
# a frame lost on 5 of 7 keys after idle, stock within a frame, came
# out at 5.1 to 14 errors in five runs.
KEY_MIN_ERRORS = 4.0


def spread(values):
    """The middle half's width (interquartile range) of VALUES."""
    if len(values) < 2:
        return 0.0
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[2] - q[0]


def middle_mean(values):
    """The mean of the middle half of VALUES (all of them up to 3)."""
    v = sorted(values)
    k = len(v) // 4
    v = v[k:len(v) - k]
    return sum(v) / len(v)


def winsorized_variance(values):
    """The variance of VALUES with the lowest and highest quarter
    replaced by the nearest value of the middle half."""
    v = sorted(values)
    k, n = len(v) // 4, len(v)
    w = [min(max(x, v[k]), v[n - 1 - k]) for x in v]
    m = sum(w) / n
    return sum((x - m) ** 2 for x in w) / (n - 1)


def key_lateness(stock_answers, sf_answers):
    """How much later SF_ANSWERS come than STOCK_ANSWERS (the middle
    halves' means, ms), and in how many standard errors of that
    difference (infinite when neither side varies)."""
    later = middle_mean(sf_answers) - middle_mean(stock_answers)
    error2 = 0.0
    for v in (stock_answers, sf_answers):
        kept = len(v) - 2 * (len(v) // 4)
        error2 += ((len(v) - 1) * winsorized_variance(v) /
                   (kept * (kept - 1)))
    if error2 <= 0.0:
        return later, math.inf if later > 0 else 0.0
    return later, later / math.sqrt(error2)


def ticking_tiles(stock, phases):
    """The regions that tick on stock while idle (a clock): a change
    there after a key is the clock's, not the key's answer."""
    if "idle_start" not in phases:
        return frozenset()
    a, b = phases["idle_start"], phases.get("print_start",
                                            phases["idle_end"])
    return frozenset(i for i in stock.history
                     if classify_tile(stock.tile_changes(i, a, b),
                                      stock.state_at(i, a)) == "tick")


def check_keys(v, stock, sf, phases):
    frame_ms = 1e6 / stock.native_mhz()
    slack = max(5.0, frame_ms / 2)
    keys_s, keys_f = stock.keys(), sf.keys()
    ticking = ticking_tiles(stock, phases)
    groups = {"in a burst": [], "after a pause": [], "after idle": []}
    lost = 0
    for i, (ts, tf) in enumerate(zip(keys_s, keys_f)):
        # Only a key stock answers promptly has an answer to compare:
        # on a window that shows no keys, a change is something else's.
        a = stock.latency(ts, KEY_ANSWER_MS, ticking)
        if a is None:
            continue
        b = sf.latency(tf, ANSWER_WITHIN_MS, ticking)
        if b is None:
            lost += 1
            continue
        gap = ts - keys_s[i - 1] if i else float("inf")
        group = "after idle" if gap >= AFTER_IDLE_MS else \
            "after a pause" if gap >= AFTER_PAUSE_MS else "in a burst"
        groups[group].append((a, b))
    both = [pair for pairs in groups.values() for pair in pairs]
    v.figures["keys"] = min(len(keys_s), len(keys_f))
    v.figures["keys_answered"] = len(both)
    v.figures["key_pairs_ms"] = {
        name: [[round(a, 1), round(b, 1)] for a, b in pairs]
        for name, pairs in groups.items() if pairs}
    if both:
        v.figures["key_ms"] = {
            "stock": {"median": median([a for a, _ in both]),
                      "max": max(a for a, _ in both)},
            "stillframe": {"median": median([b for _, b in both]),
                           "max": max(b for _, b in both)}}
    for name, pairs in groups.items():
        if len(pairs) < KEYS_FOR_A_MEDIAN:
            continue
        ms, mf = median([a for a, _ in pairs]), median([b for _, b in pairs])
        noise = spread([a for a, _ in pairs])
        judged = noise <= max(KEY_SPREAD_FRAMES * frame_ms,
                              KEY_SPREAD_MIN_MS)
        v.figures.setdefault("key_groups", {})[name] = {
            "keys": len(pairs), "stock": ms, "stillframe": mf,
            "stock_spread": noise, "judged": judged}
        if not judged:
            v.notes.append("keys %s not judged by their median: stock "
                           "answered them %.0f-%.0f ms after the key "
                           "(middle half %.1f ms wide, more than %g "
                           "frames and %g ms)"
                           % (name, min(a for a, _ in pairs),
                              max(a for a, _ in pairs), noise,
                              KEY_SPREAD_FRAMES, KEY_SPREAD_MIN_MS))
            continue
        a = [x for x, _ in pairs]
        b = [y for _, y in pairs]
        later, errors = key_lateness(a, b)
        v.figures["key_groups"][name].update(
            stock_middle_mean=middle_mean(a),
            stillframe_middle_mean=middle_mean(b),
            later_in_errors=errors if math.isfinite(errors) else None)
        if later <= slack:
            continue
        if errors < KEY_MIN_ERRORS:
            v.notes.append("keys %s %.1f ms later than on stock (the mean "
                           "of the middle half of %d keys), but only %.1f "
                           "standard errors: two runs of stock differ so "
                           "much; not a failure"
                           % (name, later, len(pairs), errors))
            continue
        v.fail("key-latency", "keys %s: key to pixels median %.1f ms "
               "against %.1f ms on stock (%d keys; the middle half's mean "
               "%.1f ms later, %.1f standard errors; allowed %.1f ms)"
               % (name, mf, ms, len(pairs), later, errors, slack))
    if keys_s and not both and not lost:
        v.notes.append("key to pixels not judged: stock showed none of "
                       "the %d keys within %d ms (a window that does not "
                       "show typing, or did not have the focus)"
                       % (len(keys_s), KEY_ANSWER_MS))
    # Keys "answered" on stock by a window that answers few of them are
    # changes of its own that came just after a key (a page's clock
    # under load): only a window that shows typing can lose a key.
    if lost and (len(both) + lost) * 2 < len(keys_s):
        v.notes.append("%d key(s) seemed answered on stock and not with "
                       "stillframe, not judged: stock answered only %d of "
                       "%d keys, so those were changes of the window's own"
                       % (lost, len(both) + lost, len(keys_s)))
        lost = 0
    if lost:
        v.fail("key-latency", "%d key(s) answered on stock within %d ms "
               "and not within %d ms with stillframe"
               % (lost, KEY_ANSWER_MS, ANSWER_WITHIN_MS))


def check_animation(v, stock, sf, phases):
    windows = []
    if "type_start" in phases:
        windows.append(("typing", phases["type_start"], phases["type_end"]))
    if "idle_start" in phases:
        windows.append(("idle", phases["idle_start"],
                        phases.get("print_start", phases["idle_end"])))
    v.figures["fps"] = {}
    for name, a, b in windows:
        secs = (b - a) / 1000.0
        if secs < 3:
            continue
        fs = stock.changing_frames(a, b) / secs
        ff = sf.changing_frames(a, b) / secs
        v.figures["fps"][name] = {"stock": fs, "stillframe": ff}
        if fs >= ANIMATION_FPS and ff < ANIMATION_RATIO * fs:
            v.fail("focused-animation", "%s: the window changed on screen "
                   "%.1f times a second against %.1f on stock"
                   % (name, ff, fs))


def check_prints(v, stock, sf, phases, prints):
    if not prints:
        return
    ends = prints[1:] + [phases["idle_end"]]
    lat = {"stock": [], "stillframe": []}
    for p, end in zip(prints, ends):
        for name, tl in (("stock", stock), ("stillframe", sf)):
            lat[name].append(tl.latency(p, end - p))
    v.figures["print_ms"] = lat
    shown = [a for a in lat["stock"] if a is not None]
    if not shown:
        return
    ms, mx = median(shown), max(shown)
    late = []
    for i, (a, b) in enumerate(zip(lat["stock"], lat["stillframe"])):
        if a is None:
            continue
        if b is None:
            late.append("line %d not shown before the next (%.0f ms)"
                        % (i + 1, ends[i] - prints[i]))
        elif b > mx + PRINT_MAX_SLACK_MS:
            late.append("line %d after %.0f ms" % (i + 1, b))
    sfs = [b if b is not None else ends[i] - prints[i]
           for i, b in enumerate(lat["stillframe"])]
    if late or median(sfs) > ms + PRINT_MEDIAN_SLACK_MS:
        v.fail("new-drawing", "printed lines reached the screen late "
               "(stock: median %.0f ms, at most %.0f ms): %s"
               % (ms, mx, "; ".join(late) or
                  "median %.0f ms" % median(sfs)))


def idle_segments(phases, prints):
    """The idle phase cut at each printed line: (start, end, the input
    whose answer shows the caret, on each side)."""
    starts = [("key", phases["idle_start"])] + [("print", p) for p in prints]
    ends = [p for p in prints] + [phases["idle_end"]]
    return [(a, b, kind) for (kind, a), b in zip(starts, ends)]


def shown_time(tl, kind, a, phases):
    """When the caret is known shown: just after the answer to the last
    key before the idle phase, or to the line printed at A."""
    if kind == "key":
        keys = [t for t in tl.keys() if t < phases["idle_start"]]
        if not keys:
            return None
        t = keys[-1]
    else:
        t = a
    answer = tl.first_change_after(t, t + ANSWER_WITHIN_MS)
    return None if answer is None else answer + 0.001


def inked_picture(tl, pictures):
    """Of a blink's two pictures, the one with more ink (a caret, a
    cursor block, a dot adds pixels unlike the field), or None when the
    log does not say or both have as much."""
    inks = [tl.log.ink.get(h) for h in pictures]
    if len(pictures) != 2 or None in inks or inks[0] == inks[1]:
        return None
    return pictures[0] if inks[0] > inks[1] else pictures[1]


def check_idle_tiles(v, stock, sf, phases, prints, args):
    deadline = 30000.0
    for o in args.option:
        k, _, val = o.partition("=")
        if k in ("blink-max-staleness", "tick-max-staleness"):
            try:
                deadline = max(deadline, float(val))
            except ValueError:
                pass
    blinks = ticks = 0
    hidden = []
    stale = []
    for a, b, kind in idle_segments(phases, prints):
        st_s, st_f = shown_time(stock, kind, a, phases), \
            shown_time(sf, kind, a, phases)
        for idx in stock.area:
            changes = stock.tile_changes(idx, a, b)
            cls = classify_tile(changes, stock.state_at(idx, a))
            if cls == "blink" and st_s is not None and st_f is not None:
                blinks += 1
                # The caret's picture: the one with more ink; where the
                # logs cannot tell, the one just after the answer (most
                # toolkits show the caret with it; AbiWord hides it
                # until its next blink).
                pictures = sorted({stock.state_at(idx, a)} |
                                  {h for _, h in changes})
                caret = inked_picture(stock, pictures)
                shown_s = caret or stock.state_at(idx, st_s)
                shown_f = caret or sf.state_at(idx, st_f)
                away_s = longest_away(stock, idx, shown_s, st_s, b)
                away_f = longest_away(sf, idx, shown_f, st_f, b)
                if away_f > away_s + CARET_SLACK_MS:
                    hidden.append((away_f, away_s, idx))
            elif cls == "tick":
                ticks += 1
                still = longest_still(sf, idx, a, b)
                if still > deadline + DEADLINE_SLACK_MS:
                    stale.append((still, idx))
    v.figures["idle_tiles"] = {"blinking": blinks, "ticking": ticks}
    if hidden:
        away_f, away_s, idx = max(hidden)
        v.fail("caret-shown", "a blinking region (tile %d, %d region(s)) "
               "showed its other picture for %.1f s at a time, on stock "
               "at most %.1f s" % (idx, len(hidden), away_f / 1000.0,
                                   away_s / 1000.0))
    if stale:
        still, idx = max(stale)
        v.fail("hold-deadline", "a ticking region (tile %d) was not "
               "redrawn for %.1f s (deadline %.0f s)"
               % (idx, still / 1000.0, deadline / 1000.0))


def check_saving(v, stock, sf, phases, prints, control):
    a = phases["idle_start"] + QUIET_AFTER_IDLE_MS
    b = prints[0] if prints else phases["idle_end"]
    if b - a < 5000.0:
        return
    mins = (b - a) / 60000.0
    fs, ff = stock.all_frames(a, b) / mins, sf.all_frames(a, b) / mins
    v.figures["idle_per_min"] = {"stock": fs, "stillframe": ff}
    classes = {classify_tile(stock.tile_changes(i, a, b),
                             stock.state_at(i, a))
               for i in stock.history}
    classes.discard(None)
    repeating = bool(classes) and classes <= {"blink", "tick"}
    v.figures["idle_repeats_only"] = repeating
    if control or not repeating or fs < SAVING_FROM_PER_MIN:
        return
    if ff * SAVING_FACTOR > fs:
        v.fail("idle-saving", "idle, what only blinks or ticks was "
               "repainted %.1f times a minute against %.1f on stock "
               "(%.1fx fewer; at least %gx expected)"
               % (ff, fs, fs / ff if ff else float("inf"), SAVING_FACTOR))


def check_modes(v, stock, sf, phases):
    modes = sf.modes()
    v.figures["modes"] = [(round(t), m) for t, m in modes]
    if "type_start" in phases:
        # The bursts: no pause longer than 3 s, a user at work.
        a, b = phases["type_start"], phases["bursts_end"]
        keys = [t for t in sf.keys() if t >= a]
        sw = switches_in(modes, a, b)
        # The first key may bring the output back from a drop.
        if sw and keys and sw[0][2] > sw[0][1] and sw[0][0] < keys[0] + 200:
            sw = sw[1:]
        if sw:
            v.fail("active-refresh", "%d mode switch(es) while typing in "
                   "bursts: %s"
                   % (len(sw), ", ".join("%.0f->%.0f Hz" % (f / 1e3, to / 1e3)
                                         for _, f, to in sw)))
    if "idle_start" in phases:
        a, b = phases["idle_start"], phases["idle_end"]
        sw = switches_in(modes, a, b)
        allowed = max(1, len(switches_in(stock.modes(), a, b)))
        if len(sw) > allowed:
            v.fail("idle-refresh", "%d mode switches in %.0f s without "
                   "input (one idle drop allowed)"
                   % (len(sw), (b - a) / 1000.0))
    dips = short_modes(modes, phases["settled"], phases.get(
        "wake_end", float("inf")))
    if dips:
        t, m, dur = dips[0]
        v.fail("active-refresh", "%d mode(s) kept less than %.0f s, e.g. "
               "%.0f Hz for %.0f ms"
               % (len(dips), SHORTEST_MODE_MS / 1000.0, m / 1e3, dur))


def check_health(v, stock_side, sf_side):
    for what, key in (("server", "server_alive"), ("client", "client_alive")):
        if stock_side[key] and not sf_side[key]:
            v.fail("health", "the %s ended with stillframe, not on stock"
                   % what)
    extra = sorted(set(sf_side["client_errors"]) -
                   set(stock_side["client_errors"]))
    if extra:
        v.fail("health", "the client said %s with stillframe, not on stock"
               % ", ".join("'%s'" % e for e in extra))
    for side in (stock_side, sf_side):
        if side["log"].errors:
            v.fail("health", "the %s side's witness: %s"
                   % (side["name"], side["log"].errors[0]))


def rest_difference(stock, sf, idx, t):
    """How far tile IDX of the two pictures at rest differs (the largest
    difference of a colour channel, in levels of 255), or None when the
    pictures cannot say: one is missing, or the tile changed on either
    screen between the rest moment T and the moment its picture was
    read back (the picture would show another state than T's)."""
    tile = stock.log.screen[2] if stock.log.screen else None
    pictures = [tl.side.get("rest") or {} for tl in (stock, sf)]
    if tile is None or any(p.get("picture") is None for p in pictures):
        return None
    for tl, p in zip((stock, sf), pictures):
        if tl.tile_changes(idx, t, p["done"] + 1.0):
            return None
    return pictures[0]["picture"].tile_difference(pictures[1]["picture"],
                                                  idx, tile)


def check_at_rest(v, stock, sf, phases):
    """The screens once both are at rest after the last key: every
    region of the window that neither side changed for REST_STILL_MS
    (not a blink, a tick or an animation) shows the same on both.
    Held drawing that never came, or came wrong, shows here.  Where the
    frame logs' hashes disagree, the pictures read back at rest say by
    how much: two runs of stock can blend a window's shadow a level or
    two apart, and that is no difference a user sees (REST_LEVELS)."""
    if "wake_end" not in phases:
        return
    t = phases["wake_end"]
    differ, alike, unjudged = [], [], []
    for idx in sorted(stock.area | sf.area):
        if stock.tile_changes(idx, t - REST_STILL_MS, t) or \
                sf.tile_changes(idx, t - REST_STILL_MS, t):
            continue
        if stock.state_at(idx, t) == sf.state_at(idx, t):
            continue
        levels = rest_difference(stock, sf, idx, t)
        if levels is None:
            unjudged.append(idx)
            differ.append(idx)
        elif levels <= REST_LEVELS:
            alike.append((levels, idx))
        else:
            differ.append(idx)
    v.figures["rest_tiles_differing"] = len(differ)
    v.figures["rest_tiles_within_levels"] = len(alike)
    if alike:
        v.notes.append("%d still region(s) of the window differ from "
                       "stock's at rest by at most %d level(s) of 255 "
                       "(tiles %s): no difference a user sees"
                       % (len(alike), max(alike)[0],
                          ",".join(str(i) for _, i in alike[:8])))
    if unjudged:
        why = [tl.side.get("rest", {}).get("why") for tl in (stock, sf)]
        v.notes.append("the pictures at rest could not judge %d region(s) "
                       "(%s): each differing hash counts"
                       % (len(unjudged), "; ".join(w for w in why if w) or
                          "they changed before the picture was read"))
    if differ:
        v.fail("at-rest", "%d still region(s) of the window differ from "
               "stock's at rest (tiles %s)"
               % (len(differ), ",".join(str(i) for i in differ[:8])))


def analyse_pair(stock_side, sf_side, phases, prints, args):
    stock, sf = Timeline(stock_side), Timeline(sf_side)
    v = Verdict()
    check_health(v, stock_side, sf_side)
    check_keys(v, stock, sf, phases)
    check_animation(v, stock, sf, phases)
    if "idle_start" in phases:
        check_prints(v, stock, sf, phases, prints)
        check_idle_tiles(v, stock, sf, phases, prints, args)
        check_saving(v, stock, sf, phases, prints, args.control)
    check_modes(v, stock, sf, phases)
    check_at_rest(v, stock, sf, phases)
    return {
        "server": args.server,
        "wm": args.wm,
        "command": args.command,
        "control": args.control,
        "scenarios": args.scenarios,
        "idle_s": getattr(args, "idle", None),
        "box": {"stock": stock_side["box"], "stillframe": sf_side["box"]},
        "figures": v.figures,
        "failures": v.failures,
        "notes": v.notes,
    }
