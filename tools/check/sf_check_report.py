# SPDX-License-Identifier: MIT
"""stillframe-check's report: text for people, JSON for machines."""

import json


def fmt(v, unit=""):
    if v is None:
        return "-"
    if isinstance(v, float):
        return "%.1f%s" % (v, unit)
    return "%s%s" % (v, unit)


def rows(report):
    f = report["figures"]
    out = []
    if "key_ms" in f:
        k = f["key_ms"]
        out.append(("key to pixels, median (ms)", k["stock"]["median"],
                    k["stillframe"]["median"]))
        out.append(("key to pixels, max (ms)", k["stock"]["max"],
                    k["stillframe"]["max"]))
    out.append(("keys answered / typed", None,
                "%d / %d" % (f.get("keys_answered", 0), f.get("keys", 0))))
    for phase, fps in sorted(f.get("fps", {}).items()):
        out.append(("window changes/s, %s" % phase, fps["stock"],
                    fps["stillframe"]))
    if "print_ms" in f:
        p = f["print_ms"]
        out.append(("printed line to pixels (ms)",
                    " ".join(fmt(x) for x in p["stock"]),
                    " ".join(fmt(x) for x in p["stillframe"])))
    if "idle_per_min" in f:
        out.append(("idle repaints/min (X: drawings)",
                    f["idle_per_min"]["stock"],
                    f["idle_per_min"]["stillframe"]))
    if "idle_tiles" in f:
        t = f["idle_tiles"]
        out.append(("idle regions blinking / ticking (stock)",
                    "%d / %d" % (t["blinking"], t["ticking"]), None))
    if "modes" in f:
        switches = sum(1 for a, b in zip(f["modes"], f["modes"][1:])
                       if a[1] != b[1])
        out.append(("mode switches (stillframe side)", None, switches))
    return out


def write_text(report, out):
    side = "stock" if report["control"] else "stillframe"
    out.write("stillframe-check: %s%s, %s\n" % (
        report["server"],
        " with " + report["wm"] if report["wm"] else "",
        " ".join(report["command"])))
    if report["control"]:
        out.write("control run: stock on both sides\n")
    out.write("%-42s %14s %14s\n" % ("", "stock", side))
    for name, a, b in rows(report):
        out.write("%-42s %14s %14s\n" % (name, fmt(a), fmt(b)))
    for note in report.get("notes", ()):
        out.write("note: %s\n" % note)
    if not report["failures"]:
        out.write("invisible: no difference a user could see\n")
        return
    for f in report["failures"]:
        out.write("FAIL invariant %d (%s): %s\n"
                  % (f["number"], f["rule"], f["reason"]))


def write_json(report, out):
    json.dump(report, out, indent=1, sort_keys=True, default=str)
    out.write("\n")
