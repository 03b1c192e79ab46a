#!/bin/bash
# TAP: faults around stillframe.so in a real headless Weston 10, injected
# at the hardware boundary through the fake-KMS test double
# (stillframe-test-fake-kms.so, standing in for a KMS backend):
#
#  - every mode set fails ([stillframe-test] switch-fails=true): one log
#    line, no retry, the output keeps its mode and the policy goes on;
#  - a backend without set_dpms ([stillframe-test] dpms=false): one log
#    line, no DPMS request, Weston lives through the off stage;
#  - a monitor unplugged (its output destroyed) while in LOW_REFRESH and
#    while in DPMS_OFF, and plugged in again;
#  - a client killed (SIGKILL) while throttled: Weston lives, its
#    surface is forgotten, the other throttled client goes on;
#  - a client killed (SIGKILL) while its damage is held: Weston lives,
#    its surface is forgotten, the other client's held damage is still
#    painted by the next key.
#
# Meson passes SF_FAKE_KMS, SF_PLUGIN, SF_TEST_CLIENT and SF_CTL.
set -u
. "$(dirname "$0")/lib.sh"

for prog in weston setsid timeout awk; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
for var in SF_PLUGIN SF_CTL SF_TEST_CLIENT; do
	[ -f "${!var:-}" ] ||
		tap_skip_all "$var does not name a built file (run through meson)"
done

ctl() {
	WAYLAND_DISPLAY=$WT_SOCKET timeout "$WT_TIMEOUT" "$SF_CTL" "$@"
}

status_value() {	# status_value KEY [STATUS]
	{ if [ $# -gt 1 ]; then printf '%s\n' "$2"; else ctl status; fi; } |
		awk -v k="$1" '$1 == k { print $2; exit }'
}

status_is() {		# status_is KEY VALUE: for wt_poll
	[ "$(status_value "$1")" = "$2" ]
}

status_above() {	# status_above KEY N: for wt_poll
	local v
	v=$(status_value "$1")
	[ -n "$v" ] && [ "$v" -gt "$2" ]
}

output_line() {		# output_line NAME: the double's line for it
	wt_dump | grep "^output $1 "
}

field() {		# field KEY LINE: the word after KEY in LINE
	printf '%s\n' "$2" | awk -v k="$1" '{
		for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit }
	}'
}

mode_of() { field mode "$(output_line "$1")"; }
dpms_of() { field dpms "$(output_line "$1")"; }
dpms_is() { [ "$(dpms_of "$1")" = "$2" ]; }
no_output() { ! wt_dump | grep -q "^output $1 "; }

# requests KIND: the double's request lines of that kind (switch_mode,
# dpms), without their times.
requests() {
	wt_dump | awk -v k="$1" '$1 == "request" && $3 == k' |
		sed 's/ time_ms .*//'
}

# surface_field ID FIELD: FIELD (held, commits...) of surface.ID.
surface_field() {
	ctl status | awk -v s="surface.$1" -v f="$2=" '$1 == s {
		for (i = 2; i <= NF; i++)
			if (index($i, f) == 1) {
				print substr($i, length(f) + 1); exit
			}
	}'
}

field_above() {	# field_above ID FIELD N: for wt_poll
	local v
	v=$(surface_field "$1" "$2")
	[ -n "$v" ] && [ "$v" -gt "$3" ]
}

held_above() {		# held_above ID N: held= above N
	field_above "$1" held "$2"
}

