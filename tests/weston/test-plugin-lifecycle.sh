#!/bin/bash
# TAP: stillframe.so in a real headless Weston 10 with the fake-KMS test
# double (stillframe-test-fake-kms.so, standing in for a KMS backend):
# loading, a second load, config errors, the log scope over both the log
# file and weston-debug, the refresh drop and its undoing by input, the
# DPMS stages in order, the GPU clocks and the backlight they lower on a
# fake sysfs tree and put back, restoring the native mode at exit, what a
# killed Weston leaves and the next one puts back, a backend that cannot
# switch modes, and living with Weston's own idle-time.
# meson passes SF_FAKE_KMS, SF_PLUGIN, SF_TEST_CLIENT, SF_CTL and
# SF_MAKE_FAKE_TREE.
set -u
. "$(dirname "$0")/lib.sh"

for prog in weston weston-debug setsid timeout; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
[ -x "${SF_CTL:-}" ] || tap_skip_all "SF_CTL does not name stillframectl"
[ -x "${SF_MAKE_FAKE_TREE:-}" ] ||
	tap_skip_all "SF_MAKE_FAKE_TREE does not name sf-make-fake-tree"

ctl() {
	WAYLAND_DISPLAY=$WT_SOCKET "$SF_CTL" "$@"
}

# status_of KEY: one value of `stillframectl status`.
status_of() {
	ctl status | awk -v k="$1" '$1 == k { print $2; exit }'
}

output_line() {
	wt_dump | grep '^output headless '
}

mode_is() {		# mode_is MHZ: the output runs at MHZ
	output_line | grep -q " mode 1024x640@$1 "
}

dpms_is() {		# dpms_is LEVEL
	output_line | grep -q " dpms $1 "
}

# requests: the fake-KMS request lines, in the order they were made.
requests() {
	wt_dump | grep '^request headless ' | sed 's/ time_ms .*//'
}

# stop_weston_keep_log FILE: stop weston as a user would (SIGTERM) and
# keep its log, which wt_stop removes.
stop_weston_keep_log() {
	kill -TERM "$WT_PID"
	wt_poll 10 "weston to exit" eval "! kill -0 $WT_PID 2>/dev/null"
	cp "$WT_LOG" "$1"
	wt_stop
}

# The fake sysfs tree the platform layer writes under platform-root
# (tests/platform/sf-make-fake-tree, a test double): an i915 GPU the user
# runs at 400-1100 MHz, boost 1100 (RPn 300), and a raw backlight at 800
# of 1000.  make_tree sets tree and state_file.
make_tree() {
	tree=$("$SF_MAKE_FAKE_TREE")
	if [ -z "$tree" ] || [ ! -d "$tree" ]; then
		tap_bail "sf-make-fake-tree made no tree (got '$tree')"
	fi
	state_file=$tree/run/stillframe/platform-state
}

gt() {			# gt min|max|boost: the GPU's limit, in MHz
	cat "$tree/sys/class/drm/card0/gt_$1_freq_mhz"
}

clocks() {		# "MIN MAX BOOST"
	echo "$(gt min) $(gt max) $(gt boost)"
}

brightness() {
	cat "$tree/sys/class/backlight/intel_backlight/brightness"
}

# user_values: the tree holds the user's own values.
user_values() {
	[ "$(brightness)" = 800 ] && [ "$(clocks)" = "400 1100 1100" ]
}

# saved_values: the state file's entries, sorted, ';'-separated.
saved_values() {
	grep -v '^#' "$state_file" 2>/dev/null | LC_ALL=C sort | tr '\n' ';'
}

user_saved="backlight sys/class/backlight/intel_backlight brightness 800;\
gpu i915 sys/class/drm/card0 gt_boost_freq_mhz 1100;\
gpu i915 sys/class/drm/card0 gt_max_freq_mhz 1100;\
gpu i915 sys/class/drm/card0 gt_min_freq_mhz 400;"

