#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# bench/corpus: stillframe-check over the corpus of everyday clients
# (bench/corpus.list), each on every server and window manager it is
# listed with; writes bench/CORPUS.md, one row per case with the
# verdict and the figures, all measured from outside stillframe (see
# stillframe-check(1)).
#
#   bash bench/corpus [--only REGEX] [--control] [--runs N]
#                     [--out FILE] [--json-dir DIR] [--idle S]
#                     [--idle-keys N]
#   bash bench/corpus --from DIR... [--only REGEX] [--out FILE]
#
# It uses the build in build/ (made if missing; SF_BUILD_DIR names
# another, used as it is) and what scripts/install-deps --corpus
# installs (bench/corpus does, then runs this).  A case whose client is
# not installed is reported "not run", never passed.  --from writes the
# report from the JSON of earlier runs (their --json-dir), the newest
# of each case, without running anything.

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("SF_BUILD_DIR", os.path.join(TOP, "build"))
PAGES = os.path.join(TOP, "bench", "corpus-pages")


def firefox(*extra_prefs):
    """Firefox ESR with a fresh profile in the side's own home: the prefs
    that keep first-run pages away (firefox-user.js), then those of each
    file of EXTRA_PREFS in corpus-pages/."""
    steps = ['mkdir -p "$HOME/ff"',
             'cp %s/firefox-user.js "$HOME/ff/user.js"' % PAGES]
    steps += ['cat %s/%s >>"$HOME/ff/user.js"' % (PAGES, f)
              for f in extra_prefs]
    steps.append('exec firefox-esr --no-remote --new-instance --profile '
                 '"$HOME/ff"')
    return " && ".join(steps)


# xfwm4 with its compositor, its settings stored as in a user's session
# (see corpus-pages/xfwm4.xml).
XFWM4 = ('d="$HOME/.config/xfce4/xfconf/xfce-perchannel-xml" && mkdir -p "$d" '
         '&& cp %s/xfwm4.xml "$d/" && exec xfwm4 --compositor=on' % PAGES)
# fluxbox with the user's overlay saying "never set the wallpaper"
# (corpus-pages/fluxbox-overlay): without a wallpaper setter installed,
# fluxbox's fbsetbg pops up a message window that takes the focus from
# the client, at a moment that differs from run to run.
FLUXBOX = ('mkdir -p "$HOME/.fluxbox" && cp %s/fluxbox-overlay '
           '"$HOME/.fluxbox/overlay" && exec fluxbox' % PAGES)
CHROMIUM = ('exec chromium --no-sandbox --user-data-dir="$HOME/chromium" '
            '--no-first-run --disable-gpu --no-default-browser-check '
            '--disable-background-networking --password-store=basic '
            '--window-size=800,600')

# The placeholders of corpus.list that stand for a command: what each
# expands to, the program it needs (to tell "not installed" from a
# failure) and the report's name for it (window managers).
Placeholder = collections.namedtuple("Placeholder", "text program label")
PLACEHOLDERS = {
    # The caret blinking for as long as the user is away
    # (firefox-blink.js): on X, Firefox otherwise stops it after GTK's
    # 10 s, before the idle figures start.
    "@FIREFOX_BLINK@": Placeholder(firefox("firefox-blink.js"),
                                   "firefox-esr", None),
    "@FIREFOX@": Placeholder(firefox(), "firefox-esr", None),
    "@CHROMIUM@": Placeholder(CHROMIUM, "chromium", None),
    "@XFWM4@": Placeholder(XFWM4, "xfwm4", "xfwm4 --compositor=on"),
    "@FLUXBOX@": Placeholder(FLUXBOX, "fluxbox", "fluxbox"),
}


def read_list(path):
    cases = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split("|", 4)]
            if len(parts) != 5:
                sys.exit("corpus: bad line in %s: %s" % (path, line))
            cid, server, wm, settle, cmd = parts
            cases.append(dict(id=cid, server=server,
                              wm=None if wm == "-" else wm,
                              settle=float(settle), command=cmd))
    return cases


def make_clip(path):
    # The tests' 24 fps clip (tests/make-test-clip.py).
    subprocess.run(["python3", os.path.join(TOP, "tests",
                                            "make-test-clip.py"), path],
                   check=True)


def expand(cmd, clip):
    for name, ph in PLACEHOLDERS.items():
        cmd = cmd.replace(name, ph.text)
    return cmd.replace("@PAGES@", PAGES).replace("@CLIP@", clip)


def program_of(cmd):
    """The client's program, to tell "not installed" from a failure."""
    for word in cmd.replace("&&", " ").split():
        if word in ("exec", "env") or "=" in word or word.startswith("@"):
            continue
        if word in ("mkdir", "-p", "cp") or word.startswith('"'):
            continue
        return word
    return None


