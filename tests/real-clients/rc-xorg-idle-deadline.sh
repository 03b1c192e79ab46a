#!/bin/bash
# TAP: an idle desktop on Xorg with stillframe (xterm -bc focused, xclock
# -update 1), held, across its staleness deadlines (issue 25, the idle
# benchmark on X).  At a deadline the module lets the held clients go,
# and each draws what waited.  xterm's waiting blinks may end with its
# caret hidden: X shows that until xterm's next blink, one more frame,
# and xterm could be held again only after the one after, which showed
# the caret.  The idle desktop drew 4 frames a minute instead of 2.  Now
# a deadline waits until xterm's waiting blinks end with the caret drawn
# (at most 1.5 s), and the clients are held again at once once what
# waited is drawn: one frame per deadline.
#
# Witness outside stillframe: X Damage on the screen's windows, counted
# by the benchmarks' witness (sf-bench-x); what fell within one refresh
# period is one frame, as the benchmark counts.  The module's log gives
# the number of deadlines to compare with.
# meson passes SF_XORG_MODULE, SF_X_RAW, SF_CTL, SF_XORG_TEST_MODULE.
set -u
. "$(dirname "$0")/../xorg/lib.sh"
. "$(dirname "$0")/rc-lib.sh"

rc_xorg_require_module xterm xclock xdotool
rc_xorg_witness_require
WINDOW_S=36

xt_start rc-deadline <<-EOF || tap_bail "Xorg did not start"
	Option "SuppressIdleDelay" "500"
	Option "BlinkMaxStaleness" "3000"
	Option "TickMaxStaleness" "3000"
EOF
xt_client xclock -update 1 -geometry 120x120+400+100
# The caret off three times as long as on (the user's resources): most
# deadlines find its waiting blinks ending with the caret hidden.
xt_client xterm -bc -xrm 'XTerm*cursorOnTime: 300' \
	-xrm 'XTerm*cursorOffTime: 900' -geometry 30x4+100+100 \
	-T deadline -e sleep 1000
xt_poll 20 "xterm's window" eval '[ -n "$(window_id XTerm)" ]' ||
	tap_bail "no xterm window"
# No window manager: xterm blinks only with the focus, given without
# input.
DISPLAY=$XT_DISPLAY xdotool windowfocus --sync "$(window_id XTerm)"
held_both() {
	grep -c 'stillframe: client [0-9]* held' "$XT_LOG" |
		awk '{ exit !($1 >= 2) }'
}
xt_poll 20 "both clients held" held_both ||
	tap_bail "the clients were never held"
# The first deadlines teach the module the clients' requests.
sleep 8

deadlines0=$(grep -c 'released after .*(deadline' "$XT_LOG")
rc_xorg_witness_start "$XT_DIR/witness"
sleep "$WINDOW_S"
rc_xorg_witness_stop
deadlines=$(($(grep -c 'released after .*(deadline' "$XT_LOG") - deadlines0))
# A deadline lets both clients go: count it once.
deadlines=$(( (deadlines + 1) / 2 ))
# What a release draws comes within 150 ms (under load xclock and
# xterm, let go in one cycle, may draw some 10 ms apart: at 85 Hz, in
# two refresh periods), and xterm's next blink 300 ms or more after its
# last: damage less than 150 ms apart is one frame here.  The witness's
# first damage, as it starts watching the windows, is not drawing (it
# comes with their "window" lines).
frames=$(awk '$1 == "window" && start == "" { start = $2 + 100 }
	$1 == "damage" && $2 + 0 > start { t = $2 + 0
		if (n == 0 || t - last >= 150) n++
		last = t } END { print n + 0 }' "$XT_DIR/witness")
# Frames in which xterm drew without xclock: a deadline lets both go,
# so these are xterm's blinks drawn after what waited (the caret it had
# left hidden, then hidden again before it was held).
xterm=$(printf '0x%x' "$(window_id XTerm)")
alone=$(awk -v xt="$xterm" '$1 == "window" && start == "" { start = $2 + 100 }
	$1 == "damage" && $2 + 0 > start {
		t[NR] = $2 + 0; w[NR] = $3 }
	END {
		for (i in t) {
			if (w[i] != xt) continue
			with = 0
			for (j in t)
				if (w[j] != xt && t[j] - t[i] < 150 &&
				    t[i] - t[j] < 150) with = 1
			if (!with) n++
		}
		print n + 0
	}' "$XT_DIR/witness")
tap_diag "in $WINDOW_S s: $frames frames drawn, $alone of xterm alone, $deadlines deadlines"
tap_ok '[ "$deadlines" -ge 8 ]' \
	"the deadlines came ($deadlines in $WINDOW_S s, one each 3 s)"
# Unheld: some 120 frames (xclock each second, xterm's blinks twice).
# One frame a deadline, and one for a deadline in four that waited past
# its grace or taught the module a request (in 24 s before: 5 or 6
# more for 8 deadlines, 3 of them xterm's alone).
tap_ok '[ "$frames" -le $((deadlines + deadlines / 4)) ]' \
	"one frame per deadline: $frames frames for $deadlines deadlines"
tap_ok '[ "$alone" -le $((deadlines / 6)) ]' \
	"xterm draws with the deadline's frame, not after it: $alone frames of its own"
tap_ok "kill -0 $XT_PID" "the server lives"
tap_ok "! grep -q 'Backtrace\|Segmentation' '$XT_LOG'" "no crash in the log"
tap_done
