#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm-definitions/*.xml: each <blockio:limits> validates against the shipped
# schema with xmllint, and each whole domain with libvirt's own
# virt-xml-validate (libvirt-clients), which must accept our namespace.
set -u
: "${SRCDIR:?}"
rng=$SRCDIR/schema/blockio-limits.rng
passed=0 failed=0
ok() { passed=$((passed + 1)); }
ko() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

if ! command -v xmllint >/dev/null 2>&1; then
	echo "test-vmdefs.sh: xmllint missing (apt-get install libxml2-utils)" >&2
	exit 1
fi
have_vxv=1
if ! command -v virt-xml-validate >/dev/null 2>&1; then
	echo "test-vmdefs.sh: NOTE: virt-xml-validate missing, libvirt's schema not checked (apt-get install libvirt-clients)" >&2
	have_vxv=0
fi
for f in "$SRCDIR"/../vm-definitions/*.xml; do
	if [ "$have_vxv" = 0 ]; then
		:
	elif virt-xml-validate "$f" domain >/dev/null 2>&1; then
		ok
	else
		ko "virt-xml-validate $f"
	fi
	meta=$(xmllint --xpath "/domain/metadata/*[namespace-uri()='https://blockio.dev/xmlns/limits/1']" "$f" 2>/dev/null) || meta=""
	[ -n "$meta" ] || continue
	if printf '%s\n' "$meta" | xmllint --noout --relaxng "$rng" - >/dev/null 2>&1; then
		ok
	else
		ko "xmllint --relaxng $f"
	fi
done
# The schema also rejects what it should (a spot check; the fuzz test does more).
for bad in "bandwidth='8XB/s'" "bandwidth='1M' bucket='2M'" "" "iops='1' foo='x'"; do
	if printf "<limits xmlns='https://blockio.dev/xmlns/limits/1'><disk dev='vda' %s/></limits>\n" "$bad" |
		xmllint --noout --relaxng "$rng" - >/dev/null 2>&1; then
		ko "schema accepted <disk dev='vda' $bad/>"
	else
		ok
	fi
done
# virt-xml-validate keeps accepting a domain with our metadata (foreign
# namespaces are allowed in <metadata>), and still rejects a broken domain.
if [ "$have_vxv" = 0 ]; then
	echo "test-vmdefs.sh: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
fi
tmp=$(mktemp)
sed 's|<blockio:disk |<blockio:bogus x="1"/><blockio:disk |' "$SRCDIR/../vm-definitions/blockio-l2-capped.xml" >"$tmp"
if virt-xml-validate "$tmp" domain >/dev/null 2>&1; then ok; else ko "virt-xml-validate rejects foreign metadata"; fi
sed 's|<vcpu placement=.static.>1</vcpu>|<vcpu>one</vcpu>|' "$SRCDIR/../vm-definitions/blockio-l2-capped.xml" >"$tmp"
if virt-xml-validate "$tmp" domain >/dev/null 2>&1; then ko "virt-xml-validate accepts a broken domain"; else ok; fi
rm -f "$tmp"
echo "test-vmdefs.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
