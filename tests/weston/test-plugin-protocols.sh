#!/bin/bash
# TAP: the Wayland protocols the stillframe plugin serves, on a real
# headless Weston with the fake-KMS test double and real clients:
#
#  - stillframe_v1 misuse: each documented protocol error reaches the
#    offending client only; Weston and a bystander client carry on;
#  - stillframe_surface_v1.set_content_rate: 24 fps content gets the
#    48 Hz mode once the user is idle, and loses it with its client;
#  - stillframe_control_v1 pause and resume (stillframectl);
#  - zwp_idle_inhibit_manager_v1: an inhibitor keeps DPMS on;
#  - ext_idle_notifier_v1: swayidle gets idled and resumed, and no
#    idled while an inhibitor is active;
#  - an inhibitor's window shown on an output in standby: Weston lives
#    through the mode switch that follows (libweston 14's
#    paint_node_update_late assertion).
#
# Meson passes SF_FAKE_KMS, SF_PLUGIN, SF_TEST_CLIENT (sf-test-client.c)
# and SF_CTL (stillframectl).
set -u
. "$(dirname "$0")/lib.sh"

for prog in weston setsid timeout; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
for var in SF_PLUGIN SF_TEST_CLIENT SF_CTL; do
	[ -f "${!var:-}" ] ||
		tap_skip_all "$var does not name a built file (run through meson)"
done
have_swayidle=false
command -v swayidle >/dev/null && have_swayidle=true

# ---- helpers ----

ctl() {
	WAYLAND_DISPLAY=$WT_SOCKET timeout "$WT_TIMEOUT" "$SF_CTL" "$@"
}

# status_value KEY: the value of one "KEY VALUE" line of the status.
status_value() {
	ctl status | awk -v k="$1" '$1 == k { print $2; exit }'
}

# status_is KEY VALUE: for wt_poll.
status_is() {
	[ "$(status_value "$1")" = "$2" ]
}

# surface_line LABEL: the "surface.N class=... label=LABEL" line.
surface_line() {
	ctl status | grep -E "^surface\.[0-9]+ .* label=$1\$"
}

# surface_id LABEL: its N.
surface_id() {
	surface_line "$1" | sed -E 's/^surface\.([0-9]+) .*/\1/' | head -n 1
}

# surface_key LABEL KEY: the value of "surface.N.KEY" for that surface.
surface_key() {
	local id
	id=$(surface_id "$1")
	[ -n "$id" ] && status_value "surface.$id.$2"
}

surface_key_is() {
	[ "$(surface_key "$1" "$2")" = "$3" ]
}

# surface_commits LABEL: the commits= count of its status line.
surface_commits() {
	surface_line "$1" | sed -E 's/.* commits=([0-9]+) .*/\1/' | head -n 1
}

commits_above() {	# commits_above LABEL N
	local c
	c=$(surface_commits "$1")
	[ -n "$c" ] && [ "$c" -gt "$2" ]
}

has_surface() {
	surface_line "$1" >/dev/null
}

no_surface() {
	! has_surface "$1"
}

output_line() {
	wt_dump | grep '^output headless '
}

# mode_is MHZ: the double's current mode has that refresh.
mode_is() {
	output_line | grep -q " mode 1024x640@$1 "
}

dpms_is() {
	output_line | grep -q " dpms $1 "
}

# requests: the double's request log, one "switch_mode WxH@MHZ ok" or
# "dpms LEVEL" a line, oldest first.
requests() {
	wt_dump | awk '/^request headless / {
		if ($3 == "switch_mode") print $3, $4, $5; else print $3, $4
	}'
}

# requests_since N [ERE]: the requests after the first N, those matching
# ERE only, joined with ";".
requests_since() {
	requests | tail -n "+$(($1 + 1))" | grep -E -- "${2:-.}" |
		tr '\n' ';'
}

request_count() {
	requests | wc -l
}

# log_count ERE: how many lines of the weston log match.
log_count() {
	grep -Ec -- "$1" "$WT_LOG"
}

log_count_above() {
	[ "$(log_count "$1")" -gt "$2" ]
}

