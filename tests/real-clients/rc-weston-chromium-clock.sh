#!/bin/bash
# TAP, real-client tier (issue 25, "What to build" 4): Chromium on
# Wayland showing a JS seconds clock (a big digit set every second by
# setInterval), on stock Weston and on Weston with stillframe, side by
# side.  Idle, its ticks are held; on input the screen shows the current
# second again at once.
#
# Witnesses outside stillframe: the fake-KMS double's repaint count and
# request log (what reached the "KMS driver"), and the screen it read
# back from the buffer last presented (shot, no repaint asked).
#  1. idle, stillframe repaints at least 4x fewer times than stock in
#     the same 10 s window;
#  2. after a key the page's picture changes within a second;
#  3. at most one mode switch in the idle window, and one (the wake) in
#     the 1.5 s after the key;
#  4. Weston and Chromium live.
# SF_FAKE_KMS, SF_PLUGIN and SF_CTL come from meson.
set -u
. "$(dirname "$0")/../weston/lib.sh"
. "$(dirname "$0")/rc-lib.sh"

for prog in weston chromium python3; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
BG=c0c0c0
IDLE_S=10

# start_page NAME MODULES: weston (pixman, to read the screen back),
# then Chromium on the page; sets BOX, where the window is on screen.
start_page() {
	wt_start "$1" --use-pixman -l log,stillframe <<<"$(rc_weston_ini "$2" $BG \
		outputs=all dim-timeout=0 standby-timeout=0 off-timeout=0)"
	cat >"$WT_DIR/clock.html" <<-'EOF'
		<!doctype html>
		<html><body style="margin: 0; background: white">
		<div id="d" style="font: bold 300px monospace">-</div>
		<script>
		function tick() {
			document.getElementById("d").textContent =
				new Date().getSeconds();
		}
		tick();
		setInterval(tick, 1000);
		</script></body></html>
	EOF
	wt_cmd motion -4000 -4000
	# An app window, without the browser's toolbar: that animates once,
	# some 17 s after the start on a loaded machine (24 repaints on
	# stock Weston), in one idle window or the other by chance.
	wt_client chromium --no-sandbox --ozone-platform=wayland \
		--user-data-dir="$WT_DIR/chromium" --no-first-run --disable-gpu \
		--no-default-browser-check --disable-background-networking \
		--password-store=basic --window-size=600,400 \
		--app="file://$WT_DIR/clock.html"
	chromium_pid=$WT_LAST_PID
	wt_poll 40 "the page on screen" page_shown ||
		tap_bail "Chromium's window did not show"
}

# The window on the background, with the page's white in it.
page_shown() {
	rc_weston_box $BG || return 1
	echo "$BOX" | awk '{ exit !($3 - $1 >= 300 && $4 - $2 >= 200) }'
}

# ticking_for S: Chromium's newest class in stillframe's log is
# ticking, and has been for S seconds (the log's local time).
ticking_for() {
	local line
	line=$(grep -E 'surface [0-9]+ \(chromium\): [a-z]+ -> ' "$WT_LOG" |
		tail -n 1)
	case $line in
	*"-> ticking "*) ;;
	*) return 1 ;;
	esac
	awk -v t="$(date -d "${line:1:23}" +%s.%N)" \
		-v now="$(date +%s.%N)" -v s="$1" 'BEGIN { exit !(now - t >= s) }'
}

# idle_window: the repaints (REPAINTS) and mode switches (SWITCHES) of
# IDLE_S seconds of an idle user, from 4 s after the page showed (the
# page loaded, the first frames, the idle transition).  With stillframe,
# also not before the page has been taken for ticking for 2 s: on a
# loaded machine Chromium's first frames came for 7 s, a first tick
# class lasted 80 ms before more of them, and the window counted them.
# Its log only says when to start; the count is the fake-KMS double's.
idle_window() {
	sleep 4
	if [ "${1:-}" = classed ]; then
		wt_poll 40 "the clock classed ticking for 2 s" ticking_for 2 ||
			tap_diag "the clock was not classed ticking"
	fi
	local r0 s0
	r0=$(rc_repaints)
	s0=$(rc_weston_mode_switches)
	sleep "$IDLE_S"
	REPAINTS=$(rc_delta "$r0" "$(rc_repaints)")
	SWITCHES=$(rc_delta "$s0" "$(rc_weston_mode_switches)")
}

# ---- stock ----
start_page rc-clock-stock stillframe-test-fake-kms.so
idle_window
stock=$REPAINTS
wt_stop

# ---- stillframe ----
start_page rc-clock-sf stillframe.so
idle_window classed
sf=$REPAINTS
tap_diag "idle ${IDLE_S} s, repaints: stock $stock, stillframe $sf;" \
	"mode switches: $SWITCHES"
tap_ok '[ "$stock" != none ] && [ "$sf" != none ] &&
	[ "$stock" -ge 7 ] && [ $((4 * sf)) -le "$stock" ]' \
	"idle, the ticks are held ($sf repaints, stock $stock)"

wt_alive || tap_bail "Weston died while the user was idle"

# A key (shift: no text); the shots first, read in one go after.
s0=$(rc_weston_mode_switches)
rc_weston_key_change "$BOX" "$WT_DIR/key"
# At once: some 4 s after the key the output goes idle again, a
# transition of its own.
s1=$(rc_weston_mode_switches)
key_ms=$RC_KEY_MS
tap_ok '[ "$key_ms" != none ] && [ "$key_ms" -le 1000 ]' \
	"after a key the page shows the current second within a second ($key_ms ms, ${#RC_SHOTS[@]} shots)"
# Outside the idle and wake transitions: at most one a minute.
on_key=$(rc_delta "$s0" "$s1")
# On the key: the wake to native, and the idle drop after it, are
# transitions; a new surface Chromium maps runs at native for its
# first seconds (new-window-native).
tap_ok '[ "$SWITCHES" != none ] && [ "$on_key" != none ] &&
	[ "$SWITCHES" -le 1 ] && [ "$on_key" -le 3 ]' \
	"at most one mode switch while idle ($SWITCHES), and the wake's transitions on the key ($on_key)"
tap_ok 'kill -0 "$chromium_pid"' "Chromium lives"
tap_ok 'wt_alive' "weston is alive"
tap_done
