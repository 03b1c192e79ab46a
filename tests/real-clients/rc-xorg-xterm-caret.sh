#!/bin/bash
# TAP: xterm -bc on Xorg with stillframe, idle (issue 25, finding 3 on
# X).  X shows a client's drawing as its request runs, so the module
# holds the client (IgnoreClient) instead of a repaint; held after a
# commit that hid the caret, the window stayed without it until the
# hold ended.  The rule now: a blinking client is held only after it
# drew the caret.
#
# Witness outside stillframe: the window's pixels as the server has
# them (xwd, GetImage), sampled for 20 s of idleness.  xterm draws its
# caret as a solid black block (-fg black -cr black on white); the
# caret may be off no longer than a blink period (xterm hides it 300 ms
# of 900) and a margin for the sampling.  With a 4 s staleness the
# module holds and lets go of xterm several times in that window, each
# hold a chance to freeze the caret off; and the holds must still come:
# the samples see the caret come and go far less often than xterm's own
# blinks would make it (the module's log names the holds too).
# meson passes SF_XORG_MODULE, SF_X_RAW, SF_CTL, SF_XORG_TEST_MODULE.
set -u
. "$(dirname "$0")/../xorg/lib.sh"
. "$(dirname "$0")/rc-lib.sh"

for prog in Xorg xterm xwd xdotool python3; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
screen="python3 $(dirname "$0")/screen.py"
CURSOR_W=5 CURSOR_H=11
SAMPLE_S=20
MAX_HIDDEN_MS=$((900 + 400 + 100))

xt_start rc-xterm <<-EOF || tap_bail "Xorg did not start"
	Option "SuppressIdleDelay" "500"
	Option "BlinkMaxStaleness" "4000"
EOF
xt_client xterm -bc -fg black -bg white -cr black -geometry 30x4+100+100 \
	-T caret -e sleep 1000
xt_poll 20 "xterm's window" eval '[ -n "$(window_id XTerm)" ]' ||
	tap_bail "no xterm window"
win=$(window_id XTerm)
# No window manager: xterm blinks (and draws its block) only with the
# focus, given here without input.
DISPLAY=$XT_DISPLAY xdotool windowfocus --sync "$win"

shot() {
	DISPLAY=$XT_DISPLAY xwd -silent -id "$win" -out "$1" 2>/dev/null
}
first_caret() {
	shot "$XT_DIR/first.xwd" &&
		[ "$($screen block $CURSOR_W $CURSOR_H "$XT_DIR/first.xwd")" != none ]
}
xt_poll 20 "xterm's caret" first_caret ||
	tap_bail "xterm's caret never showed"
start=$(xt_now_ms)

# The shots first, read in one go after (python is slow to start on a
# busy machine).
shots=() times=()
while [ "$(xt_now_ms)" -lt $((start + SAMPLE_S * 1000)) ]; do
	at=$(($(xt_now_ms) - start))
	shot "$XT_DIR/s-$at.xwd" || continue
	shots+=("$XT_DIR/s-$at.xwd")
	times+=("$at")
	sleep 0.1
done

mapfile -t seen < <($screen block $CURSOR_W $CURSOR_H "${shots[@]}")
rc_hidden_run seen times
longest=$RC_LONGEST off=$RC_OFF
tap_ok '[ "${#shots[@]}" -ge 40 ]' \
	"the window sampled ${#shots[@]} times in ${SAMPLE_S} s"
tap_ok '[ "$longest" -le "$MAX_HIDDEN_MS" ]' \
	"the caret is never left hidden: at most $longest ms in a row ($off of ${#shots[@]} samples without it; $MAX_HIDDEN_MS allowed)"
# Unheld, xterm's caret would come and go 44 times in 20 s, and the
# samples (a few a second) would see most of it; held, about twice a
# hold.
changes=0
for i in "${!seen[@]}"; do
	[ "$i" -gt 0 ] || continue
	[ "${seen[$i]}" = none ] && prev_none=1 || prev_none=0
	[ "${seen[$((i - 1))]}" = none ] && now_none=1 || now_none=0
	[ "$prev_none" = "$now_none" ] || changes=$((changes + 1))
done
holds=$(grep -c "client [0-9]* held: it drew only blinks" "$XT_LOG")
tap_ok '[ "$changes" -le 16 ] && [ "$holds" -ge 3 ]' \
	"xterm was held while idle: the caret came or went $changes times in ${SAMPLE_S} s ($holds holds)"
tap_ok 'kill -0 "$XT_PID"' "Xorg is alive"
tap_done
