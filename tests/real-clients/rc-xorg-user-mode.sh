#!/bin/bash
# The user's display settings win (issue 25, Xorg finding 9), with the
# real xrandr on a real Xorg (dummy driver) and the pointer moved by
# xdotool (XTEST, as a mouse would).  The witness is the server's RandR
# state as xrandr reads it back, and stillframe's status is compared
# with it, never taken alone.
#
# DUMMY0 starts at 1280x1024 85 Hz; modelines add 30 Hz copies at
# 1280x1024 and 1600x1200 (the dummy's own 1024x768 modes are 85, 75,
# 70 and 60 Hz).  The user, while idle:
#  - sets 1280x1024 at 75 Hz: the pointer gets 75 Hz, never the 85 Hz
#    stillframe found at start; idle drops to the 30 Hz copy; pause puts
#    back 75 Hz;
#  - idle again, sets 1600x1200 at 60 Hz (a larger screen): the
#    pointer keeps 1600x1200 at 60 Hz; idle drops to 1600x1200's 30 Hz,
#    and status says so;
#  - sets 1024x768 at 75 Hz (smaller): the pointer keeps it, idle drops
#    to 1024x768's slowest (60 Hz), status says so, pause puts back
#    1024x768 at 75 Hz.
set -u
. "$(dirname "$0")/../xorg/lib.sh"

for tool in Xorg xdotool xrandr xdpyinfo; do
	command -v "$tool" >/dev/null ||
		tap_skip_all "$tool missing (run scripts/install-deps)"
done
[ -f "${SF_XORG_MODULE:-}" ] || tap_skip_all "SF_XORG_MODULE not built"
[ -x "${SF_CTL:-}" ] || tap_skip_all "SF_CTL (stillframectl) not built"

ctl() {
	DISPLAY=$XT_DISPLAY timeout "$XT_TIMEOUT" "$SF_CTL" --x11 "$@"
}

# active SECONDS: the user moves the pointer every 0.2 s for SECONDS;
# prints each different mode the server showed meanwhile, one a line.
active() {
	local end=$(($(xt_now_ms) + $1 * 1000)) dx=2 seen=''
	while [ "$(xt_now_ms)" -lt "$end" ]; do
		xdotool mousemove_relative -- "$dx" "$dx" 2>/dev/null
		dx=$((-dx))
		sleep 0.2
		seen+="$(xt_mode_now)"$'\n'
	done
	printf '%s' "$seen" | awk 'NF && !s[$0]++'
}

# status_mhz: DUMMY0's refresh as stillframectl status reports it.
status_mhz() {
	ctl status | awk '$1 == "output.DUMMY0.refresh_mhz" { print $2 }'
}

# status_is_real: the status's refresh is the server's (to xrandr's
# two decimals).
status_is_real() {
	local rate mhz
	rate=$(xt_mode_now)
	rate=${rate#*@}
	mhz=$(status_mhz)
	[ -n "$rate" ] && [ -n "$mhz" ] &&
		awk -v r="$rate" -v m="$mhz" 'BEGIN {
			d = r * 1000 - m; exit !(d < 6 && d > -6) }'
}

XT_VIRTUAL="1600 1200"
XT_MONITOR_LINES='Modeline "1280x1024_30" 54.0 1280 1328 1440 1688 1024 1025 1028 1066 +hsync +vsync
Modeline "1600x1200_30" 81.0 1600 1664 1856 2160 1200 1201 1204 1250 +hsync +vsync'
xt_start user-mode <<-EOF || { tap_diag "Xorg did not start"; exit 1; }
	Option "Outputs" "all"
	Option "LowRefreshTimeout" "1500"
EOF

tap_ok "xt_poll 10 'idle at 30 Hz' xt_mode_is 1280x1024@30.01" \
	"idle: stillframe drops 85 Hz to the 30 Hz copy"

# 1. The same resolution at another rate.
xrandr --display "$XT_DISPLAY" --output DUMMY0 --mode 1280x1024 --rate 75
tap_ok "xt_poll 3 'the user mode' xt_mode_is 1280x1024@75.02" \
	"the user sets 1280x1024 at 75 Hz while idle"
seen=$(active 3)
tap_is "$seen" "1280x1024@75.02" \
	"the pointer moving: the user's 75 Hz, never the 85 Hz of before"
tap_ok "xt_poll 10 'idle again' xt_mode_is 1280x1024@30.01" \
	"idle: the 30 Hz copy of the user's resolution"
ctl pause >/dev/null
tap_ok "xt_poll 3 'the user mode back' xt_mode_is 1280x1024@75.02" \
	"stillframectl pause puts back the user's 75 Hz"
ctl resume >/dev/null
# The user's change comes while stillframe has the output at its low
# rate, when the rate it remembered differs from the server's.
tap_ok "xt_poll 10 'idle after resume' xt_mode_is 1280x1024@30.01" \
	"resumed, then idle: the 30 Hz copy again"

# 2. A larger screen.
xrandr --display "$XT_DISPLAY" --output DUMMY0 --mode 1600x1200 --rate 60
tap_ok "xt_poll 3 'the larger mode' xt_mode_is 1600x1200@60.00" \
	"the user sets 1600x1200 at 60 Hz"
seen=$(active 3)
tap_is "$seen" "1600x1200@60.00" \
	"the pointer moving: 1600x1200 at 60 Hz stays (not 1280x1024)"
tap_ok "xt_poll 10 'idle at 1600x1200' xt_mode_is 1600x1200@30.00" \
	"idle: the 30 Hz mode of the new resolution"
tap_ok "xt_poll 3 'status' status_is_real" \
	"status reports the server's refresh ($(status_mhz) mHz)"

# 3. A smaller one, where the old modes no longer fit the screen.
xrandr --display "$XT_DISPLAY" --output DUMMY0 --mode 1024x768 --rate 75
tap_ok "xt_poll 3 'the smaller mode' xt_mode_is 1024x768@75.03" \
	"the user sets 1024x768 at 75 Hz"
seen=$(active 3)
tap_is "$seen" "1024x768@75.03" \
	"the pointer moving: 1024x768 at 75 Hz stays"
tap_ok "xt_poll 10 'idle at 1024x768' xt_mode_is 1024x768@60.00" \
	"idle: the slowest mode of the new resolution (60 Hz)"
tap_ok "xt_poll 3 'status' status_is_real" \
	"status reports the server's refresh ($(status_mhz) mHz)"
ctl pause >/dev/null
tap_ok "xt_poll 3 'the user mode back' xt_mode_is 1024x768@75.03" \
	"stillframectl pause puts back the user's last choice"
ctl resume >/dev/null

tap_ok "kill -0 $XT_PID && ! grep -q 'switching to .* failed' '$XT_LOG'" \
	"the server lives and no switch failed"
if [ "$TAP_FAILED" != 0 ]; then
	tap_diag "stillframe's lines of the server log:"
	grep -i stillframe "$XT_LOG" | tail -n 40 >&2
fi
xt_stop
tap_done
