# Shell harness for the Xorg module's integration tests: a real Xorg on
# the dummy driver (RandR modes at 85, 75 and 60 Hz at 1280x1024; no
# DPMS extension) with libstillframe.so loaded from the build tree, real
# X clients, and TAP output (tests/tap.sh).  Sourced, not run.
#
#   [XT_RESET=1] xt_start NAME [XORG_ARGS...] <<< "OPTION LINES"
#	writes an xorg.conf whose SubSection "stillframe" holds the given
#	lines (Option "Key" "Value"; none: no stillframe at all when the
#	first line is "none"), starts Xorg on a free display and waits
#	until it answers; sets XT_DISPLAY, XT_LOG, XT_PID, XT_DIR
#   xt_client CMD...	starts an X client; sets XT_LAST_PID
#   xt_stop		stops Xorg and every client
#   xt_poll SECONDS DESC CMD...	waits until CMD succeeds
#   TAP: tests/tap.sh's tap_* functions (sourced here)
#
# Environment: SF_XORG_MODULE (the built libstillframe.so), SF_X_RAW
# (tests/xorg/sf-x-raw), XT_TIMEOUT (seconds for a wait, default 10).
# XT_WRAPPER: command words put before Xorg (e.g. "env LD_PRELOAD=...").
# XT_TWO_OUTPUTS=1 lights the dummy's DUMMY1 right of DUMMY0 at start,
# on a 2560x1024 screen.  XT_VIRTUAL="W H" sets the largest screen (the
# dummy offers no mode larger than it; default 1280 1024), and
# XT_MONITOR_LINES adds lines (Modeline ...) to DUMMY0's monitor.

XT_PID=''
XT_DIR=''
XT_CLIENT_PIDS=()
XT_TIMEOUT=${XT_TIMEOUT:-10}

# Counting and reporting are tests/tap.sh's (tap_ok, tap_is, tap_like,
# tap_result, tap_skip, tap_skip_all, tap_diag, tap_bail, tap_done).
# shellcheck source=../tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../tap.sh"

xt_now_ms() {
	local t=${EPOCHREALTIME/[.,]/}
	echo $((t / 1000))
}

# xt_poll SECONDS DESC CMD...: runs CMD until it succeeds or time is up.
xt_poll() {
	local timeout=$1 desc=$2
	shift 2
	local ms
	ms=$(awk -v t="$timeout" 'BEGIN { printf "%d", t * 1000 }')
	local deadline=$(($(xt_now_ms) + ms))
	while :; do
		"$@" && return 0
		if [ -n "$XT_PID" ] && ! kill -0 "$XT_PID" 2>/dev/null; then
			tap_diag "Xorg died while waiting for: $desc"
			tail -n 30 "$XT_LOG" >&2
			return 1
		fi
		if [ "$(xt_now_ms)" -ge "$deadline" ]; then
			tap_diag "timed out after ${timeout}s waiting for: $desc"
			return 1
		fi
		sleep 0.1
	done
}

xt_cleanup() {
	local pid
	for pid in "${XT_CLIENT_PIDS[@]}"; do
		kill "$pid" 2>/dev/null
	done
	if [ -n "$XT_PID" ]; then
		kill "$XT_PID" 2>/dev/null
		# Xorg 21.1.7 here sometimes aborts in its own exit path
		# after a reset (with or without stillframe) and then hangs
		# in its signal handler: do not wait for it forever.
		local i
		for ((i = 0; i < 50; i++)); do
			kill -0 "$XT_PID" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$XT_PID" 2>/dev/null
		wait "$XT_PID" 2>/dev/null
	fi
	XT_CLIENT_PIDS=()
	XT_PID=''
}
tap_at_exit 'xt_cleanup; [ -n "$XT_DIR" ] && [ -z "${XT_KEEP:-}" ] && rm -rf "$XT_DIR"'

xt_free_display() {
	local n
	for ((n = 40 + RANDOM % 400; ; n++)); do
		if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then
			echo "$n"
			return
		fi
	done
}

# XT_EXTRA_RATES="72 48 30": 1280x1024 modes at those rates besides the
# dummy's 85, 75 and 60 Hz, as a user adds with modelines: the timings of
# the VESA 85 Hz mode (1728 x 1072 total) at a lower pixel clock.
xt_modelines() {
	local hz
	for hz in ${XT_EXTRA_RATES:-}; do
		awk -v hz="$hz" 'BEGIN {
			printf "Modeline \"1280x1024_%d\" %.3f 1280 1344 1504 1728 1024 1025 1028 1072 +hsync +vsync\n",
				hz, hz * 1728 * 1072 / 1e6 }'
	done
}

