#!/bin/bash
# TAP: the fake-KMS test double (stillframe-test-fake-kms.so) on a real
# headless Weston with real clients, before any stillframe code is
# involved: its seat, its modes, its input injection, its hooks and its
# repaint counter.  SF_FAKE_KMS names the module (meson passes it).
set -u
. "$(dirname "$0")/lib.sh"

for prog in weston wayland-info foot setsid timeout; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done

# field KEY LINE: the word after KEY in a dump line.
field() {
	printf '%s\n' "$2" | awk -v k="$1" '{
		for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit }
	}'
}

output_line() {
	wt_dump | grep '^output headless '
}

repaints_above() {	# repaints_above N: the repaint count is above N
	local n
	n=$(field repaints "$(output_line)")
	[ -n "$n" ] && [ "$n" -gt "$1" ]
}

# ---- the default desktop shell, no idling during the test ----
# desktop-shell animates by default: a fade-in for about a second after
# start and a fade-out when a window closes, some 40 repaints each, which
# would hide foot's.
wt_start fake-kms <<-EOF
	[shell]
	startup-animation=none
	close-animation=none
	animation=none
EOF

tap_ok wt_alive "weston runs with the fake-KMS double"
tap_ok "grep -q 'fake-kms: TEST DOUBLE standing in for a KMS backend' \
	\"\$WT_LOG\"" "the log says it is a test double standing in for KMS"

