#!/bin/sh
# stillframe-replay on files: exit codes, error messages with file:line,
# the report table and the status output.  TAP output.
set -u
replay=$1
srcdir=$2
tmp=$(mktemp -d)
. "$(dirname "$0")/tap.sh"
tap_at_exit 'rm -rf "$tmp"'

"$replay" --scenario demo --dump > "$tmp/demo.trace"
head -n 1 "$tmp/demo.trace" | grep -qx 'stillframe-trace 1'
tap_result $? "dump starts with the header"

"$replay" --report 0 --status "$tmp/demo.trace" > "$tmp/out" 2>&1
tap_result $? "the dumped demo replays"

grep -q '^output.eDP-1.repaints [0-9]' "$tmp/out" &&
	grep -q 'an estimate from the energy model' "$tmp/out"
tap_result $? "status and labelled estimate printed"

"$replay" --changes-only --scenario demo > "$tmp/table" 2>&1 &&
	grep -q 'low-refresh' "$tmp/table" && grep -q '48.00Hz' "$tmp/table" &&
	grep -q 'more seconds like the line above' "$tmp/table"
tap_result $? "report table shows the decisions"

"$replay" "$srcdir/traces/bad-line.trace" > "$tmp/bad" 2>&1
[ $? = 1 ] && grep -q 'bad-line.trace:4: damage "1,2,3" is not X,Y,WIDTHxHEIGHT' "$tmp/bad"
tap_result $? "a bad line names file, line and problem"

"$replay" "$srcdir/traces/unknown-surface.trace" > "$tmp/bad" 2>&1
[ $? = 1 ] && grep -q 'unknown-surface.trace:3: event rejected' "$tmp/bad" &&
	grep -q 'surface 5 does not exist' "$tmp/bad"
tap_result $? "an event that does not fit is refused with its line"

"$replay" -o low-refresh-timeout=5 --scenario demo > "$tmp/bad" 2>&1
[ $? = 2 ] && grep -q 'low-refresh-timeout' "$tmp/bad" && grep -q '100..600000' "$tmp/bad"
tap_result $? "a bad option names key and range"

"$replay" "$tmp/does-not-exist" > "$tmp/bad" 2>&1
[ $? = 1 ] && grep -q 'No such file' "$tmp/bad"
tap_result $? "a missing file is reported"

"$replay" -o low-refresh-timeout=5000 --report 0 --verbose "$srcdir/traces/blink.trace" > "$tmp/blink" 2>&1 &&
	grep -q 'low-refresh (timeout)' "$tmp/blink" && grep -q 'blinking' "$tmp/blink"
tap_result $? "options change decisions and verbose logs say why"

tap_done
