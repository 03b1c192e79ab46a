#!/bin/bash
# stillframectl trace on a real Xorg 21.1 (dummy driver) with
# libstillframe.so and real clients from Debian: xterm -bc blinking its
# cursor, xclock -update 1 ticking, input from xdotool.
#
#  - the recording (the X backend of stillframectl) is a trace
#    stillframe-replay accepts: the world first (the output with its
#    modes, both windows), both clients' commits and the input, an end
#    no earlier than --for;
#  - the module notices a focus set by request (SetInputFocus) at once,
#    not at its next RandR poll up to 100 ms later: four focus
#    changes, each recorded within 20 ms of its request;
#  - one recording at a time: while another client records, StartTrace
#    says busy and stillframectl says so; that client's recording is
#    not another's to read (BadAccess); when it goes, its recording
#    goes with it.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../trace-lib.sh"

for tool in Xorg xterm xclock xdotool xdpyinfo; do
	command -v "$tool" >/dev/null ||
		tap_skip_all "$tool missing (run scripts/install-deps)"
done
[ -f "${SF_XORG_MODULE:-}" ] || tap_skip_all "SF_XORG_MODULE not built"
[ -x "${SF_X_RAW:-}" ] || tap_skip_all "SF_X_RAW not built"
[ -x "${SF_CTL:-}" ] || tap_skip_all "SF_CTL (stillframectl) not built"
[ -x "${SF_REPLAY:-}" ] || tap_skip_all "SF_REPLAY (stillframe-replay) not built"

RECORD_S=4

ctl() {
	WAYLAND_DISPLAY='' DISPLAY=$XT_DISPLAY timeout 30 "$SF_CTL" "$@"
}

# surface_of LABEL FILE: the trace id of the surface labelled LABEL.
surface_of() {
	awk -v l="$1" '$2 == "surface" && $NF == l { print $3; exit }' "$2"
}

xt_start trace <<-EOF
	Option "Outputs" "all"
EOF
xt_client xterm -bc -geometry 80x24+0+0
xt_client xclock -update 1 -geometry 164x164+900+0
xt_poll "$XT_TIMEOUT" "xterm and xclock" \
	eval '[ -n "$(window_id xterm)" ] && [ -n "$(window_id xclock)" ]' ||
	tap_diag "$(cat "$XT_DIR/clients.log")"
# xterm blinks only with the keyboard focus; there is no window manager.
xdotool windowfocus "$(window_id xterm)"

# ---- a recording with input in the middle ----
trace=$XT_DIR/session.trace
(
	sleep 1
	xdotool mousemove_relative 3 3
	xdotool key shift
) &
input_pid=$!
out=$(ctl trace --for "$RECORD_S" -o "$trace" 2>&1)
rc=$?
wait "$input_pid"
tap_is "$rc" 0 "trace --for $RECORD_S -o FILE succeeds on X"
tap_like "$out" '^stillframectl: trace: [0-9]+ events, 0 dropped, written to ' \
	"it says how many events it recorded and that none were dropped"
tap_is "$(head -n 1 "$trace")" "stillframe-trace 1" "it starts with the header"
tap_like "$(grep -E '^0 output ' "$trace")" \
	'^0 output 1 DUMMY0 .*1280x1024@[0-9]+\*' \
	"the world comes first: DUMMY0 and its current mode at time 0"
xterm_id=$(surface_of xterm "$trace")
xclock_id=$(surface_of xclock "$trace")
tap_ok '[ -n "$xterm_id" ] && [ -n "$xclock_id" ]' \
	"both windows are surfaces of the trace, with their WM_CLASS"
tap_ok "[ \$(trace_count '^[0-9.]+ commit ${xterm_id:-x} ' '$trace') -ge 2 ]" \
	"xterm's blinks are commits of its surface"
tap_ok "[ \$(trace_count '^[0-9.]+ commit ${xclock_id:-x} ' '$trace') -ge 2 ]" \
	"xclock's ticks are commits of its surface"
tap_ok "[ \$(trace_count '^[0-9.]+ input pointer$' '$trace') -ge 1 ] &&
	[ \$(trace_count '^[0-9.]+ input key$' '$trace') -ge 1 ]" \
	"xdotool's motion and key are input events"
tap_ok "trace_ends_after '$trace' $((RECORD_S * 1000))" \
	"it ends with an end event no earlier than --for"
