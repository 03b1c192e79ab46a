#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Parses a Prometheus text exposition file (what node_exporter's textfile
# collector reads) strictly: HELP and TYPE before a metric's samples,
# valid names, labels and values, no sample twice.  check-prometheus.py
# FILE [SAMPLE...] prints the value of each SAMPLE (NAME{labels} as in
# the file); exits 1 naming the line when the file is not valid.
import re
import sys

NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\["\\n])*"'
SAMPLE = re.compile(rf"^({NAME})(\{{(?:{LABEL}(?:,{LABEL})*)?\}})? "
                    r"(-?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|"
                    r"\+Inf|-Inf|NaN))$")
TYPES = {"counter", "gauge", "untyped", "histogram", "summary"}


def fail(n, line, why):
    sys.exit(f"check-prometheus: line {n}: {why}: {line!r}")


def main():
    path, wanted = sys.argv[1], sys.argv[2:]
    typed, helped, samples = {}, set(), {}
    with open(path) as f:
        text = f.read()
    if not text.endswith("\n"):
        sys.exit("check-prometheus: the file does not end with a line break")
    for n, line in enumerate(text.split("\n")[:-1], 1):
        if line.startswith("# HELP "):
            name = line.split(" ", 3)[2]
            if name in helped:
                fail(n, line, "a second HELP")
            helped.add(name)
        elif line.startswith("# TYPE "):
            parts = line.split(" ")
            if len(parts) != 4 or parts[3] not in TYPES:
                fail(n, line, "a bad TYPE line")
            if parts[2] in typed:
                fail(n, line, "a second TYPE")
            typed[parts[2]] = parts[3]
        elif line.startswith("#") or not line:
            fail(n, line, "neither HELP, TYPE nor a sample")
        else:
            m = SAMPLE.match(line)
            if not m:
                fail(n, line, "not a valid sample")
            if m.group(1) not in typed:
                fail(n, line, "a sample before its TYPE")
            key = m.group(1) + (m.group(2) or "")
            if key in samples:
                fail(n, line, "the same sample twice")
            samples[key] = m.group(3)
    if not samples:
        sys.exit("check-prometheus: no samples")
    for key in wanted:
        if key not in samples:
            sys.exit(f"check-prometheus: no sample {key}")
        print(samples[key])


main()
