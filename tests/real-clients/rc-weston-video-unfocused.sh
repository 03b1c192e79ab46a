#!/bin/bash
# TAP: a video that is not focused plays at its full rate while the user
# is idle.  mpv plays a 24 fps test picture (lavfi testsrc, --vo=wlshm)
# and holds an idle inhibitor; another window (sf-test-client) takes the
# keyboard focus; nobody touches anything.  stillframe throttled the
# player's frame callbacks to background-frame-rate (5 Hz, which mpv's
# late frames turned into about 15 repaints a second).
#
# Witness: the fake-KMS double's repaint counter, over the same window,
# on a stock Weston and then on a Weston with stillframe, on the same
# machine: stillframe's rate must be the stock rate (within 15 %, the
# noise of a loaded machine, far from the 40 % the throttle cost).
#
# SF_FAKE_KMS, SF_PLUGIN and SF_TEST_CLIENT come from meson.
set -u
. "$(dirname "$0")/../weston/lib.sh"
. "$(dirname "$0")/rc-lib.sh"

for prog in weston mpv setsid timeout awk; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
for var in SF_PLUGIN SF_TEST_CLIENT; do
	[ -n "${!var:-}" ] && [ -e "${!var}" ] ||
		tap_skip_all "$var does not name a file (run it from meson)"
done

# The picture plays, the other window takes the focus, the user has
# been idle past suppress-idle-delay (3 s): then repaints are counted.
SETTLE_S=6
WINDOW_S=10
VIDEO='av://lavfi:testsrc=rate=24:size=320x240'

# kms_sample: "NOW_MS REPAINTS" of output headless.
kms_sample() {
	wt_dump | awk '
	$1 == "now_ms" { now = $2 }
	$1 == "output" && $2 == "headless" {
		for (i = 3; i < NF; i++)
			if ($i == "repaints") r = $(i + 1)
	}
	END { if (now == "" || r == "") exit 1; print now, r }'
}

# run_video NAME MODULES: a Weston with [core] modules=MODULES, the video
# and a focused window; sets RATE to the repaints per second of the
# window.  Not in $(...): Weston and the clients must be this shell's.
run_video() {
	RATE=
	wt_start "$1" <<<"$(rc_weston_ini_awake "$2")"
	wt_client env WAYLAND_DEBUG=1 mpv --no-config --vo=wlshm --ao=null \
		--no-audio --really-quiet "$VIDEO"
	MPV_LOG=$WT_LAST_LOG
	# iface@id in libwayland's log up to 1.22, iface#id from 1.23 on.
	wt_poll 15 "mpv commits frames" \
		grep -q "wl_surface[@#][0-9]*\.commit" "$MPV_LOG" || return 1
	# mpv mapped (desktop-shell gave it the focus) before the other
	# window comes: a late map under load took the focus from it.
	wt_poll 15 "mpv mapped and focused" \
		grep -q "wl_keyboard[@#][0-9]*\.enter" "$MPV_LOG" || return 1
	wt_client "$SF_TEST_CLIENT" --keyboard --fps 0 --size 200x200
	FOCUS_LOG=$WT_LAST_LOG
	wt_poll 10 "the other window has the focus" \
		grep -q "keyboard enter" "$FOCUS_LOG" || return 1
	sleep "$SETTLE_S"
	local a b
	a=$(kms_sample) || return 1
	sleep "$WINDOW_S"
	b=$(kms_sample) || return 1
	wt_alive || return 1
	RATE=$(awk -v a="$a" -v b="$b" 'BEGIN {
		split(a, x, " "); split(b, y, " ")
		printf "%.1f\n", (y[2] - x[2]) * 1000 / (y[1] - x[1]) }')
}

run_video rc-video-stock ""
tap_result $? "stock Weston: mpv plays, another window focused"
stock=$RATE
wt_stop
run_video rc-video-sf stillframe.so
tap_result $? "Weston with stillframe: mpv plays, another window focused"
sf=$RATE
tap_diag "repaints per second: stock ${stock:-?}, stillframe ${sf:-?}"
inhibits=$(grep -c "create_inhibitor" "$MPV_LOG")
tap_ok '[ "$inhibits" -gt 0 ]' \
	"mpv holds an idle inhibitor (its protocol log)"
# The last word on the focus: desktop-shell may hand it on and back as
# mpv's surfaces come (stock does the same).
tap_ok '[ "$(grep -o "keyboard \(enter\|leave\)" "$FOCUS_LOG" |
	tail -n 1)" = "keyboard enter" ]' \
	"the other window kept the focus through the window"
# What a 24 fps video needs, whatever the machine's load.
tap_ok 'awk -v s="${stock:-0}" "BEGIN { exit !(s >= 12) }"' \
	"stock paints the video (at least 12 repaints a second)"
tap_ok 'awk -v s="${stock:-0}" -v f="${sf:-0}" \
	"BEGIN { exit !(f >= 0.85 * s) }"' \
	"with stillframe the unfocused video is painted as often as on stock"
tap_done
