#!/bin/bash
# TAP, real-client tier (issue 25, "What to build" 4): an everyday X
# desktop of old, a reparenting window manager (twm) and a compositing
# manager (xcompmgr -c: every window redirected, the compositor draws
# the root), with a blinking `xterm -bc` and a ticking `xclock -update
# 1`, on stock Xorg and on Xorg with stillframe, side by side.
#
# Witnesses outside stillframe: X Damage on the top-levels (the
# benchmarks' sf-bench-x, which sees twm's frames and everything in
# them), and pixels read back from the server with xwd (the xterm's and
# the clock's windows, and the root the compositor draws).
#  1. the server and the compositor live;
#  2. idle, the blinks and ticks are held: stillframe draws at least 4x
#     fewer times than stock in the same 10 s window;
#  3. on input (a pointer move and a key), the caret is shown and the
#     clock moves on within a second;
#  4. idle and held again, a line printed into the xterm is on the
#     composited screen (xwd of the root) within a second.
# meson passes SF_XORG_MODULE, SF_X_RAW, SF_CTL, SF_XORG_TEST_MODULE.
set -u
. "$(dirname "$0")/../xorg/lib.sh"
. "$(dirname "$0")/rc-lib.sh"

for tool in Xorg twm xcompmgr xterm xclock xdotool xwd xwininfo xdpyinfo python3; do
	command -v "$tool" >/dev/null ||
		tap_skip_all "$tool missing (run scripts/install-deps)"
done
[ -f "${SF_XORG_MODULE:-}" ] || tap_skip_all "SF_XORG_MODULE not built"
witness=${SF_BENCH_X:-$(dirname "$SF_XORG_MODULE")/../bench/sf-bench-x}
[ -x "$witness" ] || tap_skip_all "sf-bench-x not built (needs xcb-damage)"
screen="python3 $(dirname "$0")/screen.py"
CURSOR_W=5 CURSOR_H=11
IDLE_S=10

# desktop NAME: Xorg (stdin: the module's lines), twm, xcompmgr, the
# xterm (showing what is written into $fifo) and the clock, the pointer
# on the xterm and the keyboard focus in it.
desktop() {
	xt_start "$1" || tap_bail "Xorg did not start"
	# Windows where their clients ask, no interactive placement; the
	# server's built-in font (the dummy has no font path).
	printf '%s\n' 'UsePPosition "on"' RandomPlacement NoGrabServer \
		'TitleFont "fixed"' 'MenuFont "fixed"' 'IconFont "fixed"' \
		'ResizeFont "fixed"' 'IconManagerFont "fixed"' \
		>"$XT_DIR/twmrc"
	xt_client twm -f "$XT_DIR/twmrc"
	xt_client xcompmgr -c
	compositor_pid=$XT_LAST_PID
	fifo=$XT_DIR/fifo
	rm -f "$fifo"
	mkfifo "$fifo"
	xt_client xterm -bc -fg black -bg white -cr black \
		-geometry 60x8+100+100 -e sh -c 'while :; do cat "$1"; done' \
		sh "$fifo"
	xt_client xclock -update 1 -geometry 160x160+700+100
	xt_poll "$XT_TIMEOUT" "the windows" eval \
		'[ -n "$(window_id XTerm)" ] && [ -n "$(window_id XClock)" ]' ||
		tap_bail "no xterm or xclock window"
	win=$(window_id XTerm)
	clock=$(window_id XClock)
	DISPLAY=$XT_DISPLAY xdotool mousemove --window "$win" 20 20
	DISPLAY=$XT_DISPLAY xdotool windowfocus --sync "$win"
}

# idle_draws: the damage reports of IDLE_S seconds of an idle user.
idle_draws() {
	"$witness" --display "$XT_DISPLAY" < <(sleep $((IDLE_S + 3))) \
		>"$XT_DIR/witness" 2>&1 &
	local pid=$!
	sleep $((IDLE_S + 2))
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	# The witness counts on CLOCK_MONOTONIC: the window is the IDLE_S
	# seconds from a second after its first line.
	awk -v ms="$((IDLE_S * 1000))" '
		NR == 1 { from = $2 + 1000 }
		$1 == "damage" && $2 >= from && $2 < from + ms { n++ }
		END { print n + 0 }' "$XT_DIR/witness"
}

