# SPDX-License-Identifier: GPL-2.0
# nested-test: one phase's verdict. Input: the phase object written by
# run-scenario (method, workload, vms, boot_s, start_s, samples, probe_ms,
# guest_fsync_ms, warmup, window, tolerance). Output: the same object with
# .result: the steady window, per VM the rates by each meter and their ratio
# to the cap, the writeback that escaped the cap, the dirty memory it held
# in L1, the neighbour's fsync latency, the checks and printable lines.
#
# The verdicts take a VM's rate at the disk from the trace meter, which
# blockio does not write; blockio's own rate is printed beside it and must
# agree within AGREE (0.90..1.10: in flight between the two meters, one
# writeback bio of 1-2 MiB at either end of the window). Whether a guest
# could write fast enough for a check to mean anything is read from the
# guests' own progress lines, never from blockio's counters.
#
# Meters (cumulative counters in each sample, per VM):
#   blockio  blockio.stat written bytes (I/Os for rand) minus what
#            kiothrottled holds at that moment (kiothrottled_debug; the
#            stat's QUEUED columns are cumulative): charged to the VM's
#            cgroup and sent to the disk
#   trace    bytes (requests) completed by the disk inside the VM's image
#            extents: what reached the disk, whoever was charged
#   v2       the VM's cgroup v2 scope io.stat wbytes (wios): what the
#            mainline io controller charged to the VM
#   guest    what the guest wrote, from its progress lines
#   intake   what the VM's QEMU put into L1 (seq only): trace bytes plus its
#            dirty+writeback page cache (memory.stat); unlike the disk
#            meters it does not lag by the up to 30 s that L1 keeps pages
#            dirty before writing them back

include "meters"; # meter($m; $w), shared with nested-test/report

def mib: . / 1048576;
def r2: if . == null then null else (. * 100 | round) / 100 end;
def r3: if . == null then null else (. * 1000 | round) / 1000 end;
def pct($p): if length == 0 then null else sort | .[((length - 1) * $p) | floor] end;
def stats: if length == 0 then {n: 0, median: null, p90: null, max: null}
	else {n: length, median: pct(0.5), p90: pct(0.9), max: max} end;


# rate of a meter over samples $A (per second): the least-squares slope of
# the counter against time. Writeback goes down in bios of up to 1-2 MiB,
# so a counter read at two instants is a staircase whose steps would move
# a 30 s average at 0.5 MiB/s by 10 %; the slope over every sample is not
# thrown by where the two ends fall on a step. null if a sample lacks the
# meter.
def lsq: # [[x, y], ...] -> least-squares slope dy/dx
	. as $pts |
	if ($pts | length) < 3 or any($pts[]; .[1] == null) then null else
		($pts | length) as $n |
		([$pts[][0]] | add / $n) as $mt | ([$pts[][1]] | add / $n) as $mv |
		([$pts[] | (.[0] - $mt) * (.[0] - $mt)] | add) as $sxx |
		if $sxx <= 0 then null else ([$pts[] | (.[0] - $mt) * (.[1] - $mv)] | add) / $sxx end
	end;
def slope($A; $vm; $m; $w): [$A[] | [.t, (.vms[$vm] | meter($m; $w))]] | lsq;

# a guest's own write rate (bytes/s, writes/s for rand) from its progress
# lines: the counts its lines gave (the seq neighbour prints after each 16
# MiB pass and its fsync, rand guests every 16 writes), each at the first
# sample from $from to $to that saw it; the least-squares slope (two
# points: their slope), null with fewer. The time is L1's, not the t= of
# the lines: an L2's clock under TCG inside TCG runs slow (21 s of it in
# 37 s of L1's in one run).
def guest_rate($S; $vm; $w; $from; $to):
	[$S[] | select(.t >= $from and .t <= $to) | .t as $t | .vms[$vm].guest | select(. != null)
	 | [$t, (if $w == "seq" then .bytes else .ops end)] | select(.[1] != null)]
	| group_by(.[1]) | map(min_by(.[0])) | sort_by(.[0])
	| if length < 2 then null
	  elif length == 2 then (if .[1][0] > .[0][0] then (.[1][1] - .[0][1]) / (.[1][0] - .[0][0]) else null end)
	  else lsq end;

# rate of a meter between two samples (per second), null if missing
def rate($a; $b; $vm; $m; $w):
	($a.vms[$vm] | meter($m; $w)) as $x | ($b.vms[$vm] | meter($m; $w)) as $y |
	if $x == null or $y == null or $b.t <= $a.t then null else ($y - $x) / ($b.t - $a.t) end;

