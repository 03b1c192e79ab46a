#!/bin/bash
# TAP: the output power policy on a real headless Weston with the
# fake-KMS test double playing a laptop with a monitor: the headless
# head is the built-in panel ([stillframe-test] internal-head=headless)
# and HDMI-A-1 an external head ([stillframe-test] heads=HDMI-A-1), each
# an output of 1024x640 side by side.
#
#  - unneeded-outputs=external keeps HDMI-A-1 at DPMS off while it is
#    connected: nothing is painted there, input does not light it, and
#    Weston's own wake does not either;
#  - stillframectl output HDMI-A-1 on|auto|off, and the protocol errors
#    of set_output_power, for the offending client only;
#  - a hotplug (unplug, plug) powers it on, unless hotplug-power-on=false;
#  - external-standby-timeout blanks it before the panel, and after a
#    wake request it goes no deeper than wake-latency-limit allows.
#
# Meson passes SF_FAKE_KMS, SF_PLUGIN, SF_TEST_CLIENT and SF_CTL.
set -u
. "$(dirname "$0")/lib.sh"

for prog in weston setsid timeout; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
for var in SF_PLUGIN SF_TEST_CLIENT SF_CTL; do
	[ -f "${!var:-}" ] ||
		tap_skip_all "$var does not name a built file (run through meson)"
done

ctl() {
	WAYLAND_DISPLAY=$WT_SOCKET timeout "$WT_TIMEOUT" "$SF_CTL" "$@"
}

status_value() {
	ctl status | awk -v k="$1" '$1 == k { print $2; exit }'
}

status_is() {	# status_is KEY VALUE: for wt_poll
	[ "$(status_value "$1")" = "$2" ]
}

# field KEY LINE: the word after KEY in a dump line.
field() {
	printf '%s\n' "$2" | awk -v k="$1" '{
		for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit }
	}'
}

output_line() {	# output_line NAME: the double's line for that output
	wt_dump | grep "^output $1 "
}

dpms_of() {
	field dpms "$(output_line "$1")"
}

dpms_is() {	# dpms_is NAME LEVEL: for wt_poll
	[ "$(dpms_of "$1")" = "$2" ]
}

cpu_ticks() {	# cpu_ticks PID: user + system time, in clock ticks
	# The command name (field 2) may hold spaces: count after its ')'.
	sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

repaints_of() {
	field repaints "$(output_line "$1")"
}

repaints_above() {	# repaints_above NAME N
	local n
	n=$(repaints_of "$1")
	[ -n "$n" ] && [ "$n" -gt "$2" ]
}

no_output() {	# no_output NAME: the double has no output of that name
	! wt_dump | grep -q "^output $1 "
}

# dpms_requests NAME: the DPMS levels asked of the output, in order.
dpms_requests() {
	wt_dump | awk -v o="$1" '$1 == "request" && $2 == o && $3 == "dpms" {
		printf "%s;", $4 }'
}

ini() {	# ini LINE...: the weston.ini, the lines go to [stillframe]
	cat <<-EOF
		[core]
		modules=stillframe.so
		idle-time=0

		[shell]
		startup-animation=none
		close-animation=none
		animation=none
		panel-position=none

		[stillframe-test]
		internal-head=headless
		heads=HDMI-A-1

		[stillframe]
	EOF
	printf '%s\n' "$@"
}

# ---- a laptop with a monitor nobody needs ----
wt_start outputs -l log,stillframe < <(ini unneeded-outputs=external \
	external-standby-timeout=2 external-off-timeout=4 standby-timeout=300 \
	off-timeout=600)

tap_ok wt_alive "weston runs with two heads"
tap_ok "grep -q 'fake-kms: head HDMI-A-1' \"\$WT_LOG\"" \
	"the double made the external head"
wt_poll "$WT_TIMEOUT" "HDMI-A-1 kept off" dpms_is HDMI-A-1 off
tap_is "$(status_value output.HDMI-A-1.kind) $(status_value output.headless.kind)" \
	"external internal" "the status knows the monitor and the panel apart"
tap_is "$(status_value output.HDMI-A-1.power)" off \
	"unneeded-outputs=external: the monitor is powered off while connected"
tap_is "$(dpms_of HDMI-A-1) $(dpms_of headless)" "off on" \
	"it is at DPMS off through the backend; the panel stays on"
tap_ok "grep -q 'output HDMI-A-1 (external): powered off (listed in unneeded-outputs)' \"\$WT_LOG\"" \
	"the log says why it was powered off"

# Nothing is painted there: the pointer moves over it and a key is
# pressed, and its repaint count stays where it is.
before=$(repaints_of HDMI-A-1)
panel_before=$(repaints_of headless)
wt_cmd motion 1500 300
for i in 1 2 3 4 5; do wt_cmd motion 5 5; sleep 0.05; done
wt_cmd key 30
sleep 0.5
tap_is "$(repaints_of HDMI-A-1)" "$before" \
	"no repaint reaches the powered-off output, the pointer on it or not"
