#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs inside the test VM (tests/vm/run-in-vm.sh --udev, with the EDID of
# test-vm.sh: 1920x1080 at 60, 48 and 30 Hz): Xorg's modesetting driver
# on the kernel's bochs driver, with libstillframe.so, libinput on a
# uinput device, and the kernel's own view of the CRTC (debugfs).  TAP
# on stdout.
#
# Environment: SF_XORG_MODULE, SF_CTL, SF_VM_INPUT (built files).
set -u
. "$(dirname "$0")/guest-lib.sh"

XLOG=$VT_TMP/Xorg.log
export DISPLAY=:5

ctl() {
	timeout 20 "$SF_CTL" --x11 "$@"
}

# xorg_conf OFF_TIMEOUT SUPPRESS_IDLE_DELAY
xorg_conf() {
cat <<CONF
Section "Files"
	ModulePath "$(dirname "$SF_XORG_MODULE")"
	ModulePath "/usr/lib/xorg/modules"
EndSection
Section "ServerFlags"
	Option "BlankTime" "0"
	Option "StandbyTime" "0"
	Option "SuspendTime" "0"
	Option "OffTime" "0"
EndSection
Section "Module"
	SubSection "stillframe"
		Option "Outputs" "all"
		Option "LowRefreshTimeout" "2000"
		Option "RefreshDwell" "0"
		Option "IdleMinRefresh" "30"
		Option "DimTimeout" "0"
		Option "StandbyTimeout" "0"
		Option "OffTimeout" "$1"
		Option "SuppressIdleDelay" "$2"
	EndSubSection
EndSection
Section "Device"
	Identifier "kms"
	Driver "modesetting"
	Option "kmsdev" "/dev/dri/card0"
	Option "AccelMethod" "none"
EndSection
Section "Screen"
	Identifier "screen"
	Device "kms"
	DefaultDepth 24
	SubSection "Display"
		Modes "1920x1080"
	EndSubSection
EndSection
CONF
}

# xorg_start OFF_TIMEOUT SUPPRESS_IDLE_DELAY
xorg_start() {
	xorg_conf "$@" >$VT_TMP/xorg.conf
	# The host's /tmp shows through the guest's overlay: a host server
	# on the same display number is not running here.
	rm -f "/tmp/.X${DISPLAY#:}-lock" "/tmp/.X11-unix/X${DISPLAY#:}"
	# -noreset: a generation reset after the last client is not what
	# this test is about, and makes the server misbehave here.
	Xorg "$DISPLAY" -config $VT_TMP/xorg.conf -logfile "$XLOG" \
		-logverbose 4 -nolisten tcp -noreset vt2 \
		</dev/null >$VT_TMP/Xorg.out 2>&1 &
	XPID=$!
	vt_poll 60 eval 'xdpyinfo >/dev/null 2>&1'
}

xorg_stop() {
	kill "$XPID"
	wait "$XPID" 2>/dev/null
}

tap_result "$([ -e /dev/dri/card0 ] && [ -r "$DRI_STATE" ]; echo $?)" \
	"the guest has a KMS device and the kernel's atomic state in debugfs"
input_start "$SF_VM_INPUT"
tap_result $? "a uinput device for real input"

commits_start
xorg_start 20 3000
tap_result $? "Xorg starts with the modesetting driver on the KMS device"
tap_result "$(grep -q 'stillframe: output' "$XLOG"; echo $?)" \
	"stillframe manages the modesetting output"
tap_diag "$(grep 'stillframe: output' "$XLOG" | head -n 2)"
check_refresh_and_dpms "RandR through modesetting"
if [ "$TAP_FAILED" != 0 ]; then
	tap_diag "--- stillframe's states and DPMS in this server ---"
	grep -E -- '-> |DPMS|dpms' "$XLOG" | tail -n 30 | sed 's/^/# /'
fi
vt_like_status=$(ctl status 2>&1 | grep -c '^output\.')
tap_result "$([ "$vt_like_status" -gt 0 ]; echo $?)" \
	"stillframectl talks to the server over the STILLFRAME extension"
xorg_stop
tap_result "$(grep -q 'finished: modes and DPMS put back' "$XLOG"; echo $?)" \
	"the server exits cleanly with stillframe"

# ---- held clients draw nothing ----
# On bochs, modesetting draws straight into the dumb buffer it scans out
# (no glamor, no page flip, and bochs needs no DIRTYFB), so the kernel
# sees no event per frame here; what reaches the screen is counted by
# the module's damage counter.  xterm -bc blinks its cursor; paused,
# every blink is drawn; running, stillframe holds xterm while the user is
# away and lets the blinks go together.
xorg_start 0 1000
xterm -bc -geometry 40x10+100+100 </dev/null >$VT_TMP/xterm.log 2>&1 &
XTERM=$!
vt_poll 30 eval 'ctl status | grep -q "^window\..*xterm"'
tap_result $? "xterm runs on the modesetting output"
# xterm blinks only with the focus; no window manager gives it one.
xdotool search --class xterm windowfocus --sync 2>/dev/null
# xterm_frames: damage frames of xterm's window so far.
xterm_frames() {
	ctl status | sed -n 's/^window\..* damage=\([0-9]*\) .*label=xterm$/\1/p' |
		head -n 1
}
check_held xterm_frames "frames drawn" 4
kill "$XTERM" 2>/dev/null
xorg_stop
input_stop

if [ "$TAP_FAILED" != 0 ]; then
	tap_diag "--- Xorg log (stillframe lines, last 30) ---"
	grep -E 'stillframe|EE' "$XLOG" | tail -n 30 | sed 's/^/# /'
fi
tap_done