file_is() {	# file_is PATH CONTENT: for wt_poll
	[ "$(cat "$1" 2>/dev/null)" = "$2" ]
}

# The ini every weston here starts from; the arguments are lines of its
# [stillframe] section.  Weston's own idle handling is off ([core]
# idle-time=0), so that DPMS requests can only come from stillframe.  No
# panel: its clock redraws once a minute, and a redraw right after input
# counts as interactive and asks for the native rate, which would make
# the mode switches here depend on the time of day.
ini() {
	cat <<-EOF
		[core]
		modules=stillframe.so
		idle-time=0
		$(wt_ini_still_shell)
		panel-position=none
		[stillframe]
		outputs=all
	EOF
	printf '%s\n' "$@"
}

# ---- 1. stillframe_v1 misuse ----
# Default timeouts: nothing here depends on the policy.
wt_start sf-proto-misuse -l log,stillframe < <(ini)

wt_client "$SF_TEST_CLIENT" --fps 10 --app-id sf-bystander
bystander=$WT_LAST_PID
bystander_log=$WT_LAST_LOG
tap_ok "wt_poll \$WT_TIMEOUT 'the bystander in the status' \
	has_surface sf-bystander" \
	"a bystander client (10 fps) is tracked: its surface is in the status"

# misuse CASE IFACE CODE MESSAGE-ERE: the client gets error CODE on
# IFACE (what it prints) and libwayland's report of it (stderr) has the
# plugin's message naming the object.
misuse() {
	local what=$1 iface=$2 code=$3 message=$4 out err rc before
	before=$(surface_commits sf-bystander)
	before=${before:-0}
	out=$(wt_run "$SF_TEST_CLIENT" --misuse "$what" \
		--app-id "sf-misuse-$what" 2>"$WT_DIR/misuse.err")
	rc=$?
	err=$(cat "$WT_DIR/misuse.err")
	tap_is "$rc:$out" "0:protocol error: $iface $code" \
		"$what: the client gets $iface error $code and exits 0"
	# libwayland up to 1.22 names the object iface@id, 1.23 and later
	# iface#id (the same change as in WAYLAND_DEBUG's output).
	tap_like "$err" "^$iface[@#][0-9]+: error $code: $message" \
		"$what: the error message names the object and the fault"
	tap_like "$(grep 'stillframe: client bug' "$WT_LOG" | tail -n 1)" \
		"client bug: pid [0-9]+: $iface@[0-9]+: $message \\(protocol error $code" \
		"$what: Weston's log names the client, the object and the fault"
	# Still connected: its surface is tracked and it keeps committing.
	if wt_alive && wt_client_alive "$bystander" &&
		wt_poll "$WT_TIMEOUT" "the bystander to commit again" \
			commits_above sf-bystander "$before"
	then
		tap_result 0 "$what: weston and the bystander carry on"
	else
		tap_result 1 "$what: weston and the bystander carry on"
		tap_diag "weston alive: $(wt_alive && echo yes || echo no)," \
			"bystander alive: $(wt_client_alive "$bystander" &&
				echo yes || echo no)" \
			"bystander's log:" "$(cat "$bystander_log")"
	fi
}

misuse double-get stillframe_manager_v1 0 \
	'wl_surface@[0-9]+ already has a stillframe_surface_v1'
misuse bad-rate stillframe_surface_v1 0 \
	'content rate 24/0 has a zero denominator'
misuse bad-range stillframe_surface_v1 1 \
	'refresh range 60000-30000 mHz has its minimum above its maximum'
misuse bad-priority stillframe_surface_v1 3 \
	'77 is not a stillframe_surface_v1.priority'
misuse after-destroy stillframe_surface_v1 2 \
	'the wl_surface of this object was destroyed'

# A disconnected client leaves nothing behind in the plugin.
tap_ok "wt_poll \$WT_TIMEOUT 'the misusing clients to be forgotten' \
	no_surface 'sf-misuse-.*'" \
	"the surfaces of the disconnected clients are no longer tracked"