# In place of lib.sh's clean-up at exit, which wt_start would put in place of
# any other unless WT_TRAPPED is set: weston stops before its tree is
# removed, and wt__cleanup still gets the test's exit status.
cleanup() {
	local status=$?
	wt_stop
	rm -rf "$tmp" "$tree"
	(exit "$status")
	wt__cleanup
}

tmp=$(mktemp -d)
tree=
state_file=
tap_at_exit cleanup
trap 'exit 130' INT
trap 'exit 143' TERM
# shellcheck disable=SC2034	# read by wt_start
WT_TRAPPED=1

# ---- loading, a second load, config errors ----
# stillframe.so both in weston.ini and on the command line: Weston calls
# wet_module_init twice, and the second must be refused, not doubled.
wt_start lifecycle-load --modules=stillframe.so -l log,stillframe <<-EOF
	[core]
	modules=stillframe.so
	$(wt_ini_still_shell)
	[stillframe]
	outputs=all
	dim-timeout=999999
	low-refresh-timeout=soon
	blink-max-stalenes=100
EOF

tap_is "$(grep -c 'stillframe: loaded' "$WT_LOG")" 1 "loaded exactly once"
tap_ok "grep -q 'stillframe: already loaded; ignoring the second' \"\$WT_LOG\"" \
	"the second load is refused with a message saying why"
tap_like "$(grep 'dim-timeout' "$WT_LOG")" \
	'dim-timeout.*999999.*0\.\.86400.*keeping 120' \
	"an out-of-range value names the key, the value, the range and the default kept"
tap_like "$(grep 'low-refresh-timeout' "$WT_LOG")" \
	'low-refresh-timeout.*soon' \
	"a value that is not a number names the key and the value"
tap_like "$(grep 'blink-max-stalenes' "$WT_LOG")" \
	'unknown key.*blink-max-stalenes' \
	"an unknown key in [stillframe] is reported"
tap_is "$(status_of config.dim-timeout)" 120 \
	"the default is what runs for a bad value"
wt_stop

# ---- the log scope, in the log file and through weston-debug ----
# --debug offers weston_debug_v1; weston-debug streams one scope.  The
# platform layer runs on a fake tree.
make_tree
wt_start lifecycle-log --debug -l log,stillframe <<-EOF
	[core]
	modules=stillframe.so
	$(wt_ini_still_shell)
	[stillframe]
	outputs=all
	low-refresh-timeout=700
	dim-timeout=2
	standby-timeout=3
	off-timeout=4
	reclock-delay=200
	platform-root=$tree
EOF

WAYLAND_DISPLAY=$WT_SOCKET setsid weston-debug stillframe \
	>"$tmp/debug.out" 2>"$tmp/debug.err" </dev/null &
debug_pid=$!
WT_CLIENT_PIDS+=("$debug_pid")

wt_poll 5 "a drop to 30 Hz" mode_is 30000
tap_result $? "after low-refresh-timeout the panel runs at its lowest mode (30 Hz)"
tap_ok "grep -q 'output headless: active -> low-refresh (timeout)' \"\$WT_LOG\"" \
	"the log scope gives the decision and its reason"

# Any input: back to native in the same dispatch as the input, before
# anything is painted.  The dump is a barrier: it runs after the motion.
wt_cmd motion 4 4
tap_ok 'mode_is 60000' "pointer motion restores 60 Hz before the next frame"
tap_like "$(requests | tail -n 1)" 'switch_mode 1024x640@60000 ok' \
	"the last mode request is the native one"

# The stages in order, with nothing but time passing.
wt_poll 8 "dpms off" dpms_is off
tap_result $? "the output is blanked with DPMS after off-timeout"
stages=$(grep -o 'output headless: [a-z-]* -> [a-z-]* (timeout)' "$WT_LOG" |
	sed 's/output headless: //; s/ (timeout)//' | tail -n 4 | tr '\n' ';')
tap_is "$stages" \
	"active -> low-refresh;low-refresh -> dim;dim -> standby;standby -> off;" \
	"the idle stages come in order: low refresh, dim, standby, off"
tap_like "$(requests | grep dpms | tr '\n' ';')" \
	'dpms standby;.*dpms off;$' \
	"DPMS standby is asked for before DPMS off"

