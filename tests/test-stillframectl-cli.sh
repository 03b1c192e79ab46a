#!/bin/sh
# stillframectl without a compositor or X server: usage errors exit 2, a
# missing one exits 1 with a message that says where it looked, and the
# backend follows WAYLAND_DISPLAY, DISPLAY, --x11 and --wayland.  TAP.
set -u
ctl=$1
make_fake_tree=$2	# tests/platform/sf-make-fake-tree, a test double
tmp=$(mktemp -d)
. "$(dirname "$0")/tap.sh"
tap_at_exit 'rm -rf "$tmp"'
. "$(dirname "$0")/cli-lib.sh"

expect 0 --help && grep -q '^usage: stillframectl' "$tmp/out"
tap_result $? "--help prints the usage"

expect 2 && grep -q 'missing COMMAND' "$tmp/err"
tap_result $? "no command is a usage error"

expect 2 frobnicate && grep -q "unknown command 'frobnicate'" "$tmp/err"
tap_result $? "an unknown command is a usage error"

expect 2 top --rate 24 && grep -q 'top does not take --rate' "$tmp/err"
tap_result $? "an option of another command is refused"

expect 2 hint 3 && grep -q 'give --rate, --range, --priority or --clear' "$tmp/err"
tap_result $? "hint without hints is a usage error"

expect 2 status --prom && grep -q "option '--prom' needs a value" "$tmp/err"
tap_result $? "status --prom needs a file"

expect 2 status --json --prom "$tmp/x.prom" &&
	grep -q -- '--json and --prom do not go together' "$tmp/err"
tap_result $? "--json and --prom are one or the other"

expect 1 --x11 status --prom "$tmp/x.prom" &&
	grep -q 'status --prom is for Weston' "$tmp/err" && [ ! -e "$tmp/x.prom" ]
tap_result $? "--prom on X11 says it is for Weston and writes nothing"

expect 2 hint 3 --range 60-48 && grep -q 'minimum is above the maximum' "$tmp/err"
tap_result $? "an upside-down range is refused before connecting"

expect 2 output HDMI-A-1 maybe && grep -q "output: 'maybe' is not on, off or auto" "$tmp/err"
tap_result $? "output takes on, off or auto"

expect 2 output HDMI-A-1 on now && grep -q "output: unexpected argument 'now'" "$tmp/err"
tap_result $? "output takes one name and one word"

expect 2 trace -o "$tmp/t.trace" && grep -q 'trace: give --for SECONDS' "$tmp/err"
tap_result $? "trace needs --for"

expect 2 trace --for 0 -o "$tmp/t.trace" &&
	grep -q -- '--for 0: expected seconds, more than 0' "$tmp/err"
tap_result $? "trace --for 0 is refused"

expect 2 trace --for 2 && grep -q 'trace: give -o FILE' "$tmp/err"
tap_result $? "trace needs -o"

expect 2 status -o "$tmp/t.trace" &&
	grep -q 'status does not take -o or --output' "$tmp/err"
tap_result $? "-o belongs to trace"

# An empty runtime directory: no compositor can be there.
mkdir "$tmp/run"
chmod 700 "$tmp/run"
export XDG_RUNTIME_DIR="$tmp/run" WAYLAND_DISPLAY=sf-none
expect 1 status && grep -q 'no Wayland compositor at sf-none' "$tmp/err"
tap_result $? "no compositor exits 1 and names the socket"

expect 1 hint 3 --clear && [ ! -s "$tmp/out" ]
tap_result $? "a valid hint without a compositor exits 1, prints nothing"

expect 1 trace --for 1 -o "$tmp/t.trace" &&
	[ -z "$(ls "$tmp" | grep 't\.trace')" ]
tap_result $? "trace without a compositor exits 1 and leaves no file"

# The backend: X11 when only DISPLAY is set, or when asked for.  A build
# without libxcb says it has no X11 backend instead.
no_x='without the X11 backend'

(export DISPLAY=:sf-none; expect 1 status) &&
	grep -q 'no Wayland compositor at sf-none' "$tmp/err"
tap_result $? "with WAYLAND_DISPLAY and DISPLAY set, Wayland it is"

(unset WAYLAND_DISPLAY; export DISPLAY=:sf-none; expect 1 status) &&
	grep -q "X server at :sf-none\|$no_x" "$tmp/err"
tap_result $? "with only DISPLAY set, X11 it is"

(unset DISPLAY; expect 1 --x11 status) &&
	grep -q "DISPLAY is not set\|$no_x" "$tmp/err"
tap_result $? "--x11 without DISPLAY exits 1 and says so"

(unset WAYLAND_DISPLAY; export DISPLAY=:sf-none
 expect 1 status --wayland) &&
	grep -q 'no Wayland compositor at wayland-0' "$tmp/err"
tap_result $? "--wayland after the command works too"

