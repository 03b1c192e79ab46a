# shellcheck shell=bash
# For the load tests: a server (Weston, Xorg) that is not built with
# AddressSanitizer, running a stillframe module that is (scripts/test's
# build-sanitize tree).  Sourced, not run.
#
#   asan_wrapper MODULE DIR
#	prints the command words to put before the server when MODULE
#	links libasan (its runtime preloaded, as it must come first; ASan
#	and UBSan reports written to DIR), nothing otherwise.  The servers'
#	children (xkbcomp, desktop-shell) inherit the runtime: a leak of
#	theirs must not change their exit status (exitcode=0), so reports
#	are judged from DIR, never from a status
#   asan_reports MODULE DIR
#	prints, from the reports in DIR, every memory error and UBSan
#	finding, and each leak whose allocation stack passed through
#	stillframe: a frame in MODULE, or in a source file of ours (ASan
#	names the file, not the module, where it has debug information).
#	The server's and its clients' own leaks at exit are not ours to
#	judge

asan_wrapper() {
	local lib
	lib=$(ldd "$1" | awk '$1 ~ /^libasan\.so/ { print $3 }')
	[ -n "$lib" ] || return 0
	printf 'env LD_PRELOAD=%s' "$lib"
	# The slow unwinder: Debian's libraries have no frame pointers, and
	# a leak allocated by libwayland for us must still show our frame.
	printf ' ASAN_OPTIONS=detect_leaks=1:exitcode=0:fast_unwind_on_malloc=0'
	printf ':log_path=%s/asan' "$2"
	printf ' UBSAN_OPTIONS=print_stacktrace=1:log_path=%s/ubsan\n' "$2"
}

asan_reports() {
	# A report is a block of lines up to a blank one.
	cat "$2"/* 2>/dev/null | awk -v so="/$(basename "$1")" '
		function ours() {
			return index(block, so) ||
				block ~ /[ \/](common|weston-plugin|xorg-module)\/[^ ]+\.c:[0-9]/
		}
		function flush() {
			if (block ~ /leak of/ && ours()) print block
			block = ""
		}
		/^$/ { flush(); next }
		/ERROR: AddressSanitizer|runtime error:/ { print }
		{ block = block $0 "\n" }
		END { flush() }'
}
