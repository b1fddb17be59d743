# SPDX-License-Identifier: GPL-2.0
# One sample of nested-test/run-scenario: parses the files given on the
# command line, each preceded by assignments saying what it is
# (k=KIND, and vm=NAME for a VM's files), appends one JSON object to OUT
# and prints for the shell (nested-test/lib/meters.sh) one line of named
# fields per VM:
#   vm=NAME booted=0|1 done=0|1 disp_bytes= disp_ios= (blockio.stat minus
#   what kiothrottled holds) trace_bytes= trace_reqs= guest_bytes= guest_ops=
#   dirty= (memcg dirty + writeback bytes) held= (bytes held) fsync_ms=
# (-1 where a meter is missing), then L1's own: "dirty_kib=N" (Dirty +
# Writeback of /proc/meminfo). Variables: t (seconds since the phase
# began), out, maj, min (the images disk), vms ("NAME=/blockio/cgroup/path
# ..."; "-" for a VM without a blockio cgroup).
#
# KINDs: meminfo (/proc/meminfo), dev (/sys/block/D/stat), kiot
# (/proc/kiothrottled_debug), trace (trace.awk's state), sysio
# (system.slice io.stat), probe (the L1 fsync probe's log; its last line), and per VM:
# bstat (blockio.stat), bthr (blockio.throttlecnt), iostat and memstat (the
# VM's cgroup v2 scope), serial (the guest's console log).

function num(x) { return x == "" ? "null" : x + 0 }

BEGIN {
	nv = split(vms, pairs, " ")
	for (i = 1; i <= nv; i++) {
		split(pairs[i], p, "=")
		name[i] = p[1]
		cgpath[p[1]] = p[2]
	}
	devkey = maj ":" min
}

# blockio.stat:       MAJOR MINOR BYTES IOS WRITE_BYTES QUEUED_BIOS QUEUED_BYTES
# (the QUEUED columns count every bio kiothrottled ever held; what it holds
# now is in /proc/kiothrottled_debug)
k == "bstat" && $1 == maj && $2 == min {
	b_bytes[vm] = $3; b_ios[vm] = $4; b_wbytes[vm] = $5; b_qbios[vm] = $6; b_qbytes[vm] = $7
	next
}
# blockio.throttlecnt: MAJOR MINOR BW_COUNTER BW_SLEEP IOPS_COUNTER IOPS_SLEEP
k == "bthr" && $1 == maj && $2 == min {
	t_bwc[vm] = $3; t_bws[vm] = $4; t_ioc[vm] = $5; t_ios[vm] = $6
	next
}
k == "iostat" && $1 == devkey {
	for (i = 2; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "wbytes") v2_wbytes[vm] = kv[2]
		if (kv[1] == "wios") v2_wios[vm] = kv[2]
	}
	next
}
k == "memstat" && ($1 == "file_dirty" || $1 == "file_writeback") {
	if ($1 == "file_dirty") v2_dirty[vm] = $2; else v2_wb[vm] = $2
	next
}
k == "serial" {
	sub(/\r$/, "")
	if (index($0, "BLOCKIO-L2-BOOTED")) booted[vm] = 1
	else if (index($0, "BLOCKIO-L2-RESULT")) done[vm] = 1
	else if (index($0, "BLOCKIO-L2-PROGRESS ")) {
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "t") g_t[vm] = kv[2]
			else if (kv[1] == "bytes") g_bytes[vm] = kv[2]
			else if (kv[1] == "ops") g_ops[vm] = kv[2]
			else if (kv[1] == "fsync_ms") g_fsync[vm] = kv[2]
		}
	}
	next
}
k == "meminfo" && ($1 == "Dirty:" || $1 == "Writeback:") {
	mem[$1] = $2
	next
}
# /sys/block/D/stat: field 5 write I/Os, field 7 write sectors
k == "dev" {
	dev_wios = $5; dev_wbytes = $7 * 512
	next
}
# /proc/kiothrottled_debug: CGROUP MAJ:MIN SECTOR BYTES MS_TO_DEADLINE
k == "kiot" && $2 == devkey {
	h_bios[$1]++
	h_bytes[$1] += $4
	next
}
k == "trace" {
	tr_bytes[$1] = $2; tr_reqs[$1] = $3
	next
}
k == "sysio" && $1 == devkey {
	for (i = 2; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "wbytes") sys_wbytes = kv[2]
	}
	next
}
k == "probe" {
	probe_t = $1; probe_ms = $2
	next
}

