#!/bin/bash
# TAP: a program printing into foot, whose cursor blinks, on Weston 10
# with stillframe, the user idle (issue 25, "nothing but a blink or a
# tick is ever delayed").  stillframe held a blinking surface's frame
# callbacks for the blink's staleness (30 s) while the user was idle;
# foot draws only when a frame callback comes, so each line the program
# printed waited for the held callback, up to 30 s.
#
# Witnesses outside stillframe: the fake-KMS double's repaint log (the
# CLOCK_MONOTONIC times of the repaints that reached the "backend") and
# the screen read back from the buffer last presented (shot).  The
# program (python, on the same clock) logs when it prints each of five
# lines, two seconds apart; each must be followed by a repaint within
# MAX_LATE_MS (a frame, and a wide margin for a loaded machine), and the
# terminal's text area, read back MAX_LATE_MS after the print, must have
# changed since the shot before it.  The text area leaves out the
# terminal's first cells, where the caret blinks.  And the blinks must
# still be held: before the first line and after the last, the output
# repaints at most a few times where stock paints every blink.
# meson passes SF_FAKE_KMS and SF_PLUGIN.
set -u
. "$(dirname "$0")/../weston/lib.sh"

for prog in weston foot python3; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
screen="python3 $(dirname "$0")/screen.py"
BG=c0c0c0
LINES_N=5
MAX_LATE_MS=250
# The caret sits in the first cell of a line: the text area starts
# this far into the window (foot's cells are 7 to 10 pixels wide).
SKIP_PX=32
# foot blinks every 500 ms: unheld, 8 repaints in 4 s.  After a line
# its blinks are painted until it is classed blinking again (four
# blinks on the new row): the quiet after the last line is counted from
# QUIET_AFTER_S on.
QUIET_S=4 QUIET_AFTER_S=3 MAX_QUIET_REPAINTS=2

wt_start rc-foot-writer --use-pixman -l log,stillframe <<-EOF
	[core]
	modules=stillframe.so
	idle-time=0
	$(wt_ini_still_shell)
	panel-position=none
	background-color=0xff$BG
	[stillframe]
	suppress-idle-delay=500
	refresh-switch=never
	dim-timeout=0
	standby-timeout=0
	off-timeout=0
EOF
wt_cmd motion -4000 -4000
mkdir -p "$XDG_CONFIG_HOME/foot"
printf '%s\n' '[cursor]' 'blink=yes' '[colors]' 'foreground=000000' \
	'background=ffffff' >"$XDG_CONFIG_HOME/foot/foot.ini"
prints=$WT_DIR/prints go=$WT_DIR/go
# Once foot is on screen (the test creates GO; counted from the launch,
# a slow start ate the idle time), idle 6 s (foot classed blinking, its
# blinks held), then a line every 2 s; each print time is logged just
# before the line is written.
wt_client foot python3 -u -c '
import os, sys, time
while not os.path.exists(sys.argv[3]):
    time.sleep(0.05)
