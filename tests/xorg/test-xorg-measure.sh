#!/bin/bash
# TAP: stillframectl --x11 measure --ab with a real Xorg on the dummy
# driver and libstillframe.so, on a fake sysfs tree with a battery
# (sf-make-fake-tree --battery, a test double) whose power_now follows
# the current mode's refresh as xrandr shows it (tests/platform/
# sf-fake-battery, a test double): 5 W plus 50 mW per Hz, 100 mW above
# and below in turns, so 9.251 W paused (85.02 Hz, the native mode) and
# 8.001 W running and idle (60.02 Hz).  --ab pauses and resumes through
# the STILLFRAME extension's SetPaused; the means are checked against
# the written values, and the policy must be running again afterwards,
# also when measure is killed.
set -u
. "$(dirname "$0")/lib.sh"

for tool in Xorg xrandr xdpyinfo python3; do
	command -v "$tool" >/dev/null ||
		tap_skip_all "$tool missing (run scripts/install-deps)"
done
[ -f "${SF_XORG_MODULE:-}" ] || tap_skip_all "SF_XORG_MODULE not built"
[ -x "${SF_X_RAW:-}" ] || tap_skip_all "SF_X_RAW not built"
[ -x "${SF_CTL:-}" ] || tap_skip_all "SF_CTL (stillframectl) not built"
[ -x "${SF_MAKE_FAKE_TREE:-}" ] || tap_skip_all "SF_MAKE_FAKE_TREE not built"
fake_battery=$(dirname "$0")/../platform/sf-fake-battery

# json FILE KEY: one member of a JSON object.
json() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

# near A B TOL: |A - B| <= TOL, as numbers.
near() {
	awk -v a="$1" -v b="$2" -v t="$3" \
		'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}

power_near() {		# power_near MICROWATTS: give or take the jitter
	local now
	now=$(cat "$bat/power_now")
	[ "$now" = $(($1 - 100000)) ] || [ "$now" = $(($1 + 100000)) ]
}

tree=$("$SF_MAKE_FAKE_TREE" --battery Discharging)
[ -n "$tree" ] && [ -d "$tree" ] || tap_bail "no fake tree"
tap_at_exit 'xt_cleanup; rm -rf "$tree"; [ -n "$XT_DIR" ] && [ -z "${XT_KEEP:-}" ] && rm -rf "$XT_DIR"'
bat=$tree/sys/class/power_supply/BAT0

xt_start measure <<-EOF || tap_bail "Xorg did not start"
	Option "Outputs" "all"
	Option "LowRefreshTimeout" "300"
	Option "RefreshDwell" "0"
	Option "PlatformRoot" "$tree"
EOF
xt_client "$fake_battery" "$bat" xrandr

tap_ok "xt_poll 6 'idle at 60 Hz, the battery at 8 W' \
	eval 'current_refresh_is 60.02 && power_near 8001000'" \
	"idle, the dummy runs at 60 Hz and the fake battery reads 8 W"

"$SF_CTL" --x11 measure --ab --for 10 --window 2.5 --settle 1 \
	--interval 0.1 --json --root "$tree" >"$XT_DIR/ab.json" 2>"$XT_DIR/ab.err"
tap_result $? "measure --ab over the STILLFRAME extension succeeds"
tap_diag "$(cat "$XT_DIR/ab.json" "$XT_DIR/ab.err")"
tap_ok 'near "$(json "$XT_DIR/ab.json" mean_paused_w)" 9.251 0.2 &&
	near "$(json "$XT_DIR/ab.json" mean_running_w)" 8.001 0.2' \
	"paused reads the 9.25 W written at 85 Hz, running the 8 W at 60 Hz"
tap_ok 'awk -v l="$(json "$XT_DIR/ab.json" ci95_low_w)" "BEGIN { exit !(l > 0) }"' \
	"the saving's 95% interval excludes zero"
tap_is "$(json "$XT_DIR/ab.json" windows_paused) $(json "$XT_DIR/ab.json" windows_running)" \
	"2 2" "two windows paused, two running"
tap_is "$(status_field paused)" 0 "the policy runs again afterwards"

"$SF_CTL" --x11 measure --ab --for 60 --window 10 --root "$tree" \
	>"$XT_DIR/killed.out" 2>"$XT_DIR/killed.err" &
measure_pid=$!
xt_poll 5 "measure to pause stillframe" status_field_is paused 1
kill -TERM "$measure_pid"
wait "$measure_pid"
tap_is "$?" 130 "measure --ab killed with SIGTERM exits 130"
tap_is "$(status_field paused)" 0 "and leaves the policy running, as it was"
tap_done
