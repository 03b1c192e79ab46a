#!/bin/bash
# TAP: stillframectl fbc --screen on a real headless Weston (with the
# fake-KMS test double and stillframe.so), through Weston's
# weston_capture_v1 (13 and later) or weston_screenshooter (10).  desktop-shell shows a generated gradient as its
# background, without a panel, so the screen is the picture: the shot
# has the output's size, estimates as the image file does, and a
# vertical gradient on screen compresses far better than a horizontal
# one.  Without --debug Weston refuses the screenshooter and fbc says to
# run it with --debug.
# meson passes SF_FAKE_KMS, SF_PLUGIN and SF_CTL.
set -u
. "$(dirname "$0")/lib.sh"

for prog in weston setsid timeout python3; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
[ -x "${SF_CTL:-}" ] || tap_skip_all "SF_CTL does not name stillframectl"
make_image="python3 $(dirname "$0")/../make-test-image.py"

ctl() {
	WAYLAND_DISPLAY=$WT_SOCKET "$SF_CTL" "$@"
}

# json FILE KEY: one member of a JSON object.
json() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

# shot_below FILE KEY LIMIT: a shot, into FILE, whose KEY is below
# LIMIT.  Before desktop-shell has drawn, the screen is one plain colour,
# which compresses well both ways; a vertical gradient does not turned
# a quarter (turned_ratio), a horizontal one does not as it is (ratio).
shot_below() {
	ctl fbc --screen --json >"$1" 2>"$1.err" &&
		awk -v r="$(json "$1" "$2")" -v l="$3" \
			'BEGIN { exit !(r < l) }'
}

# start_with BACKGROUND [WESTON-ARG...]: weston with desktop-shell
# showing BACKGROUND (1024x640, the headless size) and no panel, on
# the pixman renderer: the headless backend's default, noop, paints
# nothing to capture.
start_with() {
	local image=$1
	shift
	wt_start fbc-screen --use-pixman "$@" <<-EOF
		[core]
		modules=stillframe.so
		$(wt_ini_still_shell)
		panel-position=none
		background-image=$image
		background-type=scale-crop
	EOF
}

cleanup() {
	local status=$?
	wt_stop
	rm -rf "$tmp"
	(exit "$status")
	wt__cleanup
}

tmp=$(mktemp -d)
tap_at_exit cleanup
trap 'exit 130' INT
trap 'exit 143' TERM
# shellcheck disable=SC2034	# read by wt_start
WT_TRAPPED=1

$make_image vertical 1024 640 "$tmp/vertical.png"
$make_image horizontal 1024 640 "$tmp/horizontal.png"
"$SF_CTL" fbc --json "$tmp/vertical.png" >"$tmp/vertical-file.json"
"$SF_CTL" fbc --json "$tmp/horizontal.png" >"$tmp/horizontal-file.json"

start_with "$tmp/vertical.png" --debug
wt_poll 10 "the vertical gradient on screen" \
	shot_below "$tmp/vertical.json" turned_ratio 2
tap_result $? "fbc --screen captures Weston's screen once it shows the vertical gradient"
# The output's name where Weston offers wl_output 4 (13 and later),
# else its make and model (Weston 10).
tap_like "$(json "$tmp/vertical.json" output) $(json "$tmp/vertical.json" width)x$(json "$tmp/vertical.json" height)" \
	'^(headless|weston headless) 1024x640$' \
	"the shot is the output's (its name, or make and model), at its size"
# The pointer's sprite is painted into the frame (the headless backend
# has no cursor plane) and breaks the runs of the lines it covers.
screen_ratio=$(json "$tmp/vertical.json" ratio)
file_ratio=$(json "$tmp/vertical-file.json" ratio)
tap_ok 'awk -v s="$screen_ratio" -v f="$file_ratio" \
	"BEGIN { exit !(s <= f && s >= 0.8 * f) }"' \
	"the screen estimates as the image file does, but for the pointer ($screen_ratio x, the file $file_ratio x)"
ctl fbc --screen >"$tmp/vertical.txt" 2>&1
tap_like "$(head -n 1 "$tmp/vertical.txt")" '^output: (weston )?headless, 1024x640$' \
	"the text report names the output"
wt_stop

start_with "$tmp/horizontal.png" --debug
wt_poll 10 "the horizontal gradient on screen" \
	shot_below "$tmp/horizontal.json" ratio 20
tap_result $? "and once Weston shows the horizontal one"
vertical=$(json "$tmp/vertical.json" ratio)
horizontal=$(json "$tmp/horizontal.json" ratio)
tap_ok 'awk -v v="$vertical" -v h="$horizontal" "BEGIN { exit !(v > 10 * h) }"' \
	"the vertical gradient compresses ten times better ($vertical x against $horizontal x)"
tap_is "$(json "$tmp/horizontal.json" advice)" turn \
	"and the horizontal one gets the advice to turn it"

# A capture waits for the output's next frame: while stillframe holds
# the frames of an idle foot's blinks, that frame must still be
# painted, or the shot would wait for the hold's deadline (30 s, past
# fbc's 10 s).  Witness: the shot itself, and the fake-KMS repaint it
# took.
suppressed() {
	WAYLAND_DISPLAY=$WT_SOCKET timeout 5 "$SF_CTL" status 2>/dev/null |
		awk '$1 == "output.headless.suppressed" { print $2 }'
}
repaints() {
	wt_dump | awk '$1 == "output" && $2 == "headless" {
		for (i = 3; i < NF; i++) if ($i == "repaints") print $(i + 1) }'
}
mkdir -p "$XDG_CONFIG_HOME/foot"
printf '[cursor]\nblink=yes\n' >"$XDG_CONFIG_HOME/foot/foot.ini"
wt_client foot sh -c 'sleep 600'
# Held twice in a row: foot is mapped, classed and idle.
held_again() {
	local a b
	a=$(suppressed) && [ "${a:-0}" -gt 0 ] && sleep 1.2 &&
		b=$(suppressed) && [ "${b:-0}" -gt "$a" ]
}
if wt_poll 20 "foot's blinks held" held_again; then
	before=$(repaints)
	ctl fbc --screen --json >"$tmp/held.json" 2>"$tmp/held.err"
	rc=$?
	after=$(repaints)
	tap_is "$rc" 0 "while foot's blinks are held, fbc --screen still gets its shot"
	[ -s "$tmp/held.err" ] && tap_diag "$(cat "$tmp/held.err")"
	tap_ok '[ "${after:-0}" -gt "${before:-0}" ]' \
		"through a painted frame (fake-KMS repaints $before -> $after)"
else
	tap_result 1 "while foot's blinks are held, fbc --screen still gets its shot"
	tap_result 1 "through a painted frame"
fi
wt_stop

start_with "$tmp/vertical.png"
ctl fbc --screen >"$tmp/refused.out" 2>"$tmp/refused.err"
rc=$?
tap_is "$rc" 1 "without --debug, fbc --screen exits 1"
tap_ok 'grep -q "run weston with --debug" "$tmp/refused.err" && [ ! -s "$tmp/refused.out" ]' \
	"and says to run weston with --debug"
[ -s "$tmp/refused.err" ] && tap_diag "$(cat "$tmp/refused.err")"
tap_done