# Off comes after the DIM stage and after reclock-delay past the drop to
# 30 Hz, in the same event loop: both are done by now.
tap_is "$(brightness)" 300 \
	"dimmed, the backlight is at dim-brightness, 30% of its maximum of 1000"
tap_is "$(clocks)" "300 300 300" \
	"the display settled, the GPU's min, max and boost are at RPn (300 MHz)"
tap_is "$(saved_values)" "$user_saved" \
	"while they are changed, the state file holds the user's values"

wt_cmd key 30
# As on KMS, DPMS comes on with the output's next frame (fake-kms
# waits for it as Weston's DRM backend does).
wt_poll 2 "dpms on" dpms_is on
tap_ok 'dpms_is on && mode_is 60000' \
	"a key press turns the output back on at its native mode, with its next frame"
tap_ok 'user_values' \
	"and puts the user's brightness and GPU limits back (800; 400/1100/1100)"
tap_ok '[ ! -e "$state_file" ]' \
	"with everything put back, the state file is gone"
# Not the state now: low-refresh-timeout (700 ms) may have passed since
# the key on a loaded machine.  What the key did is in the log.
tap_like "$(grep -o 'output headless: [a-z-]* -> active ([a-z]*)' "$WT_LOG" |
	tail -n 1)" 'off -> active \(input\)' \
	"the policy is active again: the key woke the output from off"

wt_poll 5 "weston-debug output" \
	grep -q 'output headless: .* -> active (input)' "$tmp/debug.out"
tap_result $? "weston-debug stillframe streams the same decisions"

# Idle again, so that there is something to put back at exit.  A wake
# so soon after off doubles the stages' timeouts.
wt_poll 15 "low clocks and a dimmed backlight again" \
	eval '[ "$(clocks)" = "300 300 300" ] && [ "$(brightness)" = 300 ]'
tap_result $? "idle again, the clocks go down and the backlight dims again"

stop_weston_keep_log "$tmp/exit.log"
tap_is "${WT_EXIT:-x}" 0 "weston exits cleanly with the plugin loaded"
tap_ok 'user_values && [ ! -e "$state_file" ]' \
	"and at exit puts the user's values back and leaves no state file"
rm -rf "$tree"

# ---- leaving the panel as it was ----
wt_start lifecycle-exit -l log,stillframe <<-EOF
	[core]
	modules=stillframe.so
	[stillframe]
	outputs=all
	low-refresh-timeout=300
EOF
wt_poll 5 "a drop to 30 Hz" mode_is 30000
stop_weston_keep_log "$tmp/exit.log"
tap_like "$(grep 'fake-kms: .*switch_mode' "$tmp/exit.log" | tail -n 1)" \
	'1024x640@60000' \
	"at exit the panel is switched back to its native 60 Hz"

# ---- what a killed Weston leaves, and the next one puts back ----
make_tree
# The ini of both Westons here; the arguments are more [stillframe] lines.
platform_ini() {
	cat <<-EOF
		[core]
		modules=stillframe.so
		[stillframe]
		outputs=all
		reclock-delay=200
		platform-root=$tree
	EOF
	printf '%s\n' "$@"
}
wt_start lifecycle-crash -l log,stillframe < <(platform_ini \
	low-refresh-timeout=300 dim-timeout=1)
wt_poll 10 "low clocks and a dimmed backlight" \
	eval '[ "$(clocks)" = "300 300 300" ] && [ "$(brightness)" = 300 ]'
tap_result $? "idle, the GPU's limits go down to RPn and the backlight dims"
# SIGKILL, as a crash: no code of weston's runs after it.  Its group
# (desktop-shell, weston-keyboard) goes with it; reaped here, with
# WT_PID cleared, so that the harness neither signals a pid that is gone
# nor reports the signal.
kill -KILL -- "-$WT_PID"
wait "$WT_PID" 2>/dev/null
WT_PID=
tap_ok '[ "$(clocks)" = "300 300 300" ] && [ "$(brightness)" = 300 ]' \
	"killed, Weston leaves the clocks low and the backlight dimmed"
