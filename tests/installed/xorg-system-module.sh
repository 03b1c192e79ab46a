#!/bin/bash
# TAP: the installed xserver-xorg-stillframe package in a real Xorg
# (dummy driver), loaded as a user loads it (Load "stillframe", from the
# server's own module folder), with real clients: xterm showing a seconds
# clock, and xdotool moving the pointer through XTEST as a mouse would.
#
# Witnesses outside stillframe: Xorg's log (the file it loaded),
# xdpyinfo (the extension is there), and the server's RandR state as
# xrandr reads it back (the idle drop to the 30 Hz modeline and the way
# back).  stillframe's own status is looked at only beside them.
#
# Run by tests/installed/run.sh (the packages' autopkgtest).
set -u
. "$(dirname "$0")/../xorg/lib.sh"
. "$(dirname "$0")/../real-clients/rc-lib.sh"

for prog in Xorg xterm xdotool xrandr xdpyinfo stillframectl dpkg; do
	command -v "$prog" >/dev/null || tap_bail "$prog is not installed"
done
module=$(dpkg -L xserver-xorg-stillframe 2>/dev/null |
	grep '/libstillframe\.so$') ||
	tap_bail "xserver-xorg-stillframe is not installed"

# DUMMY0 at 1280x1024 85 Hz, with modelines at 72, 48 and 30 Hz.
XT_SYSTEM_MODULES=1 rc_xorg_start_awake installed ||
	tap_bail "Xorg did not start"
native=$(xt_mode_now)
tap_ok "grep -qF 'Loading $module' \"\$XT_LOG\"" \
	"Xorg loads stillframe from its module folder ($module)"
tap_like "$(xdpyinfo -display "$XT_DISPLAY" -queryExtensions 2>&1)" \
	'STILLFRAME' "xdpyinfo lists the STILLFRAME extension"

clock=$XT_DIR/clock.sh
rc_clock_script "$clock"
xt_client xterm -geometry 30x4+100+100 -e "$clock"
xt_poll 20 "xterm's window" eval '[ -n "$(window_id XTerm)" ]' ||
	tap_bail "no xterm window"

# The user is idle: the output drops to its slowest mode of that size
# (xrandr prints the 30 Hz modeline's rate as 30.00).
at_30hz() {
	case $(xt_mode_now) in 1280x1024@30.*) ;; *) return 1 ;; esac
}
tap_ok "xt_poll 20 'idle at 30 Hz' at_30hz" \
	"idle, the server's mode drops from $native to 30 Hz"
tap_like "$(DISPLAY=$XT_DISPLAY timeout "$XT_TIMEOUT" stillframectl --x11 \
	status 2>&1)" 'DUMMY0' \
	"the installed stillframectl talks to the installed module"

# The pointer moves: the native rate at once.
DISPLAY=$XT_DISPLAY xdotool mousemove_relative -- 5 5
tap_ok "xt_poll 2 'the native mode' xt_mode_is $native" \
	"the pointer brings back the native mode $native"
tap_ok 'kill -0 "$XT_PID"' "Xorg is alive"
tap_done