info=$(wt_run wayland-info 2>&1)
seat=$(printf '%s\n' "$info" |
	awk '/^interface: .wl_seat/ { s = 1 }
	     s && /capabilities:/ { print; exit }')
tap_like "$(printf '%s\n' "$info" | grep -A1 "interface: 'wl_seat'")" \
	'name: stillframe-test' "wayland-info lists the seat stillframe-test"
tap_like "$seat" 'capabilities:.*pointer.*keyboard' \
	"the seat has pointer and keyboard"
tap_is "$(printf '%s\n' "$info" | wt_modes_of | tr '\n' ';')" \
	"120.000;60.000 current preferred;48.000;30.000;" \
	"the output has 120, 60 (current, preferred), 48 and 30 Hz modes"

state=$(output_line)
tap_like "$state" \
	'^output headless mode 1024x640@60000 dpms on repaints [0-9]+ '\
'mode_switches 0 planes [0-9]+ stray_planes 0$' \
	"dump: 60 Hz, dpms on, no mode switch, no stray plane assignment"

# Input, end to end: weston-eventdemo prints what it receives.  Made
# larger than the output, desktop-shell puts it at the work area's
# corner, under the pointer.
if command -v weston-eventdemo >/dev/null && command -v stdbuf >/dev/null
then
	wt_client stdbuf -oL weston-eventdemo --width=2000 --height=2000 \
		--log-key --log-button --log-motion
	demo_pid=$WT_LAST_PID
	demo_log=$WT_LAST_LOG
	# Nudge the pointer until the client, once mapped, reports motion;
	# desktop-shell has given it keyboard focus on mapping by then.
	nudge() {
		wt_cmd motion 10 10
		sleep 0.05
		grep -q '^motion ' "$demo_log"
	}
	tap_ok "wt_poll \$WT_TIMEOUT 'motion at the client' nudge" \
		"motion reaches the client under the pointer"
	wt_cmd button
	wt_cmd key 30
	seen() {	# seen ERE...: the client has logged every one
		local re
		for re in "$@"; do
			grep -Eq -- "$re" "$demo_log" || return 1
		done
	}
	tap_ok "wt_poll \$WT_TIMEOUT 'button at the client' seen \
		'button: 272, state: pressed' 'button: 272, state: released'" \
		"button presses and releases BTN_LEFT (272)"
	tap_ok "wt_poll \$WT_TIMEOUT 'key at the client' seen \
		'key: 30, .*state: pressed' 'key: 30, .*state: released'" \
		"key 30 presses and releases KEY_A at the focused client"
	wt_client_stop "$demo_pid"
else
	for t in motion button key; do
		tap_skip "$t reaches a client" \
			"weston-eventdemo not installed"
	done
fi

wt_cmd touch 100 100
output_line >/dev/null		# a barrier: commands run in order
tap_ok "! grep -q 'fake-kms: bad command' \"\$WT_LOG\"" \
	"touch 100 100 is accepted"

# Bad commands: logged, ignored, weston lives.
wt_cmd frobnicate
wt_cmd motion 1
wt_cmd key 99999
wt_cmd button 1 2
wt_cmd switch nowhere 1x1@1
printf '%02000d\n' 0 >"$WT_FIFO"	# longer than a line may be
output_line >/dev/null
tap_is "$(grep -c 'fake-kms: bad command' "$WT_LOG")" 6 \
	"six bad commands, six log lines"
tap_ok wt_alive "weston survives them"

# foot, blinking its cursor, keeps the (fake) KMS busy.  Cursor blinking
# is what makes foot repaint while nothing else happens.
# -d info: foot 1.21 (Debian 13) logs its outputs only at level info.
wt_client foot -d info -o cursor.blink=yes sh -c 'sleep 60'
foot_pid=$WT_LAST_PID
foot_log=$WT_LAST_LOG
if wt_poll "$WT_TIMEOUT" "foot to see the output" \
	grep -q 'headless: 1024x640' "$foot_log"; then
	tap_result 0 "foot starts and sees the output"
else
	tap_result 1 "foot starts and sees the output"
	tap_diag "foot's log:" "$(cat "$foot_log")"
fi
# Mapping foot costs a couple of repaints; after that only the blinking
# cursor (about two a second) repaints: with cursor.blink=no the count
# stays put and this fails.
base=$(field repaints "$(output_line)")
wt_poll "$WT_TIMEOUT" "foot's first frames" repaints_above $((base + 1))
base=$(field repaints "$(output_line)")
tap_ok "wt_poll \$WT_TIMEOUT 'four more repaints' \
	repaints_above \$((base + 3))" \
	"the repaint count keeps growing while foot is mapped and blinks"
if wt_client_alive "$foot_pid"; then
	tap_result 0 "foot stays up"
else
	tap_result 1 "foot stays up"
	tap_diag "foot's log:" "$(cat "$foot_log")"
fi

# Weston assigns planes once per repaint; without a module holding
# frames, the double counts as many assignments as repaints, none stray.
state=$(output_line)
tap_ok '[ "$(field planes "$state")" = "$(field repaints "$state")" ] &&
	[ "$(field stray_planes "$state")" = 0 ]' \
	"each plane assignment is followed by its repaint"

# The switch_mode hook, driven as fullscreen-shell drives it.
wt_cmd switch headless 1024x640@30000
state=$(output_line)
tap_like "$state" 'mode 1024x640@30000 .* mode_switches 1 planes' \
	"a temporary switch to 30 Hz makes it current"
tap_is "$(wt_run wayland-info 2>&1 | wt_modes_of | tr '\n' ';')" \
	"120.000;60.000 preferred;48.000;30.000 current;" \
	"clients binding wl_output now see 30 Hz current"
wt_cmd switch headless 800x600@60000
tap_like "$(output_line)" 'mode 1024x640@30000 .* mode_switches 1 planes' \
	"a mode not in the list is refused and changes nothing"
wt_cmd switch headless native
tap_like "$(output_line)" 'mode 1024x640@60000 .* mode_switches 2 planes' \
	"switching back to native restores 60 Hz"
want="headless switch_mode 1024x640@30000 ok;"
want+="headless switch_mode 800x600@60000 refused;"
want+="headless switch_mode 1024x640@60000 ok;"
tap_is "$(wt_dump | awk '/^request / { print $2, $3, $4, $5 }' |
	tr '\n' ';')" "$want" \
	"the requests are recorded in order with their outcome"
tap_is "$(grep -c 'fake-kms: request headless switch_mode' "$WT_LOG")" 3 \
	"and each one is logged"

# A shot the double cannot take is answered at once with PATH.failed
# (a test polling for the screen would otherwise wait out its timeout
# each time; before an output's first repaint that cost a test its
# script's timing).
wt_cmd shot nosuch "$WT_DIR/nosuch.ppm"
tap_ok "wt_poll \$WT_TIMEOUT 'the failed shot marker' test -f '$WT_DIR/nosuch.ppm.failed'" \
	"a shot of an output that does not exist leaves PATH.failed"
