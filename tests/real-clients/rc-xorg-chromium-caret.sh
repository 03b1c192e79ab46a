#!/bin/bash
# Chromium on X with a focused textarea, the user idle: its window belongs
# to the browser process and is drawn by another (the GPU process, which
# composites also in software).  The client that draws is the one held,
# so the caret's blinks wait, and the status's "held" is only said of a
# window whose drawing really waits (issue 25, finding 8: main held the
# window's owner, said "held", and the caret drew 101-141 times a
# minute).  Judged from outside stillframe: X Damage on the browser's
# top-level window, counted by the benchmarks' witness (sf-bench-x).
set -u
. "$(dirname "$0")/../xorg/lib.sh"
. "$(dirname "$0")/rc-lib.sh"

browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || tap_skip_all "chromium missing (run scripts/install-deps)"
rc_xorg_require Xorg xdotool xdpyinfo
rc_xorg_witness_require

rc_xorg_start_sf
page='data:text/html,<body style="margin:0"><textarea autofocus
 style="width:300px;height:100px"></textarea></body>'
xt_client "$browser" --ozone-platform=x11 --no-sandbox --disable-gpu \
	--no-first-run --user-data-dir="$XT_DIR/chromium" \
	--window-position=0,0 --window-size=500,300 --app="$page"
xt_poll 45 "chromium's window" eval \
	'[ -n "$(DISPLAY=$XT_DISPLAY xdotool search --onlyvisible --class chromium 2>/dev/null)" ]'
win=$(DISPLAY=$XT_DISPLAY xdotool search --onlyvisible --class chromium 2>/dev/null |
	tail -n 1)
# The caret blinks only in a focused window; there is no window manager.
DISPLAY=$XT_DISPLAY xdotool windowfocus "$win" 2>/dev/null
# An --app window's WM_CLASS instance is made from its address, too long
# for ListWindows to show whole: the browser's is the only window.
only_field() {	# only_field FIELD: FIELD of the one tracked window
	raw windows | tr '|' '\n' | awk -v f="$1" '
		$1 == "window" { for (i = 1; i < NF; i++)
			if ($i == f) { print $(i + 1); exit } }'
}
only_held() {
	local flags
	flags=$(only_field flags)
	[ -n "$flags" ] && [ $((flags & 1)) = 1 ]
}
# Focus given again while it waits: on a loaded machine the window can
# be found before it takes the focus, and shows no caret without it.
focused_blink() {
	DISPLAY=$XT_DISPLAY xdotool windowfocus "$win" 2>/dev/null
	[ "$(only_field class)" = 4 ]
}
tap_ok "xt_poll 45 'a caret blink' focused_blink" \
	"chromium's caret is classed blinking (setup)" ||
	tap_diag "$(raw windows)"

# 20 s of an idle user, counted by the witness.
rc_xorg_witness_start "$XT_DIR/witness"
sleep 1
held_seen=0
for i in $(seq 20); do
	sleep 1
	only_held && held_seen=$((held_seen + 1))
done
rc_xorg_witness_stop
# Every top-level window of the browser counts (it may draw more than one).
draws=$(rc_xorg_damage_count "$XT_DIR/witness")
tap_diag "in 20 s idle: $draws damage reports on the screen; status said" \
	"held in $held_seen of 20 samples"
# Unheld, the caret draws twice a second: 40 in 20 s.
tap_ok '[ "$draws" -le 10 ]' \
	"idle, the caret's draws are held (${draws} in 20 s; unheld some 40)"
tap_ok '[ "$held_seen" -ge 10 ]' \
	"and status says held ($held_seen of 20 samples)"
# Said held, the window must not be drawing on: at most one draw per
# two samples said held (main said held while the caret drew on, 40
# draws in 20 s).  A release to learn a blink not seen yet, and the
# caret's return after it (held only with the caret on), cost a draw
# each.
tap_ok '[ "$held_seen" = 0 ] || [ "$draws" -le $((held_seen / 2 + 1)) ]' \
	"the status says held only of a window whose drawing waits"
tap_diag "$(grep "stillframe: client" "$XT_LOG" | tail -n 4)"
tap_ok "kill -0 $XT_PID" "the server lives"
tap_ok "! grep -q 'Backtrace\|Segmentation' '$XT_LOG'" "no crash in the log"
tap_done
