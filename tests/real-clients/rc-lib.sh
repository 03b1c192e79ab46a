# shellcheck shell=bash
# Helpers shared by the real-client tests, over either harness (sourced
# after tests/xorg/lib.sh or tests/weston/lib.sh).  Sourced, not run.
#
#   rc_now_ms		CLOCK_REALTIME in ms, as both harnesses count
#   rc_xwd_series T0 MS PREFIX WINDOW...
#			(X) xwd shots of each WINDOW ("root" for the root)
#			until T0 + MS; RC_TIMES gets each round's time
#			after T0, RC_SHOTS its file prefix (the shot of the
#			i-th window is "PREFIX-i")
#   rc_shot_series T0 MS PREFIX [STEP]
#			(Weston) fake-KMS shots of the headless output until
#			T0 + MS, STEP seconds apart (0.05), into RC_TIMES and
#			RC_SHOTS (the files)
#   rc_repaints		(Weston) the fake-KMS double's repaint count;
#			nothing if Weston does not answer
#   rc_delta A B	B - A, or "none" if either is empty (a count that
#			could not be read must fail a test, not read as 0)
#   rc_first_change REF LINES...
#			the index of the first of LINES that differs from
#			REF, or "none"
#   rc_screen ARG...	screen.py (this folder's) with ARGs
#   rc_hidden_run SEEN TIMES
#			over the arrays named SEEN (a screen.py "block" per
#			sample, "none" without the caret) and TIMES (each
#			sample's ms): RC_LONGEST, the longest run without the
#			caret, from its first sample to the one showing it
#			again (or the last), and RC_OFF, the samples without
#			it
#   rc_xterm_caret FILE...
#			for each screen shot FILE, where xterm's caret (a
#			solid block of its default font's 6x13 cell, drawn
#			-fg black -cr black on white) shows, or "none"
#   rc_weston_xterm_caret_shown
#			(Weston) a fresh shot shows xterm's caret
#   rc_xorg_require TOOL...
#			(X) skips unless each TOOL and the module, x-raw and
#			the test module meson passes are there
#   rc_xorg_require_module PROG...
#			(X) skips unless each PROG and the module meson
#			passes are there
#   rc_xorg_start_sf	(X) Xorg with stillframe holding blinks early
#			(1.5 s idle, 1 s low refresh, 30 s staleness)
#   rc_xorg_start_awake NAME
#			(X) Xorg NAME with stillframe on all outputs, never
#			dimming or blanking, and 72, 48 and 30 Hz modes to
#			switch to
#   rc_xorg_witness_require
#			(X) sets RC_WITNESS to the benchmarks' X Damage
#			witness (sf-bench-x), or skips
#   rc_xorg_witness_start FILE
#			(X) the witness on the display for at most 30 s,
#			its output into FILE; RC_WITNESS_PID
#   rc_xorg_witness_stop
#			(X) ends it
#   rc_xorg_damage_count FILE
#			(X) the damage reports the witness wrote into FILE
#   rc_weston_ini MODULES BG [LINE...]
#			(Weston) the ini of a still desktop-shell without
#			panel on BG, with stillframe's section holding after
#			500 ms of idleness and each LINE in it
#   rc_weston_ini_awake MODULES [LINE...]
#			(Weston) the ini of a still desktop-shell, MODULES
#			loaded (none if empty), stillframe on all outputs,
#			never dimming or blanking, each LINE in its section
#   rc_weston_mode_switches
#			(Weston) the fake-KMS double's mode switches of the
#			headless output
#   rc_weston_xwayland_require
#			(Weston) skips unless Weston's xwayland.so is there
#   rc_weston_xwayland_display
#			(Weston) RC_X_DISPLAY, the display xwayland.so
#			listens on (bails if none)
#   rc_weston_box BG	(Weston) BOX, the window on the BG background
#			in a fresh shot (fails if none)
#   rc_weston_key_change BOX PREFIX
#			(Weston) shift pressed, the shots of 1.5 s after it
#			(RC_SHOTS, RC_TIMES); RC_KEY_MS, when the pixels in
#			BOX first changed, or "none"
#
# Shots are taken first and read in one go afterwards: python starts
# slowly on a busy machine, a shot takes some 50 ms.

rc_now_ms() {
	local t=${EPOCHREALTIME/[.,]/}
	echo $((t / 1000))
}

