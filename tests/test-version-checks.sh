#!/bin/bash
# TAP: libweston's version differences live in weston-plugin/compat.c and
# compat.h, and for the tests' backend code in
# tests/weston/weston-backend-api.h (CODING_STYLE.md, "The adapters"):
# no other C source or header tests WESTON_VERSION_MAJOR (or libweston's
# other version macros).  The source tree is the argument.
set -u
top=$1
allowed='^(weston-plugin/compat\.[ch]|tests/weston/weston-backend-api\.h)$'

. "$(dirname "$0")/tap.sh"
cd "$top" || tap_bail "no source tree at $top"
# Every C file of the tree but build folders and the Debian roots.
found=$(find . \( -path './build*' -o -path './.git' \) -prune -o \
	-type f \( -name '*.c' -o -name '*.h' \) -print |
	sed 's|^\./||' | sort |
	while read -r f; do
		if grep -qE 'WESTON_VERSION_(MAJOR|MINOR|MICRO|NUMBER|AT_LEAST)' \
			"$f" && ! printf '%s\n' "$f" | grep -qE "$allowed"; then
			echo "$f"
		fi
	done)
tap_is "$found" "" "no Weston version test outside the compat files"
# And the compat files do use it: the check above is not vacuous.
grep -q 'WESTON_VERSION_MAJOR' weston-plugin/compat.c &&
	grep -q 'WESTON_VERSION_MAJOR' tests/weston/weston-backend-api.h
tap_result $? "the compat files are where the version tests are"
tap_done
