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
#   rc_shot_series T0 MS PREFIX
#			(Weston) fake-KMS shots of the headless output until
#			T0 + MS, into RC_TIMES and RC_SHOTS (the files)
#   rc_repaints		(Weston) the fake-KMS double's repaint count;
#			nothing if Weston does not answer
#   rc_delta A B	B - A, or "none" if either is empty (a count that
#			could not be read must fail a test, not read as 0)
#   rc_first_change REF LINES...
#			the index of the first of LINES that differs from
#			REF, or "none"
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
	local t0=$1 ms=$2 prefix=$3 at
	RC_TIMES=() RC_SHOTS=()
	while at=$(($(rc_now_ms) - t0)) && [ "$at" -lt "$ms" ]; do
		wt_alive || break
		wt_shot headless "$prefix-$at.ppm" || continue
		RC_TIMES+=("$at")
		RC_SHOTS+=("$prefix-$at.ppm")
		sleep 0.05
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