time.sleep(6)
with open(sys.argv[1], "a") as log:
    for i in range(1, int(sys.argv[2]) + 1):
        log.write("%d\n" % (time.monotonic_ns() // 1000))
        log.flush()
        print("LINE%d %s" % (i, "=" * 40), flush=True)
        time.sleep(2)
time.sleep(60)
' "$prints" "$LINES_N" "$go"

foot_mapped() {
	wt_shot headless "$WT_DIR/map.ppm" &&
		BOX=$($screen window "$WT_DIR/map.ppm" $BG) || return 1
	echo "$BOX" | awk '{ exit !($3 - $1 >= 200 && $4 - $2 >= 100) }'
}
wt_poll 20 "foot on screen" foot_mapped || tap_bail "foot's window did not show"
# shellcheck disable=SC2086	# BOX is four numbers
set -- $BOX
TEXT="$(($1 + SKIP_PX)) $2 $3 $4"
: >"$go"

printed() {
	[ -f "$prints" ] && [ "$(wc -l <"$prints")" -ge "$1" ]
}
# Shots: one before the first line, then one MAX_LATE_MS after each.
# Before the first line: foot has drawn its first frames.
sleep 1
printed 1 && tap_bail "the first line came before foot settled"
wt_shot headless "$WT_DIR/line-0.ppm"
for ((i = 1; i <= LINES_N; i++)); do
	wt_poll 10 "line $i printed" printed "$i" || break
	sleep "$(awk -v ms=$MAX_LATE_MS 'BEGIN { print ms / 1000 }')"
	wt_shot headless "$WT_DIR/line-$i.ppm"
done
# The quiet after the last line: the caret blinks on, held.
sleep $((QUIET_AFTER_S + QUIET_S))
dump=$(wt_dump)

# Every repaint that reached the backend, and every print, in
# microseconds of CLOCK_MONOTONIC.
mapfile -t repaints < <(printf '%s\n' "$dump" |
	awk '$1 == "repaint_log" && $2 == "headless" {
		for (i = 3; i <= NF; i++) print $i }')
mapfile -t times <"$prints"

# late US: how long after US the first repaint came (microseconds), or
# -1 if none did.
late() {
	local r
	for r in "${repaints[@]}"; do
		[ "$r" -ge "$1" ] && { echo $((r - $1)); return; }
	done
	echo -1
}
worst=0 report=
for t in "${times[@]}"; do
	d=$(late "$t")
	report+=" $((d < 0 ? -1 : d / 1000))"
	if [ "$d" -lt 0 ] || [ "$d" -gt $((MAX_LATE_MS * 1000)) ]; then
		worst=-1
	elif [ "$worst" -ge 0 ] && [ "$d" -gt "$worst" ]; then
		worst=$d
	fi
done
tap_ok '[ "${#times[@]}" -eq "$LINES_N" ]' \
	"the program printed ${#times[@]} of $LINES_N lines"
tap_ok '[ "$worst" -ge 0 ]' \
	"each line is followed by a repaint within $MAX_LATE_MS ms (ms:$report)"

# shellcheck disable=SC2086	# TEXT is four numbers
mapfile -t digests < <($screen region $TEXT \
	"$WT_DIR"/line-{0..5}.ppm 2>/dev/null)
changed=0
for ((i = 1; i <= LINES_N; i++)); do
	[ -n "${digests[$i]:-}" ] &&
		[ "${digests[$i]}" != "${digests[$((i - 1))]}" ] &&
		changed=$((changed + 1))
done
tap_ok '[ "$changed" -eq "$LINES_N" ]' \
	"the screen shows each line $MAX_LATE_MS ms after its print: the text area changed $changed of $LINES_N times"

# count FROM TO: repaints in [FROM, TO) microseconds.
count() {
	local r n=0
	for r in "${repaints[@]}"; do
		[ "$r" -ge "$1" ] && [ "$r" -lt "$2" ] && n=$((n + 1))
	done
	echo "$n"
}
first=${times[0]:-0}
last=${times[$((${#times[@]} - 1))]:-0}
before=$(count $((first - QUIET_S * 1000000)) $((first - 100000)))
after=$(count $((last + QUIET_AFTER_S * 1000000)) \
	$((last + (QUIET_AFTER_S + QUIET_S) * 1000000)))
rel=
for r in "${repaints[@]}"; do
	[ "$r" -ge $((first - QUIET_S * 1000000)) ] &&
		rel+=" $(((r - first) / 1000))"
done
tap_diag "repaints, ms from the first line:$rel"
tap_ok '[ "$before" -le $MAX_QUIET_REPAINTS ]' \
	"idle before the first line, the blinks are held: $before repaints in $QUIET_S s"
tap_ok '[ "$after" -le $MAX_QUIET_REPAINTS ]' \
	"idle after the last line, the blinks are held again: $after repaints in $QUIET_S s"
tap_ok 'wt_alive' "weston is alive"
tap_done
