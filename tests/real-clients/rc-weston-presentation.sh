#!/bin/bash
# TAP: presentation feedback (wp_presentation) of frames stillframe holds,
# with Weston's own client weston-presentation-shm in feedback-idle mode
# (-i: one frame a second, each with a feedback request), which stillframe
# classes ticking and holds while the user is idle; with mpv showing a
# still picture full screen (its identical frames are held); and with
# Chromium (Wayland, software) showing a blinking textarea caret, which
# asks for feedback with every frame.
#
# Weston moves each repainted surface's feedback onto the output before
# the backend's repaint; a held frame used to be finished without
# answering it, and Weston aborted at its next repaint loop start
# (weston_presentation_feedback_present_list's assertion).  Judged from
# outside stillframe:
#  - Weston's process lives on after frames with feedback were held;
#  - the client, by its own protocol log (WAYLAND_DEBUG), gets an answer
#    (presented or discarded) for every feedback it asked for but the one
#    in flight, and "presented" still comes after the first hold.
#
# mpv and Chromium are skipped when they are not installed.
#
# SF_FAKE_KMS, SF_PLUGIN and SF_CTL come from meson.
set -u
. "$(dirname "$0")/../weston/lib.sh"
. "$(dirname "$0")/rc-lib.sh"

for prog in weston weston-presentation-shm setsid timeout awk; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
[ -n "${SF_PLUGIN:-}" ] && [ -e "$SF_PLUGIN" ] ||
	tap_skip_all "SF_PLUGIN does not name a file (run it from meson)"

# After a hold, how long Weston must live on: the old abort came at the
# next start of the repaint loop, within a frame or two of any repaint.
AFTER_HOLD_S=5

# suppress-idle-delay is short so that holding starts without waiting:
# no input is ever sent, the user is idle from the start.  -l stillframe
# puts the plugin's decisions in the log, to know a frame was held.
start_weston() {
	wt_start "$1" -l stillframe <<<"$(rc_weston_ini_awake stillframe.so \
		refresh-switch=never suppress-idle-delay=200)"
}

# live_on: wait AFTER_HOLD_S in steps, so that a death is seen when it
# happens.
live_on() {
	for _ in $(seq "$AFTER_HOLD_S"); do
		wt_alive || break
		sleep 1
	done
}

# ---- 1. weston-presentation-shm -i ----
start_weston rc-present

wt_client env WAYLAND_DEBUG=1 weston-presentation-shm -i
CLIENT=$WT_LAST_PID
CLOG=$WT_LAST_LOG

# feedback_counts: "REQUESTS PRESENTED DISCARDED PRESENTED_AFTER_HOLD"
# from the client's protocol log; the last is the number of "presented"
# after its first "discarded".  Objects are iface@id in libwayland's
# log up to 1.22, iface#id from 1.23 on.
feedback_counts() {
	awk '
	/-> wp_presentation[@#][0-9]+\.feedback\(/ { req++ }
	/wp_presentation_feedback[@#][0-9]+\.presented\(/ {
		pres++
		if (disc) after++
	}
	/wp_presentation_feedback[@#][0-9]+\.discarded\(/ { disc++ }
	END { printf "%d %d %d %d\n", req, pres, disc, after }' "$CLOG"
}

asked_feedback() {
	local c
	c=$(feedback_counts)
	[ "${c%% *}" -gt 0 ]
}

wt_poll 10 "weston-presentation-shm asks for feedback" asked_feedback
tap_result $? "weston-presentation-shm runs and asks for presentation feedback"

# stillframe's own log is only the precondition here (a frame carrying
# feedback was held); what is judged is what follows.
wt_poll 30 "a held repaint" grep -q "repaint held" "$WT_LOG"
tap_result $? "stillframe holds a frame of the idle client (precondition)"

live_on
tap_ok wt_alive "Weston lives on after held frames with presentation feedback"
tap_diag "holds in the log: $(grep -c "repaint held" "$WT_LOG")"

wt_client_alive "$CLIENT" || tap_diag "weston-presentation-shm exited"
# The user comes back: what the client commits now is painted, and must
# be presented (a held frame's feedback was discarded, not lost in a
# stuck list).  While the user stays idle, its ticks are held and their
# feedback discarded, as they should be.
for _ in $(seq 20); do
	wt_cmd motion 1 1
	sleep 0.1
done
read -r req pres disc after <<<"$(feedback_counts)"
tap_diag "feedback: $req asked, $pres presented, $disc discarded, $after presented after the first discard"
tap_ok '[ "$req" -gt 2 ] && [ $((req - pres - disc)) -le 1 ]' \
	"every feedback but the one in flight is answered"
tap_ok '[ "$after" -gt 0 ]' \
	"frames are still presented after a held one, once the user is back"
wt_stop

# ---- 2. mpv, a still picture ----
# Its OSC comes and goes with the pointer, and the frames it commits ask
# for feedback.  Here they are seldom held (mpv stops committing once
# its OSC has gone), so this part mostly checks that a real player's
# feedback keeps flowing; the holds are counted for the log.  The last
# motion restarts Weston's repaint loop, where Weston aborted.
if ! command -v mpv >/dev/null || ! command -v python3 >/dev/null; then
	for d in "mpv shows the still picture" "mpv: Weston lives on" \
		"mpv: every feedback answered"; do
		tap_skip "$d" "mpv or python3 is not installed"
	done
else
	start_weston rc-present-mpv
	python3 "$(dirname "$0")/../make-test-image.py" vertical 320 240 \
		"$WT_DIR/still.png"
	wt_client env WAYLAND_DEBUG=1 mpv --no-config --vo=wlshm --fs \
		--image-display-duration=inf --force-window=yes \
		--really-quiet "$WT_DIR/still.png"
	CLOG=$WT_LAST_LOG
	wt_poll 15 "mpv asks for feedback" asked_feedback
	tap_result $? "mpv shows the still picture and asks for feedback"
	for _ in 1 2 3 4; do
		wt_cmd motion 7 5
		sleep 1
	done
	sleep 3		# the OSC fades, the user is idle
	wt_cmd motion 7 5
	live_on
	tap_ok wt_alive "mpv: Weston lives on"
	read -r req pres disc after <<<"$(feedback_counts)"
	tap_diag "mpv feedback: $req asked, $pres presented, $disc discarded, $after presented after the first discard; holds in the log: $(grep -c "repaint held" "$WT_LOG")"
	tap_ok '[ "$req" -gt 2 ] && [ $((req - pres - disc)) -le 1 ]' \
		"mpv: every feedback but the one in flight is answered"
	wt_stop
fi

# ---- 3. Chromium, a blinking caret in a textarea ----
# It aborted Weston within seconds of its first held frame.
if ! command -v chromium >/dev/null; then
	tap_skip "Chromium: a frame held" "chromium is not installed"
	tap_skip "Chromium: Weston lives on" "chromium is not installed"
	tap_done
fi
start_weston rc-present-chromium
wt_client chromium --no-sandbox --ozone-platform=wayland --disable-gpu \
	--no-first-run --user-data-dir="$WT_DIR/chromium" \
	'data:text/html,<textarea autofocus>held caret</textarea>'
wt_poll 45 "a held repaint with Chromium" grep -q "repaint held" "$WT_LOG"
tap_result $? "Chromium: stillframe holds a frame of its idle caret (precondition)"
live_on
tap_ok wt_alive "Chromium: Weston lives on after held frames"
tap_diag "holds in the log: $(grep -c "repaint held" "$WT_LOG")"
tap_done
