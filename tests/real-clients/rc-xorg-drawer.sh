#!/bin/bash
# A window drawn by a client that does not own it (issue 25, finding 8:
# Chromium's window belongs to the browser process and is drawn by the
# GPU process).  Here an `xterm -bc` is embedded with `-into` in a window
# of xlogo: the top-level belongs to xlogo, the caret's blinks are
# xterm's.  The client that draws is the one held, so idle, the blinks
# wait, and the status says "held" only of a window whose drawing waits.
# Then the program in the xterm prints a burst of output and a new
# prompt, the user still idle: the caret blinks at its new place, and
# its blinks are held again within a few of them.  The caret's first
# redraw after the burst comes without its pixels read (the window was
# animating); it must not keep the blink's two states unknown while it
# stays in the history.
# Judged from outside stillframe: X Damage on the top-level, counted by
# the benchmarks' witness (sf-bench-x, DAMAGE only).
set -u
. "$(dirname "$0")/../xorg/lib.sh"
. "$(dirname "$0")/rc-lib.sh"

rc_xorg_require Xorg xterm xlogo xdotool xdpyinfo
rc_xorg_witness_require

rc_xorg_start_sf
xt_client xlogo -geometry 500x300+0+0
xt_poll "$XT_TIMEOUT" "xlogo's window" eval '[ -n "$(window_id xlogo)" ]'
host=$(window_id xlogo)
# The program in the xterm: its prompt at once (not late, as a shell
# slowed down by a loaded machine draws it), then, when told, a burst of
# output and the prompt again, on the same line: xterm 379 stops blinking
# its caret after a line wraps, with or without stillframe.
mkfifo "$XT_DIR/go"
cat >"$XT_DIR/printer.sh" <<-EOF
	printf '\$ '
	read go <'$XT_DIR/go'
	i=0
	while [ \$i -lt 16 ]; do
		printf '%d' \$((i % 10))
		sleep 0.03
		i=\$((i + 1))
	done
	printf '\$ '
	: >'$XT_DIR/printed'
	exec sleep 1000
EOF
xt_client xterm -bc -into "$host" -geometry 40x10 -e sh "$XT_DIR/printer.sh"
xt_poll "$XT_TIMEOUT" "the embedded xterm" eval '[ -n "$(window_id xterm)" ]'
# The caret blinks only with the keyboard focus; no window manager.
DISPLAY=$XT_DISPLAY xdotool windowfocus "$(window_id xterm)"
tap_ok "xt_poll 10 'blinking' window_field_is xlogo class 4" \
	"xlogo's top-level, drawn by xterm, is classed blinking (setup)" ||
	tap_diag "$(raw windows)"
sleep 3

# 15 s of an idle user, counted by the witness.
rc_xorg_witness_start "$XT_DIR/witness"
sleep 1
held_seen=0
for i in $(seq 15); do
	sleep 1
	window_held xlogo && held_seen=$((held_seen + 1))
done
draws=$(rc_xorg_damage_count "$XT_DIR/witness")
rc_xorg_witness_stop
tap_diag "in 15 s idle: $draws damage reports on the screen; the status" \
	"said held in $held_seen of 15 samples" \
	"$(grep 'stillframe: client [0-9]* held' "$XT_LOG" | tail -n 2)"
# Unheld, xterm's caret draws twice in 0.9 s: some 33 times in 15 s.
tap_ok '[ "$draws" -le 5 ]' \
	"idle, the embedded xterm's blinks are held ($draws draws in 15 s)"
tap_ok '[ "$held_seen" -ge 8 ]' \
	"and the status says held ($held_seen of 15 samples)"
# Said held, the window must not be drawing on: at most one draw per
# three samples said held.
tap_ok '[ "$held_seen" = 0 ] || [ "$draws" -le $((held_seen / 3 + 1)) ]' \
	"the status says held only of a window whose drawing waits"

# The burst, then 12 s of the idle user from its end on.  Unheld, the
# caret draws 26 times.  Held as soon as four of its blinks are known
# (a blink again after four commits, its states known after four with
# pixels read, held at the next one that shows the caret): some 9.  Held
# only once the unread redraw has left the history: some 21.
echo go >"$XT_DIR/go"
xt_poll 10 "the burst of output" test -e "$XT_DIR/printed"
rc_xorg_witness_start "$XT_DIR/witness-after"
sleep 12
after=$(rc_xorg_damage_count "$XT_DIR/witness-after")
rc_xorg_witness_stop
tap_diag "in 12 s idle after the burst: $after damage reports"
tap_ok "window_field_is xlogo class 4" \
	"the caret at the new prompt blinks (class blinking; setup)"
tap_ok '[ "$after" -le 12 ]' \
	"after a burst of output, the new prompt's blinks are held ($after draws in 12 s)"
tap_ok "kill -0 $XT_PID" "the server lives"
tap_ok "! grep -q 'Backtrace\|Segmentation' '$XT_LOG'" "no crash in the log"
tap_done