. as $p
| $p.workload as $w
| ($p.tolerance[0]) as $lo | ($p.tolerance[1]) as $hi
| ($p.agree_tolerance // [0.90, 1.10]) as $agree
| ($p.samples | sort_by(.t)) as $S
| ($p.vms | map(select(.role == "capped"))) as $capped
| ($p.vms | map(select(.role == "neighbour")) | .[0].name) as $nb
| (if $w == "seq" then "MiB/s" else "IOPS" end) as $unit
| (if $w == "seq" then 1048576 else 1 end) as $div
# when each VM's writes started reaching L1 (the moment caps were switched
# live, for a later phase of a shared boot); older files: its boot
| ($p.start_s // $p.boot_s) as $start
| (if ($start | length) == ($p.vms | length) then ([$start[]] | max) + $p.warmup else null end) as $ws
| (if $ws == null or ($S | length) == 0 then null else ($S | map(select(.t >= $ws)) | .[0]) end) as $s0
| (if ($S | length) == 0 then null else $S[-1] end) as $s1
| ($s0 != null and $s1 != null and $s1.t > $s0.t + 5) as $have_window
# the meter that says what reached the disk for this VM
| def primary($vm): if ($s1.vms[$vm].trace != null) then "trace" elif ($s1.vms[$vm].blockio != null) then "blockio"
	elif ($s1.vms[$vm].v2 != null) then "v2" else "guest" end;
(if $have_window then ($S | map(select(.t >= $s0.t and .t <= $s1.t))) else [] end) as $W
| def vmres($v):
	$v.name as $vm | primary($vm) as $pm | $v.cap as $cap |
	(if $have_window then {
		blockio: slope($W; $vm; "blockio"; $w), trace: slope($W; $vm; "trace"; $w),
		v2: slope($W; $vm; "v2"; $w), guest: rate($s0; $s1; $vm; "guest"; $w),
		intake: slope($W; $vm; "intake"; $w) } else {} end) as $rates |
	($rates[$pm]) as $dev |
	# writeback beyond cap x time since the VM started writing (its boot)
	(if $cap == null or $start[$vm] == null then null else
		($S | map(select(.t >= $start[$vm]))) as $from |
		if ($from | length) < 2 then null else
			($from[0]) as $b | ($b.vms[$vm] | meter($pm; $w)) as $base |
			if $base == null then null else
				[$from[] | ((.vms[$vm] | meter($pm; $w)) - $base) - $cap * (.t - $b.t)] as $ex |
				{peak: ([$ex | max, 0] | max), final: $ex[-1], seconds: ($from[-1].t - $b.t)}
			end
		end end) as $esc |
	# the first 10 s after the VM started writing (its boot): held from the start?
	(if $cap == null or $start[$vm] == null then null else
		($S | map(select(.t >= $start[$vm])) | .[0]) as $a |
		($S | map(select(.t >= $start[$vm] + 10)) | .[0]) as $b |
		if $a == null or $b == null then null else rate($a; $b; $vm; $pm; $w) end end) as $first10 |
	# sub-windows of 10 s: the lowest rate
	(if $have_window and ($W | length) > 10 then
		[range(0; ($W | length) - 10; 5) as $i | slope($W[$i:$i + 11]; $vm;
			$pm; $w)]
		| map(select(. != null)) | (if length > 0 then min else null end) else null end) as $min10 |
	# what the guest wrote by its own account, from 20 s before the window
	(if $have_window then guest_rate($S; $vm; $w; $s0.t - 20; $s1.t) else null end) as $supply |
	{
		name: $vm, role: $v.role, cap: $cap, cap_unit: $v.cap_unit, capped_by: $v.capped_by,
		boot_s: $p.boot_s[$vm], start_s: $start[$vm], meter: $pm,
		rate: ($rates | map_values(if . == null then null else (. | r3) end)),
		device_rate: ($dev | r3),
		ratio: (if $cap == null or $dev == null then null else ($dev / $cap | r3) end),
		ratio_blockio: (if $cap == null or $rates.blockio == null then null else ($rates.blockio / $cap | r3) end),
		ratio_trace: (if $cap == null or $rates.trace == null then null else ($rates.trace / $cap | r3) end),
		ratio_guest: (if $cap == null or $rates.guest == null then null else ($rates.guest / $cap | r3) end),
		ratio_intake: (if $cap == null or $rates.intake == null then null else ($rates.intake / $cap | r3) end),
		# blockio's accounting against the disk: its rate over the trace's
		agree: (if $rates.blockio == null or ($rates.trace // 0) <= 0 then null else ($rates.blockio / $rates.trace | r3) end),
		# the guest's own write rate (progress lines), per second
		supply: ($supply | r3),
		first10_ratio: (if $cap == null or $first10 == null then null else ($first10 / $cap | r3) end),
		min10_ratio: (if $cap == null or $min10 == null then null else ($min10 / $cap | r3) end),
		escaped: (if $esc == null then null else {
			peak: ($esc.peak | round), final: ($esc.final | round),
			peak_cap_seconds: ($esc.peak / $cap | r2), over_seconds: ($esc.seconds | r2) } end),
		# what the mainline io controller charged to the VM's scope, as a
		# fraction of what reached the disk (window, and its last 20 s)
		v2_charged: (if $have_window and $rates.v2 != null and ($rates.trace // 0) > 0 then {
			window: ($rates.v2 / $rates.trace | r3),
			last20: (($W | map(select(.t >= $s1.t - 20)) | .[0]) as $l |
				rate($l; $s1; $vm; "v2"; $w) as $a | rate($l; $s1; $vm; "trace"; $w) as $b |
				if $a == null or ($b // 0) <= 0 then null else ($a / $b | r3) end) } else null end),
		dirty: ([$W[] | .vms[$vm].v2 | select(. != null and .file_dirty != null) | .file_dirty + .file_writeback] |
			if length == 0 then null else {max: max, mean: (add / length | round)} end),
		held: ([$W[] | .vms[$vm].held | select(. != null) | .bytes] |
			if length == 0 then null else {max: max, mean: (add / length | round)} end),
		# the share of the window's samples in which kiothrottled held its bios
		held_busy: ([$W[] | .vms[$vm].held | select(. != null) | .bytes] |
			if length == 0 then null else (map(select(. > 0)) | length) / ($W | length) | r3 end),
		throttled: (if $have_window and $s1.vms[$vm].throttlecnt != null and $s0.vms[$vm].throttlecnt != null then
			{bw: ($s1.vms[$vm].throttlecnt.bw_count - $s0.vms[$vm].throttlecnt.bw_count),
			 iops: ($s1.vms[$vm].throttlecnt.iops_count - $s0.vms[$vm].throttlecnt.iops_count)} else null end),
		# guest_t0_s: the boot times in files written before boot_s held them
		fsync_ms: (($p.guest_fsync_ms[$vm] // []) | (($p.guest_t0_s // $p.boot_s)[$vm]) as $g0 |
			map(select($ws != null and $g0 != null and ($g0 + .[0]) >= $ws and ($g0 + .[0]) <= $s1.t) | .[1]) | stats)
	};
($p.vms | map(vmres(.))) as $R
| ($R | map({key: .name, value: .}) | from_entries) as $byname
| ([$capped[].cap] | max) as $maxcap
| ($byname[$nb].rate.trace) as $nbrate
| ($byname[$nb].supply) as $nbsupply
| def rate_s($x): if $x == null then "-" else "\($x / $div | r2) \($unit)" end;
# A capped VM below LO at the disk fails, unless no guest could have written
# its cap here: the uncapped neighbour, the same guest on the same L1 CPUs,
# wrote less than cap / LO by its own progress lines (TCG inside TCG on a
# loaded machine). Then its lower bounds are inconclusive (pass: null; the
# test is skipped), never decided by what blockio counted.
def lower($cap):
	if $nbsupply == null then
		{pass: null, why: "; the neighbour printed too few progress lines to tell what a guest could write here: inconclusive"}
	elif $nbsupply * $lo < $cap then
		{pass: null, why: "; the uncapped neighbour guest wrote only \(rate_s($nbsupply)) (its progress lines), less than cap / \($lo): no guest could write this cap here (machine too loaded): inconclusive"}
	else
		{pass: false, why: "; the uncapped neighbour guest wrote \(rate_s($nbsupply)) (its progress lines), so a guest could write this cap here"} end;
(if $p.method != "blockio" or $p.status != "ok" then [] else
	[$capped[] | $byname[.name] as $r | .cap as $cap |
		"\(rate_s($r.rate.trace)) at the disk (block_rq_complete in its image) over \(($s1.t - $s0.t) | round) s, cap \(rate_s($cap)): ratio \($r.ratio_trace)" as $got |
		(if $r.ratio_trace == null then
			{name: "cap \(.name)", pass: false, detail: "\(.name): no trace meter sample (block_rq_complete off, or no extents of its image)"}
		 elif $r.ratio_trace > $hi then
			{name: "cap \(.name)", pass: false, detail: "\(.name): \($got) (want \($lo)..\($hi)): above its cap"}
		 elif $r.ratio_trace >= $lo then
			{name: "cap \(.name)", pass: true, detail: "\(.name): \($got) (want \($lo)..\($hi))"}
		 else lower($cap) as $l |
			{name: "cap \(.name)", pass: $l.pass, detail: "\(.name): \($got) (want \($lo)..\($hi))\($l.why)"} end),
		(if ($r.ratio_trace // 0) < 0.1 and lower($cap).pass == null then
			{name: "accounting \(.name)", pass: null, detail: "\(.name): blockio.stat minus held \(rate_s($r.rate.blockio)), disk \(rate_s($r.rate.trace)): too little reached the disk to compare\(lower($cap).why)"}
		 elif $r.agree == null then
			{name: "accounting \(.name)", pass: false, detail: "\(.name): no blockio.stat or no trace rate to compare (did the hook put its QEMU into a blockio cgroup?)"}
		 else
			{name: "accounting \(.name)", pass: ($r.agree >= $agree[0] and $r.agree <= $agree[1]),
			 detail: "\(.name): blockio.stat minus held \(rate_s($r.rate.blockio)), disk \(rate_s($r.rate.trace)): ratio \($r.agree) (want \($agree[0])..\($agree[1]))"} end),
		(if $r.ratio_trace == null then
			{name: "neighbour vs \(.name)", pass: false, detail: "no trace meter"}
		 elif $nbsupply == null then
			{name: "neighbour vs \(.name)", pass: null,
			 detail: "the neighbour guest printed too few progress lines to tell how fast it wrote (\(rate_s($nbrate)) at the disk): not noisy enough to test (machine too loaded)"}
		 elif $nbsupply < $maxcap then
			{name: "neighbour vs \(.name)", pass: null,
			 detail: "the neighbour guest wrote only \(rate_s($nbsupply)) (its progress lines; \(rate_s($nbrate)) at the disk), not more than the larger cap \(rate_s($maxcap)): not noisy enough to test (machine too loaded)"}
		 else (if $r.ratio_trace >= $lo then {pass: true, why: ""} else lower($cap) end) as $l |
			{name: "neighbour vs \(.name)", pass: $l.pass,
			 detail: "the neighbour guest wrote \(rate_s($nbsupply)) (its progress lines; \(rate_s($nbrate)) at the disk; >= the larger cap \(rate_s($maxcap))); \(.name) kept \($r.ratio_trace) of its cap at the disk (needs >= \($lo)); lowest 10 s: \($r.min10_ratio)\($l.why)"} end)]
	end) as $checks
| ([$W[] | (.mem.dirty_kib + .mem.writeback_kib) * 1024] | if length == 0 then null else max end) as $l1dirty
| ($p.probe_ms | map(select($ws != null and .[0] >= $ws) | .[1]) | stats) as $probe
| $p + {result: {
	window: (if $have_window then {start: $s0.t, end: $s1.t, seconds: ($s1.t - $s0.t | r3)} else null end),
	vms: $byname,
	l1_dirty_writeback_max: $l1dirty,
	probe_fsync_ms: $probe,
	checks: $checks,
	lines: (
		["\($p.name): \($p.status)\(if $p.reason != "" then " (" + $p.reason + ")" else "" end); guests booted after \([$p.boot_s[]] | map(tostring) | join("/") | if . == "" then "-" else . end) s, writing from \([$start[]] | map(tostring) | join("/") | if . == "" then "-" else . end) s; window \(if $have_window then "\($s0.t | round)..\($s1.t | round) s" else "none" end)"]
		+ [$R[] | "  \(.name | .[7:] | (. + "            ")[:12]) \(if .cap != null then "cap \(.cap / $div | r2) \($unit), " else "" end)disk \((.device_rate // 0) / $div | r2) \($unit) (\(.meter))\(if .ratio != null then " = \(.ratio) x cap" else "" end)\(if .ratio_blockio != null and .meter != "blockio" then ", blockio.stat \(.ratio_blockio)" else "" end)\(if .rate.intake != null then ", into L1 \(.rate.intake / $div | r2)" else "" end)\(if .supply != null then ", guest \(.supply / $div | r2)" else "" end)\(if .escaped != null then ", escaped \(.escaped.peak | mib | r2) MiB" else "" end)\(if .dirty != null then ", dirty max \(.dirty.max | mib | r2) MiB" else "" end)\(if .held != null then ", held max \(.held.max | mib | r2) MiB" else "" end)\(if .role == "neighbour" and .fsync_ms.n > 0 then ", fsync median \(.fsync_ms.median) ms max \(.fsync_ms.max) ms" else "" end)"]
		+ [$checks[] | "  \(if .pass == true then "PASS" elif .pass == null then "INCONCLUSIVE" else "FAIL" end) \(.name): \(.detail)"])
}}
