#!/bin/bash
# TAP: a GTK entry (zenity --entry, focused on map) on Weston with
# stillframe, against stock Weston (issue 25, finding 2).  GTK 3 blinks
# its caret 800 ms on, 400 ms off, and stops blinking after 10 s with the
# caret shown.  stillframe held a blink in whatever state it was in: a
# held "caret on" commit over a screen showing it off, its frame
# callbacks throttled for 30 s, so the entry showed no caret from GTK's
# stop until the staleness deadline.
#
# Witnesses outside stillframe: the screen, read back by the fake-KMS
# double from the buffer last presented (shot), and its repaint count.
# The stock run gives the picture of the entry once GTK has stopped (the
# caret shown, by GTK's rule); with stillframe the window must show
# exactly that picture all along after GTK stopped, and the blinks
# before must still have been held (few repaints, where stock paints
# each).  The window is found on the plain background wherever
# desktop-shell put it; the pointer is moved into the corner first.
# meson passes SF_FAKE_KMS and SF_PLUGIN.
set -u
. "$(dirname "$0")/../weston/lib.sh"
. "$(dirname "$0")/rc-lib.sh"

for prog in weston zenity python3 md5sum; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
screen="python3 $(dirname "$0")/screen.py"
# zenity 4 (Debian 13 and later) is a GTK 4 program, and GTK 4 does not
# blink its caret: it fades it out and in, a quarter of each 1.2 s cycle
# each way, redrawn at the frame rate (gtktext.c's blink_alpha), then
# shows it for good after the same 10 s.  Those fades are an animation,
# which stillframe paints (it holds two-state blinks only): the checks
# of held blinks are GTK 3's; what GTK 4 leaves on screen once it stops
# is checked all the same.
gtk4=false
ldd "$(command -v zenity)" 2>/dev/null | grep -q 'libgtk-4' && gtk4=true
BG=c0c0c0
# GTK stops 10 s after focus; its last frame is due then.
SETTLED=12

# start_entry NAME MODULES: weston (pixman, to read the screen back),
# then zenity; sets MAP_MS, when the window got the keyboard focus, and
# BOX, where it is on screen.
start_entry() {
	wt_start "$1" --use-pixman -l log,stillframe <<<"$(rc_weston_ini "$2" $BG)"
	wt_cmd motion -4000 -4000
	wt_client env GDK_BACKEND=wayland GSETTINGS_BACKEND=memory \
		NO_AT_BRIDGE=1 WAYLAND_DEBUG=client \
		zenity --entry --text=caret --title=caret
	ENTRY_LOG=$WT_LAST_LOG
	# GTK's 10 s count starts when the entry gets the keyboard focus:
	# the client's own protocol log says when, at once, where a screen
	# read (a python start each) can lag seconds on a loaded machine.
	wt_poll 20 "the entry focused" entry_focused ||
		tap_bail "zenity's window got no keyboard focus"
	wt_poll 20 "the entry on screen" entry_mapped ||
		tap_bail "zenity's window did not show"
}

entry_focused() {
	# WAYLAND_DEBUG names objects iface@id up to libwayland 1.22,
	# iface#id from 1.23 on.
	grep -q 'wl_keyboard[@#][0-9]*\.enter' "$ENTRY_LOG" || return 1
	MAP_MS=$(wt__now_ms)
}

# The window on the background: desktop-shell's background drawn (not
# the whole screen differs) and a window-sized box on it.
entry_mapped() {
	rc_weston_box $BG || return 1
	echo "$BOX" | awk '{ w = $3 - $1; h = $4 - $2;
		exit !(w >= 100 && h >= 50 && w < 1000 && h < 600) }'
}

# regions FILE...: the window's pixels in each shot, as digests.
regions() {
	# shellcheck disable=SC2086	# BOX is four numbers
	$screen region $BOX "$@"
}

wait_until_ms() {
	local left=$(($1 - $(wt__now_ms)))
	[ "$left" -gt 0 ] && sleep "$(awk -v ms="$left" 'BEGIN { print ms / 1000 }')"
	return 0
}

