#!/bin/bash
# TAP: an install keeps inside its prefix.  Weston, Xorg and udev look in
# their own directories under /usr; a build for any other prefix (the
# default /usr/local) must not write there behind the user's back, so
# `meson install` into a scratch DESTDIR finds every file under
# DESTDIR/prefix.  With the prefix /usr the modules and the rule go where
# pkg-config says, which may be outside it (/lib/udev): nothing to check.
# Arguments: the build folder and its prefix.
set -u
build=$1
prefix=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "1..2"
if [ "$prefix" = /usr ]; then
	echo "ok 1 # SKIP the prefix is /usr"
	echo "ok 2 # SKIP the prefix is /usr"
	exit 0
fi
if meson install -C "$build" --no-rebuild --destdir "$tmp/d" \
	> "$tmp/log" 2>&1; then
	echo "ok 1 - meson install into a DESTDIR"
else
	sed 's/^/# /' "$tmp/log"
	echo "not ok 1 - meson install into a DESTDIR"
	exit 1
fi
outside=$(cd "$tmp/d" && find . ! -type d | sed 's|^\.||' |
	grep -v "^$prefix/")
if [ -z "$outside" ]; then
	echo "ok 2 - every installed file is under $prefix"
else
	printf '%s\n' "$outside" | sed "s|^|# outside $prefix: |"
	echo "not ok 2 - every installed file is under $prefix"
	exit 1
fi