rc_xwd_series() {
	local t0=$1 ms=$2 prefix=$3 at i w
	shift 3
	RC_TIMES=() RC_SHOTS=()
	while at=$(($(rc_now_ms) - t0)) && [ "$at" -lt "$ms" ]; do
		i=0
		for w in "$@"; do
			if [ "$w" = root ]; then
				DISPLAY=$XT_DISPLAY xwd -silent -root \
					-out "$prefix-$at-$i"
			else
				DISPLAY=$XT_DISPLAY xwd -silent -id "$w" \
					-out "$prefix-$at-$i"
			fi
			i=$((i + 1))
		done
		RC_TIMES+=("$at")
		RC_SHOTS+=("$prefix-$at")
		sleep 0.05
	done
}

rc_shot_series() {
	local t0=$1 ms=$2 prefix=$3 step=${4:-0.05} at
	RC_TIMES=() RC_SHOTS=()
	while at=$(($(rc_now_ms) - t0)) && [ "$at" -lt "$ms" ]; do
		wt_alive || break
		wt_shot headless "$prefix-$at.ppm" || continue
		RC_TIMES+=("$at")
		RC_SHOTS+=("$prefix-$at.ppm")
		sleep "$step"
	done
}

rc_repaints() {
	wt_dump | awk '$1 == "output" { print $8 }'
}

rc_delta() {
	if [ -n "$1" ] && [ -n "$2" ]; then
		echo $(($2 - $1))
	else
		echo none
	fi
}

rc_first_change() {
	local ref=$1 i=0 line
	shift
	for line in "$@"; do
		[ "$line" != "$ref" ] && { echo "$i"; return; }
		i=$((i + 1))
	done
	echo none
}

rc_hidden_run() {
	local -n rc_seen=$1 rc_times=$2
	local i d since=
	RC_LONGEST=0 RC_OFF=0
	for i in "${!rc_times[@]}"; do
		d=0
		if [ "${rc_seen[$i]:-none}" = none ]; then
			RC_OFF=$((RC_OFF + 1))
			[ -n "$since" ] || since=${rc_times[$i]}
			d=$((rc_times[i] - since))
		elif [ -n "$since" ]; then
			d=$((rc_times[i] - since))
			since=
		fi
		[ "$d" -gt "$RC_LONGEST" ] && RC_LONGEST=$d
	done
}

rc_screen() {
	python3 "$(dirname "${BASH_SOURCE[0]}")/screen.py" "$@"
}

rc_xterm_caret() {
	rc_screen block 5 11 "$@"
}

rc_weston_xterm_caret_shown() {
	wt_shot headless "$WT_DIR/caret.ppm" &&
		[ "$(rc_xterm_caret "$WT_DIR/caret.ppm")" != none ]
}

rc_xorg_require() {
	local tool
	for tool in "$@"; do
		command -v "$tool" >/dev/null ||
			tap_skip_all "$tool missing (run scripts/install-deps)"
	done
	[ -f "${SF_XORG_MODULE:-}" ] || tap_skip_all "SF_XORG_MODULE not built"
	[ -x "${SF_X_RAW:-}" ] || tap_skip_all "SF_X_RAW not built"
	[ -f "${SF_XORG_TEST_MODULE:-}" ] ||
		tap_skip_all "SF_XORG_TEST_MODULE not built"
}

rc_xorg_require_module() {
	local prog
	for prog in "$@"; do
		command -v "$prog" >/dev/null ||
			tap_skip_all "$prog is not installed"
	done
	[ -e "${SF_XORG_MODULE:-}" ] ||
		tap_skip_all "SF_XORG_MODULE does not name a file (run it from meson)"
}

rc_xorg_start_sf() {
	xt_start sf <<-EOF
		Option "SuppressIdleDelay" "1500"
		Option "LowRefreshTimeout" "1000"
		Option "BlinkMaxStaleness" "30000"
	EOF
}

rc_xorg_start_awake() {
	XT_EXTRA_RATES="72 48 30" xt_start "$1" <<-EOF
		Option "Outputs" "all"
		Option "DimTimeout" "0"
		Option "StandbyTimeout" "0"
		Option "OffTimeout" "0"
	EOF
}

rc_xorg_witness_require() {
	# Built with the benchmarks, next to the module's folder.
	RC_WITNESS=${SF_BENCH_X:-$(dirname "$SF_XORG_MODULE")/../bench/sf-bench-x}
	[ -x "$RC_WITNESS" ] ||
		tap_skip_all "sf-bench-x not built (needs xcb-damage)"
}