# ---- 2. ext_idle_notifier_v1 with swayidle ----
if $have_swayidle; then
	idle_file=$WT_DIR/swayidle.out
	: >"$idle_file"
	wt_client swayidle -w timeout 2 "echo idled >>$idle_file" \
		resume "echo resumed >>$idle_file"
	tap_ok "wt_poll \$WT_TIMEOUT 'swayidle to idle' \
		file_is \"\$idle_file\" idled" \
		"swayidle gets idled after its 2 s timeout without input"
	sleep 0.5
	tap_is "$(cat "$idle_file")" idled \
		"and no resumed while there is no input"
	wt_cmd motion 5 5
	tap_ok "wt_poll \$WT_TIMEOUT 'swayidle to resume' \
		file_is \"\$idle_file\" \"\$(printf 'idled\nresumed')\"" \
		"pointer motion gets it resumed"
	wt_client_stop "$WT_LAST_PID"
else
	for t in "swayidle gets idled" "no resumed without input" \
		"motion gets it resumed"; do
		tap_skip "$t" "swayidle is not installed"
	done
fi

tap_ok "wt_alive && wt_client_alive $bystander" \
	"weston and the bystander are still up at the end"
wt_stop

# ---- 3. a content-rate hint of 24 fps ----
# While the user is active the output runs its native 60 Hz (120 Hz,
# 5 x 24, is above the user's mode and a 24 fps hint does not ask for
# more); once idle, after
# low-refresh-timeout, the floor is 30 Hz and the best cadence at or
# above it is 48 Hz, which plays 24 fps without judder (60 Hz would be
# 3:2 pulldown), as long as nothing else on the output votes for a rate
# (common/selector.c).  No dwell: every choice takes effect at once; nor
# does a new window hold the output at native (new-window-native=0).
wt_start sf-proto-hints -l stillframe < <(ini low-refresh-timeout=300 \
	refresh-dwell=0 new-window-native=0 dim-timeout=0 standby-timeout=0 \
	off-timeout=0 \
	essential-apps=sf-rule-essential,sf-rule-both \
	background-apps=sf-rule-background,sf-rule-both,sf-rule-overridden)

wt_client "$SF_TEST_CLIENT" --rate 24/1 --fps 24 --app-id sf-video
video=$WT_LAST_PID
tap_ok "wt_poll \$WT_TIMEOUT 'the hint in the status' \
	surface_key_is sf-video rate 24/1" \
	"the status shows the surface's content rate hint 24/1"
tap_is "$(surface_key sf-video hint_object)" true \
	"and its stillframe_surface_v1"
if wt_poll "$WT_TIMEOUT" "the 48 Hz mode" mode_is 48000; then
	tap_result 0 "idle, the output runs at 48 Hz for the 24 fps video"
else
	tap_result 1 "idle, the output runs at 48 Hz for the 24 fps video"
	tap_diag "$(output_line)"
fi
tap_like "$(requests_since 0 switch_mode | tr ';' '\n' | tail -n 1)" \
	'^switch_mode 1024x640@48000 ok$' \
	"through a switch_mode request for 1024x640@48000"
tap_ok "grep -Eq 'output headless: refresh [0-9.]+ -> 48.000 Hz \
\\(content rate\\)' \"\$WT_LOG\"" \
	"the plugin log gives the content rate as the reason"

n=$(request_count)
wt_client_stop "$video"
tap_ok "wt_poll \$WT_TIMEOUT 'the video to be forgotten' \
	no_surface sf-video" \
	"the video's surface is gone from the status with its client"
tap_ok "wt_poll \$WT_TIMEOUT 'the idle floor' mode_is 30000" \
	"without it the output goes to the idle floor, 30 Hz"
tap_is "$(requests_since "$n" switch_mode)" \
	"switch_mode 1024x640@30000 ok;" "through one switch_mode request"

# The hint alone does it: a surface redrawing at 2 fps is classified
# static and asks for no rate by itself (30 Hz would serve it anyway),
# but says it shows 24 fps content.  It redraws at all because the
# plugin places a surface on an output only at a commit, and at its
# first buffer's commit Weston has not yet assigned the view an output:
# a window that commits once never votes.
n=$(request_count)
wt_client "$SF_TEST_CLIENT" --rate 24/1 --fps 2 --app-id sf-still
still=$WT_LAST_PID
tap_ok "wt_poll \$WT_TIMEOUT 'the 48 Hz mode' mode_is 48000" \
	"a 2 fps surface hinting 24 fps content gets 48 Hz too"
