#!/bin/bash
# TAP: the stillframe plugin (stillframe.so) with real Debian clients on a
# real headless Weston 10, with the fake-KMS double counting the repaints
# that reach the "backend" and injecting input:
#
#  1. desktop-shell with a seconds clock: the panel is classed ticking;
#     idle, the backend repaints at least 20 times less often per minute
#     than a Weston without stillframe running the same ini at the same
#     time; a key or a motion repaints at once;
#  2. foot with a blinking cursor: classed blinking within three blink
#     periods, its blinks held while idle but not its frame callbacks
#     (it commits each blink, Weston's timeline shows), and nothing
#     lost: a key paints what was held, at once, and foot draws what
#     was typed;
#  3. weston-simple-shm and weston-simple-damage: never classed blinking;
#     their frame callbacks throttled only while unfocused and idle, and
#     then to about background-frame-rate; but one the classifier calls
#     a video (simple-shm redraws all of itself each frame) never is;
#  4. a client that commits nothing new on each frame callback (a
#     browser around its caret): its held commits are answered at the
#     refresh, as on stock, not as fast as it commits.
#
# Every output runs refresh-switch=never: a mode switch repaints the
# whole output, which would hide whether an input flushed held damage.
#
# SF_FAKE_KMS, SF_PLUGIN, SF_TEST_CLIENT and SF_CTL come from meson.
# SF_CLIENTS_WINDOW (seconds, default 60) is the idle window over which
# repaints per minute are measured in part 1.
set -u
. "$(dirname "$0")/lib.sh"

for prog in weston setsid timeout awk; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
for var in SF_PLUGIN SF_CTL SF_TEST_CLIENT; do
	[ -n "${!var:-}" ] && [ -e "${!var}" ] ||
		tap_skip_all "$var does not name a file (run it from meson)"
done

WINDOW_S=${SF_CLIENTS_WINDOW:-60}
# foot 1.13 blinks its cursor 500 ms on, 500 ms off; it has no setting
# for the rate.
BLINK_PERIOD_MS=1000
# suppress-idle-delay, left at its default: the user counts as idle this
# long after the last input.
IDLE_DELAY_MS=3000
# background-frame-rate, left at its default (5 Hz), as throttle_us.
BACKGROUND_THROTTLE_US=200000
MIN_RATIO=20

# The [stillframe] section every Weston here gets.  dim, standby and off
# never happen; the policy otherwise runs with its defaults.
STILLFRAME_INI='[stillframe]
outputs=all
refresh-switch=never
dim-timeout=0
standby-timeout=0
off-timeout=0'

# weston_ini MODULES CLOCK: an ini with [core] modules=MODULES (may be
# empty) and the panel clock CLOCK (seconds, none).
weston_ini() {
	cat <<-EOF
		[core]
		${1:+modules=$1}
		idle-time=0
		[shell]
		clock-format=$2
		startup-animation=none
		close-animation=none
		animation=none
		$STILLFRAME_INI
	EOF
}

# ---- helpers ----

now_ms() {
	local t=${EPOCHREALTIME/[.,]/}
	echo $((t / 1000))
}

# kms_sample: "NOW_MS REPAINTS MODE_SWITCHES" of output headless, from
# the double's dump (REPAINTS: repaints that reached the backend).
kms_sample() {
	wt_dump | awk '
	$1 == "now_ms" { now = $2 }
	$1 == "output" && $2 == "headless" {
		for (i = 3; i < NF; i++) {
			if ($i == "repaints") r = $(i + 1)
			if ($i == "mode_switches") m = $(i + 1)
		}
	}
	END {
		if (now == "" || r == "") exit 1
		print now, r, m
	}'
}

# kms_planes: "REPAINTS PLANES STRAY_PLANES" of output headless.
kms_planes() {
	wt_dump | awk '
	$1 == "output" && $2 == "headless" {
		for (i = 3; i < NF; i++) {
			if ($i == "repaints") r = $(i + 1)
			if ($i == "planes") p = $(i + 1)
			if ($i == "stray_planes") s = $(i + 1)
		}
	}
	END {
		if (r == "" || p == "" || s == "") exit 1
		print r, p, s
	}'
}

