#!/bin/bash
# TAP: the benchmarks' X witness, sf-bench-x --frames, on a stock Xorg
# (no stillframe): what it says reached the screen.  stillframe-check
# judges from its frame lines, so they are checked against what the
# clients are known to draw:
#  1. "screen 1280 1024 32", then a frame listing every tile once;
#  2. xrandr --fb 1290x1030: the screen line again, a frame of all the
#     41 x 33 tiles, the last column and row partial;
#  3. xsetroot -solid red: the tiles' hash is that of a red tile of
#     their size as this script computes it (FNV-1a of 00 00 ff 00 per
#     pixel, as the Weston side hashes), for a whole and partial tiles;
#  4. xclock -update 1 at +200+200: frames of changed tiles, only tiles
#     under the clock, one frame per tick; every frame's N is its number
#     of pairs;
#  5. a key sent through stdin is an input line; times never go back;
#  6. under a compositing manager (xcompmgr: the clock redirected
#     offscreen, the manager paints the root), the clock's ticks still
#     reach the screen as changed tiles, about once a second.
set -u
. "$(dirname "$0")/lib.sh"

for tool in Xorg xdpyinfo xrandr xsetroot xclock python3; do
	command -v "$tool" >/dev/null ||
		tap_skip_all "$tool missing (run scripts/install-deps)"
done
witness=${SF_BENCH_X:-$(dirname "${SF_XORG_MODULE:-.}")/../bench/sf-bench-x}
[ -x "$witness" ] || tap_skip_all "sf-bench-x not built (needs xcb-damage)"

xt_start witness <<<"none" || tap_bail "Xorg did not start"
out=$XT_DIR/frames
mkfifo "$XT_DIR/cmd"
"$witness" --display "$XT_DISPLAY" --frames <"$XT_DIR/cmd" >"$out" \
	2>"$XT_DIR/witness.stderr" &
witness_pid=$!
XT_CLIENT_PIDS+=("$witness_pid")
exec 3>"$XT_DIR/cmd"

# seen AWK_COND: a line of the output matches (awk, on $0).
seen() {
	awk "$1 { found = 1 } END { exit !found }" "$out"
}

# changed_after MS: the frames after that time with changed tiles.
changed_after() {
	awk -v t="$1" '$1 == "frame" && $2 > t && $3 > 0' "$out"
}

xt_poll "$XT_TIMEOUT" "the first frame" seen '$1 == "frame"' ||
	tap_bail "no frame line: $(cat "$XT_DIR/witness.stderr")"
tap_is "$(awk '$1 == "screen"' "$out")" "screen 1280 1024 32" \
	"the screen line: the root's size and 32-pixel tiles"
first=$(awk '$1 == "frame" { print; exit }' "$out")
tap_is "$(echo "$first" | awk '{ print $3, NF - 3 }')" "1280 1280" \
	"the first frame lists 1280 tiles (40 x 32)"
tap_is "$(echo "$first" | awk '{ for (i = 4; i <= NF; i++) {
		split($i, p, ":"); if (!seen[p[1]]++) n++
		if (length(p[2]) != 16 || p[2] !~ /^[0-9a-f]+$/) bad++ }
		print n, bad + 0, $0 ~ / 0:/ && $0 ~ / 1279:/ }')" "1280 0 1" \
	"every index 0..1279 once, each with 16 hex digits"

# 2. A screen whose edge tiles are partial: 1290 = 40 * 32 + 10,
# 1030 = 32 * 32 + 6.
xrandr --display "$XT_DISPLAY" --fb 1290x1030
tap_ok "xt_poll $XT_TIMEOUT 'the new screen line' seen '\$0 == \"screen 1290 1030 32\"'" \
	"xrandr --fb: the screen line again"
tap_ok "xt_poll $XT_TIMEOUT 'a frame of 1353 tiles' seen '\$1 == \"frame\" && \$3 == 1353'" \
	"then a frame of all 41 x 33 tiles"

# 3. A solid root: the hash as specified, for each size of tile.
# red W H: the hash of a red tile of W x H pixels.
red() {
	python3 -c '
import sys
h = 0xcbf29ce484222325
for b in bytes([0, 0, 0xff, 0]) * int(sys.argv[1]) * int(sys.argv[2]):
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print("%016x" % h)' "$1" "$2"
}
want="$(red 32 32) $(red 10 32) $(red 32 6) $(red 10 6)"
DISPLAY=$XT_DISPLAY xsetroot -solid red
# last_hash IDX: the tile's last hash in the output.
last_hash() {
	awk -v i="$1" '$1 == "frame" { for (k = 4; k <= NF; k++) {
		split($k, p, ":"); if (p[1] == i) h = p[2] } }
		END { print h }' "$out"
}
# last_ink IDX: the tile's last ink (its pixels not of its most common
# colour) in the output.
last_ink() {
	awk -v i="$1" '$1 == "frame" { for (k = 4; k <= NF; k++) {
		split($k, p, ":"); if (p[1] == i) n = p[3] } }
		END { print n }' "$out"
}
# corners: the hashes of the tiles 0, 40, 1312 and 1352.
corners() {
	echo "$(last_hash 0) $(last_hash 40) $(last_hash 1312) $(last_hash 1352)"
}
tap_ok "xt_poll $XT_TIMEOUT 'a red screen' eval '[ \"\$(corners)\" = \"$want\" ]'" \
	"xsetroot -solid red: the corner tiles (32x32, 10x32, 32x6, 10x6) hash as red ones" ||
	tap_diag "got $(corners), want $want"