tap_diag "last line: $(tail -n 1 "$trace"); $(wc -l <"$trace") lines"

replayed=$(timeout 60 "$SF_REPLAY" --status -r 0 "$trace" 2>&1)
rc=$?
tap_is "$rc" 0 "stillframe-replay accepts the recording"
[ "$rc" = 0 ] || tap_diag "$replayed"
tap_ok "[ \"\$(replay_commits \"\$replayed\" '^xterm$')\" -ge 2 ] \
	2>/dev/null &&
	[ \"\$(replay_commits \"\$replayed\" '^xclock$')\" -ge 2 ] \
	2>/dev/null" \
	"the replay counts commits for xterm and xclock" ||
	tap_diag "$(printf '%s\n' "$replayed" | grep '^surface')"

# ---- the focus, set by request ----
# Plain windows of sf-x-raw, which draw nothing when the focus comes or
# goes (xterm redraws its cursor, and that damage would start a cycle).
# The focus starts on one; each step is one more sf-x-raw, which stays
# connected: it maps a window, which the recording shows when it comes
# and which starts a cycle, then 50 ms later gives it the focus.
# Nothing else wants a cycle then (xclock ticks once a second), so a
# focus noticed only by the RandR poll would be recorded 50 to 150 ms
# after its window; noticed at its request, about 50 ms after.
xt_client "$SF_X_RAW" --display "$XT_DISPLAY" create-window \
	set-class focus-start focus-start sleep 60000
xt_poll "$XT_TIMEOUT" "a plain window" \
	grep -q "^window 0x" "$XT_DIR/clients.log"
"$SF_X_RAW" --display "$XT_DISPLAY" focus \
	"$(grep -o '^window 0x[0-9a-f]*' "$XT_DIR/clients.log" |
	   awk '{ print $2; exit }')" >/dev/null
focus_trace=$XT_DIR/focus.trace
(
	for step in 1 2 3 4; do
		sleep 0.3
		"$SF_X_RAW" --display "$XT_DISPLAY" create-window \
			set-class "focus-$step" "focus-$step" sleep 50 \
			focus self sleep 2500 >/dev/null &
	done
	wait
) &
input_pid=$!
out=$(ctl trace --for 3 -o "$focus_trace" 2>&1)
rc=$?
wait "$input_pid"
tap_is "$rc" 0 "a recording while clients move the focus by request"
# Each step's focus event's delay after its window's first event.
delays=$(awk '
	$2 == "surface" && !($3 in shown) { shown[$3] = $1 }
	$2 == "surface" && $NF ~ /^focus-[1-4]$/ { step[$3] = 1 }
	$2 == "focus" && ($3 in step) && !($3 in done) {
		printf "%.0f ", $1 - shown[$3]
		done[$3] = 1
	}' "$focus_trace")
tap_ok "[ \$(echo $delays | wc -w) = 4 ] &&
	echo $delays | tr ' ' '\n' | awk '\$1 > 70 { bad = 1 }
		END { exit bad }'" \
	"each focus change is recorded within 20 ms of its request" ||
	tap_diag "focus delays after each window (ms): ${delays:-none}"

# ---- one at a time ----
xt_client "$SF_X_RAW" --display "$XT_DISPLAY" trace-start sleep 60000
holder_pid=$XT_LAST_PID
xt_poll "$XT_TIMEOUT" "the other recording" \
	grep -q "trace recording started by client" "$XT_LOG"
out=$(ctl trace --for 1 -o "$XT_DIR/second.trace" 2>&1)
rc=$?
tap_ok '[ "$rc" = 1 ] && [ ! -e "$XT_DIR/second.trace" ]' \
	"while another client records, trace fails and writes nothing"
tap_like "$out" 'does not record: another trace recording is running' \
	"and says another recording is running"
tap_like "$(raw trace-read 4096 trace-stop)" \
	'^error BadAccess .*error BadAccess ' \
	"another client's recording is not to be read or stopped (BadAccess)"
xt_client_stop "$holder_pid"
tap_ok "xt_poll $XT_TIMEOUT 'the recording gone' eval \
	'[ \"\$(raw trace-start)\" = \"trace status 0\" ]'" \
	"when its client goes, its recording goes: a new one starts"

xt_stop
tap_done
