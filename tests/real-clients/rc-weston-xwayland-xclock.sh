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
	command -v "$prog" >/dev/null || wt_skip "$prog is not installed"
done
ls /usr/lib/*/libweston-10/xwayland.so >/dev/null 2>&1 ||
	wt_skip "Weston's xwayland.so is not installed"
screen="python3 $(dirname "$0")/screen.py"
BG=c0c0c0
IDLE_S=10

wt_plan 5

# start_clock NAME MODULES: weston (pixman, to read the screen back)
# with Xwayland, then the clock; sets BOX, where it is on the screen.
start_clock() {
	wt_start "$1" --use-pixman --xwayland -l log,stillframe <<-EOF
		[core]
		modules=$2
		idle-time=0
		$(wt_ini_still_shell)
		panel-position=none
		background-color=0xff$BG
		[stillframe]
		suppress-idle-delay=500
	EOF
	wt_log_wait "xserver listening on display" ||
		wt_bail "no X display from xwayland.so"
	local display
	display=$(sed -n 's/.*xserver listening on display \(:[0-9]*\).*/\1/p' \
		"$WT_LOG" | head -n 1)
	wt_cmd motion -4000 -4000
	wt_client env DISPLAY="$display" xclock -update 1 -geometry 200x200
	wt_poll 20 "the clock on screen" clock_mapped ||
		wt_bail "xclock's window did not show"
}

clock_mapped() {
	wt_shot headless "$WT_DIR/map.ppm" &&
		BOX=$($screen window "$WT_DIR/map.ppm" $BG)
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
wt_diag "idle ${IDLE_S} s, repaints: stock $stock, stillframe $sf"
wt_ok '[ "$stock" != none ] && [ "$sf" != none ] &&
	[ "$stock" -ge 7 ] && [ $((4 * sf)) -le "$stock" ]' \
	"idle, the ticks are held ($sf repaints, stock $stock)"

wt_alive || wt_bail "Weston died while the user was idle"

# A key (shift: no text); the shots first, read in one go after.
wt_shot headless "$WT_DIR/before.ppm"
t0=$(rc_now_ms)
wt_cmd key 42
rc_shot_series "$t0" 1500 "$WT_DIR/key"
# shellcheck disable=SC2086	# BOX is four numbers
mapfile -t clocks < <($screen region $BOX "$WT_DIR/before.ppm" "${RC_SHOTS[@]}")
i=$(rc_first_change "${clocks[0]}" "${clocks[@]:1}")
key_ms=none
[ "$i" != none ] && key_ms=${RC_TIMES[$i]}
wt_ok '[ "${#RC_SHOTS[@]}" -ge 5 ]' \
	"the screen sampled ${#RC_SHOTS[@]} times in 1.5 s after the key"
wt_ok '[ "$key_ms" != none ] && [ "$key_ms" -le 1000 ]' \
	"after a key the clock shows the current second within a second ($key_ms ms)"
wt_ok 'grep -Eq "surface [0-9]+ .*static -> (blinking|ticking)" "$WT_LOG"' \
	"stillframe saw the clock tick (setup)"
wt_ok 'wt_alive' "weston is alive"