xt_conf() {	# xt_conf MODULE_LINES: prints an xorg.conf
	local lines=$1 module_dir test_dir
	module_dir=$(dirname "${SF_XORG_MODULE:-.}")
	test_dir=$(dirname "${SF_XORG_TEST_MODULE:-.}")
	# XT_SYSTEM_MODULES=1: the server's own module folder only, where
	# the packages install (tests/installed/).
	if [ "${XT_SYSTEM_MODULES:-0}" = 1 ]; then
		printf 'Section "Files"\n'
	else
		printf 'Section "Files"\n\tModulePath "%s"\n\tModulePath "%s"\n' \
			"$module_dir" "$test_dir"
	fi
	cat <<-EOF
			ModulePath "/usr/lib/xorg/modules"
		EndSection
		Section "ServerFlags"
			Option "AutoAddDevices" "false"
			Option "BlankTime" "0"
			Option "StandbyTime" "0"
			Option "SuspendTime" "0"
			Option "OffTime" "0"
		EndSection
	EOF
	if [ "$lines" != none ]; then
		printf 'Section "Module"\n\tSubSection "stillframe"\n'
		# Unless the test names a tree, an empty one: a run as root
		# on a machine with a GPU never touches the real one.
		case $lines in
		*PlatformRoot*) ;;
		*)	mkdir -p "$XT_DIR/no-sysfs"
			lines="$lines"$'\n'"Option \"PlatformRoot\" \"$XT_DIR/no-sysfs\"" ;;
		esac
		printf '%s\n' "$lines" | sed 's/^/\t\t/'
		printf '\tEndSubSection\n'
		# XT_TEST_DPMS=1: the TEST DOUBLE that logs DPMS calls.
		[ "${XT_TEST_DPMS:-0}" = 1 ] && printf '\tLoad "sftestdpms"\n'
		printf 'EndSection\n'
	fi
	cat <<-EOF
		Section "Device"
			Identifier "dummy"
			Driver "dummy"
			VideoRam 256000
			$([ "${XT_TWO_OUTPUTS:-0}" = 1 ] &&
				printf 'Option "Monitor-DUMMY1" "monitor1"')
		EndSection
		Section "Monitor"
			Identifier "monitor"
			HorizSync 5.0-1000.0
			VertRefresh 5.0-200.0
			${XT_MONITOR_LINES:-}
			$(xt_modelines)
		EndSection
		Section "Monitor"
			Identifier "monitor1"
			HorizSync 5.0-1000.0
			VertRefresh 5.0-200.0
			Option "Enable" "true"
			Option "PreferredMode" "1280x1024"
			Option "RightOf" "DUMMY0"
		EndSection
		Section "Screen"
			Identifier "screen"
			Device "dummy"
			Monitor "monitor"
			DefaultDepth 24
			SubSection "Display"
				Depth 24
				Modes "1280x1024"$(for hz in ${XT_EXTRA_RATES:-}; do
					printf ' "1280x1024_%s"' "$hz"; done)
				Virtual ${XT_VIRTUAL:-$([ "${XT_TWO_OUTPUTS:-0}" = 1 ] &&
					echo 2560 || echo 1280) 1024}
			EndSubSection
		EndSection
	EOF
}

# xt_start NAME [XORG_ARGS...]; stdin: the SubSection's lines.  The
# server runs with -noreset unless XT_RESET=1: every sf-x-raw run is a
# client, and without it the server would reset when one ends.
xt_start() {
	local name=$1
	shift
	[ -n "$XT_DIR" ] || XT_DIR=$(mktemp -d "/tmp/stillframe-xt.XXXXXX")
	local n
	n=$(xt_free_display)
	XT_DISPLAY=:$n
	XT_LOG=$XT_DIR/$name.log
	XT_CONF=$XT_DIR/$name.conf
	xt_conf "$(cat)" >"$XT_CONF"
	local noreset=-noreset
	[ "${XT_RESET:-0}" = 1 ] && noreset=''
	${XT_WRAPPER:-} Xorg "$XT_DISPLAY" -config "$XT_CONF" -logfile "$XT_LOG" \
		-logverbose 4 -nolisten tcp -ac $noreset "$@" \
		</dev/null >"$XT_DIR/$name.stderr" 2>&1 &
	XT_PID=$!
	export DISPLAY=$XT_DISPLAY
	if ! xt_poll "$XT_TIMEOUT" "Xorg $XT_DISPLAY to answer" \
		xdpyinfo -display "$XT_DISPLAY" >/dev/null 2>&1; then
		tap_diag "Xorg did not start; its log:"
		tail -n 40 "$XT_LOG" >&2
		return 1
	fi
}

