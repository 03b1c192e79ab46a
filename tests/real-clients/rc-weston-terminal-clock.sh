#!/bin/bash
# TAP: weston-terminal showing a seconds clock, the user idle.  The
# terminal redraws its whole window (larger than hash-max-area) to
# change eight characters, so its damage looked like a large update and
# the clock was classed static and never held.  The pixels of a rare
# commit are now read whatever its size (within what hash-max-area allows
# per second at 60 fps), which shows the tick.
#
# Witness: the fake-KMS double's repaint counter over the same idle window
# on a stock Weston and on a Weston with stillframe: stock repaints with
# each second; stillframe holds the ticks, so at most a third of that.
# Held ticks are never lost: a key repaints at once.
#
# SF_FAKE_KMS and SF_PLUGIN come from meson.
set -u
. "$(dirname "$0")/../weston/lib.sh"
. "$(dirname "$0")/rc-lib.sh"

for prog in weston weston-terminal setsid timeout awk date; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
[ -n "${SF_PLUGIN:-}" ] && [ -e "$SF_PLUGIN" ] ||
	tap_skip_all "SF_PLUGIN does not name a file (run it from meson)"

# The clock ticks, is classed, and the user has been idle past
# suppress-idle-delay before the window starts.
SETTLE_S=8
WINDOW_S=10

# kms_repaints: the repaints of output headless that reached the backend.
kms_repaints() {
	wt_dump | awk '$1 == "output" && $2 == "headless" {
		for (i = 3; i < NF; i++)
			if ($i == "repaints") print $(i + 1) }'
}

# run_clock NAME MODULES: a Weston with [core] modules=MODULES and the
# terminal clock; sets REPAINTS to the backend's repaints over the idle
# window.  Not in $(...): Weston and the clients must be this shell's.
run_clock() {
	REPAINTS=
	wt_start "$1" <<<"$(rc_weston_ini_awake "$2" refresh-switch=never \
		suppress-idle-delay=1000)"
	# weston-terminal runs $SHELL: here a clock, redrawn in place.
	local clock=$WT_DIR/clock.sh
	rc_clock_script "$clock"
	wt_client env SHELL="$clock" weston-terminal
	sleep "$SETTLE_S"
	local a b
	a=$(kms_repaints) || return 1
	sleep "$WINDOW_S"
	b=$(kms_repaints) || return 1
	wt_alive || return 1
	REPAINTS=$((b - a))
}

run_clock rc-term-stock ""
tap_result $? "stock Weston runs weston-terminal with a clock"
stock=$REPAINTS
wt_stop

run_clock rc-term-sf stillframe.so
tap_result $? "Weston with stillframe runs weston-terminal with a clock"
sf=$REPAINTS
tap_diag "repaints over ${WINDOW_S} s idle: stock ${stock:-?}, stillframe ${sf:-?}"
tap_ok '[ "${stock:-0}" -ge $((WINDOW_S * 2 / 3)) ]' \
	"stock repaints the clock about once a second"
tap_ok '[ -n "$sf" ] && [ "$sf" -le $((${stock:-0} / 3)) ]' \
	"stillframe holds the terminal's ticks while the user is idle"

# Nothing lost: a key brings the held clock to the screen at once.
before=$(kms_repaints)
wt_cmd key 42	# shift: nothing typed into the clock's line
tap_ok "wt_poll 1 'a repaint after the key' \
	eval '[ \"\$(kms_repaints)\" -gt \"${before:-0}\" ]'" \
	"a key repaints the held clock"
tap_done
