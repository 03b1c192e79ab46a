# shellcheck shell=sh
# Shared by the command-line tests of stillframectl (POSIX sh), sourced
# after tests/tap.sh.  Sourced, not run.
#
#   expect STATUS ARGS...	runs "$ctl" ARGS with stdout in $tmp/out and
#				stderr in $tmp/err, and succeeds when it
#				exits with STATUS

# shellcheck disable=SC2154	# ctl and tmp are the test script's
expect() {
	want=$1
	shift
	"$ctl" "$@" > "$tmp/out" 2> "$tmp/err"
	[ $? = "$want" ]
}