tap_is "$(last_ink 0) $(last_ink 1352)" "0 0" \
	"a solid tile has no ink, whole or partial"

# 4. The clock's ticks: its tiles only (100x100 at 200,200, no window
# manager: columns and rows 6 to 9).
before=$(awk 'END { print $2 }' "$out")
xt_client xclock -update 1 -geometry 100x100+200+200
tap_ok "xt_poll 15 '3 frames of the clock' eval '[ \$(changed_after $before | wc -l) -ge 3 ]'" \
	"xclock -update 1: frames with changed tiles"
outside=$(changed_after "$before" | awk '{ for (i = 4; i <= NF; i++) {
	split($i, p, ":"); c = p[1] % 41; r = int(p[1] / 41)
	if (c < 6 || c > 9 || r < 6 || r > 9) print p[1] } }')
tap_is "$outside" "" "the changed tiles are the clock's"
inked=$(changed_after "$before" | awk '{ for (i = 4; i <= NF; i++) {
	split($i, p, ":"); if (p[3] > 0) n++ } } END { print n + 0 }')
tap_ok '[ "$inked" -gt 0 ]' "the clock's hands are ink ($inked tiles with some)"
# A top-level's damage has its tiles read as well as the root's (whose
# notifies may reach the witness later); the root's, coming after, are
# not a second, empty frame of the same tick.  From a second after the
# window's first frame: mapping it is drawn in several requests.
doubled=$(awk -v t="$before" '$1 == "frame" && $2 > t {
	if (!first && $3 > 0) first = $2
	if (first && $2 > first + 1000 && $3 == 0 && last && $2 - last < 100)
		print substr(lastline, 1, 40) " | " $0
	if ($3 > 0) { last = $2; lastline = $0 } }' "$out")
tap_is "$doubled" "" "one frame per tick, none empty just after it"

# 5. Input and the order of time.
echo "key 38" >&3
tap_ok "xt_poll $XT_TIMEOUT 'the input line' seen '\$1 == \"input\" && \$3 == \"key\" && \$4 == 38'" \
	"key 38 through stdin is an input line"

# 6. A compositing manager: the clock now draws offscreen, and what the
# screen shows is the manager's painting of the root.
if command -v xcompmgr >/dev/null; then
	before=$(awk 'END { print $2 }' "$out")
	xt_client xcompmgr
	compositor=$XT_LAST_PID
	# Without a background property it paints its own grey.
	tap_ok "xt_poll $XT_TIMEOUT 'xcompmgr to paint' eval '[ -n \"\$(changed_after $before | awk \"\\\$3 > 1000\")\" ]'" \
		"xcompmgr's first painting of the root changes the screen"
	since=$(changed_after "$before" | awk '$3 > 1000 { print $2; exit }')
	# About once a second: frames of changed tiles more than half a
	# second after the last (a repaint may take two batches).
	ticks() {
		changed_after "$since" | awk '
			NR == 1 || $2 - t > 500 { n++ } { t = $2 }
			END { print n + 0 }'
	}
	tap_ok "xt_poll 15 'ticks under xcompmgr' eval '[ \$(ticks) -ge 3 ]'" \
		"under xcompmgr, the clock's ticks still change tiles, 3 apart" ||
		tap_diag "$(changed_after "$since" | cut -c 1-80)"
	tap_ok "kill -0 $compositor" "xcompmgr is still running"
else
	tap_skip "under a compositing manager" "xcompmgr is not installed"
fi

echo quit >&3
exec 3>&-
wait "$witness_pid"
tap_result $? "the witness exits 0 on quit"

tap_is "$(awk '$1 == "frame" && $3 != NF - 3' "$out")" "" \
	"every frame's N is its number of pairs"
tap_is "$(awk '$1 != "screen" { if ($2 + 0 < t) print; t = $2 }' "$out")" "" \
	"the times never go back"
tap_is "$(awk '$1 == "error"' "$out")" "" "no error line"
xt_stop
tap_done