tap_ok '! wt_shot nosuch "$WT_DIR/nosuch.ppm" && [ ! -e "$WT_DIR/nosuch.ppm" ] &&
	[ ! -e "$WT_DIR/nosuch.ppm.failed" ]' \
	"and wt_shot returns 1 on it, leaving neither file"

wt_stop

# ---- idling: desktop-shell fades, locks and sleeps the output ----
wt_start fake-kms-idle <<-EOF
	[core]
	idle-time=1
EOF
tap_ok "wt_log_wait 'fake-kms: request headless dpms off'" \
	"an idle desktop-shell turns DPMS off through the hook"
wt_cmd motion 1 1
wt_log_wait 'fake-kms: request headless dpms on'
# The display lights with the frame after the request, as on KMS.
dpms_on_shown() {
	wt_dump | grep -q '^output headless mode [^ ]* dpms on '
}
wt_poll "$WT_TIMEOUT" "DPMS on in the dump after the next frame" \
	dpms_on_shown
tap_is "$(wt_dump | awk '/^request / { print $2, $3, $4 }
	/^output / { print $1, $2, $5, $6 }' | tr '\n' ';')" \
	"output headless dpms on;headless dpms off;headless dpms on;" \
	"input wakes it: dpms off then on, recorded in order"
wt_stop