wt_client_stop "$still"
tap_ok "wt_poll \$WT_TIMEOUT 'the idle floor' mode_is 30000" \
	"and gives it back when its client goes"
tap_is "$(requests_since "$n" switch_mode)" \
	"switch_mode 1024x640@48000 ok;switch_mode 1024x640@30000 ok;" \
	"the requests for it came in order"

# ---- 3b. essential-apps and background-apps ----
# Rules by app_id give a surface a priority unless its client asks for
# one itself.  Animating at 20 fps on a timer, unfocused (the last client
# mapped takes the focus) and, after suppress-idle-delay, idle: a normal
# surface is throttled to background-frame-rate (200000 us), an
# essential one never is; a background one is throttled at once.
# --bar-damage: an animation (a whole-surface redraw is a video, which a
# normal priority never throttles).
wt_client "$SF_TEST_CLIENT" --fps 20 --bar-damage --app-id sf-rule-essential
rule_pids=("$WT_LAST_PID")
wt_client "$SF_TEST_CLIENT" --fps 20 --bar-damage --app-id sf-rule-both
rule_pids+=("$WT_LAST_PID")
wt_client "$SF_TEST_CLIENT" --fps 20 --bar-damage --priority essential \
	--app-id sf-rule-overridden
rule_pids+=("$WT_LAST_PID")
wt_client "$SF_TEST_CLIENT" --fps 20 --bar-damage --app-id sf-rule-normal
rule_pids+=("$WT_LAST_PID")
# Mapped last, so that it has the focus and the others do not: wait for
# the others first (clients started together map in any order).
for app in sf-rule-essential sf-rule-both sf-rule-overridden sf-rule-normal; do
	wt_poll "$WT_TIMEOUT" "$app mapped" has_surface "$app"
done
wt_client "$SF_TEST_CLIENT" --fps 20 --bar-damage --app-id sf-rule-background
rule_pids+=("$WT_LAST_PID")
wt_poll "$WT_TIMEOUT" "sf-rule-background mapped" has_surface sf-rule-background
wt_cmd motion 2 2

# priority_of LABEL: "PRIORITY/FROM" of its status.
priority_of() {
	echo "$(surface_key "$1" priority)/$(surface_key "$1" priority_from)"
}
tap_ok "wt_poll \$WT_TIMEOUT 'the rule in the status' \
	eval '[ \"\$(priority_of sf-rule-essential)\" = essential/apps ]'" \
	"an app in essential-apps is essential, by the app rules"
tap_ok "wt_poll \$WT_TIMEOUT 'the rule in the status' \
	eval '[ \"\$(priority_of sf-rule-background)\" = background/apps ]'" \
	"an app in background-apps is background, by the app rules"
tap_is "$(priority_of sf-rule-both)" essential/apps \
	"an app in both lists is essential"
tap_is "$(priority_of sf-rule-overridden)" essential/client \
	"a client's own priority wins over background-apps"
tap_ok "grep -q 'surface [0-9]* (sf-rule-essential): essential by \
essential-apps' \"\$WT_LOG\"" "the log names the rule that applied"

# The background one goes first, while the user still counts as active.
tap_ok "wt_poll 2 'the background app throttled' \
	surface_key_is sf-rule-background throttle_us 200000" \
	"the background app is throttled to 5 fps while the user is active"
tap_ok "wt_poll \$((WT_TIMEOUT + 4)) 'the normal app throttled' \
	surface_key_is sf-rule-normal throttle_us 200000" \
	"idle and unfocused, the normal app is throttled too"
tap_is "$(surface_key sf-rule-essential throttle_us)" 0 \
	"the essential app is not throttled"
tap_is "$(surface_key sf-rule-overridden throttle_us)" 0 \
	"nor the app whose client asked to be essential"
for pid in "${rule_pids[@]}"; do
	wt_client_stop "$pid"
