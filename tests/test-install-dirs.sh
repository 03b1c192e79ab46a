#!/bin/bash
# TAP: an install keeps inside its prefix.  Weston, Xorg and udev look in
# their own directories under /usr; a build for any other prefix (the
# default /usr/local) must not write there behind the user's back, so
# `meson install` into a scratch DESTDIR finds every file under
# DESTDIR/prefix.  With the prefix /usr the modules and the rule go where
# pkg-config says, which may be outside it (/lib/udev): nothing to check.
# Arguments: the build folder and its prefix.
. "$(dirname "$0")/tap.sh"
build=$1
prefix=$2
tmp=$(mktemp -d)
tap_at_exit 'rm -rf "$tmp"'

[ "$prefix" != /usr ] || tap_skip_all "the prefix is /usr"
meson install -C "$build" --no-rebuild --destdir "$tmp/d" > "$tmp/log" 2>&1
tap_result $? "meson install into a DESTDIR" || tap_diag "$(cat "$tmp/log")"
outside=$(cd "$tmp/d" && find . ! -type d | sed 's|^\.||' |
	grep -v "^$prefix/")
tap_is "$outside" "" "every installed file is under $prefix" ||
	tap_diag "$(printf '%s\n' "$outside" | sed "s|^|outside $prefix: |")"
tap_done
