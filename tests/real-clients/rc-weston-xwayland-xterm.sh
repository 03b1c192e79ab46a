#!/bin/bash
# TAP: xterm -bc under Xwayland on Weston 10 with stillframe, idle
# (issue 25, finding 3).  A held blink froze in whatever state it was
# in: the first commit stillframe held showed the caret while the screen
# showed it off, and Xwayland's frame callbacks were held for 30 s, so
# the screen showed no caret for half a minute.
#
# Witnesses outside stillframe: the screen, read back by the fake-KMS
# double from the buffer last presented (shot, no repaint asked), and
# its repaint count.  xterm draws its caret as a solid black block
# (-fg black -cr black on white); nothing else on this screen is one
# (a light background, so the windows' shadows are grey; the pointer
# is moved into the corner, which screen.py leaves out).  Sampled for
# 20 s of idleness, the caret may be off no longer than a blink period
# (xterm hides it 300 ms of 900) and a margin for the sampling, and the
# blinks must still be held.
# meson passes SF_FAKE_KMS and SF_PLUGIN.
set -u
. "$(dirname "$0")/../weston/lib.sh"
. "$(dirname "$0")/rc-lib.sh"

for prog in weston Xwayland xterm python3; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
rc_weston_xwayland_require
BG=c0c0c0
SAMPLE_S=20
# A blink period, the sampling step and a frame.
MAX_HIDDEN_MS=$((900 + 400 + 100))

# Weston 10 loads xwayland.so with --xwayland, and starts Xwayland on
# the first X connection to the display it listens on.
wt_start rc-xterm --use-pixman --xwayland -l log,stillframe \
	<<<"$(rc_weston_ini stillframe.so $BG)"
rc_weston_xwayland_display
display=$RC_X_DISPLAY
wt_cmd motion -4000 -4000
# Nothing but the caret on the terminal: output would be a finding of
# its own (program output held with the blink).
wt_client env DISPLAY="$display" xterm -bc -fg black -bg white -cr black \
	-geometry 30x4 -T caret -e sleep 1000

wt_poll 20 "xterm's caret on screen" rc_weston_xterm_caret_shown ||
	tap_bail "xterm's caret never showed"
start=$(wt__now_ms)

# Samples: the shots first, read in one go after (python is slow to
# start on a busy machine).
shots=() times=() r10=
while [ "$(wt__now_ms)" -lt $((start + SAMPLE_S * 1000)) ]; do
	at=$(($(wt__now_ms) - start))
	[ "$at" -ge 10000 ] && [ -z "$r10" ] && r10=$(rc_repaints)
	wt_shot headless "$WT_DIR/s-$at.ppm" || continue
	shots+=("$WT_DIR/s-$at.ppm")
	times+=("$at")
	sleep 0.2
done
r20=$(rc_repaints)

# The longest run of samples without the caret, from its first to the
# sample that shows the caret again (or the last).
# shellcheck disable=SC2034	# read by rc_hidden_run, by name
mapfile -t seen < <(rc_xterm_caret "${shots[@]}")
rc_hidden_run seen times
longest=$RC_LONGEST off=$RC_OFF
tap_ok '[ "${#shots[@]}" -ge 30 ]' \
	"the screen sampled ${#shots[@]} times in ${SAMPLE_S} s"
tap_ok '[ "$longest" -le "$MAX_HIDDEN_MS" ]' \
	"the caret is never left hidden: at most $longest ms in a row ($off of ${#shots[@]} samples without it; $MAX_HIDDEN_MS allowed)"
tap_ok 'grep -Eq "surface [0-9]+ \(caret\): static -> blinking" "$WT_LOG"' \
	"stillframe saw xterm blink"
# Unheld, xterm's 900 ms blink paints 22 times in 10 s.
tap_ok '[ -n "$r10" ] && [ $((r20 - r10)) -le 6 ]' \
	"idle, the blinks are held: $((r20 - ${r10:-0})) repaints in the last 10 s"
tap_ok 'wt_alive' "weston is alive"
tap_done