def program_needed(field, clip):
    """The program a COMMAND or WM field of the list starts."""
    for name, ph in PLACEHOLDERS.items():
        if name in field:
            return ph.program
    return program_of(expand(field, clip))


def check_env():
    env = dict(os.environ)
    env.update(
        SF_CHECK_LIBDIR=os.path.join(TOP, "tools", "check"),
        SF_PLUGIN=os.path.join(BUILD, "weston-plugin", "stillframe.so"),
        SF_XORG_MODULE=os.path.join(BUILD, "xorg-module",
                                    "libstillframe.so"),
        SF_FAKE_KMS=os.path.join(BUILD, "tests", "weston",
                                 "stillframe-test-fake-kms.so"),
        SF_BENCH_X=os.path.join(BUILD, "bench", "sf-bench-x"))
    return env


def run_case(case, args, clip, json_dir, run):
    cmd = expand(case["command"], clip)
    prog = program_needed(case["command"], clip)
    if prog and not shutil.which(prog) and not os.path.exists(prog):
        return {"status": "not run", "why": "%s is not installed" % prog}
    if case["wm"]:
        wm_prog = program_needed(case["wm"], clip)
        if not shutil.which(wm_prog):
            return {"status": "not run", "why": "%s is not installed"
                    % wm_prog}
    argv = ["python3", os.path.join(BUILD, "tools", "check",
                                   "stillframe-check"),
            "--json", "--server", case["server"],
            "--settle", str(case["settle"]),
            "--idle", str(case.get("idle", args.idle))]
    if args.idle_keys:
        argv += ["--idle-keys", str(args.idle_keys)]
    if case["wm"]:
        argv += ["--wm", expand(case["wm"], clip)]
    if args.control:
        argv.append("--control")
    argv += ["--", "sh", "-c", cmd]
    t0 = time.monotonic()
    p = subprocess.run(argv, env=check_env(), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    took = time.monotonic() - t0
    name = "%s%s-%d.json" % (case["id"], "-control" if args.control else "",
                             run)
    with open(os.path.join(json_dir, name), "w") as f:
        f.write(p.stdout)
    if p.returncode == 2 or not p.stdout.strip():
        return {"status": "could not run",
                "why": (p.stderr.strip().splitlines() or ["?"])[-1],
                "seconds": took}
    report = json.loads(p.stdout)
    return {"status": "invisible" if p.returncode == 0 else "FAIL",
            "report": report, "seconds": took}


def cell(v, fmt="%.0f"):
    return "-" if v is None else fmt % v


def wm_name(case):
    if not case["wm"]:
        return "none"
    ph = PLACEHOLDERS.get(case["wm"])
    return ph.label if ph else case["wm"]


def row(case, res):
    if "report" not in res:
        return "| %s | %s | %s | %s | | | | | | | %s |" % (
            case["id"], case["server"], wm_name(case), res["status"],
            res["why"])
    f = res["report"]["figures"]
    k = f.get("key_ms", {})
    keys = "%s / %s" % (cell(k.get("stock", {}).get("median")),
                        cell(k.get("stillframe", {}).get("median")))
    fps = f.get("fps", {}).get("idle") or f.get("fps", {}).get("typing")
    fps = "%s / %s" % (cell(fps["stock"], "%.1f"),
                       cell(fps["stillframe"], "%.1f")) if fps else "-"
    idle = f.get("idle_per_min")
    if idle and idle["stillframe"]:
        idle = "%.0f / %.0f (%.1fx)" % (idle["stock"], idle["stillframe"],
                                        idle["stock"] / idle["stillframe"])
    elif idle:
        idle = "%.0f / 0" % idle["stock"]
    else:
        idle = "-"
    prints = f.get("print_ms")
    if prints:
        sfp = [x for x in prints["stillframe"] if x is not None]
        stp = [x for x in prints["stock"] if x is not None]
        prints = "%s / %s" % (cell(max(stp) if stp else None),
                              cell(max(sfp) if sfp else None))
    else:
        prints = "-"
    modes = f.get("modes", [])
    switches = sum(1 for a, b in zip(modes, modes[1:]) if a[1] != b[1])
    why = "; ".join("%d: %s" % (x["number"], x["reason"])
                    for x in res["report"]["failures"])
    idle_s = res["report"].get("idle_s")
    return "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %d | %s |" % (
        case["id"], case["server"], wm_name(case), res["status"],
        "-" if idle_s is None else "%g" % idle_s, keys, fps, idle, prints, switches, why)


HEADER = """| case | server | window manager | verdict | idle phase (s) | key to pixels, median ms (stock / sf) | window changes/s idle (stock / sf) | idle repaints/min (stock / sf) | printed line, max ms (stock / sf) | mode switches (sf) | broken invariants (doc/invisibility.md) |
|---|---|---|---|---|---|---|---|---|---|---|"""


def describe():
    return subprocess.run(["git", "-C", TOP, "describe", "--always",
                           "--dirty"], stdout=subprocess.PIPE,
                          text=True).stdout.strip()


def write_report(args, lines, counts, source):
    with open(args.out, "w") as f:
        f.write("# stillframe-check over the corpus\n\n")
        f.write("From %s.  Each case is stillframe-check(1): a stock "
                "server and one with stillframe side by side, judged from "
                "the two screens only; `sf` is the %s side.  The "
                "invariants are numbered as in doc/invisibility.md.\n\n"
                % (source, "second stock" if args.control
                   else "stillframe"))
        f.write(HEADER + "\n")
        for line in lines:
            f.write(line + "\n")
        f.write("\n%s\n" % ", ".join("%s: %d" % kv
                                     for kv in sorted(counts.items())))


def report_from(args):
    """The report of earlier runs: for each case of the list, the
    newest JSON of it in the DIRs."""
    cases = read_list(os.path.join(TOP, "bench", "corpus.list"))
    if args.only:
        cases = [c for c in cases if re.search(args.only, c["id"])]
    suffix = "-control" if args.control else ""
    lines, counts = [], {}
    for case in cases:
        found = [os.path.join(d, f) for d in args.from_dirs
                 for f in os.listdir(d)
                 if re.fullmatch(re.escape(case["id"] + suffix) +
                                 r"-\d+\.json", f)]
        if not found:
            res = {"status": "not run", "why": "no run in the folders given"}
        else:
            path = max(found, key=os.path.getmtime)
            try:
                with open(path) as f:
                    report = json.load(f)
                res = {"status": "invisible" if not report["failures"]
                       else "FAIL", "report": report}
            except ValueError:
                res = {"status": "could not run", "why": "no report"}
        counts[res["status"]] = counts.get(res["status"], 0) + 1
        lines.append(row(case, res))
    write_report(args, lines, counts, "the runs of `bash bench/corpus` "
                 "collected by `--from` on %s (%s)"
                 % (time.strftime("%Y-%m-%d"), describe()))
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--only", help="a regular expression over case ids")
    p.add_argument("--control", action="store_true",
                   help="stock on both sides (stillframe-check --control)")
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--idle", type=float, default=45.0)
    p.add_argument("--idle-keys", type=int, metavar="N",
                   help="stillframe-check --idle-keys for every case")
    p.add_argument("--out", default=os.path.join(TOP, "bench", "CORPUS.md"))
    p.add_argument("--json-dir")
    p.add_argument("--idle-of", action="append", default=[],
                   metavar="ID=S", help="another --idle for one case")
    p.add_argument("--from", dest="from_dirs", nargs="+", metavar="DIR",
                   help="write the report from earlier runs' JSON")
    args = p.parse_args()
    if args.from_dirs:
        return report_from(args)

    # SF_BUILD_DIR: a build made elsewhere (meson test), used as it is.
    if "SF_BUILD_DIR" not in os.environ:
        if not os.path.isdir(BUILD):
            subprocess.run(["meson", "setup", BUILD], cwd=TOP, check=True,
                           stdout=subprocess.DEVNULL)
        subprocess.run(["ninja", "-C", BUILD], check=True,
                       stdout=subprocess.DEVNULL)
    cases = read_list(os.path.join(TOP, "bench", "corpus.list"))
    if args.only:
        cases = [c for c in cases if re.search(args.only, c["id"])]
    for spec in args.idle_of:
        cid, _, secs = spec.partition("=")
        for c in cases:
            if c["id"] == cid:
                c["idle"] = float(secs)
    json_dir = args.json_dir or tempfile.mkdtemp(prefix="sf-corpus.")
    os.makedirs(json_dir, exist_ok=True)
    clip = os.path.join(json_dir, "clip.y4m")
    make_clip(clip)

    lines = []
    counts = {}
    for case in cases:
        for run in range(1, args.runs + 1):
            res = run_case(case, args, clip, json_dir, run)
            counts[res["status"]] = counts.get(res["status"], 0) + 1
            line = row(case, res)
            print(line, flush=True)
            lines.append(line)
    write_report(args, lines, counts,
                 "`bash bench/corpus%s%s%s%s` on %s (%s)"
                 % (" --control" if args.control else "",
                    " --runs %d" % args.runs if args.runs > 1 else "",
                    " --idle %g" % args.idle if args.idle != 45 else "",
                    " --idle-keys %d" % args.idle_keys
                    if args.idle_keys else "",
                    time.strftime("%Y-%m-%d"), describe()))
    print("corpus: %s (json in %s)" % (
        ", ".join("%s: %d" % kv for kv in sorted(counts.items())), json_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
