#!/bin/bash
# TAP: every man page renders with groff without a single warning.
set -u
. "$(dirname "$0")/tap.sh"
for page in "$@"; do
	out=$(groff -ww -mandoc -Tutf8 -z "$page" 2>&1)
	if [ -n "$out" ] || ! [ -s "$page" ]; then
		tap_result 1 "$(basename "$page")"
		printf '%s\n' "$out" | sed 's/^/# /'
	else
		tap_result 0 "$(basename "$page")"
	fi
done
tap_done
