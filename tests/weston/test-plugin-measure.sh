#!/bin/bash
# TAP: stillframectl measure and measure --ab with a real headless Weston
# 10, stillframe.so and the fake-KMS test double, on a fake sysfs tree
# with a battery (sf-make-fake-tree --battery, a test double) whose
# power_now follows the display (sf-fake-battery, a test double): 5 W
# plus 50 mW per Hz of each lit output, so 8 W with stillframe paused
# (60 Hz) and 6.5 W with it running and idle (30 Hz), each 100 mW above
# and below in turns.  The means are
# checked against those written values, not against time; --ab must find
# paused above running with an interval that excludes zero, count its
# windows right, and leave the policy as it was, also when killed.
# meson passes SF_FAKE_KMS, SF_PLUGIN, SF_CTL and SF_MAKE_FAKE_TREE.
set -u
. "$(dirname "$0")/lib.sh"

for prog in weston setsid timeout python3; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
[ -x "${SF_CTL:-}" ] || tap_skip_all "SF_CTL does not name stillframectl"
[ -x "${SF_MAKE_FAKE_TREE:-}" ] ||
	tap_skip_all "SF_MAKE_FAKE_TREE does not name sf-make-fake-tree"
fake_battery=$(dirname "$0")/../platform/sf-fake-battery

ctl() {
	WAYLAND_DISPLAY=$WT_SOCKET "$SF_CTL" "$@"
}

status_of() {		# status_of KEY: one value of `stillframectl status`
	ctl status | awk -v k="$1" '$1 == k { print $2; exit }'
}

mode_is() {		# mode_is MHZ: the output runs at MHZ
	wt_dump | grep -q "^output headless mode 1024x640@$1 "
}

power_is() {		# power_is MICROWATTS: the battery reads it, give or
	local now	# take its 100 mW jitter
	now=$(cat "$bat/power_now")
	[ "$now" = $(($1 - 100000)) ] || [ "$now" = $(($1 + 100000)) ]
}

# json FILE KEY: one member of a JSON object.
json() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

