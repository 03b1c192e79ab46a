# SPDX-License-Identifier: MIT
# Helpers for the scripts that run inside the test VM (guest-*.sh), as
# root in the guest's chroot of the host root: TAP output, the KMS state
# the kernel shows in debugfs, atomic commits counted by ftrace, and real
# input through tests/vm/sf-vm-input (uinput).  Sourced, not run.

# Counting and reporting are tests/tap.sh's (tap_result, tap_is,
# tap_diag, tap_done ...); diagnostics go with the TAP on stdout, the
# one stream test-vm.sh shows on success.
# shellcheck source=../tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../tap.sh"
TAP_DIAG_FD=1
# The guest sees the host's /tmp through its overlay: files of its own
# go in a directory of their own.
VT_TMP=$(mktemp -d /tmp/stillframe-guest.XXXXXX)

# vt_poll SECONDS CMD...: until CMD succeeds; a fork costs ~0.1 s under
# TCG, so the loop sleeps little.
vt_poll() {
	local end=$(($(date +%s) + $1))
	shift
	while :; do
		"$@" && return 0
		[ "$(date +%s)" -ge "$end" ] && return 1
		sleep 0.2
	done
}

# ---- what the kernel says: /sys/kernel/debug/dri/0/state ----

DRI_STATE=/sys/kernel/debug/dri/0/state

# crtc_field NAME: a field of the first CRTC ("active", "enable").
crtc_field() {
	awk -v f="$1" '/^crtc\[/ { c = 1; next } /^[a-z]/ { c = 0 }
		c && $1 ~ "^" f "=" { sub(/^[^=]*=/, "", $1); print $1; exit }' \
		"$DRI_STATE"
}

# crtc_mode: "WxH@HZ" of the first CRTC's mode, as the kernel has it.
# The line is `mode: "NAME": VREFRESH CLOCK HDISPLAY ... VTOTAL TYPE
# FLAGS`; the name is the client's (Xorg's modesetting leaves it empty),
# so the numbers are read from the end.
crtc_mode() {
	awk '/^crtc\[/ { c = 1; next } /^[a-z]/ { c = 0 }
		c && $1 == "mode:" {
			print $(NF - 9) "x" $(NF - 5) "@" $(NF - 11); exit }' \
		"$DRI_STATE"
}

crtc_mode_is() {
	[ "$(crtc_mode)" = "$1" ]
}

crtc_active_is() {
	[ "$(crtc_field active)" = "$1" ]
}

# crtc_stays_inactive: inactive now and a second later.  DPMS off lasts
# until input; a look during the idle mode switch may find the CRTC off
# for a moment, which is not it.
crtc_stays_inactive() {
	crtc_active_is 0 && sleep 1 && crtc_active_is 0
}

# ---- atomic commits, counted by the kernel's function tracer ----

TRACING=/sys/kernel/debug/tracing

commits_start() {
	echo 0 >"$TRACING/tracing_on"
	echo 'drm_atomic_commit drm_atomic_nonblocking_commit' \
		>"$TRACING/set_ftrace_filter"
	echo function >"$TRACING/current_tracer"
	echo 16384 >"$TRACING/buffer_size_kb"
	: >"$TRACING/trace"
	echo 1 >"$TRACING/tracing_on"
}

# commits_count: atomic commits (each page flip, modeset or DPMS change
# of a KMS client is one) since commits_start.
commits_count() {
	grep -c 'drm_atomic' "$TRACING/trace"
}

# ---- input: a uinput device, fed through a FIFO ----

input_start() {	# input_start SF_VM_INPUT
	mkfifo $VT_TMP/vm-input
	"$1" <$VT_TMP/vm-input 2>$VT_TMP/vm-input.log &
	VT_INPUT_PID=$!
	exec 7>$VT_TMP/vm-input
	echo "ready $VT_TMP/vm-input.ready" >&7
	vt_poll 10 test -e $VT_TMP/vm-input.ready
}

input() {	# input COMMAND...: one line for sf-vm-input
	echo "$*" >&7
}

input_stop() {
	exec 7>&-
	wait "$VT_INPUT_PID" 2>/dev/null
}

# ---- the checks both display servers share ----

# crtc_seen_is WANT: the CRTC's "WxH@HZ ACTIVE" (kept in VT_SEEN) is WANT.
crtc_seen_is() {
	VT_SEEN="$(crtc_mode) $(crtc_field active)"
	[ "$VT_SEEN" = "$1" ]
}

# acting_crtc_is WANT: the user acts (VT_ACT, a line for sf-vm-input),
# then crtc_seen_is WANT.  Polled, the output stays active however long
# each look takes: one input gives the 2 s of the low-refresh timeout,
# which the looks of a guest beside two CPU hogs missed (with Weston 14
# the kernel's CRTC ran 60 Hz for 1.7 s after the first motion, and 30
# s of looks saw none of it).
acting_crtc_is() {
	input "$VT_ACT"
	crtc_seen_is "$1"
}

