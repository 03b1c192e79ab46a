# shellcheck shell=sh
# The one TAP library of stillframe's shell tests: counting and reporting.
# Sourced, not run, by every shell test, directly or through the Weston
# (tests/weston/lib.sh) and Xorg (tests/xorg/lib.sh) harnesses.
#
#	. "$(dirname "$0")/tap.sh"
#	tap_is "$(cat out)" hello "the tool says hello"
#	tap_ok '[ -s "$log" ]' "it wrote a log" || tap_diag "$(ls -l)"
#	tap_done
#
# The plan comes LAST: tap_done prints "1..N" after the N-th test, so
# adding a check never means recounting (TAP allows the plan at the end;
# meson's TAP parser reads it there).  A script that exits before
# tap_done, tap_skip_all or tap_bail (a stray `exit`, a crash of bash)
# gets "Bail out!" and a failing status from this library's EXIT trap:
# meson (1.0.1 checked) takes a run without a plan for a pass, so this
# is what keeps the safety of a numeric plan up front without the
# counting.  The trap is this library's: a script or harness puts its
# own clean-up in it with tap_at_exit, never with `trap ... EXIT`.
#
# Return convention: every check (tap_result, tap_ok, tap_is, tap_like)
# returns 0 when it printed "ok" and 1 when it printed "not ok", so that
#	tap_ok COND DESC || tap_diag "what was seen"
# says more on a failure.  No test script runs under `set -e` (a failed
# check must not end the script; tap_done counts the failures).
#
#   tap_result STATUS DESC	ok if STATUS is 0 (e.g. tap_result $? "it ran")
#   tap_ok COND DESC		ok if the shell condition COND (a string,
#				eval'ed) succeeds
#   tap_is GOT WANT DESC	ok if the two strings are equal
#   tap_like GOT ERE DESC	ok if GOT matches the extended regex ERE
#   tap_skip DESC REASON	one test skipped ("ok N - DESC # SKIP REASON")
#   tap_skip_all REASON		the whole script skipped: "1..0 # SKIP
#				REASON", exit 0 (meson reports SKIP); after
#				some tests have run, the rest is skipped: a
#				diagnostic, then tap_done
#   tap_diag MSG...		each MSG line as a "# " diagnostic on stderr
#				(so that $(...) stays clean), or on the fd
#				in TAP_DIAG_FD
#   tap_bail MSG...		"Bail out! MSG", then the command in
#				TAP_ON_BAIL if set, on stderr (the Weston
#				harness prints its log tail), exit 1
#   tap_done			the plan "1..N", exit 1 if a check failed,
#				else 0
#   tap_at_exit CMD		CMD (eval'ed) is the clean-up run at exit,
#				after the check above, with the exit status
#				in $? (it may exit with another); replaces
#				the CMD given before.  Call it again in a
#				( ... ) subshell that needs one: bash resets
#				traps there
#
# State: TAP_N (tests so far), TAP_FAILED (failed checks so far),
# TAP_DONE (set once the script has said how it ends; a ( ... )
# subshell that reports no tests sets it before its own tap_at_exit).
#
# Skipping a whole script is "1..0 # SKIP", never exit 77: meson's TAP
# protocol (1.0.1 checked) calls every non-zero exit an ERROR, 77
# included.

TAP_N=0
TAP_FAILED=0
TAP_DONE=
TAP_AT_EXIT=

tap_diag() {
	printf '%s\n' "$@" | sed 's/^/# /' >&"${TAP_DIAG_FD:-2}"
}

tap_result() {
	TAP_N=$((TAP_N + 1))
	if [ "$1" = 0 ]; then
		echo "ok $TAP_N - $2"
		return 0
	fi
	echo "not ok $TAP_N - $2"
	TAP_FAILED=$((TAP_FAILED + 1))
	return 1
}

tap_ok() {
	if eval "$1"; then
		tap_result 0 "$2"
	else
		tap_result 1 "$2"
		tap_diag "condition failed: $1"
		return 1
	fi
}

tap_is() {
	if [ "$1" = "$2" ]; then
		tap_result 0 "$3"
	else
		tap_result 1 "$3"
		tap_diag "got:  '$1'" "want: '$2'"
		return 1
	fi
}

tap_like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		tap_result 0 "$3"
	else
		tap_result 1 "$3"
		tap_diag "got:" "$1" "does not match: $2"
		return 1
	fi
}

tap_skip() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $1 # SKIP $2"
}

tap_skip_all() {
	if [ "$TAP_N" -gt 0 ]; then
		tap_diag "the rest is skipped: $*"
		tap_done
	fi
	TAP_DONE=1
	echo "1..$TAP_N # SKIP $*"
	exit 0
}

tap_bail() {
	TAP_DONE=1
	echo "Bail out! $*"
	[ -n "${TAP_ON_BAIL:-}" ] && $TAP_ON_BAIL >&2
	exit 1
}

tap_done() {
	TAP_DONE=1
	echo "1..$TAP_N"
	exit $((TAP_FAILED > 0))
}

tap_at_exit() {
	TAP_AT_EXIT=$1
	trap tap__exit EXIT
}

tap__exit() {
	tap__rc=$?
	if [ -z "$TAP_DONE" ]; then
		TAP_DONE=1
		echo "Bail out! the script ended (status $tap__rc) before" \
			"tap_done, after $TAP_N tests"
		[ "$tap__rc" = 0 ] && tap__rc=1
	fi
	if [ -n "$TAP_AT_EXIT" ]; then
		(exit "$tap__rc")
		eval "$TAP_AT_EXIT"
	fi
	exit "$tap__rc"
}

trap tap__exit EXIT
