#!/bin/bash
# Runs a real-client test, and once more if it failed: these tests run
# Chromium, GTK and mpv on a shared CI machine, and a few of their
# checks (a stock figure to compare with, a toolkit's timing) can miss
# on a busy machine.  The first run's TAP goes to stderr as diagnostics,
# so a test that needed its second run is seen in the log
# ("once-more: ... failed, running it again"); only the second run's
# TAP is judged.  A test that fails twice fails.
# SF_ONCE_MORE=0 runs it once only: to see which tests still need it.
set -u
[ "${SF_ONCE_MORE:-1}" = 0 ] && exec "$@"
first=$(mktemp)
trap 'rm -f "$first"' EXIT
# Passed: a zero status, no "not ok" line and a plan (tests/tap.sh
# prints it last: a run cut short has none).
if "$@" >"$first" && ! grep -q '^not ok' "$first" &&
	grep -q '^1\.\.' "$first"; then
	cat "$first"
	exit 0
fi
{
	echo "once-more: $(basename "$1") failed, running it again; its first run:"
	sed 's/^/  /' "$first"
} | sed 's/^/# /' >&2
exec "$@"
