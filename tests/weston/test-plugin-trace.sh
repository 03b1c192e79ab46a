#!/bin/bash
# TAP: stillframectl trace on a real headless Weston 10 with the
# stillframe plugin, real clients (foot blinking its cursor,
# weston-simple-shm animating) and input injected by the fake-KMS test
# double (standing in for KMS, fake-kms.c):
#
#  - the recording is a trace stillframe-replay accepts, starting with
#    the world (the output with its modes, the clients' surfaces) and
#    holding both clients' commits and the injected input;
#  - written atomically (no temporary file left), or to standard output
#    with -o -;
#  - one recording at a time: a second is refused with a clear message,
#    and a recorder that dies mid-recording frees the place.
#
# SF_FAKE_KMS, SF_PLUGIN, SF_CTL and SF_REPLAY come from meson.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../trace-lib.sh"

for prog in weston foot weston-simple-shm setsid timeout awk; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
for var in SF_PLUGIN SF_CTL SF_REPLAY; do
	[ -n "${!var:-}" ] && [ -e "${!var}" ] ||
		tap_skip_all "$var does not name a file (run it from meson)"
done

RECORD_S=4

ctl() {
	WAYLAND_DISPLAY=$WT_SOCKET timeout 30 "$SF_CTL" "$@"
}

wt_start sf-trace -l stillframe <<-EOF
	[core]
	modules=stillframe.so
	idle-time=0
	[shell]
	startup-animation=none
	close-animation=none
	animation=none
	[stillframe]
	outputs=all
EOF
mkdir -p "$XDG_CONFIG_HOME/foot"
printf '[cursor]\nblink=yes\n' >"$XDG_CONFIG_HOME/foot/foot.ini"
# foot smaller than simple-shm's 250x250 (decorations included), so
# that it never hides simple-shm whole wherever desktop-shell puts the
# two: Weston 14 and later send no frame callbacks to a surface that
# nothing of shows, and simple-shm, drawing on frame callbacks, would
# stop (Weston 10 sent them to every mapped surface).
wt_client foot -w 200x150 sh -c 'sleep 600'
foot_log=$WT_LAST_LOG
wt_client weston-simple-shm
shm_log=$WT_LAST_LOG

foot_id=
shm_id=
both_mapped() {
	local st
	st=$(ctl status)
	foot_id=$(wt_surface_with_label '^foot$' "$st") &&
		shm_id=$(wt_surface_with_label 'simple-shm$' "$st")
}
if ! wt_poll "$WT_TIMEOUT" "foot and simple-shm mapped" both_mapped; then
	tap_diag "foot:" "$(cat "$foot_log")" "simple-shm:" "$(cat "$shm_log")"
	tap_bail "the clients did not map"
fi
tap_diag "foot is surface $foot_id, simple-shm surface $shm_id"

# ---- a recording with input in the middle ----
trace=$WT_DIR/session.trace
(
	sleep 1
	wt_cmd motion 20 20
	wt_cmd key 30
) &
input_pid=$!
out=$(ctl trace --for "$RECORD_S" -o "$trace" 2>&1)
rc=$?
wait "$input_pid"
tap_is "$rc" 0 "trace --for $RECORD_S -o FILE succeeds"
tap_like "$out" '^stillframectl: trace: [0-9]+ events, 0 dropped, written to ' \
	"it says how many events it recorded and that none were dropped"
tap_ok '[ -s "$trace" ] && ! ls "$WT_DIR" | grep -q "\.tmp\."' \
	"the file is there and no temporary file is left"
tap_is "$(head -n 1 "$trace")" "stillframe-trace 1" "it starts with the header"
# The current mode is whichever the policy chose by then; the double
# offers 120, 60 (preferred), 48 and 30 Hz.
output=$(grep -E '^0 output ' "$trace")
tap_ok "printf '%s\n' '$output' |
	grep -qE '^0 output 1 headless .*1024x640@60000\*?ps?( |\$)' &&
	[ \$(printf '%s\n' '$output' | tr -cd '*' | wc -c) = 1 ]" \
	"the world comes first: the output, its modes and the current one"
