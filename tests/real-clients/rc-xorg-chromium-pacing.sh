#!/bin/bash
# TAP, real-client tier (issue 25, finding 11): Chromium on a real Xorg
# (dummy driver) with stillframe, started just after a key, showing a
# CSS animation.  Chromium reads the RandR refresh rate once, as it
# starts, and paces its frames by it.  stillframe dropped the output to
# 30 Hz one second after the key while Chromium was starting; the page
# then animated at 30 fps for the browser's lifetime, and stillframe
# took those 30 fps for the content's rate and kept 30 Hz for good.
# The output's 1280x1024 modes: 85 (the user's), 75, 72, 60, 48, 30 Hz.
#
# Witness: the CRTC's mode as RandR reports it (xrandr --current, polled
# every 0.25 s), not stillframe's status.
#  1. Xorg and Chromium live;
#  2. from 25 s to 45 s after the start, while the page animates, the
#     output never runs 30 Hz.
#
# SF_XORG_MODULE, SF_X_RAW, SF_XORG_TEST_MODULE come from meson.
set -u
. "$(dirname "$0")/../xorg/lib.sh"
. "$(dirname "$0")/rc-lib.sh"

rc_xorg_require_module Xorg chromium xdotool xrandr xdpyinfo awk

rc_xorg_start_awake rc-chromium || exit 1

page=$XT_DIR/css.html
cat >"$page" <<-'EOF'
	<!doctype html>
	<html><head><style>
	body { margin: 0; background: #fff; }
	@keyframes spin { from { transform: rotate(0deg); }
			  to { transform: rotate(360deg); } }
	#box { margin: 100px; width: 200px; height: 200px;
	       background: #36c; animation: spin 3s linear infinite; }
	</style></head><body><div id="box"></div></body></html>
EOF

rate_now() {
	xrandr --display "$XT_DISPLAY" --current 2>/dev/null |
		awk '/^ +1280x1024/ { for (i = 2; i <= NF; i++)
			if ($i ~ /\*/) { sub(/[*+]+/, "", $i); print $i } }'
}

# The user presses a key and starts the browser.
xdotool key shift
start=$(xt_now_ms)
xt_client chromium --no-sandbox --ozone-platform=x11 \
	--user-data-dir="$XT_DIR/chromium" --no-first-run --disable-gpu \
	--no-default-browser-check --disable-background-networking \
	--password-store=basic --window-position=0,0 --window-size=800,600 \
	"file://$page"
chromium_pid=$XT_LAST_PID

sleep 25
rates=()
while [ "$(xt_now_ms)" -lt $((start + 45000)) ]; do
	rates+=("$(rate_now)")
	sleep 0.25
done

tap_ok "kill -0 $XT_PID 2>/dev/null && kill -0 $chromium_pid 2>/dev/null" \
	"Xorg and Chromium live"
seq=$(printf '%s\n' "${rates[@]}" | awk 'NF && $1 != last {
	printf " %s", $1; last = $1 }')
at30=$(printf '%s\n' "${rates[@]}" | grep -c '^30\.')
tap_diag "${#rates[@]} samples from 25 s to 45 s; rates in turn:$seq; at 30 Hz: $at30"
tap_is "$at30" 0 "the animating page does not keep the output at 30 Hz"
tap_done
