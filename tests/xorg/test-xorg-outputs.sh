#!/bin/bash
# The output power policy on a real Xorg: the dummy driver with two
# outputs lit side by side (DUMMY0 and DUMMY1, 1280x1024 each, on a
# 2560x1024 screen), libstillframe.so with UnneededOutputs "DUMMY1", and
# the TEST DOUBLE module tests/xorg/sf-test-dpms.c, which also reports an
# output disconnected while its name is in $SF_TEST_UNPLUGGED.
#
#  - DUMMY1 stays connected with its CRTC disabled (RandR), the screen
#    keeps its size and windows do not move;
#  - stillframectl output DUMMY1 on|auto and SetOutputPower's errors,
#    in both byte orders;
#  - a cable pulled out and plugged in again powers it on;
#  - pause puts it back, resume powers it off again; the server exits
#    cleanly;
#  - with the double giving the outputs RandR's ConnectorType (DUMMY0 a
#    Panel, DUMMY1 HDMI), UnneededOutputs "external" finds the monitor,
#    which blanks on ExternalStandbyTimeout and, after a wake request,
#    goes no deeper than standby.
set -u
. "$(dirname "$0")/lib.sh"

for tool in Xorg xterm xdotool xrandr xdpyinfo; do
	command -v "$tool" >/dev/null ||
		tap_skip_all "$tool missing (run scripts/install-deps)"
done
[ -f "${SF_XORG_MODULE:-}" ] || tap_skip_all "SF_XORG_MODULE not built"
[ -x "${SF_X_RAW:-}" ] || tap_skip_all "SF_X_RAW not built"
[ -x "${SF_CTL:-}" ] || tap_skip_all "SF_CTL (stillframectl) not built"
[ -f "${SF_XORG_TEST_MODULE:-}" ] || tap_skip_all "SF_XORG_TEST_MODULE not built"

ctl() {
	DISPLAY=$XT_DISPLAY timeout "$XT_TIMEOUT" "$SF_CTL" "$@"
}

# geometry OUTPUT: "WxH+X+Y" as xrandr shows it, "none" without a CRTC,
# or nothing for no such output.  xrandr probes the outputs (RandR
# GetScreenResources), as a desktop does on a hotplug event.
geometry() {
	xrandr --display "$XT_DISPLAY" 2>/dev/null | awk -v o="$1" '
		$1 == o {
			g = "none"
			for (i = 3; i <= NF; i++)
				if ($i ~ /^[0-9]+x[0-9]+\+[0-9]+\+[0-9]+$/) g = $i
			print $2 " " g
		}'
}

geometry_is() {	# geometry_is OUTPUT "connected WxH+X+Y": for xt_poll
	[ "$(geometry "$1")" = "$2" ]
}

screen_size() {
	xdpyinfo -display "$XT_DISPLAY" 2>/dev/null |
		awk '/dimensions:/ { print $2; exit }'
}

power_of() {	# power_of OUTPUT: "on" or "off" from stillframectl output
	ctl output "$1" | sed -E 's/^[^:]*: [a-z]+, power ([a-z]+) .*/\1/'
}

power_is() {
	[ "$(power_of "$1")" = "$2" ]
}

output_xid() {	# output_xid NAME: the RandR XID from GetStatus
	raw status | tr '|' '\n' | awk -v n="$1" '
		$1 == "output" && $NF == n { print $2; exit }'
}

log_count() {
	grep -c -- "$1" "$XT_LOG"
}

export SF_TEST_UNPLUGGED SF_TEST_CONNECTOR_TYPES=
XT_DIR=$(mktemp -d "/tmp/stillframe-xt.XXXXXX")
SF_TEST_UNPLUGGED=$XT_DIR/unplugged
: >"$SF_TEST_UNPLUGGED"

# ---- without stillframe: the layout the test starts from ----
XT_TWO_OUTPUTS=1 XT_TEST_DPMS=0 xt_start plain <<<"none" ||
	tap_bail "Xorg did not start with two outputs"
tap_is "$(geometry DUMMY0);$(geometry DUMMY1);$(screen_size)" \
	"connected 1280x1024+0+0;connected 1280x1024+1280+0;2560x1024" \
	"the dummy driver lights two outputs side by side"
xt_stop

# ---- UnneededOutputs "DUMMY1" ----
XT_TWO_OUTPUTS=1 XT_TEST_DPMS=1 xt_start outputs <<-EOF ||
	Option "UnneededOutputs" "DUMMY1"
