#!/bin/sh
# stillframectl without a compositor: usage errors exit 2, a missing
# compositor exits 1 with a message that says where it looked.  TAP.
set -u
ctl=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

# Expects exit status $1 from the rest of the arguments, with stderr in
# $tmp/err.
expect() {
	want=$1
	shift
	"$ctl" "$@" > "$tmp/out" 2> "$tmp/err"
	[ $? = "$want" ]
}

echo "1..8"

expect 0 --help && grep -q '^usage: stillframectl' "$tmp/out"
check $? "--help prints the usage"

expect 2 && grep -q 'missing COMMAND' "$tmp/err"
check $? "no command is a usage error"

expect 2 frobnicate && grep -q "unknown command 'frobnicate'" "$tmp/err"
check $? "an unknown command is a usage error"

expect 2 top --rate 24 && grep -q 'top does not take --rate' "$tmp/err"
check $? "an option of another command is refused"

expect 2 hint 3 && grep -q 'give --rate, --range, --priority or --clear' "$tmp/err"
check $? "hint without hints is a usage error"

expect 2 hint 3 --range 60-48 && grep -q 'minimum is above the maximum' "$tmp/err"
check $? "an upside-down range is refused before connecting"

# An empty runtime directory: no compositor can be there.
mkdir "$tmp/run"
chmod 700 "$tmp/run"
export XDG_RUNTIME_DIR="$tmp/run" WAYLAND_DISPLAY=sf-none
expect 1 status && grep -q 'no Wayland compositor at sf-none' "$tmp/err"
check $? "no compositor exits 1 and names the socket"

expect 1 hint 3 --clear && [ ! -s "$tmp/out" ]
check $? "a valid hint without a compositor exits 1, prints nothing"

tap_exit
