#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Golden tests of blockioctl, built with ASan+UBSan as tests/ctl-fake (the
# disks of fakefs.c, a fake /proc whose blockio mount is a copy of
# tests/ctl-status/, libvirt's run directory there too):
#
#  - check on every domain XML of tests/corpus/ and tests/ctl/, without
#    qemu-img, and tests/ctl/backing-qemu-img.xml with tests/fake-qemu-img,
#    against tests/ctl-check.out;
#  - check's error is the hook's own message wherever tests/corpus.out
#    has the hook's prepare refusing (prepare accepting: check exits 0);
#  - status, by name, by UUID, of an uncapped and an unknown domain, and
#    --json status, against tests/ctl-status.out;
#  - set, with tests/fake-virsh as virsh: argument parsing, the hook's
#    refusals before virsh writes anything, and the exact virsh calls,
#    against tests/ctl-set.out;
#  - with jq installed, every --json output parses and has the documented
#    keys with the documented types.
#
#   BLOCKIO_GOLDEN_UPDATE=1 sh tests/test-ctl.sh   rewrite both golden files
set -u
: "${B:?}" "${SRCDIR:?}"
ctl=$B/tests/ctl-fake
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0

cp -R "$SRCDIR/tests/ctl-status" "$tmp/host"
mkdir -p "$tmp/proc/self"
printf '#subsys_name\thierarchy\tnum_cgroups\tenabled\nblockio\t6\t3\t1\n' >"$tmp/proc/cgroups"
printf '41 27 0:36 / %s rw,relatime - cgroup blockio rw,blockio\n' "$tmp/host/blockio" \
	>"$tmp/proc/self/mountinfo"
# a stock kernel: no blockio controller, nothing mounted
mkdir -p "$tmp/proc-stock/self"
printf '#subsys_name\thierarchy\tnum_cgroups\tenabled\nblkio\t5\t3\t1\n' >"$tmp/proc-stock/cgroups"
: >"$tmp/proc-stock/self/mountinfo"
BLOCKIO_TEST_PROC=$tmp/proc BLOCKIO_TEST_RUNDIR=$tmp/host/run BLOCKIO_TEST_QEMU_IMG=
export BLOCKIO_TEST_PROC BLOCKIO_TEST_RUNDIR BLOCKIO_TEST_QEMU_IMG

# run TITLE ARGS...: the title, stdout and stderr, the exit status
run() {
	title=$1
	shift
	echo "== $title"
	"$ctl" "$@" >"$tmp/run.out" 2>&1
	rc=$?
	sed "s|$tmp/||g" "$tmp/run.out"
	echo "exit $rc"
}

# use_conf XML: its "<!-- hook.conf: TEXT -->" line as hook.conf, or none
use_conf() {
	conf=$(sed -n 's/^<!-- hook.conf: \(.*\) -->$/\1/p' "$1")
	if [ -n "$conf" ]; then
		printf '%s\n' "$conf" >"$tmp/hook.conf"
		BLOCKIO_TEST_HOOKCONF=$tmp/hook.conf
		export BLOCKIO_TEST_HOOKCONF
	else
		unset BLOCKIO_TEST_HOOKCONF
	fi
}