tap_ok "repaints_above headless $panel_before" \
	"the panel still paints (the pointer left it)"
tap_is "$(dpms_of HDMI-A-1)" off "input does not light the powered-off output"

# ---- stillframectl output ----
out=$(ctl output)
tap_like "$out" '^HDMI-A-1: external, power off \(asked: auto\)' \
	"stillframectl output lists the monitor, off on its own"
out=$(ctl output NOPE on 2>&1)
rc=$?
tap_is "$rc" 1 "an unknown output name is refused"
tap_like "$out" "no output called 'NOPE'; it has: .*HDMI-A-1" \
	"the message names the outputs there are"

before=$(repaints_of HDMI-A-1)
out=$(ctl output HDMI-A-1 on)
tap_like "$out" '^HDMI-A-1: external, power on \(asked: on\)' \
	"stillframectl output HDMI-A-1 on powers it"
on_at=$EPOCHREALTIME
wt_poll "$WT_TIMEOUT" "HDMI-A-1 dpms on" dpms_is HDMI-A-1 on
tap_ok "dpms_is HDMI-A-1 on" "the monitor is lit again"
wt_poll "$WT_TIMEOUT" "HDMI-A-1 painted" repaints_above HDMI-A-1 "$before"
tap_ok "repaints_above HDMI-A-1 $before" "and painted at once"

# Its own timeouts: standby 2 s after the request, while the panel
# (standby-timeout=300) stays lit.
wt_poll 6 "HDMI-A-1 standby" dpms_is HDMI-A-1 standby
tap_is "$(dpms_of HDMI-A-1) $(status_value output.HDMI-A-1.state)" \
	"standby standby" "external-standby-timeout=2: the monitor goes to standby first"
tap_ok "[ \"\$(status_value output.headless.state)\" != standby ]" \
	"the panel does not: it has its own timeouts"
# external-off-timeout=4 has passed, but off wakes in about 2.5 s and
# the request allows 1 s for wake-request-hold (300 s).
sleep "$(awk -v t="$on_at" -v now="$EPOCHREALTIME" \
	'BEGIN { d = t + 5.5 - now; print (d > 0 ? d : 0) }')"
tap_is "$(status_value output.HDMI-A-1.state) $(dpms_of HDMI-A-1)" \
	"standby standby" "after the wake request it goes no deeper than standby"

# Input wakes it like any output while it is on.
wt_cmd key 30
wt_poll "$WT_TIMEOUT" "HDMI-A-1 on after input" dpms_is HDMI-A-1 on
tap_ok "dpms_is HDMI-A-1 on" "input wakes the powered-on monitor"

# Pause puts the user's outputs back; resume applies the policy again.
ctl output HDMI-A-1 auto >/dev/null
wt_poll "$WT_TIMEOUT" "HDMI-A-1 off again" dpms_is HDMI-A-1 off
tap_is "$(status_value output.HDMI-A-1.power_request) $(dpms_of HDMI-A-1)" \
	"auto off" "output HDMI-A-1 auto hands it back to unneeded-outputs"
ctl pause
wt_poll "$WT_TIMEOUT" "HDMI-A-1 on while paused" dpms_is HDMI-A-1 on
tap_ok "dpms_is HDMI-A-1 on" "paused, stillframe puts the monitor back on"
ctl resume
wt_poll "$WT_TIMEOUT" "HDMI-A-1 off after resume" dpms_is HDMI-A-1 off
tap_ok "dpms_is HDMI-A-1 off" "resumed, it is powered off again"

# ---- protocol errors, for the offending client only ----
out=$(wt_run "$SF_TEST_CLIENT" --misuse bad-power)
tap_is "$?:$out" "0:protocol error: stillframe_control_v1 3" \
	"set_output_power with a value outside output_power: invalid_power"
out=$(wt_run "$SF_TEST_CLIENT" --misuse unknown-output)
tap_is "$?:$out" "0:protocol error: stillframe_control_v1 2" \
	"set_output_power of an unknown name: unknown_output"
tap_ok "wt_alive && [ \"\$(status_value output.HDMI-A-1.power)\" = off ]" \
	"weston and the outputs carry on after both"

# ---- hotplug ----
wt_cmd unplug HDMI-A-1
wt_poll "$WT_TIMEOUT" "HDMI-A-1 output gone" no_output HDMI-A-1
tap_ok "[ -z \"\$(status_value output.HDMI-A-1.state)\" ]" \
	"unplugged: Weston destroys the output and stillframe forgets it"