xt_stop() {
	xt_cleanup
}

# xt_client CMD...: an X client on the test display.
xt_client() {
	DISPLAY=$XT_DISPLAY "$@" </dev/null >>"$XT_DIR/clients.log" 2>&1 &
	XT_LAST_PID=$!
	XT_CLIENT_PIDS+=("$XT_LAST_PID")
}

xt_client_stop() {
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 0
}

# raw ARGS...: tests/xorg/sf-x-raw on the test display.
# Its one line per command is joined into one line.
raw() {
	timeout "$XT_TIMEOUT" "$SF_X_RAW" --display "$XT_DISPLAY" "$@" |
		paste -sd ' '
}

# window_field NAME FIELD: FIELD of the ListWindows record of the window
# whose WM_CLASS instance is NAME.
window_field() {
	raw windows | tr '|' '\n' | awk -v n="$1" -v f="$2" '
		$NF == n && $(NF - 1) == "name" {
			for (i = 1; i < NF; i++)
				if ($i == f) { print $(i + 1); exit }
		}'
}

# window_held NAME: whether the client of NAME's window is held now.
window_held() {
	local flags
	flags=$(window_field "$1" flags)
	[ -n "$flags" ] && [ $((flags & 1)) = 1 ]
}

window_field_is() {
	[ "$(window_field "$1" "$2")" = "$3" ]
}

# status_field FIELD: FIELD of the GetStatus reply (the first output's
# fields when the name is an output field).
status_field() {
	raw status | tr '|' '\n' | awk -v f="$1" '
		{ for (i = 1; i < NF; i++) if ($i == f) { print $(i + 1); exit } }'
}

status_field_is() {
	[ "$(status_field "$1")" = "$2" ]
}

# current_refresh: the current mode's refresh as xrandr prints it.
current_refresh() {
	xrandr --display "$XT_DISPLAY" 2>/dev/null |
		awk '/^ +1280x1024/ { for (i = 2; i <= NF; i++)
			if ($i ~ /\*/) { sub(/[*+]+/, "", $i); print $i } }'
}

current_refresh_is() {
	[ "$(current_refresh)" = "$1" ]
}

# xt_mode_now: DUMMY0's mode as the server has it, "WxH@RATE" (the rate
# as xrandr prints it).  --current: no probe, what RandR holds now.
xt_mode_now() {
	xrandr --display "$XT_DISPLAY" --current 2>/dev/null | awk '
		$1 == "DUMMY0" {
			out = 1
			for (i = 3; i <= NF; i++)
				if ($i ~ /^[0-9]+x[0-9]+\+/) {
					size = $i
					sub(/\+.*/, "", size)
				}
			next
		}
		out && /^[^ ]/ { out = 0 }
		out { for (i = 2; i <= NF; i++) if ($i ~ /\*/) {
			rate = $i; sub(/[*+]+/, "", rate) } }
		END { if (size != "" && rate != "") print size "@" rate }'
}

# xt_mode_is WxH@RATE: DUMMY0 is in that mode now.
xt_mode_is() {
	[ "$(xt_mode_now)" = "$1" ]
}

window_id() {	# window_id CLASS: the first window of that WM_CLASS
	DISPLAY=$XT_DISPLAY xdotool search --onlyvisible --class "$1" 2>/dev/null |
		head -n 1
}

# window_ink WINDOW: how many pixels inside the window's border differ
# from its most common one (the background), read back from the server
# with xwd: what is on the screen, not what the client meant to draw.
window_ink() {
	DISPLAY=$XT_DISPLAY xwd -silent -id "$1" 2>/dev/null | python3 -c '
import collections, struct, sys
d = sys.stdin.buffer.read()
if len(d) < 100:
    sys.exit(1)
h = struct.unpack(">25I", d[:100])
size, width, height, bpp, stride = h[0], h[4], h[5], h[11], h[12]
ncolors, border = h[19], h[24]
if bpp != 32:
    sys.exit(1)
order = "<" if h[7] == 0 else ">"
data = d[size + 12 * ncolors:]
pixels = collections.Counter()
for y in range(border, height - border):
    row = struct.unpack_from(order + "%dI" % width, data, y * stride)
    pixels.update(row[border:width - border])
print(sum(pixels.values()) - pixels.most_common(1)[0][1])'
}
