#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Golden test of what an admin reads: the sanitized hook runs on every
# domain XML of tests/corpus/ (written the way an admin writes them from
# libvirt's documentation, mistakes included) at the operations named in
# the file's first line, "<!-- ops: prepare migrate -->", with the file's
# name as the domain name.  One line per run, "NAME OP: exit N: STDERR",
# must equal tests/corpus.out.  Every run must print exactly one line on
# stderr and nothing on stdout.  The operations are those whose output
# does not depend on the host: prepare only where validation fails before
# host disks are looked up (or there are no caps), migrate anywhere,
# started and reconnect where validation fails or there are no caps
# (reconnect then exits 0 with a NOT CAPPED line: libvirt would kill the
# running VM on any other status).  A line "<!-- hook.conf: TEXT -->" runs
# that file's operations with TEXT as /etc/blockio/hook.conf (the
# sanitized hook reads $BLOCKIO_TEST_HOOKCONF); its path shows as
# "hook.conf" in messages.
#
#   BLOCKIO_GOLDEN_UPDATE=1 sh tests/test-corpus.sh   rewrite tests/corpus.out
set -u
: "${B:?}" "${SRCDIR:?}"
hook=$B/san/blockio-hook
golden=$SRCDIR/tests/corpus.out
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0 files=0

for xml in "$SRCDIR"/tests/corpus/*.xml; do
	files=$((files + 1))
	name=$(basename "$xml" .xml)
	ops=$(sed -n '1s/^<!-- ops: \(.*\) -->$/\1/p' "$xml")
	if [ -z "$ops" ]; then
		echo "$name: no '<!-- ops: ... -->' first line" >&2
		bad=1
		continue
	fi
	conf=$(sed -n 's/^<!-- hook.conf: \(.*\) -->$/\1/p' "$xml")
	if [ -n "$conf" ]; then
		printf '%s\n' "$conf" >"$tmp/hook.conf"
		BLOCKIO_TEST_HOOKCONF=$tmp/hook.conf
		export BLOCKIO_TEST_HOOKCONF
	else
		unset BLOCKIO_TEST_HOOKCONF
	fi
	for op in $ops; do
		"$hook" "$name" "$op" begin - <"$xml" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ "$(wc -l <"$tmp/err")" -ne 1 ] || [ -s "$tmp/out" ]; then
			echo "$name $op: not exactly one line on stderr and none on stdout:" >&2
			cat "$tmp/out" "$tmp/err" >&2
			bad=1
		fi
		printf '%s %s: exit %s: %s\n' "$name" "$op" "$rc" "$(sed "s|$tmp/||g" "$tmp/err")"
	done
done >"$tmp/got"
runs=$(wc -l <"$tmp/got")

if [ "${BLOCKIO_GOLDEN_UPDATE:-0}" = 1 ]; then
	cp "$tmp/got" "$golden"
	echo "test-corpus.sh: wrote $golden ($(wc -l <"$golden") lines)"
	exit "$bad"
fi
differ=0
if ! diff -u "$golden" "$tmp/got" >"$tmp/diff"; then
	echo "test-corpus.sh: output differs from $golden (- expected, + got):" >&2
	cat "$tmp/diff" >&2
	differ=$(grep -c '^+[^+]' "$tmp/diff")
	[ "$differ" -gt 0 ] || differ=1	# only lines missing
	bad=1
fi
echo "test-corpus.sh: $runs runs on $files domain XMLs: $((runs - differ)) passed, $differ failed"
[ "$bad" -eq 0 ]