# --- stock: the picture after GTK stopped, and its repaints ---
start_entry rc-gtk-stock stillframe-test-fake-kms.so
wait_until_ms $((MAP_MS + 4000))
r0=$(rc_repaints)
wait_until_ms $((MAP_MS + 10000))
stock_blink_repaints=$(($(rc_repaints) - r0))
wait_until_ms $((MAP_MS + SETTLED * 1000))
wt_shot headless "$WT_DIR/stock.ppm"
sleep 1
wt_shot headless "$WT_DIR/stock2.ppm"
want=$(regions "$WT_DIR/stock.ppm")
again=$(regions "$WT_DIR/stock2.ppm")
tap_ok '[ -n "$want" ] && [ "$want" = "$again" ]' \
	"stock: the entry is still once GTK stopped blinking (window $BOX)"
stock_box=$BOX
# Kept past wt_stop, which removes the run's directory.
stock_shot=$(mktemp "${TMPDIR:-/tmp}/rc-gtk-stock.XXXXXX") ||
	tap_bail "mktemp failed"
tap_at_exit 'rc=$?; rm -f "$stock_shot"; (exit "$rc"); wt__cleanup'
cp "$WT_DIR/stock.ppm" "$stock_shot"
wt_stop

# --- stillframe ---
start_entry rc-gtk-sf stillframe.so
# The window is found where the screen leaves the background: GTK's
# translucent shadow comes out a few levels apart from one repaint to
# the next (pixman, see above), so its outer pixel may count or not, up
# to 3 px on each side (a CI run: 244x201 stock, 240x197 here).
tap_ok "echo $BOX $stock_box | awk '{
	dw = (\$3 - \$1) - (\$7 - \$5); dh = (\$4 - \$2) - (\$8 - \$6)
	exit !(dw <= 6 && dw >= -6 && dh <= 6 && dh >= -6) }'" \
	"the same window as stock ($BOX, stock $stock_box)"
wait_until_ms $((MAP_MS + 4000))
r0=$(rc_repaints)
wait_until_ms $((MAP_MS + 10000))
sf_blink_repaints=$(($(rc_repaints) - r0))
if $gtk4; then
	tap_skip "idle, the blinks are held ($sf_blink_repaints repaints in 6 s, stock $stock_blink_repaints)" \
		"zenity is GTK 4, which fades its caret: no blink to hold"
else
	tap_ok '[ "$stock_blink_repaints" -ge 5 ] &&
		[ $((3 * sf_blink_repaints)) -le "$stock_blink_repaints" ]' \
		"idle, the blinks are held: $sf_blink_repaints repaints in 6 s (stock $stock_blink_repaints)"
fi

# After GTK stopped: the caret on screen, sample after sample, as stock.
wait_until_ms $((MAP_MS + SETTLED * 1000))
samples=()
while [ "$(wt__now_ms)" -lt $((MAP_MS + (SETTLED + 8) * 1000)) ]; do
	at=$(($(wt__now_ms) - MAP_MS))
	wt_shot headless "$WT_DIR/sample-$at.ppm" &&
		samples+=("$WT_DIR/sample-$at.ppm")
	sleep 0.3
done
# Against stock's picture, pixel by pixel within what an eye can tell
# (screen.py's TOLERANCE): the window's translucent shadow, drawn by
# pixman in other pieces when other damage clipped the repaint, came
# out a level or three apart, with the caret shown as stock shows it.
bad=0 first_bad=
while read -r shot differing; do
	[ "$differing" = 0 ] && continue
	bad=$((bad + 1))
	[ -n "$first_bad" ] ||
		first_bad=$(basename "$shot" .ppm | sed 's/^sample-//')
done < <(paste -d ' ' <(printf '%s\n' "${samples[@]}") \
		<($screen differ $BOX "$stock_shot" "${samples[@]}"))
samples=${#samples[@]}
tap_ok '[ "$samples" -ge 8 ] && [ "$bad" = 0 ]' \
	"after GTK stopped blinking the entry shows its caret as stock does ($bad of $samples samples from ${SETTLED} s to $((SETTLED + 8)) s differ${first_bad:+, the first at $first_bad ms})"
if $gtk4; then
	tap_skip "stillframe saw the entry blink" \
		"zenity is GTK 4, which fades its caret: no blink to see"
else
	tap_ok 'grep -Eq "surface [0-9]+ \(zenity\): static -> blinking" "$WT_LOG"' \
		"stillframe saw the entry blink"
fi
tap_ok 'wt_alive' "weston is alive"
tap_done