done

# ---- 4. stillframectl pause and resume ----
# The output idles at 30 Hz.  Paused, stillframe puts the native mode
# back and changes nothing, though its governor still follows the input.
tap_is "$(status_value policy.paused)" false "policy.paused is false at first"
# The clients of section 3 may have woken it: idle again first, or the
# count below takes in the drop to 30 Hz.
wt_poll "$WT_TIMEOUT" 'the idle floor before pausing' mode_is 30000
n=$(request_count)
ctl pause
rc=$?
tap_is "$rc:$(status_value policy.paused)" 0:true \
	"stillframectl pause succeeds; policy.paused is true"
tap_ok "wt_poll \$WT_TIMEOUT 'the native mode back' mode_is 60000" \
	"pausing puts the native 60 Hz mode back"
tap_is "$(requests_since "$n" switch_mode)" \
	"switch_mode 1024x640@60000 ok;" "through one switch_mode request"

n=$(request_count)
idled=$(log_count 'output headless: active -> low-refresh')
wt_cmd motion 3 3
tap_ok "wt_poll \$WT_TIMEOUT 'the governor to idle again' \
	log_count_above 'output headless: active -> low-refresh' $idled" \
	"paused, the governor still goes idle after the low-refresh timeout"
tap_is "$(requests_since "$n" switch_mode)|$(output_line |
	awk '{ print $4 }')" "|1024x640@60000" \
	"but no mode switch follows: still 60 Hz"

ctl resume
rc=$?
tap_is "$rc:$(status_value policy.paused)" 0:false \
	"stillframectl resume succeeds; policy.paused is false"
tap_ok "wt_poll \$WT_TIMEOUT 'the idle floor after resuming' \
	mode_is 30000" \
	"resumed, the policy acts again: 30 Hz after the timeout"
tap_is "$(requests_since "$n" switch_mode)" \
	"switch_mode 1024x640@30000 ok;" "through one switch_mode request"

# ---- 4b. stillframectl status --prom: a node_exporter textfile ----
check_prom="python3 $(dirname "$0")/../check-prometheus.py"
prom=$WT_DIR/textfile/stillframe.prom
mkdir -p "$WT_DIR/textfile"
ctl status --prom "$prom"
rc=$?
values=$($check_prom "$prom" 'stillframe_refresh_hertz{output="headless"}' \
	'stillframe_repaints_total{output="headless"}' 2>&1 | tr '\n' ' ')
tap_like "$rc:$values" '^0:30\.000 [1-9][0-9]* $' \
	"status --prom writes a valid textfile: 30 Hz now, repaints counted"
tap_is "$(ls "$WT_DIR/textfile")" stillframe.prom \
	"written beside the file and renamed: nothing else is left"
ctl status --prom "$WT_DIR/no-such-dir/stillframe.prom" 2> "$WT_DIR/prom.err"
rc=$?
tap_like "$rc:$(cat "$WT_DIR/prom.err")" \
	"^1:stillframectl: status --prom: cannot create $WT_DIR/no-such-dir/stillframe.prom.tmp.[0-9]*: No such file or directory\$" \
	"a file that cannot be written is an error that names it"
wt_stop

# ---- 5. zwp_idle_inhibit_manager_v1 ----
# DPMS standby after 1 s without input and off after 2 s; no dimming,
# and no doubling of the timeouts after a quick wake.
wt_start sf-proto-inhibit -l stillframe < <(ini low-refresh-timeout=200 \
	dim-timeout=0 standby-timeout=1 off-timeout=2 quick-wake-window=0)

wt_client "$SF_TEST_CLIENT" --app-id sf-window
tap_ok "wt_poll \$WT_TIMEOUT 'DPMS off' dpms_is off" \
	"without an inhibitor the output goes DPMS off"
tap_is "$(requests_since 0 '^dpms')" "dpms standby;dpms off;" \
	"through standby, then off, in order"
tap_is "$(status_value output.headless.state)" off "the status says off"

