#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks an SVG from `stillframectl timeline` against its trace.

usage: check-timeline.py SVG TRACE [OUTPUT...]

The SVG must be well-formed SVG 1.1 with a title; one output group with
refresh, state, repaints, DPMS and backlight lanes per output line of the
trace (and, when OUTPUT names are given, exactly those); as many input
marks as the trace has input events, at their times; a time axis that
ends where the trace ends; repaint bars; state runs reaching the end.
Prints what is wrong and exits 1, or prints nothing and exits 0.
"""
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def read_trace(path):
    outputs, inputs, end = [], [], 0.0
    for line in open(path, encoding="utf-8"):
        fields = line.split()
        if not fields or fields[0].startswith("#") or fields[0] == "stillframe-trace":
            continue
        time = float(fields[0]) / 1000
        end = max(end, time)
        if fields[1] == "output":
            outputs.append(fields[3])
        elif fields[1] == "input":
            inputs.append((time, fields[2]))
    return outputs, inputs, end


def classes(el):
    return el.get("class", "").split()


def main():
    svg_path, trace_path, want_outputs = sys.argv[1], sys.argv[2], sys.argv[3:]
    errors = []
    root = ET.parse(svg_path).getroot()
    outputs, inputs, end = read_trace(trace_path)
    if want_outputs and outputs != want_outputs:
        errors.append(f"the trace has outputs {outputs}, not {want_outputs}")

    if root.tag != NS + "svg" or root.get("version") != "1.1":
        errors.append("the root is not <svg version=\"1.1\">")
    title = root.find(NS + "title")
    if title is None or not (title.text or "").strip():
        errors.append("no <title>")
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}

    groups = [el for el in root.iter(NS + "g") if "output" in classes(el)]
    names = [g.get("data-name") for g in groups]
    if names != outputs:
        errors.append(f"output groups {names}, trace outputs {outputs}")
    texts = [t.text for t in root.iter(NS + "text") if "output-name" in classes(t)]
    if texts != outputs:
        errors.append(f"output names shown {texts}, trace outputs {outputs}")
    for name in outputs:
        for lane in ("refresh", "state", "repaints", "dpms", "backlight"):
            el = ids.get(f"{lane}-{name}")
            if el is None or lane not in classes(el):
                errors.append(f"no {lane} lane for {name}")
        refresh = ids.get(f"refresh-{name}")
        if refresh is not None and not [p for p in refresh.iter(NS + "path")
                                        if "line" in classes(p)]:
            errors.append(f"the refresh lane of {name} has no line")
        state = ids.get(f"state-{name}")
        runs = [] if state is None else [r for r in state.iter(NS + "rect") if "run" in classes(r)]
        if not runs or abs(float(runs[-1].get("data-end")) - end) > 0.001 \
                or float(runs[0].get("data-start")) > max(0.0, 0.001):
            errors.append(f"the state runs of {name} do not span 0..{end:.3f} s")
    bars = [el for el in root.iter(NS + "rect") if "bar" in classes(el)
            and "repaints" in classes(el)]
    if outputs and not bars:
        errors.append("no repaint bars")

    marks = [el for el in root.iter(NS + "line") if "input-mark" in classes(el)]
    if len(marks) != len(inputs):
        errors.append(f"{len(marks)} input marks for {len(inputs)} input events")
    else:
        for mark, (time, kind) in zip(marks, inputs):
            if abs(float(mark.get("data-time")) - time) > 0.0005 or \
                    mark.get("data-kind") != kind:
                errors.append(f"input mark {mark.get('data-kind')} at "
                              f"{mark.get('data-time')} s for {kind} at {time} s")
                break

    axis = ids.get("time-axis")
    if axis is None:
        errors.append("no time axis")
    else:
        if abs(float(axis.get("data-end")) - end) > 0.0005:
            errors.append(f"the time axis ends at {axis.get('data-end')} s, "
                          f"the trace at {end:.3f} s")
        ticks = [float(t.get("data-time")) for t in axis.iter(NS + "text")
                 if "tick-label" in classes(t)]
        if len(ticks) < 2 or ticks[0] != 0 or not end * 0.75 <= ticks[-1] <= end + 0.0005:
            errors.append(f"time labels {ticks} do not cover 0..{end:.3f} s")
    if ids.get("legend") is None:
        errors.append("no legend")

    for e in errors:
        print(f"{svg_path}: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