EOF
	tap_bail "Xorg did not start"
xt_poll "$XT_TIMEOUT" "DUMMY1 without a CRTC" \
	geometry_is DUMMY1 "connected none"
tap_is "$(geometry DUMMY1)" "connected none" \
	"the unneeded output stays connected, its CRTC disabled"
tap_is "$(geometry DUMMY0);$(screen_size)" "connected 1280x1024+0+0;2560x1024" \
	"the other output and the screen size are as they were"
tap_ok "grep -q 'output DUMMY1 (virtual): powered off (listed in unneeded-outputs)' '$XT_LOG'" \
	"the log says why"
tap_like "$(ctl output)" 'DUMMY1: virtual, power off \(asked: auto\)' \
	"stillframectl output lists it as off"
tap_like "$(ctl status | grep '^output\.DUMMY1\.' | tr '\n' ';')" \
	'output.DUMMY1.kind virtual;output.DUMMY1.power off;output.DUMMY1.power_request auto;' \
	"stillframectl status shows its power"

# A window on the dark output keeps its place.
xt_client xterm -geometry 40x10+1400+100
XTERM=$XT_LAST_PID
xt_poll "$XT_TIMEOUT" "xterm mapped" eval '[ -n "$(window_id XTerm)" ]'
win=$(window_id XTerm)
pos() {
	DISPLAY=$XT_DISPLAY xdotool getwindowgeometry "$win" 2>/dev/null |
		awk '/Position:/ { print $2; exit }'
}
pos0=$(pos)

# ---- stillframectl output ----
out=$(ctl output DUMMY1 on)
tap_like "$out" '^DUMMY1: virtual, power on \(asked: on\)' \
	"stillframectl output DUMMY1 on"
tap_is "$(geometry DUMMY1)" "connected 1280x1024+1280+0" \
	"its CRTC is set back where it was"
tap_is "$(pos)" "$pos0" "the window on it has not moved"
ctl output DUMMY1 auto >/dev/null
xt_poll "$XT_TIMEOUT" "DUMMY1 off" geometry_is DUMMY1 "connected none"
tap_is "$(geometry DUMMY1);$(pos)" "connected none;$pos0" \
	"auto: off again, the window still in place"
out=$(ctl output DUMMY7 on 2>&1)
tap_is "$?" 1 "an output stillframe does not manage is refused"
tap_like "$out" "no output called 'DUMMY7'; it has: DUMMY0 DUMMY1" \
	"with the names of those it does"

# ---- SetOutputPower, both byte orders ----
xid=$(output_xid DUMMY1)
rr_error=$(xdpyinfo -display "$XT_DISPLAY" -queryExtensions 2>/dev/null |
	sed -nE 's/^ *RANDR +\(.*base error: ([0-9]+)\).*/\1/p')
tap_like "$xid" '^0x[0-9a-f]+$' "GetStatus lists the powered-off output"
for order in native swapped; do
	flag=''
	[ "$order" = swapped ] && flag=--swapped
	tap_like "$(raw $flag power "$xid" 3)" '^error BadValue' \
		"$order: SetOutputPower with power 3: BadValue"
	tap_like "$(raw $flag power 0x7ffffe 1)" "^error $rr_error " \
		"$order: SetOutputPower of no RandR output: RandR's BadOutput"
done
tap_like "$(raw --swapped power "$xid" 1)" '^ok' \
	"swapped: SetOutputPower on"
xt_poll "$XT_TIMEOUT" "DUMMY1 on" geometry_is DUMMY1 "connected 1280x1024+1280+0"
tap_like "$(raw power "$xid" 2 outputs)" \
	"^ok outputs 2 .*kind 2 powered 0 request 2 name DUMMY1" \
	"native: SetOutputPower off, and ListOutputPower shows it"
tap_like "$(raw --swapped outputs)" "^outputs 2 .*kind 2 powered 0 request 2 name DUMMY1" \
	"swapped: ListOutputPower"
xt_poll "$XT_TIMEOUT" "DUMMY1 off" geometry_is DUMMY1 "connected none"
ctl output DUMMY1 auto >/dev/null

# ---- a cable pulled out and plugged in ----
echo DUMMY1 >"$SF_TEST_UNPLUGGED"
xt_poll "$XT_TIMEOUT" "DUMMY1 disconnected" \
	geometry_is DUMMY1 "disconnected none"