n=$(request_count)
wt_cmd motion 1 1
tap_ok "wt_poll \$WT_TIMEOUT 'DPMS on' dpms_is on" "input turns it back on"
tap_is "$(requests_since "$n" '^dpms' | tr ';' '\n' | sort -u | tr '\n' ';')" \
	"dpms on;" "with DPMS on requests only"

wt_client "$SF_TEST_CLIENT" --inhibit --app-id sf-inhibitor
inhibitor=$WT_LAST_PID
tap_ok "wt_poll \$WT_TIMEOUT 'the inhibitor' status_is policy.inhibitors 1" \
	"an idle inhibitor client: policy.inhibitors is 1"
if $have_swayidle; then
	idle_file=$WT_DIR/swayidle-inhibited.out
	: >"$idle_file"
	wt_client swayidle -w timeout 1 "echo idled >>$idle_file"
	swayidle_pid=$WT_LAST_PID
fi
n=$(request_count)
wt_cmd motion 1 1
# Past both timeouts, counted from that input, with a margin.
sleep 3
tap_ok "dpms_is on" "with the inhibitor DPMS stays on past the timeouts"
tap_is "$(requests_since "$n" '^dpms (standby|off)')" "" \
	"no DPMS standby or off request was made"
tap_is "$(status_value output.headless.state)" low-refresh \
	"the output is held at low-refresh"
if $have_swayidle; then
	tap_is "$(cat "$idle_file")" "" \
		"nor does swayidle (1 s timeout) get idled meanwhile"
else
	tap_skip "nor does swayidle get idled" "swayidle is not installed"
fi

n=$(request_count)
wt_client_stop "$inhibitor"
tap_ok "wt_poll \$WT_TIMEOUT 'no inhibitor' status_is policy.inhibitors 0" \
	"when the inhibitor's client exits policy.inhibitors is 0"
tap_ok "wt_poll \$WT_TIMEOUT 'DPMS off' dpms_is off" \
	"and blanking happens again"
tap_is "$(requests_since "$n" '^dpms')" "dpms standby;dpms off;" \
	"through standby, then off, in order"
if $have_swayidle; then
	tap_ok "wt_poll \$WT_TIMEOUT 'swayidle to idle' \
		file_is \"\$idle_file\" idled" \
		"swayidle gets idled once the inhibitor is gone"
	wt_client_stop "$swayidle_pid"
else
	tap_skip "swayidle gets idled" "swayidle is not installed"
fi
wt_stop

# ---- 6. an inhibitor's window shown on an output in standby ----
# The window is placed inside a repaint, where its inhibitor lifts the
# output to low-refresh and its vote as a new window asks for the
# native rate: that mode switch must wait for the repaint's end
# (libweston 13 and later abort on a switch between the paint nodes'
# early and late updates).  New windows keep the native rate 1.5 s, so
# the output is at 30 Hz well before standby at 4 s.
wt_start sf-proto-inhibit-standby -l stillframe < <(ini \
	low-refresh-timeout=200 new-window-native=1500 dim-timeout=0 \
	standby-timeout=4 off-timeout=600 quick-wake-window=0)

standby_at_30() {
	dpms_is standby && mode_is 30000
}
# The requests after the first n: DPMS on, then 60 Hz (and later,
# once the window is no longer new, maybe 30 Hz again).
switched_to_60() {
	case $(requests_since "$n") in
	"dpms on;switch_mode 1024x640@60000 ok;"*) return 0 ;;
	esac
	return 1
}
tap_ok "wt_poll \$WT_TIMEOUT 'standby at 30 Hz' standby_at_30" \
	"without input the output goes to standby at 30 Hz"
n=$(request_count)
wt_client "$SF_TEST_CLIENT" --inhibit --app-id sf-late-inhibitor
tap_ok "wt_poll \$WT_TIMEOUT 'DPMS on, then 60 Hz' switched_to_60" \
	"an inhibitor's window shown in standby: DPMS on, then the native rate"
tap_ok "dpms_is on" "DPMS is on"
tap_ok "kill -0 \$WT_PID" "Weston is still running"
tap_is "$(grep -c Assertion "$WT_DIR/weston.out")" 0 \
	"and reports no failed assertion"
wt_stop

tap_done
