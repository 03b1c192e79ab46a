#!/bin/bash
# TAP: every man page renders with groff without a single warning.
set -u
n=0
fail=0
echo "1..$#"
for page in "$@"; do
	n=$((n + 1))
	out=$(groff -ww -mandoc -Tutf8 -z "$page" 2>&1)
	if [ -n "$out" ] || ! [ -s "$page" ]; then
		echo "not ok $n - $(basename "$page")"
		printf '%s\n' "$out" | sed 's/^/# /'
		fail=1
	else
		echo "ok $n - $(basename "$page")"
	fi
done
exit $fail