tap_is "$(saved_values)" "$user_saved" \
	"and the state file with the user's values behind"
wt_stop

# Nothing here goes idle for 10 minutes: whatever changed was put back.
wt_start lifecycle-repair -l log,stillframe < <(platform_ini \
	low-refresh-timeout=600000)
tap_ok 'user_values' \
	"as it starts, the next Weston puts the user's values back"
tap_ok '[ ! -e "$state_file" ]' "and removes the state file"
put_back=$(grep -o 'stillframe: platform: put back .*, left by a previous run$' \
	"$WT_LOG" | sed 's/^stillframe: platform: put back //; s/, left.*//' |
	LC_ALL=C sort | tr '\n' ';')
tap_is "$put_back" "sys/class/backlight/intel_backlight/brightness = 800;\
sys/class/drm/card0/gt_boost_freq_mhz = 1100;\
sys/class/drm/card0/gt_max_freq_mhz = 1100;\
sys/class/drm/card0/gt_min_freq_mhz = 400;" \
	"the weston log names each value put back, left by a previous run"
wt_stop
rm -rf "$tree"

# ---- a backend that cannot switch modes ----
wt_start lifecycle-nomodes -l log,stillframe <<-EOF
	[core]
	modules=stillframe.so
	[stillframe-test]
	modes=false
	[stillframe]
	outputs=all
	low-refresh-timeout=200
EOF
wt_poll 5 "low-refresh state" \
	eval '[ "$(status_of output.headless.state)" = low-refresh ]'
wt_cmd motion 1 1
wt_poll 5 "low-refresh state again" \
	eval '[ "$(status_of output.headless.state)" = low-refresh ]'
tap_is "$(grep -c 'cannot switch modes' "$WT_LOG")" 1 \
	"a backend without switch_mode gets one log line, not one per idle"
tap_is "$(requests | grep -c switch_mode)" 0 "and no mode is asked for"
wt_stop

# ---- Weston's own idle-time ----
# Weston fades, locks and sleeps after idle-time; stillframe's later
# stages must not light the outputs again (standby after off), and the
# lock must hold: desktop-shell takes the keyboard focus from every
# client when it locks and gives it back only once unlocked, which input
# alone does not do (its unlock dialog waits for a click).
wt_start lifecycle-idle -l log,stillframe <<-EOF
	[core]
	modules=stillframe.so
	idle-time=3
	$(wt_ini_still_shell)
	[stillframe]
	outputs=all
	low-refresh-timeout=300
	dim-timeout=5
	standby-timeout=6
	off-timeout=7
EOF
wt_client "$SF_TEST_CLIENT" --keyboard --app-id sf-lock-witness
witness_log=$WT_LAST_LOG
focus_events() {
	grep -E '^keyboard (enter|leave)$' "$witness_log" | tr '\n' ';'
}
tap_ok "wt_poll \$WT_TIMEOUT 'the witness focused' \
	eval '[ \"\$(focus_events)\" = \"keyboard enter;\" ]'" \
	"a client mapped before idle-time gets the keyboard focus"
wt_poll 8 "Weston's own dpms off" dpms_is off
tap_result $? "Weston's idle-time still blanks the outputs with stillframe loaded"
tap_is "$(focus_events)" "keyboard enter;keyboard leave;" \
	"desktop-shell locked: the client lost the keyboard focus"
wt_poll 8 "stillframe's off stage" \
	eval '[ "$(status_of output.headless.state)" = off ]'
tap_is "$(requests | grep dpms | sed -n '1p')" "request headless dpms off" \
	"after Weston blanked, stillframe never asks for standby (no fight)"
tap_ok 'dpms_is off' "the outputs stay off through stillframe's stages"
wt_cmd key 30
wt_poll 3 "dpms on" dpms_is on
tap_result $? "input wakes Weston and the outputs come back on"
sleep 1
tap_is "$(focus_events)" "keyboard enter;keyboard leave;" \
	"woken, the screen stays locked: no focus until the unlock dialog"
wt_stop
tap_done
