#!/bin/bash
# TAP: the fake-KMS test double (stillframe-test-fake-kms.so) on a real
# headless Weston with real clients, before any stillframe code is
# involved: its seat, its modes, its input injection, its hooks and its
# repaint counter.  SF_FAKE_KMS names the module (meson passes it).
set -u
. "$(dirname "$0")/lib.sh"

for prog in weston wayland-info foot setsid timeout; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done

# field KEY LINE: the word after KEY in a dump line.
field() {
	printf '%s\n' "$2" | awk -v k="$1" '{
		for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit }
	}'
}

output_line() {
	wt_dump | grep '^output headless '
}

repaints_above() {	# repaints_above N: the repaint count is above N
	local n
	n=$(field repaints "$(output_line)")
	[ -n "$n" ] && [ "$n" -gt "$1" ]
}

# ---- the default desktop shell, no idling during the test ----
# desktop-shell animates by default: a fade-in for about a second after
# start and a fade-out when a window closes, some 40 repaints each, which
# would hide foot's.
wt_start fake-kms <<-EOF
	[shell]
	startup-animation=none
	close-animation=none
	animation=none
EOF

tap_ok wt_alive "weston runs with the fake-KMS double"
tap_ok "grep -q 'fake-kms: TEST DOUBLE standing in for a KMS backend' \
	\"\$WT_LOG\"" "the log says it is a test double standing in for KMS"

