#!/bin/sh
# stillframectl without a compositor or X server: usage errors exit 2, a
# missing one exits 1 with a message that says where it looked, and the
# backend follows WAYLAND_DISPLAY, DISPLAY, --x11 and --wayland.  TAP.
set -u
ctl=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

# Expects exit status $1 from the rest of the arguments, with stderr in
# $tmp/err.
expect() {
	want=$1
	shift
	"$ctl" "$@" > "$tmp/out" 2> "$tmp/err"
	[ $? = "$want" ]
}

echo "1..15"

expect 0 --help && grep -q '^usage: stillframectl' "$tmp/out"
check $? "--help prints the usage"

expect 2 && grep -q 'missing COMMAND' "$tmp/err"
check $? "no command is a usage error"

expect 2 frobnicate && grep -q "unknown command 'frobnicate'" "$tmp/err"
check $? "an unknown command is a usage error"

expect 2 top --rate 24 && grep -q 'top does not take --rate' "$tmp/err"
check $? "an option of another command is refused"

expect 2 hint 3 && grep -q 'give --rate, --range, --priority or --clear' "$tmp/err"
check $? "hint without hints is a usage error"

expect 2 hint 3 --range 60-48 && grep -q 'minimum is above the maximum' "$tmp/err"
check $? "an upside-down range is refused before connecting"

# An empty runtime directory: no compositor can be there.
mkdir "$tmp/run"
chmod 700 "$tmp/run"
export XDG_RUNTIME_DIR="$tmp/run" WAYLAND_DISPLAY=sf-none
expect 1 status && grep -q 'no Wayland compositor at sf-none' "$tmp/err"
check $? "no compositor exits 1 and names the socket"

expect 1 hint 3 --clear && [ ! -s "$tmp/out" ]
check $? "a valid hint without a compositor exits 1, prints nothing"

# The backend: X11 when only DISPLAY is set, or when asked for.  A build
# without libxcb says it has no X11 backend instead.
no_x='without the X11 backend'

(export DISPLAY=:sf-none; expect 1 status) &&
	grep -q 'no Wayland compositor at sf-none' "$tmp/err"
check $? "with WAYLAND_DISPLAY and DISPLAY set, Wayland it is"

(unset WAYLAND_DISPLAY; export DISPLAY=:sf-none; expect 1 status) &&
	grep -q "X server at :sf-none\|$no_x" "$tmp/err"
check $? "with only DISPLAY set, X11 it is"

(unset DISPLAY; expect 1 --x11 status) &&
	grep -q "DISPLAY is not set\|$no_x" "$tmp/err"
check $? "--x11 without DISPLAY exits 1 and says so"

(unset WAYLAND_DISPLAY; export DISPLAY=:sf-none
 expect 1 status --wayland) &&
	grep -q 'no Wayland compositor at wayland-0' "$tmp/err"
check $? "--wayland after the command works too"

expect 2 --x11 status --wayland && grep -q 'do not go together' "$tmp/err"
check $? "--x11 and --wayland together are a usage error"

expect 2 --x11 hint 0x4g --clear &&
	grep -q "'0x4g' is not an X window" "$tmp/err"
check $? "an X window that is not a number is refused before connecting"

expect 2 --x11 hint && grep -q 'hint: missing WINDOW' "$tmp/err"
check $? "hint on X11 names its operand WINDOW"

tap_exit
