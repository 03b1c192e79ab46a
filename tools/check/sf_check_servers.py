# SPDX-License-Identifier: MIT
"""The two sides of a check: a private server (stock, or with
stillframe), its witness, an optional window manager and the client.

Weston runs with the headless backend and --use-pixman, with the fake-KMS
TEST DOUBLE (it stands in for a KMS backend: modes, a seat to inject
input into, and the frame log of what reached its "hardware").  Xorg
runs with the dummy driver and 85, 75, 72, 60, 48 and 30 Hz modes;
sf-bench-x (Damage, RandR, XTEST only) injects input and logs the root
window's pixels.  Both sides are set up alike but for stillframe.
"""

import os
import random
import signal
import subprocess
import time

from sf_check_framelog import FrameLog
from sf_check_picture import PictureError, read_picture

# The key the scripted user types: "a" (evdev KEY_A; X keycode = evdev
# + 8 under the evdev keymap every X server here uses).
EVDEV_KEY_A = 30
X_KEYCODE_A = EVDEV_KEY_A + 8

# Client output that means a protocol or X error.
ERROR_MARKS = ("protocol error", "X Error of failed request",
               "Gdk-ERROR", "Fatal IO error", "Segmentation fault",
               "Aborted", "core dumped")

# What the stillframe side gets beside the user's -o options: every
# output is managed (the test outputs are not built-in panels) and the
# screen never dims or blanks during a check (both would show as
# differences that the contract allows anyway).
SF_DEFAULTS = [("outputs", "all"), ("dim-timeout", "0"),
               ("standby-timeout", "0"), ("off-timeout", "0")]


SHOT_TIMEOUT_S = 20.0


class CheckError(Exception):
    """The check could not run (exit 2)."""


def x_option_name(key):
    return "".join(part.capitalize() for part in key.split("-"))


def wait_for(what, predicate, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.05)
    raise CheckError("timed out waiting for %s" % what)


def stop_process(proc, sig=signal.SIGTERM):
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