wt_cmd plug HDMI-A-1
wt_poll "$WT_TIMEOUT" "HDMI-A-1 back" status_is output.HDMI-A-1.power on
# DPMS on is carried out by the output's next frame, as with KMS: the
# new output's first repaint may come a few frames after stillframe
# asked for it (Weston 16 enables the output after telling modules).
wt_poll "$WT_TIMEOUT" "HDMI-A-1 lit by its first frame" dpms_is HDMI-A-1 on
tap_is "$(status_value output.HDMI-A-1.power) $(status_value output.HDMI-A-1.power_request) $(dpms_of HDMI-A-1)" \
	"on on on" "plugged in again: powered on despite unneeded-outputs"
tap_ok "grep -q 'output HDMI-A-1: plugged in; powered on (hotplug-power-on)' \"\$WT_LOG\"" \
	"the log says it came up for the hotplug"
ctl output HDMI-A-1 off >/dev/null
wt_poll "$WT_TIMEOUT" "HDMI-A-1 off on request" dpms_is HDMI-A-1 off
tap_is "$(status_value output.HDMI-A-1.power_request)" off \
	"output HDMI-A-1 off powers it off again"
wt_stop

# ---- hotplug-power-on=false, and Weston's own wake ----
# The panel blanks after 2 s; then every output is off and Weston sleeps
# (weston_compositor_sleep).  A key wakes Weston, which turns every
# output on: the one stillframe keeps off must go dark again.
wt_start outputs-wake -l log,stillframe < <(ini unneeded-outputs=HDMI-A-1 \
	hotplug-power-on=false standby-timeout=0 off-timeout=2 dim-timeout=0)

wt_poll "$WT_TIMEOUT" "HDMI-A-1 kept off" dpms_is HDMI-A-1 off
# Unplugged while weston-desktop-shell is still setting up that output's
# background, Weston 10 loses its shell and quits: wait for the shell.
wt_poll "$WT_TIMEOUT" "the shell's background on HDMI-A-1" \
	eval 'ctl status | grep -q "label=background for output HDMI-A-1$"'
wt_cmd unplug HDMI-A-1
wt_poll "$WT_TIMEOUT" "HDMI-A-1 output gone" no_output HDMI-A-1
wt_cmd plug HDMI-A-1
wt_poll "$WT_TIMEOUT" "HDMI-A-1 back" status_is output.HDMI-A-1.power off
tap_is "$(status_value output.HDMI-A-1.power) $(dpms_of HDMI-A-1)" "off off" \
	"hotplug-power-on=false: a named unneeded output stays off when plugged in"
wt_poll 8 "the panel off" dpms_is headless off
tap_ok "dpms_is headless off" "the panel blanks on its off-timeout"
mark=$(dpms_requests HDMI-A-1)
wt_cmd key 30
wt_poll "$WT_TIMEOUT" "the panel on" dpms_is headless on
sleep 0.3
after=$(dpms_requests HDMI-A-1)
tap_is "$(dpms_of HDMI-A-1) ${after##*;}" "off " \
	"after Weston's wake lit every output, the unneeded one is dark again"
tap_like "${after#"$mark"}" '^on;off;$' \
	"(Weston turned it on, stillframe turned it off at once)"
# Weston's wake starts the shell's fade on every output, the dark one
# too.  Its frames are held there; a held frame must still let the
# fade's clock run, or the fade never ends and Weston repaints the dark
# output in a busy loop.  The witness is Weston's own CPU time
# (/proc/PID/stat, utime + stime), measured after the fade's end.
sleep 1
cpu0=$(cpu_ticks "$WT_PID")
sleep 2
cpu1=$(cpu_ticks "$WT_PID")
tap_ok "[ $((cpu1 - cpu0)) -lt $(($(getconf CLK_TCK) / 2)) ]" \
	"the dark output does not keep Weston busy after the wake ($((cpu1 - cpu0)) ticks in 2 s)"
wt_stop

# ---- an idle inhibitor holds the output that shows it ----
# Both blank after 2 s; a client with an inhibitor, mapped on the panel
# (the pointer is there), keeps the panel lit while the monitor blanks.
wt_start outputs-inhibit -l log,stillframe < <(ini standby-timeout=2 \
	external-standby-timeout=2 off-timeout=0 external-off-timeout=0 \
	dim-timeout=0)
wt_cmd motion -4000 -4000
wt_client "$SF_TEST_CLIENT" --inhibit --app-id inhibitor
INHIBITOR=$WT_LAST_PID
wt_poll "$WT_TIMEOUT" "the inhibitor's surface on the panel" \
	eval 'ctl status | grep -q "label=inhibitor$"'
wt_poll 8 "HDMI-A-1 standby" dpms_is HDMI-A-1 standby
sleep 1
tap_is "$(dpms_of HDMI-A-1) $(dpms_of headless) $(status_value output.headless.state)" \
	"standby on low-refresh" \
	"the monitor blanks; the panel showing the inhibitor stays lit"
wt_client_stop "$INHIBITOR"
wt_poll 8 "the panel in standby" dpms_is headless standby
tap_ok "dpms_is headless standby" "the inhibitor gone, the panel blanks too"
wt_stop
tap_done