expect 2 --x11 status --wayland && grep -q 'do not go together' "$tmp/err"
tap_result $? "--x11 and --wayland together are a usage error"

expect 2 --x11 hint 0x4g --clear &&
	grep -q "'0x4g' is not an X window" "$tmp/err"
tap_result $? "an X window that is not a number is refused before connecting"

expect 2 --x11 hint && grep -q 'hint: missing WINDOW' "$tmp/err"
tap_result $? "hint on X11 names its operand WINDOW"

# platform and restore need neither compositor nor server.
mkdir -p "$tmp/root/sys/class/drm"
expect 0 platform --root "$tmp/root" &&
	grep -q '^gpus 0$' "$tmp/out" && grep -q '^backlight none$' "$tmp/out"
tap_result $? "platform on an empty tree finds nothing and says so"

expect 0 restore --root "$tmp/root" &&
	grep -q "nothing to put back: no state file at $tmp/root/run/stillframe/platform-state" "$tmp/out"
tap_result $? "restore without a state file has nothing to do"

expect 2 platform --root relative/dir && grep -q 'absolute directory' "$tmp/err"
tap_result $? "platform --root must be absolute"

expect 2 platform --try 0 && grep -q 'seconds from 0.1 to 3600' "$tmp/err"
tap_result $? "platform --try needs a sensible duration"

expect 1 platform --root "$tmp/root" --try 1 &&
	grep -q 'no GPU took low clocks' "$tmp/err"
tap_result $? "platform --try without a GPU exits 1 and says why"

# --try on a fake tree (i915 at 400-1100 MHz, RPn 300): low while it
# runs, the user's values back when it is stopped by SIGTERM.
tree=$("$make_fake_tree")
gt() { cat "$tree/sys/class/drm/card0/gt_$1_freq_mhz"; }
"$ctl" platform --root "$tree" --try 60 > "$tmp/try.out" 2> "$tmp/try.err" &
try_pid=$!
for i in $(seq 50); do
	grep -q '^clocks low' "$tmp/try.out" 2>/dev/null && break
	sleep 0.1
done
[ "$(gt min) $(gt max)" = "300 300" ] &&
	[ -e "$tree/run/stillframe/platform-state" ]
tap_result $? "platform --try lowers the clocks, with the state file written"
expect 1 platform --root "$tree" --try 1 &&
	grep -q 'holds values another stillframe changed' "$tmp/err"
tap_result $? "a second --try does not save over the first one's state file"
kill -TERM "$try_pid"
wait "$try_pid"
try_status=$?
[ "$try_status" = 0 ] && grep -q 'clocks put back (interrupted)' "$tmp/try.out"
tap_result $? "SIGTERM ends platform --try cleanly"
[ "$(gt min) $(gt max) $(gt boost)" = "400 1100 1100" ] &&
	[ ! -e "$tree/run/stillframe/platform-state" ]
tap_result $? "and the user's clocks are back, with no state file left"
rm -rf "$tree"

# measure: the battery of a fake tree, refused when it charges.
expect 2 measure && grep -q 'measure: --for SECONDS is required' "$tmp/err"
tap_result $? "measure needs --for"
expect 2 measure --for 10 --window 2 &&
	grep -q -- '--window and --settle go with --ab' "$tmp/err"
tap_result $? "measure --window without --ab is refused"
expect 2 measure --ab --for 10 --window 5 &&
	grep -q 'needs at least 4 windows, two of each' "$tmp/err"
tap_result $? "measure --ab with fewer than four windows is refused"
expect 2 measure --ab --for 40 --window 2 --settle 2 &&
	grep -q 'leaves no reading after --settle' "$tmp/err"
tap_result $? "measure --ab with a settle time as long as the window is refused"
expect 1 measure --root "$tmp/root" --for 0.1 &&
	grep -q "no battery under $tmp/root/sys/class/power_supply" "$tmp/err"
tap_result $? "measure without a battery exits 1 and says where it looked"
tree=$("$make_fake_tree" --battery Discharging)
expect 0 measure --root "$tree" --for 0.2 --interval 0.1 &&
	grep -q '^power: mean 10.000 W, min 10.000 W, max 10.000 W$' "$tmp/out"
tap_result $? "measure reads the fake battery's 10 W"
echo Charging > "$tree/sys/class/power_supply/BAT0/status"
expect 1 measure --root "$tree" --for 0.2 --interval 0.1 &&
	grep -q 'the battery is not discharging' "$tmp/err" && [ ! -s "$tmp/out" ]
tap_result $? "measure refuses a charging battery"
expect 0 measure --root "$tree" --for 0.2 --interval 0.1 --force --json &&
	grep -q '"mean_w": 10.000' "$tmp/out"
tap_result $? "measure --force measures it anyway"
rm -rf "$tree"

tap_done