rc_xorg_witness_start() {
	# It runs until its stdin ends.
	"$RC_WITNESS" --display "$XT_DISPLAY" < <(sleep 30 2>/dev/null) \
		>"$1" 2>&1 &
	RC_WITNESS_PID=$!
	XT_CLIENT_PIDS+=("$RC_WITNESS_PID")
}

rc_xorg_witness_stop() {
	kill "$RC_WITNESS_PID" 2>/dev/null
	wait "$RC_WITNESS_PID" 2>/dev/null
}

rc_xorg_damage_count() {
	awk '$1 == "damage" { n++ } END { print n + 0 }' "$1"
}

# rc_clock_script PATH: writes PATH, a shell script printing the time to
# the second in place (a carriage return, no newline) every second: a
# terminal clock, for weston-terminal ($SHELL) or xterm (-e).
rc_clock_script() {
	printf '%s\n' '#!/bin/sh' \
		"while :; do printf '\\r%s ' \"\$(date +%T)\"; sleep 1; done" \
		>"$1" && chmod +x "$1"
}

rc_weston_ini() {
	local modules=$1 bg=$2
	shift 2
	printf '%s\n' "[core]" "modules=$modules" "idle-time=0" \
		"$(wt_ini_still_shell)" "panel-position=none" \
		"background-color=0xff$bg" "[stillframe]" \
		"suppress-idle-delay=500" "$@"
}

rc_weston_ini_awake() {
	local modules=$1
	shift
	printf '%s\n' "[core]" ${modules:+"modules=$modules"} "idle-time=0" \
		"$(wt_ini_still_shell)" "[stillframe]" "outputs=all" \
		"dim-timeout=0" "standby-timeout=0" "off-timeout=0" "$@"
}

rc_weston_mode_switches() {
	wt_dump | awk '$1 == "output" && $2 == "headless" {
		for (i = 3; i < NF; i++)
			if ($i == "mode_switches") print $(i + 1)
	}'
}

rc_weston_xwayland_require() {
	# In the folder of the installed libweston's own version
	# (libweston-10, -14, -16): one weston is installed at a time.
	ls /usr/lib/*/libweston-[0-9]*/xwayland.so >/dev/null 2>&1 ||
		tap_skip_all "Weston's xwayland.so is not installed"
	# xwayland.so binds its socket in /tmp/.X11-unix, which a fresh
	# machine has only once an X server or the system's tmpfiles made
	# it; Weston 10 crashes when the bind fails.  Made as they make it.
	if [ ! -d /tmp/.X11-unix ]; then
		mkdir -p /tmp/.X11-unix 2>/dev/null &&
			chmod 1777 /tmp/.X11-unix 2>/dev/null
	fi
	[ -d /tmp/.X11-unix ] ||
		tap_skip_all "/tmp/.X11-unix is missing and cannot be made"
}

rc_weston_xwayland_display() {
	wt_log_wait "xserver listening on display" ||
		tap_bail "no X display from xwayland.so"
	# shellcheck disable=SC2034	# for the caller
	RC_X_DISPLAY=$(sed -n \
		's/.*xserver listening on display \(:[0-9]*\).*/\1/p' \
		"$WT_LOG" | head -n 1)
}

# shellcheck disable=SC2034	# BOX is for the caller
rc_weston_box() {
	wt_shot headless "$WT_DIR/map.ppm" &&
		BOX=$(rc_screen window "$WT_DIR/map.ppm" "$1")
}

# shellcheck disable=SC2034	# RC_KEY_MS is for the caller
rc_weston_key_change() {
	local box=$1 prefix=$2 i
	local -a regions
	wt_shot headless "$prefix-before.ppm"
	local t0
	t0=$(rc_now_ms)
	wt_cmd key 42
	rc_shot_series "$t0" 1500 "$prefix"
	# shellcheck disable=SC2086	# box is four numbers
	mapfile -t regions < <(rc_screen region $box "$prefix-before.ppm" \
		"${RC_SHOTS[@]}")
	i=$(rc_first_change "${regions[0]}" "${regions[@]:1}")
	RC_KEY_MS=none
	[ "$i" != none ] && RC_KEY_MS=${RC_TIMES[$i]}
	return 0
}