info=$(wt_run wayland-info 2>&1)
seat=$(printf '%s\n' "$info" |
	awk '/^interface: .wl_seat/ { s = 1 }
	     s && /capabilities:/ { print; exit }')
tap_like "$(printf '%s\n' "$info" | grep -A1 "interface: 'wl_seat'")" \
	'name: stillframe-test' "wayland-info lists the seat stillframe-test"
tap_like "$seat" 'capabilities:.*pointer.*keyboard' \
	"the seat has pointer and keyboard"
tap_is "$(printf '%s\n' "$info" | wt_modes_of | tr '\n' ';')" \
	"120.000;60.000 current preferred;48.000;30.000;" \
	"the output has 120, 60 (current, preferred), 48 and 30 Hz modes"

state=$(output_line)
tap_like "$state" \
	'^output headless mode 1024x640@60000 dpms on repaints [0-9]+ '\
'mode_switches 0 planes [0-9]+ stray_planes 0$' \
	"dump: 60 Hz, dpms on, no mode switch, no stray plane assignment"

# Input, end to end: weston-eventdemo prints what it receives.  Made
# larger than the output, desktop-shell puts it at the work area's
# corner, under the pointer.
if command -v weston-eventdemo >/dev/null && command -v stdbuf >/dev/null
then
	wt_client stdbuf -oL weston-eventdemo --width=2000 --height=2000 \
		--log-key --log-button --log-motion
	demo_pid=$WT_LAST_PID
	demo_log=$WT_LAST_LOG
	# Nudge the pointer until the client, once mapped, reports motion;
	# desktop-shell has given it keyboard focus on mapping by then.
	nudge() {
		wt_cmd motion 10 10
		sleep 0.05
		grep -q '^motion ' "$demo_log"
	}
	tap_ok "wt_poll \$WT_TIMEOUT 'motion at the client' nudge" \
		"motion reaches the client under the pointer"
	wt_cmd button
	wt_cmd key 30
	seen() {	# seen ERE...: the client has logged every one
		local re
		for re in "$@"; do
			grep -Eq -- "$re" "$demo_log" || return 1
		done
	}
	tap_ok "wt_poll \$WT_TIMEOUT 'button at the client' seen \
		'button: 272, state: pressed' 'button: 272, state: released'" \
		"button presses and releases BTN_LEFT (272)"
	tap_ok "wt_poll \$WT_TIMEOUT 'key at the client' seen \
		'key: 30, .*state: pressed' 'key: 30, .*state: released'" \
		"key 30 presses and releases KEY_A at the focused client"
	wt_client_stop "$demo_pid"
else
	for t in motion button key; do
		tap_skip "$t reaches a client" \
			"weston-eventdemo not installed"
	done
fi

wt_cmd touch 100 100
output_line >/dev/null		# a barrier: commands run in order
tap_ok "! grep -q 'fake-kms: bad command' \"\$WT_LOG\"" \
	"touch 100 100 is accepted"

# Bad commands: logged, ignored, weston lives.
wt_cmd frobnicate
wt_cmd motion 1
wt_cmd key 99999
wt_cmd button 1 2
wt_cmd switch nowhere 1x1@1
printf '%02000d\n' 0 >"$WT_FIFO"	# longer than a line may be
output_line >/dev/null
tap_is "$(grep -c 'fake-kms: bad command' "$WT_LOG")" 6 \
	"six bad commands, six log lines"
tap_ok wt_alive "weston survives them"

# foot, blinking its cursor, keeps the (fake) KMS busy.  Cursor blinking
# is what makes foot repaint while nothing else happens.
# -d info: foot 1.21 (Debian 13) logs its outputs only at level info.
wt_client foot -d info -o cursor.blink=yes sh -c 'sleep 60'
foot_pid=$WT_LAST_PID
foot_log=$WT_LAST_LOG
if wt_poll "$WT_TIMEOUT" "foot to see the output" \
	grep -q 'headless: 1024x640' "$foot_log"; then
	tap_result 0 "foot starts and sees the output"
else
	tap_result 1 "foot starts and sees the output"
	tap_diag "foot's log:" "$(cat "$foot_log")"
fi
# Mapping foot costs a couple of repaints; after that only the blinking
# cursor (about two a second) repaints: with cursor.blink=no the count
# stays put and this fails.
base=$(field repaints "$(output_line)")
wt_poll "$WT_TIMEOUT" "foot's first frames" repaints_above $((base + 1))
base=$(field repaints "$(output_line)")
tap_ok "wt_poll \$WT_TIMEOUT 'four more repaints' \
	repaints_above \$((base + 3))" \
	"the repaint count keeps growing while foot is mapped and blinks"
if wt_client_alive "$foot_pid"; then
	tap_result 0 "foot stays up"
else
	tap_result 1 "foot stays up"
	tap_diag "foot's log:" "$(cat "$foot_log")"
fi

# Weston assigns planes once per repaint; without a module holding
# frames, the double counts as many assignments as repaints, none stray.
state=$(output_line)
tap_ok '[ "$(field planes "$state")" = "$(field repaints "$state")" ] &&
	[ "$(field stray_planes "$state")" = 0 ]' \
	"each plane assignment is followed by its repaint"

# The switch_mode hook, driven as fullscreen-shell drives it.
wt_cmd switch headless 1024x640@30000
state=$(output_line)
tap_like "$state" 'mode 1024x640@30000 .* mode_switches 1 planes' \
	"a temporary switch to 30 Hz makes it current"
tap_is "$(wt_run wayland-info 2>&1 | wt_modes_of | tr '\n' ';')" \
	"120.000;60.000 preferred;48.000;30.000 current;" \
	"clients binding wl_output now see 30 Hz current"
wt_cmd switch headless 800x600@60000
tap_like "$(output_line)" 'mode 1024x640@30000 .* mode_switches 1 planes' \
	"a mode not in the list is refused and changes nothing"
wt_cmd switch headless native
tap_like "$(output_line)" 'mode 1024x640@60000 .* mode_switches 2 planes' \
	"switching back to native restores 60 Hz"
want="headless switch_mode 1024x640@30000 ok;"
want+="headless switch_mode 800x600@60000 refused;"
want+="headless switch_mode 1024x640@60000 ok;"
tap_is "$(wt_dump | awk '/^request / { print $2, $3, $4, $5 }' |
	tr '\n' ';')" "$want" \
	"the requests are recorded in order with their outcome"
tap_is "$(grep -c 'fake-kms: request headless switch_mode' "$WT_LOG")" 3 \
	"and each one is logged"

wt_stop

# ---- idling: desktop-shell fades, locks and sleeps the output ----
wt_start fake-kms-idle <<-EOF
	[core]
	idle-time=1
EOF
tap_ok "wt_log_wait 'fake-kms: request headless dpms off'" \
	"an idle desktop-shell turns DPMS off through the hook"
wt_cmd motion 1 1
wt_log_wait 'fake-kms: request headless dpms on'
# The display lights with the frame after the request, as on KMS.
dpms_on_shown() {
	wt_dump | grep -q '^output headless mode [^ ]* dpms on '
}
wt_poll "$WT_TIMEOUT" "DPMS on in the dump after the next frame" \
	dpms_on_shown
tap_is "$(wt_dump | awk '/^request / { print $2, $3, $4 }
	/^output / { print $1, $2, $5, $6 }' | tr '\n' ';')" \
	"output headless dpms on;headless dpms off;headless dpms on;" \
	"input wakes it: dpms off then on, recorded in order"

tap_done
