#!/bin/bash
# TAP: the installed weston-stillframe package in a real headless Weston,
# named as a user names it (weston --modules=stillframe.so, no path),
# with a real client: weston-terminal showing a seconds clock.
#
# Witnesses outside stillframe: Weston's log (the file it loaded), the
# fake-KMS double's repaint counter and request log (the TEST DOUBLE at
# the hardware boundary: it gives the headless output modes at 120, 60,
# 48 and 30 Hz and records every mode switch Weston asks of it), and
# wayland-info, a client reading the output's current mode as any client
# would.  stillframe's own status is looked at only beside them.
#
# Run by tests/installed/run.sh (the packages' autopkgtest); SF_FAKE_KMS
# from there.
set -u
. "$(dirname "$0")/../weston/lib.sh"
. "$(dirname "$0")/../real-clients/rc-lib.sh"

for prog in weston weston-terminal wayland-info stillframectl dpkg setsid; do
	command -v "$prog" >/dev/null || tap_bail "$prog is not installed"
done
plugin=$(dpkg -L weston-stillframe 2>/dev/null | grep '/weston/stillframe\.so$') ||
	tap_bail "weston-stillframe is not installed"
# No module map for stillframe.so: Weston finds it in its own folder.
unset SF_PLUGIN

# The clock ticks and the user has been idle past suppress-idle-delay
# and low-refresh-timeout, and the window past new-window-native, before
# the window of observation starts.
SETTLE_S=8
WINDOW_S=10

wt_start installed --modules=stillframe.so <<<"$(rc_weston_ini_awake "" \
	suppress-idle-delay=1000 low-refresh-timeout=1000)"
tap_ok "grep -qF \"Loading module '$plugin'\" \"\$WT_LOG\"" \
	"Weston loads stillframe.so from its module folder ($plugin)"

clock=$WT_DIR/clock.sh
rc_clock_script "$clock"
wt_client env SHELL="$clock" weston-terminal
sleep "$SETTLE_S"

a=$(rc_repaints)
sleep "$WINDOW_S"
b=$(rc_repaints)
tap_ok 'wt_alive' "Weston runs weston-terminal with a clock"
tap_diag "repaints over ${WINDOW_S} s idle: $(rc_delta "$a" "$b")" \
	"(the clock ticks ${WINDOW_S} times)"
tap_ok '[ -n "$a" ] && [ -n "$b" ] && [ $((b - a)) -le 3 ]' \
	"the clock's ticks are held while the user is idle"

# The refresh drop, as the hardware and a client see it.
tap_like "$(wt_dump | awk '/^request headless switch_mode/ { print $4, $5 }' |
	tail -n 1)" '^1024x640@30000 ok$' \
	"the idle output was switched to 30 Hz (fake-KMS request log)"
tap_like "$(wt_run wayland-info 2>&1 | wt_modes_of | grep current)" \
	'^30\.000 current$' "a client reading wl_output sees 30 Hz current"
tap_like "$(wt_run stillframectl status 2>&1)" 'headless' \
	"the installed stillframectl talks to the installed plugin"

# Any input: the native rate at once, and the held clock comes.
before=$(rc_repaints)
wt_cmd key 42	# shift: nothing typed into the clock's line
tap_ok "wt_poll 2 'the native mode after a key' eval \
	'wt_dump | grep -q \"^output headless mode 1024x640@60000 \"'" \
	"a key brings the output back to 60 Hz"
tap_ok "wt_poll 2 'a repaint after the key' \
	eval '[ \"\$(rc_repaints)\" -gt \"${before:-0}\" ]'" \
	"a key repaints the held clock"
tap_ok 'wt_alive && ! grep -q "Assertion\|SIGSEGV\|SIGABRT" "$WT_LOG"' \
	"Weston is alive and logged no crash"
tap_done
