#!/bin/sh
# SPDX-License-Identifier: MIT
# stillframectl fbc on generated images: vertical gradients compress far
# better than horizontal ones, which beat noise; PNG and PPM of the same
# pixels agree; bad files and options get clear errors.  TAP.
set -u
ctl=$1
make_image="python3 $(dirname "$0")/make-test-image.py"
tmp=$(mktemp -d)
. "$(dirname "$0")/tap.sh"
tap_at_exit 'rm -rf "$tmp"'
. "$(dirname "$0")/cli-lib.sh"

# json FILE KEY: one member of fbc's JSON object.
json() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

# ratio IMAGE: fbc's estimate for it, or "error".
ratio() {
	"$ctl" fbc --json "$1" > "$tmp/ratio.json" 2>/dev/null &&
		json "$tmp/ratio.json" ratio || echo error
}

# gt A B: A > B, as numbers.
gt() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'
}

for p in flat vertical horizontal noise; do
	$make_image $p 1024 100 "$tmp/$p.ppm"
	$make_image $p 1024 100 "$tmp/$p.png"
done

flat=$(ratio "$tmp/flat.ppm")
vertical=$(ratio "$tmp/vertical.ppm")
horizontal=$(ratio "$tmp/horizontal.ppm")
noise=$(ratio "$tmp/noise.ppm")
gt "$vertical" 50 && [ "$vertical" = "$flat" ]
tap_result $? "a vertical gradient compresses as well as a flat colour ($vertical x)"
gt "$vertical" "$(awk -v h="$horizontal" 'BEGIN { print h * 10 }')"
tap_result $? "and ten times better than a horizontal one ($horizontal x)"
gt "$horizontal" "$noise" && [ "$noise" = "1.0" ]
tap_result $? "which still beats noise, stored raw ($noise x)"

[ "$(ratio "$tmp/vertical.png")" = "$vertical" ] &&
	[ "$(ratio "$tmp/horizontal.png")" = "$horizontal" ] &&
	[ "$(ratio "$tmp/noise.png")" = "$noise" ]
tap_result $? "PNG and PPM of the same pixels give the same estimates"

expect 0 fbc "$tmp/horizontal.png" &&
	grep -q '^advice: turn: ' "$tmp/out" &&
	grep -q '^turned a quarter: 80.00x$' "$tmp/out"
tap_result $? "a horizontal gradient gets the advice to turn it"

expect 0 fbc "$tmp/vertical.ppm" && grep -q '^advice: good: ' "$tmp/out" &&
	grep -q '^image: .*vertical.ppm, 1024x100$' "$tmp/out"
tap_result $? "a vertical gradient is good, with its name and size"

expect 0 fbc --json --refresh 30 "$tmp/noise.png" &&
	[ "$(json "$tmp/out" advice)" = busy ] &&
	[ "$(json "$tmp/out" read_mb_per_s)" = 12.288 ]
tap_result $? "noise is busy; at 30 Hz it reads its 409600 bytes 30 times a second"

expect 1 fbc "$tmp/missing.png" &&
	grep -q "fbc: $tmp/missing.png: No such file or directory" "$tmp/err"
tap_result $? "a missing file is named with the reason"

printf 'hello\n' > "$tmp/text.png"
expect 1 fbc "$tmp/text.png" &&
	grep -q 'neither a PNG nor a binary PPM' "$tmp/err"
tap_result $? "a file that is no image says so"

head -c 1000 "$tmp/noise.ppm" > "$tmp/short.ppm"
printf 'P6\n100000 100000\n255\n' > "$tmp/huge.ppm"
expect 1 fbc "$tmp/short.ppm" && grep -q 'PPM data ends early' "$tmp/err" &&
	expect 1 fbc "$tmp/huge.ppm" &&
	grep -q 'image size is not in 1x1..16384x16384' "$tmp/err"
tap_result $? "a short PPM and a huge one are refused"

head -c 300 "$tmp/noise.png" > "$tmp/short.png"
expect 1 fbc "$tmp/short.png" && grep -q "fbc: $tmp/short.png: " "$tmp/err"
tap_result $? "a truncated PNG is refused with libpng's reason"

expect 2 fbc --refresh 0 "$tmp/flat.ppm" &&
	grep -q 'expected Hz from 1 to 1000' "$tmp/err" &&
	expect 2 fbc && grep -q 'missing IMAGE' "$tmp/err" &&
	expect 2 fbc a b && grep -q 'one IMAGE only' "$tmp/err"
tap_result $? "bad options and operands are usage errors"

expect 2 fbc --screen "$tmp/flat.ppm" &&
	grep -q -- "--screen takes no IMAGE ('$tmp/flat.ppm')" "$tmp/err"
tap_result $? "--screen and an IMAGE are one or the other"

mkdir -m 700 "$tmp/run"
XDG_RUNTIME_DIR="$tmp/run" WAYLAND_DISPLAY=sf-none \
	expect 1 fbc --screen &&
	grep -q 'fbc --screen: no Wayland compositor at sf-none' "$tmp/err"
tap_result $? "--screen without a compositor exits 1 and names the socket"

tap_done