xt_poll "$XT_TIMEOUT" "stillframe saw the unplug" \
	eval '[ "$(log_count "output DUMMY1: unplugged")" -ge 1 ]'
tap_ok '[ "$(log_count "output DUMMY1: unplugged")" -ge 1 ]' \
	"the unplug is seen at the next probe"
: >"$SF_TEST_UNPLUGGED"
xt_poll "$XT_TIMEOUT" "DUMMY1 lit after the plug" \
	geometry_is DUMMY1 "connected 1280x1024+1280+0"
tap_is "$(geometry DUMMY1)" "connected 1280x1024+1280+0" \
	"plugged in again: powered on (HotplugPowerOn), where it was"
tap_like "$(ctl output DUMMY1)" 'power on \(asked: on\)' \
	"the power request is on after the hotplug"

# ---- pause, resume, exit ----
ctl output DUMMY1 auto >/dev/null
xt_poll "$XT_TIMEOUT" "DUMMY1 off" geometry_is DUMMY1 "connected none"
ctl pause
xt_poll "$XT_TIMEOUT" "DUMMY1 on while paused" \
	geometry_is DUMMY1 "connected 1280x1024+1280+0"
tap_is "$(geometry DUMMY1)" "connected 1280x1024+1280+0" \
	"paused, the user's layout is back"
ctl resume
xt_poll "$XT_TIMEOUT" "DUMMY1 off after resume" \
	geometry_is DUMMY1 "connected none"
tap_is "$(geometry DUMMY1)" "connected none" "resumed, it is off again"
xt_client_stop "$XTERM"
kill "$XT_PID"
xt_poll "$XT_TIMEOUT" "Xorg to exit" eval '! kill -0 $XT_PID 2>/dev/null'
tap_ok "grep -q 'finished: modes and DPMS put back' '$XT_LOG'" \
	"the server exits cleanly with stillframe"
tap_ok "[ \"\$(grep -c 'output DUMMY1 (virtual): powered on' '$XT_LOG')\" -ge 3 ]" \
	"the output was powered on on request, after the hotplug and for the pause"
xt_stop

# ---- a panel and a monitor, by ConnectorType ----
# dpms_of OUTPUT: the last DPMS level the double saw stillframe set.
dpms_of() {
	grep "sf-test-dpms: output $1 dpms " "$XT_LOG" | tail -n 1 |
		awk '{ print $NF }'
}
dpms_is() {
	[ "$(dpms_of "$1")" = "$2" ]
}
state_of() {	# state_of OUTPUT: its idle state from stillframectl status
	ctl status | awk -v k="output.$1.state" '$1 == k { print $2 }'
}
SF_TEST_CONNECTOR_TYPES="DUMMY0=Panel DUMMY1=HDMI" XT_TWO_OUTPUTS=1 \
	XT_TEST_DPMS=1 xt_start kinds <<-EOF ||
	Option "UnneededOutputs" "external"
	Option "ExternalStandbyTimeout" "2"
	Option "ExternalOffTimeout" "4"
	Option "StandbyTimeout" "300"
EOF
	tap_bail "Xorg did not start"
xt_poll "$XT_TIMEOUT" "DUMMY1 without a CRTC" \
	geometry_is DUMMY1 "connected none"
tap_is "$(ctl status | grep -E '^output\.DUMMY[01]\.(kind|power) ' | tr '\n' ';')" \
	"output.DUMMY0.kind internal;output.DUMMY0.power on;output.DUMMY1.kind external;output.DUMMY1.power off;" \
	"ConnectorType tells the panel from the monitor; external is unneeded"
ctl output DUMMY1 on >/dev/null
on_at=$EPOCHREALTIME
xt_poll 6 "DUMMY1 in standby" dpms_is DUMMY1 1
tap_is "$(state_of DUMMY1) $(dpms_of DUMMY1)" "standby 1" \
	"ExternalStandbyTimeout=2: the monitor goes to standby"
tap_ok '[ "$(state_of DUMMY0)" != standby ]' "the panel keeps its own timeouts"
sleep "$(awk -v t="$on_at" -v now="$EPOCHREALTIME" \
	'BEGIN { d = t + 5.5 - now; print (d > 0 ? d : 0) }')"
tap_is "$(state_of DUMMY1) $(dpms_of DUMMY1)" "standby 1" \
	"after the wake request it goes no deeper than standby"
xt_stop
tap_done
