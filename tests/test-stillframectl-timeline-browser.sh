#!/bin/sh
# SPDX-License-Identifier: MIT
# stillframectl timeline's SVG in a real browser: Debian's chromium
# renders it headless to a PNG, and check-screenshot.py decodes the PNG
# and wants a picture (many colours) with the lanes' colours in it.  A
# blank page must fail the same check.  TAP; skipped (the TAP skip plan,
# as meson's TAP protocol reads exit 77 as an error) only when no
# chromium can be run.
set -u
ctl=$1
srcdir=$2
tmp=$(mktemp -d)
. "$srcdir/tap.sh"
tap_at_exit 'rm -rf "$tmp"'

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ] || ! "$browser" --version > /dev/null 2>&1; then
	tap_skip_all "chromium is not installed or does not run (scripts/install-deps installs it)"
fi

# screenshot SVG PNG: chromium's rendering of SVG at 1280x900.  Its own
# profile and HOME, and nothing that would reach the network.
screenshot() {
	rm -rf "$tmp/profile"
	HOME=$tmp timeout 180 "$browser" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$tmp/profile" --screenshot="$2" \
		--window-size=1280,900 "file://$1" > "$tmp/browser.log" 2>&1 &&
		[ -s "$2" ] || { sed 's/^/# /' "$tmp/browser.log"; return 1; }
}

# The colours of the lanes the two-output trace shows: idle states
# active and low-refresh, low GPU clocks, DPMS on, the refresh area,
# repaints and suppressed repaints (tools/ctl-timeline-svg.c).
lanes="e4572e f3a712 8e5ea2 ffe59e e3d7f0 1d6fa5 f28e2b"

"$ctl" timeline "$srcdir/traces/two-outputs.trace" -o "$tmp/two.svg" &&
	screenshot "$tmp/two.svg" "$tmp/two.png"
tap_result $? "chromium renders the timeline of a two-output trace"

python3 "$srcdir/check-screenshot.py" "$tmp/two.png" 100 $lanes \
	> "$tmp/check" 2>&1
status=$?
sed 's/^/# /' "$tmp/check"
tap_result $status "the screenshot is a picture with every lane's colour"

printf '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="1200" height="800"/>\n' \
	> "$tmp/blank.svg"
screenshot "$tmp/blank.svg" "$tmp/blank.png" &&
	! python3 "$srcdir/check-screenshot.py" "$tmp/blank.png" 100 $lanes \
		> "$tmp/check" 2>&1 &&
	grep -q 'blank?' "$tmp/check"
tap_result $? "a blank page fails the same check"

tap_done