# near A B TOL: |A - B| <= TOL, as numbers.
near() {
	awk -v a="$1" -v b="$2" -v t="$3" \
		'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}

cleanup() {
	local status=$?
	wt_stop
	rm -rf "$tmp" "$tree"
	(exit "$status")
	wt__cleanup
}

tmp=$(mktemp -d)
tree=
tap_at_exit cleanup
trap 'exit 130' INT
trap 'exit 143' TERM
# shellcheck disable=SC2034	# read by wt_start
WT_TRAPPED=1

tree=$("$SF_MAKE_FAKE_TREE" --battery Discharging)
[ -n "$tree" ] && [ -d "$tree" ] || tap_bail "sf-make-fake-tree made no tree"
bat=$tree/sys/class/power_supply/BAT0

# Idle stages past the drop to 30 Hz are far away: running idle stays
# at 30 Hz for the whole test.  refresh-dwell (2 s by default) would
# hold the drop after each resume longer than the test's windows.
wt_start measure -l log,stillframe <<-EOF
	[core]
	modules=stillframe.so
	$(wt_ini_still_shell)
	[stillframe]
	outputs=all
	low-refresh-timeout=300
	refresh-dwell=100
	new-window-native=0
	dim-timeout=3600
	standby-timeout=3600
	off-timeout=3600
	platform-root=$tree
EOF
wt_client "$fake_battery" "$bat" fake-kms "$WT_FIFO"

wt_poll 5 "30 Hz and the battery at 6.5 W" \
	eval 'mode_is 30000 && power_is 6500000'
tap_result $? "idle, the panel runs at 30 Hz and the fake battery reads 6.5 W"

# Every reading is 6.4 or 6.6 W, so the minimum and maximum are among
# them and the mean lies between.
ctl measure --root "$tree" --for 2 --interval 0.25 --json \
	>"$tmp/plain.json" 2>"$tmp/plain.err"
tap_result $? "measure --for 2 succeeds on a discharging battery"
tap_ok 'near "$(json "$tmp/plain.json" mean_w)" 6.5 0.1 &&
	near "$(json "$tmp/plain.json" min_w)" 6.5 0.1 &&
	near "$(json "$tmp/plain.json" max_w)" 6.5 0.1' \
	"its mean, minimum and maximum are the 6.5 W written, within the jitter"
tap_is "$(json "$tmp/plain.json" samples)" 9 \
	"it reads at 0, 0.25, ... 2 s: 9 samples"
tap_is "$(json "$tmp/plain.json" energy_w)" None \
	"energy_now did not change, so there is no energy-counter mean"

# --ab: 4 windows of 3.5 s, the first 2 s after each switch dropped
# (the drop to 30 Hz waits low-refresh-timeout, the battery 0.1 s; the
# rest is room for a loaded machine, where the battery's dumps through
# Weston come late: with 1 s, a run beside Chromium tests read a
# running window's first half second at 8 W).  The jitter moves a
# window's mean by 0.1 W at most, and a reading taken before the battery
# followed by 1.5 W over 15 readings, 0.1 W: the means must be the
# written 8 and 6.5 W within 0.2 W.
ctl measure --ab --for 14 --window 3.5 --settle 2 --interval 0.1 --json \
	--root "$tree" >"$tmp/ab.json" 2>"$tmp/ab.err"
tap_result $? "measure --ab --for 14 --window 3.5 succeeds"
[ -s "$tmp/ab.err" ] && tap_diag "$(cat "$tmp/ab.err")"
tap_ok 'near "$(json "$tmp/ab.json" mean_paused_w)" 8 0.2 &&
	near "$(json "$tmp/ab.json" mean_running_w)" 6.5 0.2' \
	"paused reads the 8 W written at 60 Hz, running the 6.5 W at 30 Hz"
tap_ok 'near "$(json "$tmp/ab.json" difference_w)" 1.5 0.4 &&
	awk -v l="$(json "$tmp/ab.json" ci95_low_w)" "BEGIN { exit !(l > 0) }"' \
	"the difference is 1.5 W and its 95% interval excludes zero"
tap_diag "$(cat "$tmp/ab.json")"
tap_is "$(json "$tmp/ab.json" windows_paused) $(json "$tmp/ab.json" windows_running)" \
	"2 2" "14 s in windows of 3.5 s: two paused, two running"
tap_is "$(status_of policy.paused)" false \
	"stillframe runs again afterwards, as it did before"
pauses() {		# how often the policy was paused so far
	grep -c "stillframe: policy paused" "$WT_LOG"
}
tap_is "$(pauses)" 2 "the policy was paused twice, once per paused window"

# Killed in a paused window: the policy is put back all the same.
WAYLAND_DISPLAY=$WT_SOCKET "$SF_CTL" measure --ab --for 60 --window 10 \
	--root "$tree" >"$tmp/killed.out" 2>"$tmp/killed.err" &
measure_pid=$!
wt_poll 5 "measure to pause stillframe" \
	eval '[ "$(status_of policy.paused)" = true ]'
kill -TERM "$measure_pid"
wait "$measure_pid"
tap_is "$?" 130 "measure --ab killed with SIGTERM exits 130"
tap_is "$(status_of policy.paused)" false \
	"and leaves stillframe running, as it found it"
wt_poll 5 "30 Hz and 6.5 W again" eval 'mode_is 30000 && power_is 6500000'
tap_result $? "the panel drops to 30 Hz again, the battery follows"

# Found paused, left paused.
ctl pause
ctl measure --ab --for 2 --window 0.5 --settle 0.1 --interval 0.1 \
	--root "$tree" >"$tmp/paused.out" 2>&1
tap_result $? "measure --ab on a paused stillframe succeeds"
tap_is "$(status_of policy.paused)" true "and leaves it paused"
ctl resume

# On AC the battery reads the charger: refused, the policy untouched.
pauses_before=$(pauses)
echo Charging >"$bat/status"
ctl measure --ab --for 8 --window 2 --settle 0.5 --root "$tree" \
	>"$tmp/charging.out" 2>"$tmp/charging.err"
rc=$?
tap_ok '[ "$rc" = 1 ] && grep -q "the battery is not discharging" "$tmp/charging.err"' \
	"a charging battery is refused with exit 1 and says why"
[ "$rc" = 1 ] || tap_diag "exit $rc" "$(cat "$tmp/charging.out" "$tmp/charging.err")"
tap_is "$(pauses)" "$pauses_before" \
	"without pausing stillframe"
tap_done
