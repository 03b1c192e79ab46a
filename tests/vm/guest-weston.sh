#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs inside the test VM (tests/vm/run-in-vm.sh --udev, with the EDID of
# test-vm.sh: 1920x1080 at 60, 48 and 30 Hz): Weston's DRM backend on the
# kernel's bochs driver, with stillframe, real input through uinput, and
# the kernel's own view of the CRTC (debugfs) and of the atomic commits
# (ftrace).  TAP on stdout.
#
# Environment: SF_PLUGIN, SF_CTL, SF_VM_INPUT (built files);
# SF_WESTON_SEAT, Weston's options for its seat (default --tty=2, see
# weston_start; guest-weston-14.sh sets none, libseat's builtin seatd).
set -u
. "$(dirname "$0")/guest-lib.sh"

export WAYLAND_DISPLAY=vm-wayland

ctl() {
	timeout 20 "$SF_CTL" "$@"
}

status_value() {
	ctl status | awk -v k="$1" '$1 == k { print $2; exit }'
}

# weston_start NAME [STILLFRAME KEY=VALUE...]
weston_start() {
	local name=$1
	shift
	{
		printf '%s\n' '[core]' "modules=$SF_PLUGIN" 'idle-time=0' \
			'[shell]' 'panel-position=none' \
			'startup-animation=none' 'close-animation=none' \
			'animation=none' '[stillframe]' 'outputs=all'
		printf '%s\n' "$@"
	} >"$VT_TMP/$name.ini"
	# The direct launcher, as root on a VT: Debian's Weston 10 has no
	# libseat launcher, and there is no logind in the VM.
	# shellcheck disable=SC2086 # options, split on purpose
	weston --backend=drm-backend.so --use-pixman ${SF_WESTON_SEAT---tty=2} \
		--socket="$WAYLAND_DISPLAY" --config="$VT_TMP/$name.ini" \
		--log="$VT_TMP/$name.log" -l log,stillframe,timeline \
		</dev/null >"$VT_TMP/$name.out" 2>&1 &
	WESTON_PID=$!
	WESTON_LOG=$VT_TMP/$name.log
	vt_poll 30 test -S "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY" &&
		vt_poll 30 eval 'ctl status >/dev/null 2>&1'
}

# loop_starts: Weston's repaint-loop starts in this weston's timeline;
# bochs, with no vblank timestamps, flips the frame already shown at
# each (drm_output_start_repaint_loop's fallback).
loop_starts() {
	grep -c core_repaint_enter_loop "$WESTON_LOG"
}

commits_above() {
	[ "$(commits_count)" -gt "$1" ]
}

weston_stop() {
	kill "$WESTON_PID" 2>/dev/null
	wait "$WESTON_PID" 2>/dev/null
	rm -f "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY"
}

tap_result "$([ -e /dev/dri/card0 ] && [ -r "$DRI_STATE" ]; echo $?)" \
	"the guest has a KMS device and the kernel's atomic state in debugfs"
tap_diag "driver: $(basename "$(readlink /sys/class/drm/card0/device/driver)")"
commits_start
input_start "$SF_VM_INPUT"
tap_result $? "a uinput device for real input"

# ---- refresh and DPMS on the real CRTC ----
weston_start refresh low-refresh-timeout=2000 refresh-dwell=0 \
	idle-min-refresh=30 dim-timeout=0 standby-timeout=0 off-timeout=20
tap_result $? "weston starts on the DRM backend with stillframe"
tap_result "$(grep -q 'stillframe: output' "$WESTON_LOG"; echo $?)" \
	"stillframe manages the DRM output"
check_refresh_and_dpms "Weston's DRM backend"
if [ "$TAP_FAILED" != 0 ]; then
	tap_diag "--- stillframe's states and DPMS in this weston ---"
	grep -E -- '-> |DPMS|dpms|wake|sleep' "$WESTON_LOG" | tail -n 30 |
		sed 's/^/# /'
fi
weston_stop

# ---- held repaints are no page flips ----
# foot blinks its cursor twice a second: every blink is a commit and,
# painted, an atomic commit of the CRTC.  Paused, stillframe paints them
# all; running, it holds them while the user is away.
weston_start flips low-refresh-timeout=600000 suppress-idle-delay=1000 \
	dim-timeout=0 standby-timeout=0 off-timeout=0
foot -o cursor.blink=yes -o font=monospace:size=10 \
	</dev/null >$VT_TMP/foot.log 2>&1 &
FOOT=$!
vt_poll 30 eval 'ctl status | grep -q "label=foot$"'
tap_result $? "foot runs on the DRM output"
check_held commits_count "atomic commits" 6 loop_starts
# Held frames leave Weston running and its repaint loop going: input
# after them reaches the kernel as a commit.
tap_result "$(kill -0 "$WESTON_PID" && kill -0 "$FOOT"; echo $?)" \
	"weston and foot still run after the held blinks"
before=$(commits_count)
input motion 5 5
vt_poll 10 commits_above "$before"
tap_result $? "input after the held blinks is painted: the kernel commits again"
kill "$FOOT" 2>/dev/null
weston_stop
input_stop

if [ "$TAP_FAILED" != 0 ]; then
	tap_diag "--- weston log (last 40 lines, no timeline) ---"
	grep -v '^{ ' "$WESTON_LOG" | tail -n 40 | sed 's/^/# /'
fi
# Weston's logs and output, and the kernel's trace of the atomic
# commits, go with the results (run-in-vm.sh -o).
cp "$VT_TMP"/*.log "$VT_TMP"/*.out "$TRACING/trace" /run/vm/ 2>/dev/null
tap_done