# ---- stock ----
desktop stock <<<none
sleep 3
stock=$(idle_draws)
xt_stop

# ---- stillframe ----
desktop sf <<-EOF
	Option "SuppressIdleDelay" "1000"
	Option "LowRefreshTimeout" "1000"
	Option "BlinkMaxStaleness" "30000"
EOF
# Counted once both are held (the module's log says when, the witness
# counts), and xclock let go once more to learn what drew into its
# pixmap: on a loaded machine their classes take longer than 3 s.
held_both() {
	[ "$(grep -c 'stillframe: client [0-9]* held' "$XT_LOG")" -ge 2 ]
}
xt_poll 30 "both clients held" held_both ||
	tap_diag "the clients were not both held in 30 s"
sleep 3
draws=$(idle_draws)
tap_diag "idle ${IDLE_S} s, damage reports: stock $stock, stillframe $draws"
tap_ok '[ "$stock" -ge 15 ] && [ $((4 * draws)) -le "$stock" ]' \
	"idle, the blinks and ticks are held ($draws draws, stock $stock)"

# Input: a pointer move within the xterm and a key (shift: no text).
# The shots first, read in one go after.
DISPLAY=$XT_DISPLAY xwd -silent -id "$clock" -out "$XT_DIR/clock-0.xwd"
t0=$(xt_now_ms)
DISPLAY=$XT_DISPLAY xdotool mousemove_relative 2 2 key shift
rc_xwd_series "$t0" 1500 "$XT_DIR/in" "$win" "$clock"
mapfile -t carets < <($screen block $CURSOR_W $CURSOR_H "${RC_SHOTS[@]/%/-0}")
mapfile -t clocks < <($screen region 0 0 1000 1000 \
	"$XT_DIR/clock-0.xwd" "${RC_SHOTS[@]/%/-1}")
caret_ms=none clock_ms=none
for i in "${!RC_TIMES[@]}"; do
	[ "$caret_ms" = none ] && [ "${carets[$i]:-none}" != none ] &&
		caret_ms=${RC_TIMES[$i]}
	[ "$clock_ms" = none ] && [ "${clocks[$((i + 1))]}" != "${clocks[0]}" ] &&
		clock_ms=${RC_TIMES[$i]}
done
tap_ok '[ "$caret_ms" != none ] && [ "$caret_ms" -le 1000 ]' \
	"on input the caret is shown within a second ($caret_ms ms)"
tap_ok '[ "$clock_ms" != none ] && [ "$clock_ms" -le 1000 ]' \
	"on input the clock moves on within a second ($clock_ms ms)"

# Idle again: a line printed into the xterm, on the root the compositor
# draws.  The xterm's place on the screen (twm's frame around it).
sleep 4
read -r wx wy < <(xwininfo -display "$XT_DISPLAY" -id "$win" |
	awk '/Absolute upper-left X/ { x = $NF }
	     /Absolute upper-left Y/ { print x, $NF }')
box="$wx $wy $((wx + 360)) $((wy + 100))"
DISPLAY=$XT_DISPLAY xwd -silent -root -out "$XT_DIR/root-0.xwd"
t0=$(xt_now_ms)
printf '%s\n' '################################' >"$fifo"
rc_xwd_series "$t0" 1500 "$XT_DIR/text" root
# shellcheck disable=SC2086	# box is four numbers
mapfile -t ink < <($screen dark $box "$XT_DIR/root-0.xwd" "${RC_SHOTS[@]/%/-0}")
text_ms=none
for i in "${!RC_TIMES[@]}"; do
	[ "$text_ms" = none ] && [ "${ink[$((i + 1))]}" -ge $((ink[0] + 300)) ] &&
		text_ms=${RC_TIMES[$i]}
done
tap_diag "dark pixels on the xterm before: ${ink[0]}, after: ${ink[*]:1}"
tap_ok '[ "$text_ms" != none ] && [ "$text_ms" -le 1000 ]' \
	"idle, a printed line is on the composited screen within a second ($text_ms ms)"

tap_ok "kill -0 $compositor_pid" "xcompmgr lives"
tap_ok "kill -0 $XT_PID" "the server lives"
tap_ok "! grep -q 'Backtrace\|Segmentation' '$XT_LOG'" "no crash in the log"
tap_done