END {
	s = sprintf("{\"t\":%.3f,\"mem\":{\"dirty_kib\":%s,\"writeback_kib\":%s},\"dev\":{\"wbytes\":%s,\"wios\":%s}",
		t, num(mem["Dirty:"]), num(mem["Writeback:"]), num(dev_wbytes), num(dev_wios))
	s = s sprintf(",\"trace_other\":%s,\"system_slice_wbytes\":%s,\"probe\":%s",
		("other" in tr_bytes) ? sprintf("{\"bytes\":%s,\"reqs\":%s}", num(tr_bytes["other"]), num(tr_reqs["other"])) : "null",
		num(sys_wbytes),
		probe_t != "" ? sprintf("{\"t\":%s,\"ms\":%s}", num(probe_t), num(probe_ms)) : "null")
	s = s ",\"vms\":{"
	for (i = 1; i <= nv; i++) {
		v = name[i]
		cg = cgpath[v]
		s = s sprintf("%s\"%s\":{\"booted\":%s,\"done\":%s", i > 1 ? "," : "", v,
			booted[v] ? "true" : "false", done[v] ? "true" : "false")
		if (v in b_bytes)
			s = s sprintf(",\"blockio\":{\"bytes\":%s,\"ios\":%s,\"write_bytes\":%s,\"queued_bios\":%s,\"queued_bytes\":%s}",
				num(b_bytes[v]), num(b_ios[v]), num(b_wbytes[v]), num(b_qbios[v]), num(b_qbytes[v]))
		if (v in t_bwc)
			s = s sprintf(",\"throttlecnt\":{\"bw_count\":%s,\"bw_sleep\":%s,\"iops_count\":%s,\"iops_sleep\":%s}",
				num(t_bwc[v]), num(t_bws[v]), num(t_ioc[v]), num(t_ios[v]))
		if (cg != "-")
			s = s sprintf(",\"held\":{\"bios\":%d,\"bytes\":%d}", h_bios[cg], h_bytes[cg])
		if (v in tr_bytes)
			s = s sprintf(",\"trace\":{\"bytes\":%s,\"reqs\":%s}", num(tr_bytes[v]), num(tr_reqs[v]))
		if ((v in v2_wbytes) || (v in v2_dirty))
			s = s sprintf(",\"v2\":{\"wbytes\":%s,\"wios\":%s,\"file_dirty\":%s,\"file_writeback\":%s}",
				num(v2_wbytes[v]), num(v2_wios[v]), num(v2_dirty[v]), num(v2_wb[v]))
		if (v in g_bytes)
			s = s sprintf(",\"guest\":{\"t\":%s,\"bytes\":%s,\"ops\":%s,\"fsync_ms\":%s}",
				num(g_t[v]), num(g_bytes[v]), num(g_ops[v]), num(g_fsync[v]))
		s = s "}"
		printf "vm=%s booted=%d done=%d disp_bytes=%s disp_ios=%s trace_bytes=%s trace_reqs=%s guest_bytes=%s guest_ops=%s dirty=%s held=%s fsync_ms=%s\n",
			v, booted[v] + 0, done[v] + 0,
			(v in b_wbytes) ? b_wbytes[v] - h_bytes[cg] : -1,
			(v in b_ios) ? b_ios[v] - h_bios[cg] : -1,
			(v in tr_bytes) ? tr_bytes[v] : -1, (v in tr_reqs) ? tr_reqs[v] : -1,
			(v in g_bytes) ? g_bytes[v] : -1, (v in g_ops) ? g_ops[v] : -1,
			(v in v2_dirty) ? v2_dirty[v] + v2_wb[v] : -1,
			(cg != "-") ? h_bytes[cg] + 0 : -1,
			(v in g_fsync) ? g_fsync[v] : -1
	}
	s = s "}}"
	print s >> out
	printf "dirty_kib=%d\n", mem["Dirty:"] + mem["Writeback:"]
}
