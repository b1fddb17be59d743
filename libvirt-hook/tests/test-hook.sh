#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The hook binary (built with ASan+UBSan) as libvirt runs it: argv, XML on
# stdin, exit status, one line on stderr (the outcome on success, the error
# on failure; nothing for stop and for operations it does not handle).
# Only what needs no blockio kernel: validation, domains without caps,
# stop, reconnect keeping a VM running whatever is wrong, and the clear
# failure when the controller is missing.  tests/test-hookops.c covers
# each failure of each operation against a fake /proc and cgroupfs.
set -u
: "${B:?}" "${SRCDIR:?}"
hook=$B/san/blockio-hook
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect STATUS STDERR-SUBSTRING OPERATION XML-FILE
expect() {
	want_rc=$1 want_err=$2 op=$3 xml=$4
	"$hook" vm1 "$op" begin - <"$xml" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" -ne "$want_rc" ]; then
		failed=$((failed + 1)); echo "FAIL: $op $(basename "$xml"): exit $rc, want $want_rc: $(cat "$tmp/err")" >&2
	elif [ -n "$want_err" ] && ! grep -qF -- "$want_err" "$tmp/err"; then
		failed=$((failed + 1)); echo "FAIL: $op $(basename "$xml"): stderr '$(cat "$tmp/err")' lacks '$want_err'" >&2
	elif [ -z "$want_err" ] && [ "$lines" -ne 0 ]; then
		failed=$((failed + 1)); echo "FAIL: $op $(basename "$xml"): unexpected stderr '$(cat "$tmp/err")'" >&2
	elif [ -n "$want_err" ] && { [ "$lines" -ne 1 ] || ! head -c 9 "$tmp/err" | grep -q '^blockio: '; }; then
		failed=$((failed + 1)); echo "FAIL: $op $(basename "$xml"): not one 'blockio: ' line: '$(cat "$tmp/err")'" >&2
	elif [ -s "$tmp/out" ]; then
		failed=$((failed + 1)); echo "FAIL: $op $(basename "$xml"): wrote to stdout" >&2
	else
		passed=$((passed + 1))
	fi
}

domain() { # METADATA
	cat <<XML
<domain type='qemu'>
  <name>vm1</name>
  <uuid>c7a5fdbd-cdaf-9455-926a-d65c16db1809</uuid>
  <metadata>$1</metadata>
  <devices>
    <disk type='file' device='disk'><source file='$tmp/missing.img'/><target dev='vda' bus='virtio'/></disk>
  </devices>
</domain>
XML
}
NS="xmlns:blockio='https://blockio.dev/xmlns/limits/1'"
domain "" >"$tmp/plain.xml"
domain "<blockio:limits $NS><blockio:disk dev='vda' bandwidth='8MiB/s'/></blockio:limits>" >"$tmp/capped.xml"
domain "<blockio:limits $NS><blockio:disk dev='vda' bandwidth='8XB/s'/></blockio:limits>" >"$tmp/bad.xml"
domain "<blockio:limits $NS/>" >"$tmp/empty.xml"
printf 'not xml at all\n' >"$tmp/junk.xml"
# lookalikes of the namespace: an error, never "no caps"
domain "<blockio:limits xmlns:blockio='http://blockio.dev/xmlns/limits/1'><blockio:disk dev='vda' bandwidth='8M'/></blockio:limits>" >"$tmp/http.xml"
domain "<limits><disk dev='vda' bandwidth='8M'/></limits>" >"$tmp/nons.xml"
WANT_NS="blockio reads only 'https://blockio.dev/xmlns/limits/1', so its caps would be ignored"

# validation at prepare, start, restore, migrate; the outcome in one line
for op in prepare start restore migrate; do
	expect 1 "blockio: invalid value '8XB/s' for attribute 'bandwidth' of <blockio:disk dev='vda'>: unknown unit 'XB'" "$op" "$tmp/bad.xml"
	expect 1 "blockio: domain XML is not well-formed" "$op" "$tmp/junk.xml"
	expect 1 "blockio: <blockio:limits> in <metadata> has namespace 'http://blockio.dev/xmlns/limits/1'; $WANT_NS" "$op" "$tmp/http.xml"
	expect 1 "blockio: <limits> in <metadata> has no namespace; blockio reads only <limits> in namespace 'https://blockio.dev/xmlns/limits/1'" "$op" "$tmp/nons.xml"
	expect 0 "blockio: domain 'vm1' at $op: not capped: no <blockio:limits> in <metadata>" "$op" "$tmp/plain.xml"
	expect 0 "blockio: domain 'vm1' at $op: not capped: <blockio:limits> is empty" "$op" "$tmp/empty.xml"
