#!/bin/bash
# TAP, real-client tier (issue 25, finding 10): mpv playing a 24 fps
# video on a real Xorg (dummy driver) with stillframe, the output's
# 1280x1024 modes at 85 (the user's), 75, 72, 60, 48 and 30 Hz (the
# last three from modelines).  The user is idle throughout.  stillframe
# once went 48 -> 75 Hz on a single "25 Hz" reading and 48 -> 30 -> 48
# during playback: 7 switches in 90 s, each a modeset on a real panel.
#
# Witness: the CRTC's mode as RandR reports it (xrandr --current, polled
# every 0.25 s), not stillframe's status.
#  1. Xorg and mpv live;
#  2. over the 60 s window after mpv's start, at most one mode switch
#     (no idle or wake transition happens in it);
#  3. nor does the rate ever go below 48 Hz in it, which would drop
#     frames of the video.
#
# SF_XORG_MODULE, SF_X_RAW, SF_XORG_TEST_MODULE come from meson.
set -u
. "$(dirname "$0")/../xorg/lib.sh"
. "$(dirname "$0")/rc-lib.sh"

rc_xorg_require_module Xorg mpv xrandr xdpyinfo python3 awk

WINDOW_S=${SF_RC_WINDOW:-60}
# mpv's start and the first choice of a rate are not judged.
SETTLE_S=12

rc_xorg_start_awake rc-mpv || exit 1

# A 10 s, 24 fps clip (looped), a new picture every frame.
video=$XT_DIR/clip.y4m
python3 "$(dirname "$0")/../make-test-clip.py" "$video" ||
	tap_bail "cannot write $video"

xt_client mpv --no-config --vo=x11 --no-audio --loop-file=inf \
	--geometry=1280x1024+0+0 --no-border --no-osc --really-quiet \
	--no-input-default-bindings "$video"
mpv_pid=$XT_LAST_PID

rate_now() {
	xrandr --display "$XT_DISPLAY" --current 2>/dev/null |
		awk '/^ +1280x1024/ { for (i = 2; i <= NF; i++)
			if ($i ~ /\*/) { sub(/[*+]+/, "", $i); print $i } }'
}

sleep "$SETTLE_S"
rates=()
end=$(($(xt_now_ms) + WINDOW_S * 1000))
while [ "$(xt_now_ms)" -lt "$end" ]; do
	rates+=("$(rate_now)")
	sleep 0.25
done

tap_ok "kill -0 $XT_PID 2>/dev/null && kill -0 $mpv_pid 2>/dev/null" \
	"Xorg and mpv live"
summary=$(printf '%s\n' "${rates[@]}" | awk '
	NF && $1 != last { if (n++) sw++; seq = seq " " $1; last = $1 }
	NF && (min == "" || $1 + 0 < min) { min = $1 + 0 }
	END { printf "%d %s %s\n", sw + 0, min, seq }')
set -- $summary
switches=$1 lowest=$2
shift 2
tap_diag "${#rates[@]} samples; rates in turn:$(printf ' %s' "$@"); switches $switches"
tap_ok "[ $switches -le 1 ]" \
	"at most one mode switch in ${WINDOW_S} s of 24 fps video"
tap_ok "awk 'BEGIN { exit !($lowest >= 47.9) }'" \
	"never below 48 Hz while the video plays (lowest $lowest Hz)"
tap_done