class Side:
    def __init__(self, args, workdir, name, stillframe):
        self.args = args
        self.name = name
        self.stillframe = stillframe
        self.dir = os.path.join(workdir, name)
        os.makedirs(self.dir, mode=0o700)
        self.home = os.path.join(self.dir, "home")
        os.makedirs(os.path.join(self.home, ".config"))
        self.server = self.wm = self.client = None
        self.client_log = os.path.join(self.dir, "client.log")
        self.log = None
        self.empty = {}
        self.client_tiles = set()
        self.box = None
        self.server_alive = self.client_alive_at_end = None
        self.printer_fifo = os.path.join(self.dir, "print")
        os.mkfifo(self.printer_fifo)
        self.printer = os.path.join(self.dir, "printer")
        with open(self.printer, "w") as f:
            # A terminal runs this: what the check writes into the
            # FIFO is printed at once, as by a program's output.
            f.write("#!/bin/sh\nexec cat '%s'\n" % self.printer_fifo)
        os.chmod(self.printer, 0o755)
        self.printer_fd = None
        self.bus = self.bus_pid = None
        # The screen at rest, read back by the witness (invariant 10).
        self.rest = {"picture": None, "done": None, "why": "not taken"}
        self.rest_path = None

    def start_bus(self):
        """A session bus of the side's own, as every desktop session
        has: window managers read their settings over it (xfwm4 through
        xfconfd), toolkits find their services on it."""
        try:
            out = subprocess.run(
                ["dbus-daemon", "--session", "--fork", "--print-address=1",
                 "--print-pid=1"], env=self.client_env(), text=True,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                timeout=20).stdout.split()
        except (OSError, subprocess.TimeoutExpired) as e:
            raise CheckError("no session bus (dbus-daemon): %s" % e)
        if len(out) != 2:
            raise CheckError("dbus-daemon did not start a session bus")
        self.bus, self.bus_pid = out[0], int(out[1])

    def options(self):
        given = [tuple(o.split("=", 1)) for o in self.args.option]
        named = {k for k, _ in given}
        return [(k, v) for k, v in SF_DEFAULTS if k not in named] + given

    def spawn(self, argv, env, out):
        with open(out, "ab") as f:
            return subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL,
                                    stdout=f, stderr=subprocess.STDOUT,
                                    start_new_session=True)

    def client_env(self):
        env = dict(os.environ)
        for k in ("WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY",
                  "XDG_SESSION_TYPE", "DBUS_SESSION_BUS_ADDRESS"):
            env.pop(k, None)
        # Each side's client has a home of its own: two instances of
        # one browser must not find each other's profile or lock.
        if self.bus:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.bus
        env.update(HOME=self.home, XDG_CONFIG_HOME=self.home + "/.config",
                   XDG_CACHE_HOME=self.home + "/.cache",
                   XDG_DATA_HOME=self.home + "/.local/share",
                   NO_AT_BRIDGE="1")
        return env

    def start_client(self, command):
        argv = [a.replace("@PRINT@", self.printer) for a in command]
        self.client = self.spawn(argv, self.client_env(), self.client_log)

    def client_alive(self):
        return self.client is not None and self.client.poll() is None

    def remember_empty_screen(self):
        wait_for("the %s side's first frame" % self.name,
                 lambda: self.read() and self.log.frames, 20)
        self.empty = dict(self.log.tiles)

    def read(self):
        self.log.read()
        return self.log.screen is not None

    def changed_tiles(self):
        return {i for i, h in self.log.tiles.items()
                if self.empty.get(i) != h}

    def client_has_drawn(self):
        self.read()
        return bool(self.changed_tiles())

    def find_window(self):
        """The client's area: every tile that differs from the screen
        before it started (its window, and a frame a window manager
        drew around it)."""
        self.read()
        self.client_tiles = self.changed_tiles()
        self.box = self.log.box_of(self.client_tiles)

    def print_line(self, text):
        if self.printer_fd is None:
            # Read-write: opening never blocks, and the printer never
            # sees the end of its input between two lines.
            self.printer_fd = os.open(self.printer_fifo, os.O_RDWR)
        os.write(self.printer_fd, text.encode())

    def client_errors(self):
        try:
            with open(self.client_log, errors="replace") as f:
                text = f.read()
        except OSError:
            return []
        return sorted({m for m in ERROR_MARKS if m in text})

    def shoot_rest(self):
        """Asks the witness for the screen at rest; both sides are asked
        before either is waited for (finish_rest)."""
        self.rest_path = self.start_shot(os.path.join(self.dir,
                                                      "screen-at-rest"))

    def finish_rest(self):
        """Waits for the picture shoot_rest asked for; "done" bounds the
        time it shows (the verdict trusts it only for regions that did
        not change from the rest moment until then)."""
        ok = self.wait_shot(self.rest_path, SHOT_TIMEOUT_S)
        self.rest["done"] = time.monotonic() * 1000.0
        if not ok:
            self.rest["why"] = "the witness gave no picture"
            return
        try:
            self.rest["picture"] = read_picture(self.rest_path)
            self.rest["why"] = None
        except (OSError, PictureError) as e:
            self.rest["why"] = "unreadable picture: %s" % e

    def screenshot(self, path):
        self.wait_shot(self.start_shot(path), SHOT_TIMEOUT_S)

    def collect(self):
        time.sleep(0.3)
        self.read()
        self.server_alive = self.server.poll() is None
        self.client_alive_at_end = self.client_alive()
        if self.args.keep and self.server_alive:
            # What the screen shows at the end, for a person to compare
            # (never read by a verdict).
            self.screenshot(os.path.join(self.dir, "screen-at-end"))

    def result(self):
        return {
            "name": self.name,
            "stillframe": self.stillframe,
            "log": self.log,
            "client_tiles": self.client_tiles,
            "box": self.box,
            "server_alive": self.server_alive,
            "client_alive": self.client_alive_at_end,
            "client_errors": self.client_errors(),
            "rest": self.rest,
        }

    def stop(self):
        if self.printer_fd is not None:
            os.close(self.printer_fd)
            self.printer_fd = None
        for proc in (self.client, self.wm):
            stop_process(proc)
        self.stop_server()
        if self.bus_pid:
            try:
                os.kill(self.bus_pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            self.bus_pid = None


class WestonSide(Side):
    def start_server(self):
        for path, what in ((self.args.fake_kms, "--fake-kms"),
                           (self.args.weston_plugin, "--weston-plugin")):
            if (what == "--fake-kms" or self.stillframe) and \
                    not os.path.isfile(path):
                raise CheckError("%s: %s is not a file" % (what, path))
        self.socket = "sf-check-%s-%d" % (self.name, os.getpid())
        self.fifo = os.path.join(self.dir, "control")
        self.frames = os.path.join(self.dir, "frames")
        modules = ["stillframe-test-fake-kms.so"]
        if self.stillframe:
            modules.append("stillframe.so")
        ini = ["[core]", "modules=" + ",".join(modules), "idle-time=0",
               "[shell]", "startup-animation=none", "close-animation=none",
               "animation=none", "panel-position=none",
               "background-color=0xff204060",
               "[stillframe-test]", "control=" + self.fifo,
               "frame-log=" + self.frames]
        if self.stillframe:
            # An empty platform tree: a check never touches the real
            # GPU clocks or backlight.
            os.makedirs(os.path.join(self.dir, "no-sysfs"))
            ini += ["[stillframe]",
                    "platform-root=" + os.path.join(self.dir, "no-sysfs")]
            ini += ["%s=%s" % kv for kv in self.options()]
        with open(os.path.join(self.dir, "weston.ini"), "w") as f:
            f.write("\n".join(ini) + "\n")
        env = self.client_env()
        env.update(XDG_RUNTIME_DIR=self.dir,
                   WESTON_MODULE_MAP="stillframe-test-fake-kms.so=%s;"
                   "stillframe.so=%s" % (self.args.fake_kms,
                                         self.args.weston_plugin))
        self.server = self.spawn(
            ["weston", "--backend=headless-backend.so", "--use-pixman",
             "--socket=" + self.socket,
             "--config=" + os.path.join(self.dir, "weston.ini"),
             "--log=" + os.path.join(self.dir, "weston.log")] +
            # SF_CHECK_WESTON_SCOPES=log,stillframe puts stillframe's
            # decisions into weston.log (with --keep, to read them).
            (["--logger-scopes=" + os.environ["SF_CHECK_WESTON_SCOPES"]]
             if os.environ.get("SF_CHECK_WESTON_SCOPES") else []),
            env, os.path.join(self.dir, "weston.out"))
        self.log = FrameLog(self.frames)
        wait_for("Weston (%s) to start" % self.name,
                 lambda: self.server.poll() is not None or
                 (os.path.exists(os.path.join(self.dir, self.socket)) and
                  os.path.exists(self.fifo)), 20)
        if self.server.poll() is not None:
            raise CheckError("Weston (%s) did not start; see %s"
                             % (self.name,
                                os.path.join(self.dir, "weston.log")))
        self.control = os.open(self.fifo, os.O_RDWR)

    def start_wm(self):
        pass

    def client_env(self):
        env = super().client_env()
        env.update(XDG_RUNTIME_DIR=self.dir,
                   WAYLAND_DISPLAY=getattr(self, "socket", ""),
                   XDG_SESSION_TYPE="wayland", GDK_BACKEND="wayland",
                   QT_QPA_PLATFORM="wayland", MOZ_ENABLE_WAYLAND="1",
                   SDL_VIDEODRIVER="wayland", CLUTTER_BACKEND="wayland")
        return env

    def command(self, line):
        os.write(self.control, (line + "\n").encode())

    def focus_window(self):
        # desktop-shell gives a new toplevel the keyboard focus.
        pass

    def key(self):
        self.command("key %d" % EVDEV_KEY_A)

    def pointer_step(self, i):
        self.command("motion 5 3")

    def start_shot(self, path):
        # The fake-KMS double reads back what it last presented, and
        # renames the picture into place once it is written whole.
        self.command("shot headless %s.ppm" % path)
        return path + ".ppm"

    def wait_shot(self, path, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if os.path.exists(path):
                return True
            # A server that ended writes no picture: do not wait for it.
            if os.path.exists(path + ".failed") or \
                    self.server.poll() is not None:
                return False
            time.sleep(0.02)
        return False

    def stop_server(self):
        if getattr(self, "control", None) is not None:
            os.close(self.control)
            self.control = None
        stop_process(self.server)


class XorgSide(Side):
    RATES = (72, 48, 30)

    def conf(self):
        lines = ['Section "Files"']
        if self.stillframe:
            lines.append('\tModulePath "%s"'
                         % os.path.dirname(self.args.xorg_module))
        lines += ['\tModulePath "/usr/lib/xorg/modules"', "EndSection",
                  'Section "ServerFlags"',
                  '\tOption "AutoAddDevices" "false"',
                  '\tOption "BlankTime" "0"', '\tOption "StandbyTime" "0"',
                  '\tOption "SuspendTime" "0"', '\tOption "OffTime" "0"',
                  "EndSection"]
        if self.stillframe:
            module = os.path.basename(self.args.xorg_module)
            name = module[3:] if module.startswith("lib") else module
            name = name.rsplit(".so", 1)[0]
            os.makedirs(os.path.join(self.dir, "no-sysfs"))
            lines += ['Section "Module"', '\tSubSection "%s"' % name,
                      '\t\tOption "PlatformRoot" "%s"'
                      % os.path.join(self.dir, "no-sysfs")]
            lines += ['\t\tOption "%s" "%s"' % (x_option_name(k), v)
                      for k, v in self.options()]
            lines += ["\tEndSubSection", "EndSection"]
        # 1280x1024 at 72, 48 and 30 Hz beside the dummy's own 85, 75
        # and 60: the VESA 85 Hz timings at lower pixel clocks, as a
        # user adds with modelines.
        modelines = ['\tModeline "1280x1024_%d" %.3f 1280 1344 1504 1728 '
                     '1024 1025 1028 1072 +hsync +vsync'
                     % (hz, hz * 1728 * 1072 / 1e6) for hz in self.RATES]
        modes = " ".join('"1280x1024_%d"' % hz for hz in self.RATES)
        lines += ['Section "Device"', '\tIdentifier "dummy"',
                  '\tDriver "dummy"', "\tVideoRam 256000", "EndSection",
                  'Section "Monitor"', '\tIdentifier "monitor"',
                  "\tHorizSync 5.0-1000.0", "\tVertRefresh 5.0-200.0"]
        lines += modelines + ["EndSection",
                              'Section "Screen"', '\tIdentifier "screen"',
                              '\tDevice "dummy"', '\tMonitor "monitor"',
                              "\tDefaultDepth 24", '\tSubSection "Display"',
                              "\t\tDepth 24",
                              '\t\tModes "1280x1024" %s' % modes,
                              "\t\tVirtual 1280 1024", "\tEndSubSection",
                              "EndSection"]
        return "\n".join(lines) + "\n"

    def free_display(self):
        n = 100 + random.randrange(400)
        while os.path.exists("/tmp/.X11-unix/X%d" % n) or \
                os.path.exists("/tmp/.X%d-lock" % n):
            n += 1
        return n

    def start_server(self):
        for path, what in ((self.args.witness, "--witness"),
                           (self.args.xorg_module, "--xorg-module")):
            if (what == "--witness" or self.stillframe) and \
                    not os.path.isfile(path):
                raise CheckError("%s: %s is not a file" % (what, path))
        conf = os.path.join(self.dir, "xorg.conf")
        with open(conf, "w") as f:
            f.write(self.conf())
        for _ in range(5):
            self.display = ":%d" % self.free_display()
            self.server = self.spawn(
                ["Xorg", self.display, "-config", conf,
                 "-logfile", os.path.join(self.dir, "Xorg.log"),
                 "-nolisten", "tcp", "-ac", "-noreset", "-br"],
                dict(os.environ), os.path.join(self.dir, "Xorg.out"))
            sock = "/tmp/.X11-unix/X" + self.display[1:]
            try:
                wait_for("Xorg (%s)" % self.name,
                         lambda: self.server.poll() is not None or
                         os.path.exists(sock), 20)
            except CheckError:
                stop_process(self.server)
                continue
            if self.server.poll() is None:
                break
        else:
            raise CheckError("Xorg (%s) did not start; see %s"
                             % (self.name,
                                os.path.join(self.dir, "Xorg.log")))
        self.frames = os.path.join(self.dir, "frames")
        self.witness = None
        for _ in range(50):
            # The socket exists a little before the server answers.
            self.witness = subprocess.Popen(
                [self.args.witness, "--display", self.display, "--frames"],
                stdin=subprocess.PIPE, stdout=open(self.frames, "wb"),
                stderr=open(os.path.join(self.dir, "witness.err"), "ab"),
                start_new_session=True)
            time.sleep(0.2)
            if self.witness.poll() is None:
                break
        if self.witness.poll() is not None:
            raise CheckError("sf-bench-x could not watch %s (%s side); "
                             "see %s" % (self.display, self.name,
                                         os.path.join(self.dir,
                                                      "witness.err")))
        self.log = FrameLog(self.frames)

    def client_env(self):
        env = super().client_env()
        env.update(DISPLAY=getattr(self, "display", ""),
                   XDG_SESSION_TYPE="x11", GDK_BACKEND="x11",
                   QT_QPA_PLATFORM="xcb", MOZ_ENABLE_WAYLAND="0")
        return env

    def start_wm(self):
        if self.args.wm:
            self.wm = self.spawn(["sh", "-c", self.args.wm],
                                 self.client_env(),
                                 os.path.join(self.dir, "wm.log"))

    def command(self, line):
        try:
            self.witness.stdin.write((line + "\n").encode())
            self.witness.stdin.flush()
        except BrokenPipeError:
            pass

    def focus_window(self):
        """The window gets the keyboard focus as on a desktop, and the
        pointer rests in it.  With a window manager, the check asks it
        to activate the window (EWMH _NET_ACTIVE_WINDOW, what a taskbar
        or a click on the title bar does); without one, or when the
        manager does not do EWMH (twm), it gives the focus itself
        (XSetInputFocus), which nobody else would.  No click: a click
        inside the window would move a caret or a focus of its own."""
        if not self.box:
            return
        x, y, w, h = self.box
        self.command("motion %d %d" % (x + w // 2, y + h // 2))
        time.sleep(0.2)
        window = self.toplevel_at(x + w // 2, y + h // 2)
        if not window:
            return
        if self.args.wm and self.xdotool_ok("windowactivate", window):
            return
        self.xdotool_ok("windowfocus", window)

    def run_xdotool(self, argv):
        try:
            return subprocess.run(["xdotool"] + list(argv),
                                  env=self.client_env(), text=True,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, timeout=10)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise CheckError("xdotool %s: %s" % (argv[0], e))

    def xdotool(self, *argv):
        return self.run_xdotool(argv).stdout

    def xdotool_ok(self, *argv):
        return self.run_xdotool(argv).returncode == 0

    def toplevel_at(self, px, py):
        """The client's top-level window at the point: a named child of
        the root or, under a window manager, of its (unnamed) frame.
        Without one, only the root's children: a client's own named
        child window (urxvt's) does not take the focus for it."""
        found = None
        depth = "2" if self.args.wm else "1"
        # Listed bottom to top: the last that holds the point is seen.
        for window in self.xdotool("search", "--onlyvisible", "--maxdepth",
                                   depth, "--name", "").split():
            geo = dict(v.split("=", 1) for v in self.xdotool(
                "getwindowgeometry", "--shell", window).split()
                if "=" in v)
            try:
                x, y = int(geo["X"]), int(geo["Y"])
                w, h = int(geo["WIDTH"]), int(geo["HEIGHT"])
            except (KeyError, ValueError):
                continue
            if x <= px < x + w and y <= py < y + h:
                found = window
        return found

    def key(self):
        self.command("key %d" % X_KEYCODE_A)

    def pointer_step(self, i):
        if self.box:
            x, y, w, h = self.box
            self.command("motion %d %d" % (x + w // 2 + 5 * i,
                                           y + h // 2 + 3 * i))

    def start_shot(self, path):
        # The root window's pixels, as the witness reads them (GetImage).
        self.shot = subprocess.Popen(
            ["xwd", "-root", "-silent", "-out", path + ".xwd"],
            env=self.client_env(), stdin=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        return path + ".xwd"

    def wait_shot(self, path, timeout):
        try:
            ok = self.shot.wait(timeout) == 0
        except subprocess.TimeoutExpired:
            self.shot.kill()
            self.shot.wait()
            ok = False
        return ok and os.path.exists(path)

    def stop_server(self):
        if getattr(self, "witness", None) is not None:
            self.command("quit")
            stop_process(self.witness)
        stop_process(self.server)


def make_side(args, workdir, name, stillframe):
    cls = WestonSide if args.server == "weston" else XorgSide
    return cls(args, workdir, name, stillframe)