done
# prepare/start/restore also find the host disk; migrate only validates
expect 1 "blockio: <blockio:disk dev='vda'>: cannot stat '$tmp/missing.img': No such file or directory" prepare "$tmp/capped.xml"
expect 1 "cannot stat" restore "$tmp/capped.xml"
expect 0 "blockio: domain 'vm1' at migrate: capped: <blockio:disk dev='vda'>: bandwidth 8MiB/s" migrate "$tmp/capped.xml"

# a domain without caps is left alone at started/reconnect, whatever the kernel
expect 0 "blockio: domain 'vm1' at started: not capped: no <blockio:limits> in <metadata>" started "$tmp/plain.xml"
expect 0 "blockio: domain 'vm1' at reconnect: not capped: no <blockio:limits> in <metadata>" reconnect "$tmp/plain.xml"
expect 1 "$WANT_NS" started "$tmp/http.xml"
# reconnect never makes libvirt kill the running VM: exit 0, one loud line
KEEPS="the VM keeps running, uncapped until this is fixed and its caps are applied with: blockio-metad --apply c7a5fdbd-cdaf-9455-926a-d65c16db1809"
expect 0 "blockio: domain 'vm1' at reconnect: NOT CAPPED: invalid value '8XB/s' for attribute 'bandwidth'" reconnect "$tmp/bad.xml"
expect 0 "$KEEPS" reconnect "$tmp/bad.xml"
expect 0 "blockio: domain 'vm1' at reconnect: NOT CAPPED: <blockio:limits> in <metadata> has namespace 'http://blockio.dev/xmlns/limits/1'; $WANT_NS; $KEEPS" reconnect "$tmp/http.xml"
expect 0 "blockio: domain 'vm1' at reconnect: NOT CAPPED: <limits> in <metadata> has no namespace" reconnect "$tmp/nons.xml"
expect 0 "blockio: domain 'vm1' at reconnect: NOT CAPPED: domain XML is not well-formed" reconnect "$tmp/junk.xml"
expect 0 "the VM keeps running, uncapped until this is fixed and its caps are applied with: blockio-metad --apply 'vm1'" reconnect "$tmp/junk.xml"
expect 0 "blockio: domain 'vm1' at reconnect: NOT CAPPED: <blockio:disk dev='vda'>: cannot stat" reconnect "$tmp/capped.xml"
# stop and release: idempotent, harmless without a cgroup or with bad metadata
for op in stopped release; do
	expect 0 "" "$op" "$tmp/plain.xml"
	expect 0 "" "$op" "$tmp/bad.xml"
done
# operations the hook does not handle: nothing, whatever stdin holds
expect 0 "" attach "$tmp/junk.xml"
expect 0 "" shutdown "$tmp/junk.xml"

# the host disk is named once the image exists on one
printf 'x' >"$tmp/missing.img"
if "$hook" vm1 prepare begin - <"$tmp/capped.xml" 2>/dev/null; then
	expect 0 "blockio: domain 'vm1' at prepare: capped: <blockio:disk dev='vda'> on /dev/" prepare "$tmp/capped.xml"
fi

# caps but no blockio controller on this kernel: prepare, start and
# restore refuse before QEMU starts, started refuses, reconnect keeps the
# VM running; a domain without caps still starts
if ! grep -qE '^blockio[[:space:]]' /proc/cgroups; then
	"$hook" vm1 prepare begin - <"$tmp/capped.xml" 2>"$tmp/err"
	if grep -qF 'no blockio cgroup controller' "$tmp/err"; then
		NOCTL="the kernel has no blockio cgroup controller (no 'blockio' line in /proc/cgroups)"
		for op in prepare start restore started; do
			expect 1 "blockio: $NOCTL" "$op" "$tmp/capped.xml"
		done
		expect 0 "blockio: domain 'vm1' at reconnect: NOT CAPPED: $NOCTL" reconnect "$tmp/capped.xml"
		expect 0 "$KEEPS" reconnect "$tmp/capped.xml"
		expect 0 "blockio: domain 'vm1' at prepare: not capped: no <blockio:limits> in <metadata>" prepare "$tmp/plain.xml"
	else
		echo "note: $tmp is on a filesystem without a block device; skipping the checks without a controller: $(cat "$tmp/err")" >&2
	fi
fi

# usage and version
if "$hook" -h | grep -q 'usage: 50-blockio'; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: -h" >&2; fi
version=$(cat "$SRCDIR/VERSION")
if [ "$("$hook" --version)" = "blockio-hook $version" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: --version: '$("$hook" --version)', want 'blockio-hook $version'" >&2; fi
"$hook" >/dev/null 2>&1
if [ $? -eq 2 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: no args" >&2; fi

echo "test-hook.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
