#!/bin/bash
# TAP, real-client tier (issue 25, "What to build" 4): `xclock -update
# 1` under Xwayland on Weston 10, on stock Weston and on Weston with
# stillframe, side by side.  Idle, its ticks are held; on input the
# clock shows the current second again at once.
#
# Witnesses outside stillframe: the fake-KMS double's repaint count
# (the frames that reached the "KMS driver") and the screen it read
# back from the buffer last presented (shot, no repaint asked).
#  1. idle, stillframe repaints at least 4x fewer times than stock in
#     the same 10 s window;
#  2. after a key the clock's picture changes within a second (held, it
#     showed a second long past);
#  3. Weston lives.
# meson passes SF_FAKE_KMS and SF_PLUGIN.
set -u
. "$(dirname "$0")/../weston/lib.sh"
. "$(dirname "$0")/rc-lib.sh"

for prog in weston Xwayland xclock python3; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
rc_weston_xwayland_require
BG=c0c0c0
IDLE_S=10

# start_clock NAME MODULES: weston (pixman, to read the screen back)
# with Xwayland, then the clock; sets BOX, where it is on the screen.
start_clock() {
	wt_start "$1" --use-pixman --xwayland -l log,stillframe \
		<<<"$(rc_weston_ini "$2" $BG)"
	rc_weston_xwayland_display
	wt_cmd motion -4000 -4000
	wt_client env DISPLAY="$RC_X_DISPLAY" xclock -update 1 -geometry 200x200
	wt_poll 20 "the clock on screen" clock_mapped ||
		tap_bail "xclock's window did not show"
}

clock_mapped() {
	rc_weston_box $BG
}

# idle_repaints: the repaints of IDLE_S seconds of an idle user, from
# 3 s after the clock showed.
idle_repaints() {
	sleep 3
	local r0
	r0=$(rc_repaints)
	sleep "$IDLE_S"
	rc_delta "$r0" "$(rc_repaints)"
}

# ---- stock ----
start_clock rc-xclock-stock stillframe-test-fake-kms.so
stock=$(idle_repaints)
wt_stop

# ---- stillframe ----
start_clock rc-xclock-sf stillframe.so
sf=$(idle_repaints)
tap_diag "idle ${IDLE_S} s, repaints: stock $stock, stillframe $sf"
tap_ok '[ "$stock" != none ] && [ "$sf" != none ] &&
	[ "$stock" -ge 7 ] && [ $((4 * sf)) -le "$stock" ]' \
	"idle, the ticks are held ($sf repaints, stock $stock)"

wt_alive || tap_bail "Weston died while the user was idle"

# A key (shift: no text); the shots first, read in one go after.
rc_weston_key_change "$BOX" "$WT_DIR/key"
key_ms=$RC_KEY_MS
tap_ok '[ "${#RC_SHOTS[@]}" -ge 5 ]' \
	"the screen sampled ${#RC_SHOTS[@]} times in 1.5 s after the key"
tap_ok '[ "$key_ms" != none ] && [ "$key_ms" -le 1000 ]' \
	"after a key the clock shows the current second within a second ($key_ms ms)"
tap_ok 'grep -Eq "surface [0-9]+ .*static -> (blinking|ticking)" "$WT_LOG"' \
	"stillframe saw the clock tick (setup)"
tap_ok 'wt_alive' "weston is alive"
tap_done