{
	for xml in "$SRCDIR"/tests/corpus/*.xml "$SRCDIR"/tests/ctl/*.xml; do
		name=${xml#"$SRCDIR"/tests/}
		use_conf "$xml"
		run "check $name" check "$xml"
	done
	unset BLOCKIO_TEST_HOOKCONF
	BLOCKIO_TEST_QEMU_IMG=$SRCDIR/tests/fake-qemu-img \
		run "check ctl/backing-qemu-img.xml, with qemu-img" check "$SRCDIR/tests/ctl/backing-qemu-img.xml"
	run "check < corpus/capped.xml" check <"$SRCDIR/tests/corpus/capped.xml"
	run "--json check ctl/overlap.xml" --json check "$SRCDIR/tests/ctl/overlap.xml"
	# a host without the blockio kernel: check refuses caps, --offline
	# lints the XML alone (no controller, mount, host disk or qemu-img)
	BLOCKIO_TEST_PROC=$tmp/proc-stock BLOCKIO_TEST_QEMU_IMG=$SRCDIR/tests/fake-qemu-img
	export BLOCKIO_TEST_PROC BLOCKIO_TEST_QEMU_IMG
	run "check corpus/capped.xml, stock kernel" check "$SRCDIR/tests/corpus/capped.xml"
	run "check --offline corpus/capped.xml, stock kernel" check --offline "$SRCDIR/tests/corpus/capped.xml"
	run "--json check --offline corpus/capped.xml, stock kernel" --json check --offline "$SRCDIR/tests/corpus/capped.xml"
	run "check --offline ctl/on-tmpfs.xml, stock kernel" check --offline "$SRCDIR/tests/ctl/on-tmpfs.xml"
	run "check --offline corpus/unit-bandwidth-none.xml, stock kernel" check --offline "$SRCDIR/tests/corpus/unit-bandwidth-none.xml"
	run "check --offline corpus/ns-unicode-o.xml, stock kernel" check --offline "$SRCDIR/tests/corpus/ns-unicode-o.xml"
	run "check --offline corpus/disk-network-rbd.xml, stock kernel" check --offline "$SRCDIR/tests/corpus/disk-network-rbd.xml"
	run "check --offline < corpus/no-metadata.xml, stock kernel" check --offline <"$SRCDIR/tests/corpus/no-metadata.xml"
	# libvirt-limits = yes there: the hook starts the domain, uncapped by
	# blockio (libvirt-limits-uncapped = start), or refuses it (refuse)
	use_conf "$SRCDIR/tests/corpus/nova-iotune.xml"
	run "check corpus/nova-iotune.xml, stock kernel" check "$SRCDIR/tests/corpus/nova-iotune.xml"
	run "--json check corpus/nova-iotune.xml, stock kernel" --json check "$SRCDIR/tests/corpus/nova-iotune.xml"
	printf 'libvirt-limits = yes\nlibvirt-limits-uncapped = refuse\n' >"$tmp/hook.conf"
	run "check corpus/nova-iotune.xml, stock kernel, libvirt-limits-uncapped = refuse" check "$SRCDIR/tests/corpus/nova-iotune.xml"
	unset BLOCKIO_TEST_HOOKCONF
	BLOCKIO_TEST_PROC=$tmp/proc BLOCKIO_TEST_QEMU_IMG=
	run "--offline status" --offline status
	run "set --offline" set --offline vm1 vda:iops=5
} >"$tmp/check"

{
	run "status" status
	run "status vm1" status vm1
	run "status C7A5FDBD-CDAF-9455-926A-D65C16DB1809" status C7A5FDBD-CDAF-9455-926A-D65C16DB1809
	run "status c7a5fdbdcdaf9455926ad65c16db1809" status c7a5fdbdcdaf9455926ad65c16db1809
	run "status vm2" status vm2
	run "status nosuch" status nosuch
	run "--json status" --json status
	run "status --json vm2" status --json vm2
	run "status vm1 vm2" status vm1 vm2
	# libvirt-limits = yes: nova3 has an <iotune> but no cgroup
	printf 'libvirt-limits = yes\n' >"$tmp/hook.conf"
	BLOCKIO_TEST_HOOKCONF=$tmp/hook.conf
	export BLOCKIO_TEST_HOOKCONF
	run "status, libvirt-limits = yes" status
	run "status nova3, libvirt-limits = yes" status nova3
	run "--json status nova3, libvirt-limits = yes" --json status nova3
	unset BLOCKIO_TEST_HOOKCONF
	# drift: what the kernel holds against what vm1's XML asks for
	vm1cg=$tmp/host/blockio/machine/c7a5fdbd-cdaf-9455-926a-d65c16db1809
	cp -R "$vm1cg" "$tmp/vm1cg"
	sed -i 's/^252 32 8388608 /252 32 4194304 /' "$vm1cg/blockio.bandwidth-max"
	run "status vm1, another bandwidth in the kernel" status vm1
	cp "$tmp/vm1cg/blockio.bandwidth-max" "$vm1cg/"
	: >"$vm1cg/blockio.iops-max"
	run "status vm1, no iops rules in the kernel" status vm1
	cp "$tmp/vm1cg/blockio.iops-max" "$vm1cg/"
	echo 999 >"$vm1cg/cgroup.procs"
	run "status vm1, QEMU outside its cgroup" status vm1
	rm -rf "$vm1cg"
	run "status, vm1's cgroup gone" status
	run "--json status vm1, vm1's cgroup gone" --json status vm1
	cp -R "$tmp/vm1cg" "$vm1cg"
	BLOCKIO_TEST_PROC=$tmp/proc-stock
	run "status, stock kernel" status
	BLOCKIO_TEST_PROC=$tmp/proc
	# vm2 gets the cgroup of caps its XML does not ask for
	mkdir "$tmp/host/blockio/machine/8e0d6d0e-3c55-4b8a-a1a4-2f6f0c9b7e21"
	cp "$vm1cg"/* "$tmp/host/blockio/machine/8e0d6d0e-3c55-4b8a-a1a4-2f6f0c9b7e21/"
	run "status vm2, a cgroup with caps it does not ask for" status vm2
	rm -r "$tmp/host/blockio/machine/8e0d6d0e-3c55-4b8a-a1a4-2f6f0c9b7e21"
	run "(no command)"
} >"$tmp/status"

# set: what it prints, its status, and the virsh calls it made
setrun() {
	: >"$tmp/virsh.log"
	run "$@"
	sed 's/^/  /' "$tmp/virsh.log"
}
{
	FAKE_VIRSH_LOG=$tmp/virsh.log BLOCKIO_TEST_VIRSH=$SRCDIR/tests/fake-virsh
	export FAKE_VIRSH_LOG BLOCKIO_TEST_VIRSH SRCDIR
	setrun "set vm1 vda:bandwidth=4MiB/s,iops=300" set vm1 vda:bandwidth=4MiB/s,iops=300
	setrun "set off (not running)" set off vda:iops=100 /dev/sdb:bandwidth=2M,strategy=token,bucket=8M
	setrun "set transient" -c qemu:///session set transient vdb:iops=10k
	setrun "set vm1 none" set vm1 none
	setrun "set, a unit the hook refuses" set vm1 vda:bandwidth=8MB/S
	setrun "set, a disk the domain lacks" set vm1 vdz:iops=5
	setrun "set, two caps on one host disk" set vm1 vda:iops=5 vdb:iops=5
	setrun "set, quotes and ampersands are escaped" set vm1 "vda:bandwidth=1M'&\""
	setrun "set, unknown key" set vm1 vda:rate=5
	setrun "set, no colon" set vm1 vda
	setrun "set, empty value list" set vm1 vda:
	setrun "set, KEY without =" set vm1 vda:bandwidth
	setrun "set, unknown domain" set nosuch vda:iops=5
	FAKE_VIRSH_FAIL=1 setrun "set, virsh metadata fails" set vm1 vda:iops=5
	setrun "set, no caps" set vm1
	setrun "set --json" --json set vm1 none
	setrun "-c for check" -c qemu:///system check "$SRCDIR/tests/ctl/set-domain.xml"
	# waiting for the kernel: no blockio-metad applies here, so the
	# test plays it (machine/UUID of set-domain.xml in the fake hierarchy)
	BLOCKIO_TEST_SET_WAIT_MS=300 BLOCKIO_TEST_METAD_STATE=$tmp/metad.state
	export BLOCKIO_TEST_SET_WAIT_MS BLOCKIO_TEST_METAD_STATE
	setcg=$tmp/host/blockio/machine/6b1f5c1e-0000-4a5e-8c6d-3b2a10f0c301
	setrun "set, waited for: no blockio-metad has ever run" set vm1 vda:bandwidth=4MiB/s,iops=300
	echo "1 1765000000 applied domain 'vm7' (0c4b3c36-5a0e-4f7e-9d1c-6f2b8a7e3d10)" >"$tmp/metad.state"
	setrun "set, waited for: blockio-metad running, busy elsewhere" set vm1 vda:bandwidth=4MiB/s,iops=300
	echo "99999999 1765000000 not connected: cannot connect to qemu:///system: Failed to connect socket; retrying every second" >"$tmp/metad.state"
	setrun "set, waited for: blockio-metad dead" set vm1 vda:bandwidth=4MiB/s,iops=300
	mkdir -p "$setcg"
	echo '252 32 4194304 0 0 0 0 0' >"$setcg/blockio.bandwidth-max"
	echo '252 32 300000 0 0 0 0 0' >"$setcg/blockio.iops-max"
	setrun "set, waited for: the kernel holds it" set vm1 vda:bandwidth=4MiB/s,iops=300
	setrun "set, waited for: the kernel holds another bandwidth" set vm1 vda:bandwidth=8MiB/s,iops=300
	setrun "set none, waited for: machine/UUID still there" set vm1 none
	rm -r "$setcg"
	setrun "set none, waited for: machine/UUID gone" set vm1 none
	BLOCKIO_TEST_PROC=$tmp/proc-stock setrun "set none, waited for: a stock kernel" set vm1 none
	setrun "set --timeout 0: no wait" --timeout 0 set vm1 vda:iops=300
	setrun "set off, not running: no wait" set off vda:iops=100
	setrun "set --timeout, not a number" --timeout soon set vm1 vda:iops=300
	setrun "--timeout for status" --timeout 5 status
	unset BLOCKIO_TEST_SET_WAIT_MS BLOCKIO_TEST_METAD_STATE
	unset BLOCKIO_TEST_VIRSH
	setrun "set, no virsh" set vm1 vda:iops=5
} >"$tmp/set"

# check refuses with the hook's message where the hook's prepare refuses
while IFS= read -r line; do
	name=${line%% prepare: *}
	[ "$name" != "$line" ] || continue
	rest=${line#* prepare: exit }
	want_rc=${rest%%:*}
	msg=${line#*: blockio: }
	use_conf "$SRCDIR/tests/corpus/$name.xml"
	"$ctl" check "$SRCDIR/tests/corpus/$name.xml" >"$tmp/raw" 2>&1
	rc=$?
	sed "s|$tmp/||g" "$tmp/raw" >"$tmp/out"
	if [ "$rc" != "$want_rc" ]; then
		echo "test-ctl.sh: check corpus/$name.xml exits $rc, the hook's prepare $want_rc" >&2
		bad=1
	elif [ "$rc" = 1 ] && ! grep -qxF "error: $msg" "$tmp/out"; then
		echo "test-ctl.sh: check corpus/$name.xml lacks the hook's message: error: $msg" >&2
		bad=1
	fi
done <"$SRCDIR/tests/corpus.out"

# every --json document parses and has its keys, of their types
json=0
if command -v jq >/dev/null 2>&1; then
	for xml in "$SRCDIR"/tests/corpus/*.xml "$SRCDIR"/tests/ctl/*.xml; do
		use_conf "$xml"
		"$ctl" --json check "$xml" >"$tmp/json" 2>&1
		if ! jq -e '(.domain | type) as $d | ($d == "string" or $d == "null")
			and (.uuid | type == "string" or . == null)
			and (.valid | type == "boolean") and (.capped | type == "boolean")
			and (.offline == false) and (.uncapped == null)
			and (.limits | . == null or . == "absent" or . == "empty" or . == "present" or . == "libvirt")
			and (.warnings | type == "array") and (.error | type == "string" or . == null)
			and (.valid == (.error == null))
			and all(.targets[]; (.element | type == "string") and (.path | type == "string")
				and (.disks | type == "array")
				and all(.caps[]; (.kind == "bandwidth" or .kind == "iops")
					and (.limit | type == "number")
					and (.strategy == "leaky" or .strategy == "token")))' \
			"$tmp/json" >/dev/null; then
			echo "test-ctl.sh: --json check $xml: not the documented JSON:" >&2
			cat "$tmp/json" >&2
			bad=1
		fi
		json=$((json + 1))
	done
	unset BLOCKIO_TEST_HOOKCONF
	# --offline on a stock kernel: valid, capped, no host disk looked up
	BLOCKIO_TEST_PROC=$tmp/proc-stock "$ctl" --json check --offline \
		"$SRCDIR/tests/corpus/capped.xml" >"$tmp/json" 2>&1
	if ! jq -e '.offline == true and .valid and .capped and (.error == null)
		and (.targets | length == 2) and all(.targets[]; .host_disk == null)' \
		"$tmp/json" >/dev/null; then
		echo "test-ctl.sh: --json check --offline corpus/capped.xml: not valid, capped and offline:" >&2
		cat "$tmp/json" >&2
		bad=1
	fi
	json=$((json + 1))
	for args in "status" "status vm1" "status nosuch" "status vm2"; do
		# shellcheck disable=SC2086 # split on purpose
		"$ctl" --json $args >"$tmp/json" 2>/dev/null
		if ! jq -e '(.domains | type == "array") and (.uncapped | type == "array")
			and (.libvirt_limits_only | type == "array")
			and (.verdicts | type == "array")
			and all(.verdicts[]; (.name | type == "string") and (.uuid | type == "string")
				and (.state | IN("capped", "not-as-meant", "uncapped", "libvirt-limits-only"))
				and (.why | type == "string" or . == null))
			and all(.counts[]; type == "number")
			and all(.domains[]; (.state | type == "string"))
			and all(.domains[]; (.uuid | type == "string") and (.running | type == "boolean")
				and (.cgroup | type == "string") and (.errors | type == "array")
				and all(.devices[]; (.major | type == "number") and (.minor | type == "number")
					and (.bytes | type == "number" or . == null)
					and (.held_bytes | type == "number" or . == null)
					and (.bandwidth_delays | type == "number" or . == null)
					and (.bandwidth | . == null or (.limit | type == "number"))
					and (.iops | . == null or (.limit | type == "number"))))' \
			"$tmp/json" >/dev/null; then
			echo "test-ctl.sh: --json $args: not the documented JSON:" >&2
			cat "$tmp/json" >&2
			bad=1
		fi
		json=$((json + 1))
	done
else
	echo "test-ctl.sh: jq not installed: --json output not validated" >&2
fi

if [ "${BLOCKIO_GOLDEN_UPDATE:-0}" = 1 ]; then
	cp "$tmp/check" "$SRCDIR/tests/ctl-check.out"
	cp "$tmp/status" "$SRCDIR/tests/ctl-status.out"
	cp "$tmp/set" "$SRCDIR/tests/ctl-set.out"
	echo "test-ctl.sh: wrote tests/ctl-check.out, ctl-status.out and ctl-set.out"
	exit "$bad"
fi
for g in check status set; do
	if ! diff -u "$SRCDIR/tests/ctl-$g.out" "$tmp/$g" >"$tmp/diff"; then
		echo "test-ctl.sh: output differs from tests/ctl-$g.out (- expected, + got):" >&2
		cat "$tmp/diff" >&2
		bad=1
	fi
done
echo "test-ctl.sh: $(grep -c '^== ' "$tmp/check") check runs, $(grep -c '^== ' "$tmp/status") status runs, $(grep -c '^== ' "$tmp/set") set runs, $json JSON documents validated: $([ "$bad" -eq 0 ] && echo ok || echo FAILED)"
[ "$bad" -eq 0 ]