kms_repaints() {
	local s
	s=$(kms_sample) || return 1
	set -- $s
	echo "$2"
}

sf_status() {
	WAYLAND_DISPLAY=$WT_SOCKET timeout 5 "$SF_CTL" status 2>&1
}

# status_key KEY STATUS: the value of a "key value" line.
status_key() {
	printf '%s\n' "$2" | awk -v k="$1" '$1 == k { print $2; exit }'
}

# surface_field ID FIELD STATUS: FIELD (class, commits, held, ...) of
# the line "surface.ID class=... label=...".
surface_field() {
	printf '%s\n' "$3" | awk -v s="surface.$1" -v f="$2=" '
	$1 == s {
		for (i = 2; i <= NF; i++)
			if (index($i, f) == 1) {
				print substr($i, length(f) + 1)
				exit
			}
	}'
}

# busiest_surface BEFORE AFTER: "ID DELTA" of the surface on output
# headless whose commits grew most between two statuses.
busiest_surface() {
	{
		printf '%s\n' "$1" | sed 's/^/A /'
		printf '%s\n' "$2" | sed 's/^/B /'
	} | awk '
	$3 == "headless" && $2 ~ /^surface\.[0-9]+\.output$/ {
		id = $2; sub(/^surface\./, "", id); sub(/\.output$/, "", id)
		on[id] = 1
	}
	$2 ~ /^surface\.[0-9]+$/ {
		id = $2; sub(/^surface\./, "", id)
		for (i = 3; i <= NF; i++)
			if ($i ~ /^commits=/) {
				n = substr($i, 9)
				if ($1 == "A") a[id] = n; else b[id] = n
			}
	}
	END {
		best = ""; most = -1
		for (id in b)
			if (on[id] && b[id] - a[id] > most) {
				most = b[id] - a[id]; best = id
			}
		if (best == "") exit 1
		print best, most
	}'
}

# surface_is ID FIELD VALUE: the live status says so.
surface_is() {
	[ "$(surface_field "$1" "$2" "$(sf_status)")" = "$3" ]
}

# surface_above ID FIELD N: the live counter FIELD is above N.
surface_above() {
	local v
	v=$(surface_field "$1" "$2" "$(sf_status)")
	[ -n "$v" ] && [ "$v" -gt "$3" ]
}

# status_above KEY N: the live status value KEY is above N.
status_above() {
	local v
	v=$(status_key "$1" "$(sf_status)")
	[ -n "$v" ] && [ "$v" -gt "$2" ]
}

# status_is KEY VALUE: the live status says so.
status_is() {
	[ "$(status_key "$1" "$(sf_status)")" = "$2" ]
}

# per_minute COUNT MS: COUNT events in MS milliseconds, per minute.
per_minute() {
	awk -v n="$1" -v ms="$2" \
		'BEGIN { printf "%.1f", (ms > 0 ? n * 60000 / ms : 0) }'
}

# sleep_watching S: sleep S whole seconds; fails at once if this
# script's weston dies.
sleep_watching() {
	local i
	for ((i = 0; i < $1; i++)); do
		sleep 1
		wt_alive || return 1
	done
}

# Polling within a frame or two needs samples a few milliseconds apart;
# wt_dump forks several processes and sleeps 20 ms a turn.  nap sleeps
# without a fork: a read with a timeout on a FIFO nobody writes to.
NAP_FD=
nap() {
	if [ -z "$NAP_FD" ]; then
		mkfifo "$WT_DIR/nap" && exec {NAP_FD}<>"$WT_DIR/nap" ||
			return 1
	fi
	read -r -t "$1" -u "$NAP_FD" _
	return 0
}

