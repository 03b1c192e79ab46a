# Shared by the command-line tests: a TAP counter.  Sourced, not run.
# check STATUS DESCRIPTION prints "ok" or "not ok" for the next test and
# remembers a failure; tap_exit ends the script with the right status.
n=0
failed=0

check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=1
	fi
}

# expect STATUS ARGS...: runs "$ctl" ARGS with stdout in $tmp/out and
# stderr in $tmp/err, and succeeds when it exits with STATUS.
expect() {
	want=$1
	shift
	"$ctl" "$@" > "$tmp/out" 2> "$tmp/err"
	[ $? = "$want" ]
}

tap_exit() {
	exit $failed
}