# ---- the frame log: every frame that reached the "hardware" ----
# What stillframe-check reads (the format is in fake-kms.c).  Its
# witness here is the screen itself: the tiles' hashes, replayed from
# the log, must equal those of a shot the double reads back apart.
frames_present() {	# frames_present N: the log has N frame lines
	[ "$(grep -c '^frame ' "$log")" -ge "$1" ]
}
# tile_hashes: "IDX:HASH:INK" per tile of a PPM on stdin, hashed as the
# log hashes (FNV-1a 64 over 0x00RRGGBB, 4 bytes little-endian, row by
# row); INK, the pixels not of the tile's most common colour.
tile_hashes() {
	python3 -c '
import sys
data = sys.stdin.buffer.read()
parts = data.split(maxsplit=4)
w, h = int(parts[1]), int(parts[2])
px = parts[4]
cols, rows = (w + 31) // 32, (h + 31) // 32
hs = [0xcbf29ce484222325] * (cols * rows)
colours = [{} for _ in hs]
mask = (1 << 64) - 1
for y in range(h):
    base = y * w * 3
    for x in range(w):
        i = (y // 32) * cols + x // 32
        r, g, b = px[base + 3 * x:base + 3 * x + 3]
        v = hs[i]
        for byte in (b, g, r, 0):
            v = ((v ^ byte) * 0x100000001b3) & mask
        hs[i] = v
        colours[i][(r, g, b)] = colours[i].get((r, g, b), 0) + 1
for i, v in enumerate(hs):
    c = colours[i].values()
    print("%d:%016x:%d" % (i, v, sum(c) - max(c)))
'
}
# logged_hashes: "IDX:HASH:INK" per tile as the log says the screen is
# now: the newest of each tile since the last screen line.
logged_hashes() {
	awk '$1 == "screen" { delete t }
	$1 == "frame" { for (i = 4; i <= NF; i++) {
		split($i, p, ":"); t[p[1]] = p[2] ":" p[3] } }
	END { for (i in t) print i ":" t[i] }' "$log" | sort -n
}

if command -v weston-simple-shm >/dev/null && command -v python3 >/dev/null
then
	# The ini is written before wt_start makes WT_DIR: a folder of
	# the test's own for the log.
	log_dir=$(mktemp -d "${TMPDIR:-/tmp}/stillframe-frames.XXXXXX") ||
		tap_bail "mktemp failed"
	log=$log_dir/frames
	wt_start fake-kms-frames --use-pixman <<-EOF
		$(wt_ini_still_shell)
		[stillframe-test]
		frame-log=$log
	EOF
	tap_ok "[ -f \"\$log\" ]" "frame-log=PATH creates the log"
	tap_is "$(head -n 1 "$log")" "screen 1024 640 32" \
		"it starts with the output's size and the tile size"
	tap_like "$(sed -n 2p "$log")" '^mode [0-9]+\.[0-9]{3} 60000$' \
		"then the refresh at start, 60 Hz, at a time in ms"

	# weston-simple-shm redraws its whole window every frame.
	wt_client weston-simple-shm
	shm_pid=$WT_LAST_PID
	tap_ok "wt_poll \$WT_TIMEOUT 'frames' frames_present 10" \
		"frames are logged while a client draws"
	wt_cmd key 30
	wt_cmd motion 10 5
	wt_cmd switch headless 1024x640@30000
	wt_dump >/dev/null		# a barrier: commands run in order
	wt_cmd switch headless native
	wt_dump >/dev/null
	frames_now=$(grep -c '^frame ' "$log")
	wt_poll "$WT_TIMEOUT" "frames at 60 Hz again" \
		frames_present $((frames_now + 5))

	tap_is "$(awk '$1 == "frame" && $3 != NF - 3' "$log")" "" \
		"every frame line's N is its number of IDX:HASH:INK tiles"
	tap_is "$(awk '$1 == "frame" { for (i = 4; i <= NF; i++) {
			split($i, p, ":")
			if (p[1] != i - 4 || length(p[2]) != 16 ||
			    p[2] !~ /^[0-9a-f]+$/ || p[3] !~ /^[0-9]+$/ ||
			    p[3] > 1024) {
				print "bad: " $i; exit } }
		print $3; exit }' "$log")" 640 \
		"the first frame lists all 32 x 20 tiles, in order"
	tap_ok "[ \"\$(awk '\$1 == \"frame\" && \$3 > 0 && \$3 < 640' \
		\"\$log\" | wc -l)\" -ge 5 ]" \
		"later frames list the tiles that changed, not all"
	tap_ok "grep -Eq '^input [0-9]+\.[0-9]{3} key 30$' \"\$log\"" \
		"the injected key is logged as 'input T key 30'"
	tap_ok "grep -Eq '^input [0-9]+\.[0-9]{3} motion 10 5$' \"\$log\"" \
		"and the motion as 'input T motion 10 5'"
	tap_is "$(awk '$1 == "mode" { printf "%s;", $3 }' "$log")" \
		"60000;30000;60000;" \
		"mode lines at start and after each switch that changed it"
	tap_is "$(awk '$1 != "screen" && $2 + 0 < last {
			print "went back: " $0; exit }
		$1 != "screen" { last = $2 + 0 }' "$log")" "" \
		"times never go back, across frame, input and mode lines"

	# The log against the screen: once the client is gone and its
	# window erased (a frame with tiles changed), the hashes replayed
	# from the log are those of the screen read back.  A frame between
	# the shot and reading the log would spoil it: then try again.
	lines=$(wc -l <"$log")
	wt_client_stop "$shm_pid"
	window_erased() {
		tail -n +"$((lines + 1))" "$log" | grep -Eq '^frame [^ ]+ [1-9]'
	}
	tap_ok "wt_poll \$WT_TIMEOUT 'the window erased' window_erased" \
		"the client's window going is a frame with tiles changed"
	log_matches_screen() {
		local before
		before=$(wc -l <"$log")
		wt_shot headless "$WT_DIR/shot.ppm" || return 1
		tile_hashes <"$WT_DIR/shot.ppm" >"$WT_DIR/shot.tiles"
		logged_hashes >"$WT_DIR/log.tiles"
		[ "$(wc -l <"$log")" = "$before" ] &&
			cmp -s "$WT_DIR/shot.tiles" "$WT_DIR/log.tiles"
	}
	if wt_poll 30 "the log to match the screen" log_matches_screen; then
		tap_result 0 "the tiles replayed from the log are the screen's, hashes and inks"
	else
		tap_result 1 "the tiles replayed from the log are the screen's, hashes and inks"
		tap_diag "$(diff "$WT_DIR/shot.tiles" "$WT_DIR/log.tiles" |
			head -n 5)"
	fi
	wt_stop
	rm -rf -- "$log_dir"
else
	tap_skip "the frame log" "weston-simple-shm or python3 missing"
fi

# A log that cannot be opened: said, and the double works without it.
wt_start fake-kms-no-log <<-EOF
	[stillframe-test]
	frame-log=/nonexistent/frames
EOF
tap_ok "grep -q 'fake-kms: cannot open the frame log /nonexistent/frames: ' \
	\"\$WT_LOG\"" "an unopenable frame log is logged with its path and why"
tap_like "$(output_line)" '^output headless mode 1024x640@60000 ' \
	"and the double works on without it"
wt_stop

tap_done
