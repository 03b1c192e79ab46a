#!/bin/bash
# Faults around libstillframe.so on a real Xorg: the dummy driver with
# two outputs (DUMMY0 and DUMMY1, 1280x1024 each, native 85 Hz) and the
# TEST DOUBLE module tests/xorg/sf-test-dpms.c recording DPMS.  An output
# is turned off with xrandr --off (its CRTC taken away under stillframe)
# while it runs its idle 60 Hz (LOW_REFRESH) and while it is blanked
# (DPMS_OFF): the server lives, and once it is lit again input still
# brings the native rate back.  Then, through the same double, a driver
# whose mode sets all fail.  (A driver without DPMS hooks cannot be
# made: the server itself calls them.)
set -u
. "$(dirname "$0")/lib.sh"

for tool in Xorg xdotool xrandr xdpyinfo; do
	command -v "$tool" >/dev/null ||
		tap_skip_all "$tool missing (run scripts/install-deps)"
done
[ -f "${SF_XORG_MODULE:-}" ] || tap_skip_all "SF_XORG_MODULE not built"
[ -x "${SF_X_RAW:-}" ] || tap_skip_all "SF_X_RAW not built"
[ -f "${SF_XORG_TEST_MODULE:-}" ] || tap_skip_all "SF_XORG_TEST_MODULE not built"

# rate_of OUTPUT: the refresh of OUTPUT's current mode, as xrandr shows
# it; nothing when it has no CRTC.
rate_of() {
	xrandr --display "$XT_DISPLAY" 2>/dev/null | awk -v o="$1" '
		/^[A-Za-z]/ { in_o = ($1 == o) }
		in_o && /^ +[0-9]+x[0-9]+/ {
			for (i = 2; i <= NF; i++)
				if ($i ~ /\*/) { sub(/[*+]+/, "", $i); print $i }
		}'
}

rate_is() { [ "$(rate_of "$1")" = "$2" ]; }

server_alive() {
	kill -0 "$XT_PID" 2>/dev/null &&
		xdpyinfo -display "$XT_DISPLAY" >/dev/null 2>&1
}

log_has() {	# log_has TEXT: the server log has a stillframe line with it
	grep -qF "stillframe: $1" "$XT_LOG"
}

XT_TWO_OUTPUTS=1 XT_TEST_DPMS=1 xt_start faults <<-EOF ||
	Option "Outputs" "all"
	Option "LowRefreshTimeout" "1000"
	Option "RefreshDwell" "0"
	Option "IdleMinRefresh" "0"
	Option "DimTimeout" "0"
	Option "StandbyTimeout" "0"
	Option "OffTimeout" "4"
	Option "QuickWakeWindow" "0"
EOF
	tap_bail "Xorg did not start"

# ---- xrandr --off in LOW_REFRESH ----
xt_poll 5 "DUMMY1 at its idle 60 Hz" rate_is DUMMY1 60.02
tap_is "$(rate_of DUMMY0) $(rate_of DUMMY1)" "60.02 60.02" \
	"idle, both outputs run their 60 Hz mode (LOW_REFRESH)"
xrandr --display "$XT_DISPLAY" --output DUMMY1 --off
tap_ok 'server_alive && [ -z "$(rate_of DUMMY1)" ]' \
	"xrandr --off in LOW_REFRESH: the server lives, DUMMY1 has no CRTC"
xrandr --display "$XT_DISPLAY" --output DUMMY1 --auto --right-of DUMMY0
xdotool mousemove_relative 2 2
tap_ok "xt_poll 2 'the native rates' eval \
	'rate_is DUMMY0 85.02 && rate_is DUMMY1 85.02'" \
	"lit again, input brings both outputs their native 85 Hz"

# ---- xrandr --off in DPMS_OFF ----
tap_ok "xt_poll 8 'DUMMY1 off' log_has 'output DUMMY1: low-refresh -> off'" \
	"idle 4 s, stillframe blanks DUMMY1 (DPMS_OFF)"
xrandr --display "$XT_DISPLAY" --output DUMMY1 --off
tap_ok server_alive "xrandr --off in DPMS_OFF: the server lives"
xdotool mousemove_relative 2 2
tap_ok "xt_poll 2 'DUMMY0 on' log_has 'output DUMMY0: off -> active (input)'" \
	"input wakes the output still there"
tap_ok "xt_poll 2 'DUMMY0 native' rate_is DUMMY0 85.02" \
	"at its native 85 Hz"
xrandr --display "$XT_DISPLAY" --output DUMMY1 --auto --right-of DUMMY0
xdotool mousemove_relative 2 2
tap_ok "xt_poll 2 'DUMMY1 back' rate_is DUMMY1 85.02" \
	"DUMMY1 turned on again by xrandr runs its native 85 Hz"
tap_ok "xt_poll 3 'two outputs' status_field_is outputs 2" \
	"GetStatus counts both outputs again"

# ---- the server's exit ----
kill -TERM "$XT_PID"
xt_poll 10 "Xorg to exit" eval "! kill -0 $XT_PID 2>/dev/null"
wait "$XT_PID" 2>/dev/null
tap_is "$?" 0 "after both faults the server exits cleanly"
XT_PID=
xt_stop

# ---- every mode set fails ----
SF_TEST_SWITCH_FAILS=1 XT_TEST_DPMS=1 xt_start switchfail <<-EOF ||
	Option "Outputs" "all"
	Option "LowRefreshTimeout" "1000"
	Option "RefreshDwell" "0"
	Option "DimTimeout" "0"
	Option "StandbyTimeout" "0"
	Option "OffTimeout" "0"
EOF
	tap_bail "Xorg did not start"
fails() { grep -c 'sf-test-dpms: crtc 0 mode set fails' "$XT_LOG"; }
tap_ok "xt_poll 5 'a failed mode set' eval '[ \$(fails) -ge 1 ]'" \
	"SF_TEST_SWITCH_FAILS: the idle drop is asked for and the driver fails it"
tap_ok "log_has 'output DUMMY0: switching to 60.020 Hz failed; stillframe stops changing'" \
	"the log says the switch failed and that stillframe stops trying"
xdotool mousemove_relative 2 2
sleep 2.5
tap_is "$(fails) $(rate_of DUMMY0)" "1 85.02" \
	"input and a second idle ask for no other mode; the output keeps 85 Hz"
tap_ok server_alive "the server lives through the failed mode sets"
xt_stop
tap_done