# check_refresh_and_dpms WHO: on the kernel's CRTC, input gives the
# native 60 Hz, idle the 30 Hz mode, input 60 Hz again, the off timeout
# an inactive CRTC, and a key an active one.  WHO switches, for the
# descriptions.  Needs input_start and an off timeout of 20 s.
check_refresh_and_dpms() {
	# The first frame of a fresh display server takes its time under
	# emulation, and each look at the CRTC another fraction of a second
	# on a loaded host: the low-refresh (2 s) and off (20 s) timeouts
	# leave room for both.  A shell whose surfaces map late (Weston's
	# under two CPU hogs, 7 s after the input) runs at native for their
	# first 3 s; with a 10 s off timeout the output went off before the
	# idle 30 Hz was seen.
	VT_ACT="motion 5 0"
	vt_poll 30 acting_crtc_is "1920x1080@60 1"
	tap_is "$VT_SEEN" "1920x1080@60 1" \
		"after input the CRTC runs the native 60 Hz mode"
	vt_poll 18 crtc_mode_is 1920x1080@30
	tap_is "$(crtc_mode)" 1920x1080@30 \
		"idle, $1 drops the kernel's CRTC to the 30 Hz mode"
	vt_poll 10 acting_crtc_is "1920x1080@60 1"
	tap_is "$VT_SEEN" "1920x1080@60 1" "input brings 60 Hz back on the CRTC"
	vt_poll 40 crtc_stays_inactive
	tap_is "$(crtc_field active)" 0 "DPMS off makes the CRTC inactive"
	VT_ACT="key 30"
	vt_poll 10 acting_crtc_is "1920x1080@60 1"
	tap_is "$VT_SEEN" "1920x1080@60 1" \
		"a key makes it active again, at 60 Hz"
}

# check_held COUNTER WHAT MIN [LOOPS]: COUNTER prints a running total of
# what a blinking client costs (atomic commits, frames drawn).  It is
# counted for 5 s with stillframe paused, then for 5 s running once the
# user counts as away; paused it must reach MIN, and running cost less
# than paused.  Weston answers a blinking client's frame callbacks (they are
# not held, so what it draws for a real reason is never delayed), so it
# commits every blink; each held frame ends Weston's repaint loop, and
# the next commit starts it again, which bochs, without vblank
# timestamps, does with a page flip of the frame already shown: an
# atomic commit with no new content (11 to 17 against 20 to 24 paused
# in this stop's runs).  A driver with vblank timestamps starts the loop
# without one; a held frame that kept the loop going would end these
# flips (not done yet).
#
# LOOPS, when given, prints a running total of the display server's
# repaint-loop starts (Weston's timeline): then the held frames
# themselves must cost nothing, every COUNTER of the running 5 s being
# a loop start's (one more for a start the window cut from its flip).
# A held frame that reached the backend would cost one more each.
# Needs SF_CTL's ctl function.
check_held() {
	local a b c d c2 d2 paused running loops
	ctl pause
	sleep 2
	a=$($1)
	sleep 5
	b=$($1)
	ctl resume
	sleep 3
	# Loop starts are read before the commits here and after them at
	# the end: a start comes before its commit, so the window holds no
	# commit of a start outside it (but for a slow one, hence the 1).
	[ -n "${4:-}" ] && c2=$($4)
	c=$($1)
	sleep 5
	d=$($1)
	[ -n "${4:-}" ] && d2=$($4)
	paused=$((b - a)) running=$((d - c))
	tap_diag "$2 in 5 s with the client blinking: paused $paused, running $running"
	tap_result "$([ "$paused" -ge "$3" ]; echo $?)" \
		"paused, every blink costs: $paused $2 in 5 s"
	tap_result "$([ "$running" -lt "$paused" ]; echo $?)" \
		"running, held blinks cost less: $running $2 against $paused"
	[ -n "${4:-}" ] || return 0
	# The blinks still start Weston's loop: a stuck loop, with no
	# starts and no commits, is no hold.  Under load (CI makes the
	# Debian roots beside it) the classifier may take a blink for
	# static for a few commits, which are then painted, each a commit
	# of its own: a second window is counted then.  A held frame that
	# reached the backend costs a commit in every window.
	local try
	for try in 1 2; do
		loops=$((d2 - c2))
		if [ "$running" -le $((loops + 1)) ] && [ "$loops" -ge 3 ]; then
			break
		fi
		[ "$try" = 2 ] && break
		tap_diag "window $try: $running $2 for $loops loop starts; once more"
		c2=$($4)
		c=$($1)
		sleep 5
		d=$($1)
		d2=$($4)
		running=$((d - c))
	done
	tap_result "$([ "$running" -le $((loops + 1)) ] && [ "$loops" -ge 3 ]; echo $?)" \
		"running, held frames cost no $2: $running for $loops repaint-loop starts"
}