# fast_kms_sample: a dump of the double without a fork; sets KMS_NOW
# (the compositor's CLOCK_MONOTONIC in ms) and KMS_REPAINTS of output
# headless.  Gives up after about a second.
FAST_N=0
KMS_NOW=
KMS_REPAINTS=
fast_kms_sample() {
	local path=$WT_DIR/fast-dump.$FAST_N i w
	FAST_N=$((FAST_N + 1))
	KMS_NOW=
	KMS_REPAINTS=
	wt_cmd dump "$path" || return 1
	for ((i = 0; i < 1000; i++)); do
		[ -f "$path" ] && break
		nap 0.001
	done
	[ -f "$path" ] || return 1
	while read -r -a w; do
		case ${w[0]} in
		now_ms) KMS_NOW=${w[1]} ;;
		output)
			[ "${w[1]}" = headless ] || continue
			for ((i = 2; i + 1 < ${#w[@]}; i++)); do
				[ "${w[i]}" = repaints ] &&
					KMS_REPAINTS=${w[i + 1]}
			done
			;;
		esac
	done <"$path"
	[ -n "$KMS_NOW" ] && [ -n "$KMS_REPAINTS" ]
}

# input_repaints DESC WT_CMD-WORDS...: inject the input; ok if the
# backend repaints within 100 ms (a frame or two at 60 Hz).  The double
# runs commands in order, so a dump sent right after the input tells
# the compositor's time of the input; the counter is then polled for
# 100 ms of the compositor's time.
input_repaints() {
	local desc=$1 base t0 seen=
	shift
	fast_kms_sample
	base=${KMS_REPAINTS:-0}
	wt_cmd "$@"
	if fast_kms_sample; then
		t0=$KMS_NOW
		while :; do
			if [ "$KMS_REPAINTS" -gt "$base" ]; then
				seen=$KMS_NOW
				break
			fi
			[ "$KMS_NOW" -ge $((t0 + 100)) ] && break
			nap 0.002
			fast_kms_sample || break
		done
	fi
	if [ -n "$seen" ] && [ $((seen - t0)) -le 100 ]; then
		tap_result 0 "$desc"
		tap_diag "'$*': the backend repainted within $((seen - t0)) ms"
	else
		tap_result 1 "$desc"
		tap_diag "'$*': backend repaints $base before the input, \
${KMS_REPAINTS:-?} at +$((${KMS_NOW:-0} - ${t0:-0})) ms"
	fi
}

# When this script last injected input or started a Weston (the policy
# counts the user idle from its start when there was no input).
LAST_INPUT_MS=0

wait_user_idle() {	# until the policy counts the user idle, plus margin
	local left=$((LAST_INPUT_MS + IDLE_DELAY_MS + 300 - $(now_ms)))
	[ "$left" -gt 0 ] && sleep "$(awk -v ms="$left" \
		'BEGIN { printf "%.3f", ms / 1000 }')"
	return 0
}

# ---- 1. desktop-shell's seconds clock ----

wt_start sf-clients-clock -l stillframe \
	<<<"$(weston_ini stillframe.so seconds)"
LAST_INPUT_MS=$(now_ms)
clock_log=$WT_LOG

# The same desktop without stillframe, at the same time, in its own
# Weston: a subshell with its own copy of the harness's state, which
# writes "NOW0 REPAINTS0 - NOW1 REPAINTS1" of its idle window and stops
# (it reports no tests: TAP_DONE, no plan owed at its exit).
baseline_file=$WT_DIR/baseline
(
	WT_TRAPPED='' WT_PID='' WT_DIR='' WT_LOG='' TAP_FAILED=0 TAP_DONE=1
	WT_CLIENT_PIDS=()
	parent=$$
	wt_start sf-clients-base <<<"$(weston_ini '' seconds)"
	# Past the first frames; the clock has been ticking since.
	sleep 4
	s0=$(kms_sample) || exit 1
	for ((i = 0; i < WINDOW_S; i++)); do
		sleep 1
		kill -0 "$parent" 2>/dev/null || exit 1
		wt_alive || exit 1
	done
	s1=$(kms_sample) || exit 1
	echo "$s0 - $s1" >"$baseline_file.tmp"
	mv "$baseline_file.tmp" "$baseline_file"
	wt_stop
) >"$baseline_file.log" 2>&1 &
baseline_pid=$!

# The panel is the surface that commits once a second on its own.
st0=$(sf_status)
sleep 2.5
st1=$(sf_status)
read -r panel panel_commits <<<"$(busiest_surface "$st0" "$st1")"
tap_ok '[ -n "$panel" ] && [ "${panel_commits:-0}" -ge 2 ]' \
	"the panel redraws its seconds clock on its own"
tap_diag "the panel: surface ${panel:-?}, ${panel_commits:-0} commits in 2.5 s"
panel=${panel:-0}

tap_ok "wt_poll 10 'panel classed ticking' surface_is $panel class ticking" \
	"the panel is classed ticking"
tap_diag "$(grep -E "surface $panel \(.*\): .* -> ticking" "$clock_log" |
	head -n 1)"

# Idle: each tick is held (a suppressed repaint) until input or the
# tick's maximum staleness.
tap_ok "wt_poll 10 'a held tick' status_above output.headless.suppressed 0" \
	"idle, the panel's ticks are held (output suppressed rises)"

with0=$(kms_sample)
sta=$(sf_status)
sleep_watching "$WINDOW_S"
with1=$(kms_sample)
stb=$(sf_status)

# The baseline's window ends at about the same time as ours.
base_wait_end=$(($(now_ms) + 30000))
while kill -0 "$baseline_pid" 2>/dev/null &&
      [ "$(now_ms)" -lt "$base_wait_end" ]; do
	sleep 0.2
done
kill -TERM "$baseline_pid" 2>/dev/null
wait "$baseline_pid" 2>/dev/null
base_line=$(cat "$baseline_file" 2>/dev/null)

# rate SAMPLE0 SAMPLE1: "COUNT MS PER_MINUTE" between two kms_samples.
rate() {
	set -- $1 $2
	[ $# -ge 5 ] || { echo "0 0 0"; return 1; }
	local n=$(($5 - $2)) ms=$(($4 - $1))
	echo "$n $ms $(per_minute "$n" "$ms")"
}
read -r base_n base_ms base_pm <<<"$(rate "$(echo "$base_line" |
	cut -d- -f1)" "$(echo "$base_line" | cut -d- -f2)")"
read -r with_n with_ms with_pm <<<"$(rate "$with0" "$with1")"
ratio=$(awk -v a="$base_pm" -v b="$with_pm" 'BEGIN {
	if (b > 0) printf "%.1f", a / b; else print "inf" }')
tap_diag "repaints/min without: $base_pm, with: $with_pm, ratio $ratio" \
	"without stillframe: $base_n backend repaints in $base_ms ms" \
	"with stillframe: $with_n backend repaints in $with_ms ms; status: \
suppressed $(status_key output.headless.suppressed "$sta") -> \
$(status_key output.headless.suppressed "$stb"), stale_flushes \
$(status_key output.headless.stale_flushes "$sta") -> \
$(status_key output.headless.stale_flushes "$stb")"
if [ -z "$base_line" ]; then
	tap_diag "the Weston without stillframe gave no figures:" \
		"$(tail -n 20 "$baseline_file.log" 2>/dev/null)"
fi
# A clock ticking every second repaints some 60 times a minute: fewer
# means the baseline did not measure what it should.
tap_ok "awk -v pm='$base_pm' 'BEGIN { exit !(pm >= 30) }'" \
	"without stillframe the clock repaints at least 30 times a minute"
tap_ok "awk -v a='$base_pm' -v b='$with_pm' -v k=$MIN_RATIO \
	'BEGIN { exit !(a > 0 && a >= k * b) }'" \
	"idle, stillframe repaints at least ${MIN_RATIO}x less often"

# A held frame must leave the planes alone: a KMS backend commits the
# planes it assigned with the frame, so planes assigned for a frame that
# was then held would be flipped without it.
read -r kms_r kms_p kms_s <<<"$(kms_planes)"
tap_ok '[ -n "$kms_r" ] && [ "$kms_s" = 0 ] && [ "$kms_p" = "$kms_r" ]' \
	"held frames assign no planes (each plane assignment was painted)"
tap_diag "backend repaints ${kms_r:-?}, plane assignments ${kms_p:-?}, \
stray ${kms_s:-?}"

input_repaints "a pointer motion repaints at once" motion 5 5
LAST_INPUT_MS=$(now_ms)

# After the motion the user is active, and the ticks are painted; once
# idle again a tick is held, which a key must then flush.
held=$(status_key output.headless.suppressed "$(sf_status)")
tap_ok "wt_poll 8 'a held tick' status_above output.headless.suppressed \
	${held:-0}" "idle again, a tick is held again"
input_repaints "a key paints the held tick at once" key 42
LAST_INPUT_MS=$(now_ms)

read -r _ _ switches <<<"$(kms_sample)"
tap_is "${switches:-?}" 0 \
	"no mode switch repainted for the input (refresh-switch=never)"

wt_stop

# ---- 2. foot, blinking its cursor ----

part2_skipped() {
	tap_skip "foot: its checks" "$1"
}

if ! command -v foot >/dev/null; then
	part2_skipped "foot is not installed"
else
	wt_start sf-clients-foot -l stillframe,timeline \
		<<<"$(weston_ini stillframe.so none)"
	LAST_INPUT_MS=$(now_ms)
	foot_log=$WT_LOG
	mkdir -p "$XDG_CONFIG_HOME/foot"
	printf '[cursor]\nblink=yes\n' >"$XDG_CONFIG_HOME/foot/foot.ini"
	wt_client foot sh -c 'sleep 600'
	foot_client_log=$WT_LAST_LOG

	foot_mapped() {
		local st id
		st=$(sf_status)
		id=$(wt_surface_with_label '^foot$' "$st") || return 1
		[ "$(surface_field "$id" commits "$st")" -gt 0 ] || return 1
		foot_id=$id
	}
	foot_id=
	if wt_poll "$WT_TIMEOUT" "foot's first frame" foot_mapped; then
		tap_result 0 "foot maps a window"
		tap_diag "foot is surface $foot_id"
	else
		tap_result 1 "foot maps a window"
		tap_diag "foot's log:" "$(cat "$foot_client_log")"
	fi
	foot_id=${foot_id:-0}
	t_map=$(now_ms)
	st=$(sf_status)
	s_before=$(status_key output.headless.suppressed "$st")
	h_before=$(surface_field "$foot_id" held "$st")

	bound=$(awk -v p=$BLINK_PERIOD_MS 'BEGIN { print 3 * p / 1000 }')
	if wt_poll "$bound" "foot classed blinking" \
		surface_is "$foot_id" class blinking; then
		tap_result 0 "foot is classed blinking within 3 blink periods"
		tap_diag "classed blinking at most $(($(now_ms) - t_map)) ms \
after its first frame; the plugin's log: $(grep -E \
			"surface $foot_id \(foot\): .* -> blinking" \
			"$foot_log" | head -n 1 |
			sed 's/.*\]\[stillframe\] //')"
	else
		tap_result 1 "foot is classed blinking within 3 blink periods"
		tap_diag "$(sf_status | grep -E "^surface\.$foot_id ")"
	fi

	# Idle (no input since Weston started): the blinks are held.
	held_blinks() {
		local st
		st=$(sf_status)
		[ "$(status_key output.headless.suppressed "$st")" -gt \
			"${s_before:-0}" ] &&
		[ "$(surface_field "$foot_id" held "$st")" -gt \
			"${h_before:-0}" ]
	}
	tap_ok "wt_poll 8 'held blinks' held_blinks" \
		"idle, foot's blinks are held (suppressed and held= rise)"

	# Weston's timeline logs each commit with damage: only foot's
	# here (the panel has no clock).
	timeline_commits() {
		grep -c '"core_commit_damage"' "$foot_log"
	}
	k0=$(kms_repaints)
	tc0=$(timeline_commits)
	sleep $((3 * BLINK_PERIOD_MS / 1000))
	k1=$(kms_repaints)
	tc1=$(timeline_commits)
	st=$(sf_status)
	tap_ok '[ -n "$k0" ] && [ -n "$k1" ] && [ $((k1 - k0)) -le 1 ]' \
		"idle, the backend repaints stay flat over 3 blink periods"
	# Its frame callbacks are answered by the held repaints: nothing
	# else it would draw waits for them.  Six blinks in 3 s.
	tap_ok '[ $((tc1 - tc0)) -ge 5 ]' \
		"idle, foot's frame callbacks are not held: it commits each blink"
	tap_diag "Weston's timeline: $((tc1 - tc0)) commits in 3 blink periods"
	tap_diag "backend repaints ${k0:-?} -> ${k1:-?}; suppressed \
${s_before:-?} -> $(status_key output.headless.suppressed "$st")" \
		"$(printf '%s\n' "$st" | grep -E "^surface\.$foot_id ")"

	# Nothing lost.  held= and suppressed only ever count up, and the
	# status has no "pending" count.  Damage the plugin holds stays in
	# Weston's output damage (the backend, which subtracts it, did not
	# run), so any repaint let through paints all of it: what shows the
	# held blink was painted is output.headless.repaints rising after
	# the key while stale_flushes does not (not the deadline's flush).
	st_key=$(sf_status)
	p_before=$(status_key output.headless.repaints "$st_key")
	stale_before=$(status_key output.headless.stale_flushes "$st_key")
	c_before=$(surface_field "$foot_id" commits "$st_key")
	input_repaints "a key paints foot's held blink at once" key 30
	LAST_INPUT_MS=$(now_ms)
	wt_poll 1 "the plugin to count the repaint" \
		status_above output.headless.repaints "${p_before:-0}"
	st=$(sf_status)
	p_after=$(status_key output.headless.repaints "$st")
	stale_after=$(status_key output.headless.stale_flushes "$st")
	tap_ok '[ "${p_after:-0}" -gt "${p_before:-0}" ] &&
		[ "$stale_after" = "$stale_before" ]' \
		"status: the held damage was painted by the key, not at its deadline"
	tap_diag "output.headless.repaints ${p_before:-?} -> ${p_after:-?}, \
stale_flushes ${stale_before:-?} -> ${stale_after:-?}"

	# The typed "a" is echoed by the tty: foot must draw it now, not
	# when its held frame callback would have been released.
	t0=$(now_ms)
	if wt_poll 1 "foot to draw the typed key" \
		surface_above "$foot_id" commits "${c_before:-0}"; then
		tap_result 0 "foot draws the typed key at once"
		tap_diag "foot committed $(($(now_ms) - t0)) ms after the key"
	else
		tap_result 1 "foot draws the typed key at once"
		tap_diag "foot's commits stayed at ${c_before:-?} for 1 s"
	fi
	tap_ok "wt_poll 1 'throttle lifted' \
		status_is surface.$foot_id.throttle_us 0" \
		"the user is back: foot's frame callbacks are not throttled"

	# Still active: blinks are painted, not held.  The user stays
	# active through the window on purpose, a pointer motion every
	# 0.25 s from before its first sample to before its last: timed
	# from the key alone, the polls and status calls above can take a
	# busy machine past suppress-idle-delay, and then the blinks are
	# rightly held.
	wt_cmd motion 1 0
	wt_dump >/dev/null	# a barrier: the motion has been seen
	st=$(sf_status)
	h0=$(surface_field "$foot_id" held "$st")
	c0=$(surface_field "$foot_id" commits "$st")
	for _ in 1 2 3 4 5 6; do
		wt_cmd motion 1 0
		sleep 0.25
	done
	LAST_INPUT_MS=$(now_ms)
	st=$(sf_status)
	h1=$(surface_field "$foot_id" held "$st")
	c1=$(surface_field "$foot_id" commits "$st")
	tap_ok '[ -n "$c1" ] && [ "$c1" -ge $((c0 + 2)) ] && [ "$h1" = "$h0" ]' \
		"the user active, foot's blinks are painted, none held"
	tap_diag "foot commits ${c0:-?} -> ${c1:-?}, held ${h0:-?} -> ${h1:-?}"

	wt_stop
fi

# ---- 3. animations: weston-simple-shm, weston-simple-damage ----

# sample_class: append the client's class now to anim_classes.
anim_id=
anim_classes=
sample_class() {
	anim_classes+=" $(surface_field "$anim_id" class "$(sf_status)")"
}

# watch_throttled SECONDS [MOTION]: sample the class every 0.25 s for
# SECONDS, moving the pointer each time if MOTION is given; prints
# nothing.
watch_throttled() {
	local n=$(($1 * 4)) i
	for ((i = 0; i < n; i++)); do
		if [ $# -gt 1 ]; then
			wt_cmd motion 1 0
			LAST_INPUT_MS=$(now_ms)
		fi
		sample_class
		sleep 0.25
	done
}

anim_throttled() {
	surface_field "$anim_id" throttled "$(sf_status)"
}

anim_part() {
	local prog=$1 label=$2 name
	name=${prog#weston-}
	if ! command -v "$prog" >/dev/null; then
		tap_skip "$name: its checks" "$prog is not installed"
		return
	fi

	wt_client "$prog"
	local prog_pid=$WT_LAST_PID prog_log=$WT_LAST_LOG
	anim_id=
	anim_classes=
	anim_mapped() {
		local st id
		st=$(sf_status)
		id=$(wt_surface_with_label "$label" "$st") || return 1
		[ "$(surface_field "$id" commits "$st")" -gt 3 ] || return 1
		anim_id=$id
	}
	if wt_poll "$WT_TIMEOUT" "$prog's frames" anim_mapped; then
		tap_ok "wt_poll 2 '$name animating' eval \
			'surface_is $anim_id class animating ||
			 surface_is $anim_id class video'" \
			"$name is classed animating or video"
		tap_diag "$name is surface $anim_id"
	else
		tap_result 1 "$name maps and animates"
		tap_diag "$prog's log:" "$(cat "$prog_log")"
	fi
	anim_id=${anim_id:-0}

	# Focused (desktop-shell activates a new toplevel) and idle.
	wait_user_idle
	local t0 t1 t2 t3
	t0=$(anim_throttled)
	watch_throttled 2
	t1=$(anim_throttled)
	tap_ok '[ -n "$t1" ] && [ "$t1" = "$t0" ]' \
		"$name focused and idle: not throttled"
	tap_diag "throttled= ${t0:-?} -> ${t1:-?} over 2 s"

	# A new toplevel takes the keyboard focus.  An animation is then
	# throttled to background-frame-rate; what the classifier calls a
	# video (most of the surface redrawn each frame, as simple-shm
	# does) never is: the checks below follow the class it has now.
	local cls video=0 want_us=$BACKGROUND_THROTTLE_US
	cls=$(surface_field "$anim_id" class "$(sf_status)")
	if [ "$cls" = video ]; then
		video=1
		want_us=0
	fi
	tap_diag "$name is classed ${cls:-?}: $([ $video = 1 ] &&
		echo "a video, never throttled" ||
		echo "throttled while unfocused and idle")"
	wt_client "$SF_TEST_CLIENT" --app-id focus-thief --seconds 600 \
		--keyboard
	local thief_pid=$WT_LAST_PID thief_log=$WT_LAST_LOG
	wt_poll "$WT_TIMEOUT" "focus-thief has the focus" \
		grep -q "keyboard enter" "$thief_log"
	if [ $video = 0 ]; then
		tap_ok "wt_poll 3 '$name throttled' eval \
			'[ \"\$(anim_throttled)\" -gt \"${t1:-0}\" ]'" \
			"$name unfocused and idle: throttled"
	else
		watch_throttled 2
		tap_ok '[ "$(anim_throttled)" = "${t1:-0}" ]' \
			"$name unfocused and idle: a video, not throttled"
	fi
	sample_class
	local us
	us=$(status_key "surface.$anim_id.throttle_us" "$(sf_status)")
	tap_is "$us" "$want_us" \
		"$name unfocused and idle: throttle_us is its class's (background rate, a video 0)"

	# Active: the pointer moves every 0.25 s.  What was held when the
	# user came back is released; after that nothing is held.
	watch_throttled 1 motion
	t2=$(anim_throttled)
	watch_throttled 3 motion
	t3=$(anim_throttled)
	tap_ok '[ -n "$t3" ] && [ "$t3" = "$t2" ]' \
		"$name unfocused, user active: not throttled"
	tap_diag "throttled= ${t2:-?} -> ${t3:-?} over 3 s of motion"

	# Idle again.
	local bound=$(((IDLE_DELAY_MS + 2500) / 1000))
	if [ $video = 1 ]; then
		wait_user_idle
		watch_throttled 1
		tap_ok '[ "$(anim_throttled)" = "${t3:-0}" ]' \
			"$name unfocused and idle again: a video, still not throttled"
	elif wt_poll "$bound" "$name throttled again" \
		eval '[ "$(anim_throttled)" -gt "${t3:-0}" ]'; then
		tap_result 0 "$name unfocused and idle again: throttled again"
		tap_diag "throttled again at most \
$(($(now_ms) - LAST_INPUT_MS)) ms after the last motion"
	else
		tap_result 1 "$name unfocused and idle again: throttled again"
	fi

	# It draws on frame callbacks, so throttled it commits about
	# background-frame-rate times a second: fewer would starve it, more
	# would mean the throttle lets go (as when each release reclassified
	# it static and unthrottled it).
	local st c0 c1 ms0 ms1 fps
	st=$(sf_status)
	c0=$(surface_field "$anim_id" commits "$st")
	ms0=$(now_ms)
	watch_throttled 2
	st=$(sf_status)
	c1=$(surface_field "$anim_id" commits "$st")
	ms1=$(now_ms)
	fps=$(awk -v n="$((${c1:-0} - ${c0:-0}))" -v ms="$((ms1 - ms0))" \
		'BEGIN { printf "%.1f", n * 1000 / ms }')
	if [ $video = 1 ]; then
		# Far above the 5 a second of the throttle, whatever the load.
		tap_ok "awk -v f=$fps 'BEGIN { exit !(f >= 15) }'" \
			"$name, a video: draws at its own rate"
	else
		tap_ok "awk -v f=$fps -v want=$((1000000 / BACKGROUND_THROTTLE_US)) \
			'BEGIN { exit !(f >= want * 0.6 && f <= want * 1.4) }'" \
			"$name throttled: draws at about the background frame rate"
	fi
	tap_diag "$fps commits/s unfocused and idle (${c0:-?} -> ${c1:-?} in \
$((ms1 - ms0)) ms)"

	local blinks
	# shellcheck disable=SC2034	# read by tap_ok's eval
	blinks=$(grep -cE "surface $anim_id \(.*\): .* -> blinking" "$WT_LOG")
	tap_ok '[ -n "$anim_classes" ] &&
		! printf "%s\n" $anim_classes | grep -qx blinking &&
		[ "$blinks" = 0 ]' \
		"$name is never classed blinking (sampled and logged)"
	tap_diag "$name classes sampled: $(printf '%s\n' $anim_classes |
		sort | uniq -c |
		awk '{ printf "%s%s x%s", s, $2, $1; s = ", " }')"

	wt_client_stop "$prog_pid"
	wt_client_stop "$thief_pid"
}

wt_start sf-clients-anim -l stillframe <<<"$(weston_ini stillframe.so none)"
LAST_INPUT_MS=$(now_ms)
anim_part weston-simple-shm 'simple-shm$'
anim_part weston-simple-damage 'simple-damage$'
wt_stop

# ---- 4. a client paced by frame callbacks, committing nothing new ----
#
# A browser around its page's caret asks for a frame callback each frame
# and commits nothing new.  Those commits are held (they show nothing),
# and libweston answers the frame callbacks of a held frame too: a held
# frame finished without a timestamp had Weston repaint again at once for
# the next commit, and the client was answered as fast as it committed,
# some thousand times a second, where stock Weston paces it at the
# refresh.  The witness is the client's own count of frame callbacks, on
# the stock Weston and with stillframe, 5 s each, the output at 60 Hz
# (refresh-switch=never).
empty_frames() {	# prints the client's frame callbacks in 5 s
	wt_run "$SF_TEST_CLIENT" --empty-frames --seconds 5 --app-id empty |
		awk '$1 == "frame" && $2 == "callbacks" { print $3 }'
}
wt_start sf-clients-empty-stock <<<"$(weston_ini '' none)"
stock_cb=$(empty_frames)
wt_stop
wt_start sf-clients-empty -l stillframe <<<"$(weston_ini stillframe.so none)"
sf_cb=$(empty_frames)
wt_stop
tap_ok '[ -n "$stock_cb" ] && [ -n "$sf_cb" ] && [ "$sf_cb" -gt 0 ] &&
	[ "$sf_cb" -le $((stock_cb * 3 / 2 + 30)) ]' \
	"empty commits on frame callbacks: answered at the refresh, as on stock"
tap_diag "frame callbacks in 5 s: stock ${stock_cb:-?}, stillframe ${sf_cb:-?}"

tap_done
