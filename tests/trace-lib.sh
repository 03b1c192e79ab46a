# shellcheck shell=bash
# Helpers for the tests that record a trace from a real display server
# and replay it (tests/weston/test-plugin-trace.sh,
# tests/xorg/test-xorg-trace.sh).  Sourced, not run.

# trace_count ERE FILE: how many lines of FILE match ERE.
trace_count() {
	grep -cE -- "$1" "$2"
}

# trace_ends_after FILE MS: the last line is the end event, at MS
# milliseconds or later.
trace_ends_after() {
	tail -n 1 "$1" | awk -v ms="$2" '
		$2 == "end" && $1 >= ms { ok = 1 }
		END { exit !ok }'
}

# replay_commits REPLAYED ERE: the commits that `stillframe-replay
# --status` (its output in REPLAYED) counted for the surface whose label
# matches ERE.  The replay numbers surfaces its own way, and a trace
# cuts labels to 31 bytes.
replay_commits() {
	printf '%s\n' "$1" | awk -v re="$2" '
	$1 ~ /^surface\.[0-9]+$/ {
		label = $0
		sub(/.* label=/, "", label)
		if (label !~ re)
			next
		for (i = 2; i <= NF; i++)
			if ($i ~ /^commits=/) print substr($i, 9)
	}'
}