tap_like "$(grep -E '^0 surface ' "$trace")" \
	" surface $foot_id 1 [0-9]+x[0-9]+ [0-9.e-]+ foot" \
	"and foot's surface, on that output, with its label"
tap_ok "[ \$(trace_count '^[0-9.]+ commit $foot_id ' '$trace') -ge 2 ]" \
	"foot's blinks are commits of its surface"
tap_ok "[ \$(trace_count '^[0-9.]+ commit $shm_id ' '$trace') -ge 20 ]" \
	"simple-shm's frames are commits of its surface"
tap_ok "[ \$(trace_count '^[0-9.]+ input pointer$' '$trace') -ge 1 ] &&
	[ \$(trace_count '^[0-9.]+ input key$' '$trace') -ge 1 ]" \
	"the injected motion and key are input events"
tap_ok "trace_ends_after '$trace' $((RECORD_S * 1000))" \
	"it ends with an end event no earlier than --for"
tap_diag "last line: $(tail -n 1 "$trace"); $(wc -l <"$trace") lines"

replayed=$(timeout 60 "$SF_REPLAY" --status -r 0 "$trace" 2>&1)
rc=$?
tap_is "$rc" 0 "stillframe-replay accepts the recording"
[ "$rc" = 0 ] || tap_diag "$replayed"
tap_ok "[ \"\$(replay_commits \"\$replayed\" '^foot$')\" -ge 2 ] 2>/dev/null &&
	[ \"\$(replay_commits \"\$replayed\" 'simple-s')\" -ge 20 ] 2>/dev/null" \
	"the replay counts commits for foot and simple-shm"
[ -n "$(replay_commits "$replayed" '^foot$')" ] ||
	tap_diag "$(printf '%s\n' "$replayed" | grep '^surface')"

# ---- standard output ----
out=$(ctl trace --for 1 -o - 2>"$WT_DIR/stdout-trace.err")
tap_ok "[ \"\$(printf '%s\n' \"\$out\" | head -n 1)\" = 'stillframe-trace 1' ] &&
	printf '%s\n' \"\$out\" | tail -n 1 | grep -qE '^[0-9.]+ end$' &&
	grep -q 'events, 0 dropped' '$WT_DIR/stdout-trace.err'" \
	"-o - writes the trace to standard output, the summary to stderr"

# ---- one at a time ----
WAYLAND_DISPLAY=$WT_SOCKET "$SF_CTL" trace --for 30 \
	-o "$WT_DIR/first.trace" >/dev/null 2>&1 &
first_pid=$!
started_before=$(grep -c 'trace recording started' "$WT_LOG")
first_started() {
	[ "$(grep -c 'trace recording started' "$WT_LOG")" -gt \
		"$started_before" ]
}
wt_poll "$WT_TIMEOUT" "the first recording" first_started
out=$(ctl trace --for 1 -o "$WT_DIR/second.trace" 2>&1)
rc=$?
tap_ok '[ "$rc" = 1 ] && [ ! -e "$WT_DIR/second.trace" ]' \
	"a second recording fails and writes nothing"
tap_like "$out" 'does not record: another trace recording is running' \
	"and says another recording is running"

# The recorder dies: the recording ends with it, and a new one starts.
closed_before=$(grep -c 'trace: recording closed' "$WT_LOG")
kill -KILL "$first_pid"
wait "$first_pid" 2>/dev/null
closed() {
	[ "$(grep -c 'trace: recording closed' "$WT_LOG")" -gt \
		"$closed_before" ]
}
tap_ok "wt_poll $WT_TIMEOUT 'the recording to close' closed" \
	"a recorder killed mid-recording ends its recording"
tap_ok "ctl trace --for 0.5 -o '$WT_DIR/third.trace' >/dev/null 2>&1 &&
	[ -s '$WT_DIR/third.trace' ]" \
	"after it, a new recording starts"
tap_ok wt_alive "weston survived it all"

wt_stop
tap_done
