#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the libvirt-hook unit tests built in $B/tests and the shell checks;
# end with one "libvirt-hook: N passed, N failed" line.
set -u
: "${B:?}" "${SRCDIR:?}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
passed=0 failed=0
for t in "$@" hook vmdefs corpus ctl; do
	if [ -x "$B/tests/$t" ]; then
		cmd="$B/tests/$t"
	else
		cmd="sh $SRCDIR/tests/test-$t.sh"
	fi
	if $cmd; then
		passed=$((passed + 1))
		echo "PASS $t"
	else
		failed=$((failed + 1))
		echo "FAIL $t"
	fi
done
echo "libvirt-hook: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