ini() {	# ini [stillframe-test LINES] -- [stillframe LINES]
	printf '[core]\nmodules=stillframe.so\nidle-time=0\n'
	printf '[shell]\nstartup-animation=none\nclose-animation=none\n'
	printf 'animation=none\npanel-position=none\n'
	printf '[stillframe-test]\n'
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		printf '%s\n' "$1"
		shift
	done
	[ $# -gt 0 ] && shift
	printf '[stillframe]\noutputs=all\n'
	printf '%s\n' "$@"
}

# ---- every mode set fails ----
wt_start faults-switch -l log,stillframe < <(ini switch-fails=true -- \
	low-refresh-timeout=200 dim-timeout=0 standby-timeout=0 off-timeout=0)
wt_poll 5 "a refused switch_mode" \
	eval '[ -n "$(requests switch_mode)" ]'
tap_like "$(requests switch_mode | head -n 1)" \
	'^request headless switch_mode .* refused$' \
	"switch-fails: the idle drop is asked for and the backend refuses it"
tap_ok "grep -q 'output headless: switching to .* Hz failed; stillframe stops changing this output' \"\$WT_LOG\"" \
	"the log says the switch failed and that stillframe stops trying"
wt_cmd motion 3 3
sleep 1
tap_is "$(requests switch_mode | wc -l) $(mode_of headless)" \
	"1 1024x640@60000" \
	"input and a second idle ask for no other mode; the output keeps 60 Hz"
tap_ok wt_alive "weston lives through the failed mode sets"
wt_stop

# ---- no set_dpms ----
wt_start faults-nodpms -l log,stillframe < <(ini dpms=false -- \
	low-refresh-timeout=200 dim-timeout=0 standby-timeout=1 off-timeout=2)
wt_poll 5 "the log about DPMS" \
	grep -q 'output headless: the backend has no DPMS control' "$WT_LOG"
tap_result $? "without set_dpms the log says the output is never blanked"
sleep 1.5
wt_cmd key 30
sleep 2.5
tap_is "$(grep -c 'the backend has no DPMS control' "$WT_LOG")" 1 \
	"once, not at every stage"
tap_is "$(requests dpms | wc -l)" 0 "and no DPMS request reaches the backend"
tap_ok "wt_alive && [ \"\$(mode_of headless)\" = 1024x640@30000 ]" \
	"weston lives, and the refresh policy still works (30 Hz idle)"
wt_stop

# ---- a monitor unplugged in LOW_REFRESH and in DPMS_OFF ----
wt_start faults-unplug -l log,stillframe < <(ini internal-head=headless \
	heads=HDMI-A-1 -- low-refresh-timeout=300 dim-timeout=0 \
	standby-timeout=0 off-timeout=0 external-standby-timeout=0 \
	external-off-timeout=3 wake-request-hold=0 new-window-native=0)
# (new-window-native=0: the shell's background on a plugged output would
# hold it at 60 Hz for its first seconds.)
# Unplugged while weston-desktop-shell is still setting up that output's
# background, Weston 10 loses its shell and quits: wait for the shell.
wt_poll "$WT_TIMEOUT" "the shell's background on HDMI-A-1" \
	eval 'ctl status | grep -q "label=background for output HDMI-A-1$"'
wt_poll 5 "HDMI-A-1 in low-refresh" \
	status_is output.HDMI-A-1.state low-refresh
tap_is "$(status_value output.HDMI-A-1.state) $(mode_of HDMI-A-1)" \
	"low-refresh 1024x640@30000" "idle, the monitor is in LOW_REFRESH at 30 Hz"
wt_cmd unplug HDMI-A-1
wt_poll "$WT_TIMEOUT" "HDMI-A-1 gone" no_output HDMI-A-1
tap_ok "wt_alive && [ -z \"\$(status_value output.HDMI-A-1.state)\" ]" \
	"unplugged in LOW_REFRESH: weston lives and stillframe forgets it"
wt_cmd plug HDMI-A-1
wt_poll "$WT_TIMEOUT" "HDMI-A-1 back" eval '! no_output HDMI-A-1'
wt_poll "$WT_TIMEOUT" "the shell's background on HDMI-A-1" \
	eval 'ctl status | grep -q "label=background for output HDMI-A-1$"'
wt_cmd motion 2 2
wt_poll 5 "HDMI-A-1 at 60 Hz" eval \
	'[ "$(mode_of HDMI-A-1)" = 1024x640@60000 ]'
tap_result $? "plugged in again, it is driven from its native 60 Hz"

wt_poll 8 "HDMI-A-1 off" status_is output.HDMI-A-1.state off
tap_is "$(status_value output.HDMI-A-1.state) $(dpms_of HDMI-A-1)" "off off" \
	"idle, the monitor reaches DPMS_OFF"
wt_cmd unplug HDMI-A-1
wt_poll "$WT_TIMEOUT" "HDMI-A-1 gone" no_output HDMI-A-1
tap_ok "wt_alive && [ -z \"\$(status_value output.HDMI-A-1.state)\" ]" \
	"unplugged in DPMS_OFF: weston lives and stillframe forgets it"
wt_cmd plug HDMI-A-1
wt_poll "$WT_TIMEOUT" "HDMI-A-1 back on" dpms_is HDMI-A-1 on
tap_is "$(dpms_of HDMI-A-1) $(dpms_of headless)" "on on" \
	"plugged in again, it is lit; the panel never went off"
wt_cmd key 30
tap_ok "wt_alive && [ \"\$(mode_of headless)\" = 1024x640@60000 ]" \
	"a key after both: weston answers, the panel at its native 60 Hz"
wt_stop

# ---- a client killed while throttled ----
# An app in background-apps animating at 20 fps is throttled to
# background-frame-rate (5 fps) at once; a second one stays.
wt_start faults-throttle -l stillframe < <(ini -- refresh-switch=never \
	dim-timeout=0 standby-timeout=0 off-timeout=0 \
	background-apps=sf-victim,sf-witness)
wt_client "$SF_TEST_CLIENT" --fps 20 --app-id sf-victim
victim=$WT_LAST_PID
wt_client "$SF_TEST_CLIENT" --fps 20 --app-id sf-witness
throttle_of() {	# throttle_of APP_ID: its surface's throttle_us
	local st id
	st=$(ctl status)
	id=$(wt_surface_with_label "^$1\$" "$st") || return 1
	status_value "surface.$id.throttle_us" "$st"
}
wt_poll "$WT_TIMEOUT" "both throttled" eval \
	'[ "$(throttle_of sf-victim)" = 200000 ] &&
	 [ "$(throttle_of sf-witness)" = 200000 ]'
tap_result $? "two background apps are throttled to 5 fps"
w_commits=$(surface_field "$(wt_surface_with_label '^sf-witness$' \
	"$(ctl status)")" commits)
kill -KILL -- "-$victim"
wait "$victim" 2>/dev/null
wt_poll "$WT_TIMEOUT" "the victim forgotten" \
	eval '! throttle_of sf-victim >/dev/null'
tap_ok 'wt_alive && ! throttle_of sf-victim >/dev/null' \
	"killed while throttled: weston lives and its surface is forgotten"
w_id=$(wt_surface_with_label '^sf-witness$' "$(ctl status)")
tap_ok "wt_poll 3 'the witness drawing' field_above $w_id commits \
	${w_commits:-0}" "the other throttled app goes on drawing"
wt_stop

# ---- a client killed while its damage is held ----
if ! command -v foot >/dev/null; then
	tap_skip "killed while held: its checks" "foot is not installed"
	tap_done
fi
wt_start faults-kill -l stillframe < <(ini -- refresh-switch=never \
	dim-timeout=0 standby-timeout=0 off-timeout=0)
mkdir -p "$XDG_CONFIG_HOME/foot"
printf '[cursor]\nblink=yes\n' >"$XDG_CONFIG_HOME/foot/foot.ini"
# The victim shows a seconds clock: its ticks are held while idle,
# focused or not.  (An unfocused foot does not blink; what it had held
# before were empty commits, which it makes or not as it pleases.)
wt_client foot --app-id=victim sh -c \
	'while :; do printf "\r%s" "$(date +%T)"; sleep 1; done'
victim=$WT_LAST_PID
surface_of() { wt_surface_with_label "^$1\$" "$(ctl status)"; }
# The witness maps second, so that it has the keyboard focus and blinks:
# started together, either foot can map first.
wt_poll "$WT_TIMEOUT" "the victim mapped" eval 'surface_of victim >/dev/null'
wt_client foot --app-id=witness sh -c 'sleep 600'
wt_poll "$WT_TIMEOUT" "the witness mapped" eval 'surface_of witness >/dev/null'
# shellcheck disable=SC2034	# read in the eval strings below
v_id=$(surface_of victim)
w_id=$(surface_of witness)
# Held once classed: three regular ticks and blinks, which come late
# and irregular on a loaded machine (two CPU hogs: more than 15 s).
wt_poll 30 "both foots held" eval 'held_above "$v_id" 0 && held_above "$w_id" 0'
tap_result $? "idle, the victim's ticks and the witness's blinks are held"
# SIGKILL: the client cannot say goodbye; its connection just ends.
kill -KILL -- "-$victim"
wait "$victim" 2>/dev/null
wt_poll "$WT_TIMEOUT" "the victim's surface gone" \
	eval '[ -z "$(surface_field "$v_id" held)" ]'
tap_ok "wt_alive && [ -z \"\$(surface_field \"\$v_id\" held)\" ]" \
	"killed while held: weston lives and its surface is forgotten"
st=$(ctl status)
repaints=$(status_value output.headless.repaints "$st")
stale=$(status_value output.headless.stale_flushes "$st")
wt_cmd key 30
wt_poll 2 "a repaint after the key" \
	status_above output.headless.repaints "${repaints:-0}"
tap_result $? "a key paints the witness's held blink"
tap_is "$(status_value output.headless.stale_flushes)" "$stale" \
	"(painted by the key, not by its deadline)"
wt_stop
tap_done
