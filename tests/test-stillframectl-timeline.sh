#!/bin/sh
# SPDX-License-Identifier: MIT
# stillframectl timeline on the demo scenario's trace and on a hand-written
# two-output trace: the SVG's structure matches the trace
# (check-timeline.py), options reach the replay, and bad traces, options
# and output paths get clear errors.  TAP.
set -u
ctl=$1
replay=$2
srcdir=$3
traces=$srcdir/traces
check_svg="python3 $srcdir/check-timeline.py"
tmp=$(mktemp -d)
. "$srcdir/tap.sh"
tap_at_exit 'rm -rf "$tmp"'
. "$srcdir/cli-lib.sh"

# count PATTERN FILE: lines of FILE matching PATTERN.
count() {
	grep -c -- "$1" "$2"
}

"$replay" --scenario demo --dump > "$tmp/demo.trace" &&
	expect 0 timeline "$tmp/demo.trace" -o "$tmp/demo.svg" &&
	[ ! -s "$tmp/out" ] && $check_svg "$tmp/demo.svg" "$tmp/demo.trace" eDP-1
tap_result $? "the demo scenario's trace gives an SVG that matches it"

grep -q 'class="run state-standby' "$tmp/demo.svg" &&
	grep -q 'class="run state-off' "$tmp/demo.svg" &&
	grep -q 'class="run reclock-low' "$tmp/demo.svg" &&
	grep -q 'class="bar suppressed' "$tmp/demo.svg"
tap_result $? "the demo's long idle shows standby, off, low clocks and held repaints"

expect 0 timeline -o "$tmp/two.svg" "$traces/two-outputs.trace" &&
	$check_svg "$tmp/two.svg" "$traces/two-outputs.trace" eDP-1 HDMI-A-1
tap_result $? "a hand-written trace with two outputs gives a lane per output"

grep -q 'class="refresh-label"[^>]*>40 Hz<' "$tmp/two.svg" &&
	grep -q 'class="refresh-label"[^>]*>30 Hz<' "$tmp/two.svg" &&
	[ "$(count 'class="input-mark input-pointer"' "$tmp/two.svg")" = 5 ] &&
	[ "$(count 'class="input-mark input-touch"' "$tmp/two.svg")" = 1 ] &&
	grep -q 'class="run reclock-low' "$tmp/two.svg"
tap_result $? "each output's lower refresh, each kind of input, low clocks"

! $check_svg "$tmp/demo.svg" "$traces/two-outputs.trace" > "$tmp/mismatch" &&
	grep -q 'input marks for 9 input events' "$tmp/mismatch" &&
	grep -q 'time axis ends at 705.000 s, the trace at 60.000 s' "$tmp/mismatch"
tap_result $? "the structure check fails on an SVG of another trace"

expect 0 timeline --option reclock=false --title 'A <test> & more' \
	"$traces/two-outputs.trace" -o - &&
	! grep -q 'reclock-low' "$tmp/out" &&
	grep -q '<title>A &lt;test&gt; &amp; more</title>' "$tmp/out" &&
	$check_svg "$tmp/out" "$traces/two-outputs.trace"
tap_result $? "--option reaches the replay, --title is escaped, -o - is stdout"

expect 1 timeline "$tmp/missing.trace" -o "$tmp/missing.svg" &&
	grep -q "timeline: $tmp/missing.trace: No such file or directory" \
		"$tmp/err" && [ ! -e "$tmp/missing.svg" ]
tap_result $? "a missing trace is named with the reason"

expect 1 timeline "$traces/bad-line.trace" -o "$tmp/bad.svg" &&
	grep -q 'bad-line.trace:4: damage "1,2,3" is not X,Y,WIDTHxHEIGHT' \
		"$tmp/err" && [ ! -e "$tmp/bad.svg" ]
tap_result $? "a bad trace line is named by its line number, and no SVG is left"

expect 1 timeline "$traces/unknown-surface.trace" -o "$tmp/bad.svg" &&
	grep -q 'surface 5 does not exist' "$tmp/err" &&
	grep -q 'unknown-surface.trace:3: event rejected' "$tmp/err"
tap_result $? "an event the replay refuses is named by its line number"

expect 1 timeline "$traces/two-outputs.trace" -o "$tmp/no/such/dir/t.svg" &&
	grep -q "timeline: $tmp/no/such/dir/t.svg: No such file or directory" \
		"$tmp/err"
tap_result $? "an output path that cannot be written is named with the reason"

expect 2 timeline "$traces/two-outputs.trace" &&
	grep -q 'missing -o FILE.svg' "$tmp/err" &&
	expect 2 timeline -o "$tmp/x.svg" && grep -q 'missing TRACE' "$tmp/err" &&
	expect 2 timeline --option bogus-key=1 "$traces/two-outputs.trace" \
		-o "$tmp/x.svg" && grep -q 'bogus-key' "$tmp/err" &&
	expect 2 timeline - -o "$tmp/x.svg" &&
	grep -q 'TRACE must be a file' "$tmp/err"
tap_result $? "bad options and operands are usage errors"

tap_done
