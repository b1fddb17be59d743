#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run each libFuzzer target built in $B/fuzz for $FUZZ_SECONDS seconds
# from its kept corpus $SRCDIR/tests/fuzz/NAME/ (never written: new inputs
# go to a scratch directory), with tests/fuzz/NAME.dict if present.  A
# crash, a sanitizer report, a leak or a timeout fails the target; its
# input is kept in $B/fuzz/artifacts/ and the end of libFuzzer's log is
# printed.  Ends with one "libvirt-hook fuzz: N passed, N failed" line.
set -euo pipefail
: "${B:?}" "${SRCDIR:?}"
seconds=${FUZZ_SECONDS:-20}
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
passed=0 failed=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$B/fuzz/artifacts"
for t in "$@"; do
	name=${t#fuzz-}
	corpus=$SRCDIR/tests/fuzz/$name
	dict=()
	[[ -f $SRCDIR/tests/fuzz/$name.dict ]] && dict=(-dict="$SRCDIR/tests/fuzz/$name.dict")
	mkdir -p "$scratch/$name"
	log=$B/fuzz/$t.log
	if "$B/fuzz/$t" -max_total_time="$seconds" -timeout=10 \
		-rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$B/fuzz/artifacts/$t-" "${dict[@]}" \
		"$scratch/$name" "$corpus" >"$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
		cov=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' <<<"$last")
		corp=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
		echo "PASS $t: ${runs:-?} runs in $seconds s from $(find "$corpus" -type f | wc -l) kept inputs, cov ${cov:-?}, corpus ${corp:-?}, no crash or leak"
		passed=$((passed + 1))
	else
		echo "FAIL $t: libFuzzer found a crash, sanitizer report or leak (log $log):"
		tail -n 40 "$log"
		failed=$((failed + 1))
	fi
done
echo "libvirt-hook fuzz: $passed passed, $failed failed"
((failed == 0))
