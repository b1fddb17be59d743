# SPDX-License-Identifier: GPL-2.0
# The independent per-VM device meter of nested-test/run-scenario (gawk).
#
# Reads block:block_rq_complete events of the images disk from
# PIPE (/sys/kernel/tracing/trace_pipe) and splits every completed write
# request over the disk image files by their physical extents (MAP: lines
# "VM FIRST_SECTOR END_SECTOR", end exclusive, from filefrag). The cumulative
# bytes and requests per VM (and "other": journal, metadata, other files)
# are written to STATE ("VM BYTES REQUESTS" lines, replaced atomically)
# at most every 300 ms while they change. This meter sees what reached the
# disk, whoever submitted it and whichever cgroup was charged.
#
#   gawk -f trace.awk -v pipe=PIPE -v map=MAP -v state=STATE

function flush(   tmp, v) {
	if (!dirty)
		return
	tmp = state ".tmp"
	for (v in bytes)
		printf "%s %d %d\n", v, bytes[v], reqs[v] > tmp
	close(tmp)
	system("mv -f '" tmp "' '" state "'")
	dirty = 0
}

BEGIN {
	n = 0
	while ((getline line < map) > 0) {
		split(line, f, " ")
		n++
		ev[n] = f[1]
		es[n] = f[2] + 0
		ee[n] = f[3] + 0
		bytes[f[1]] = 0
		reqs[f[1]] = 0
	}
	close(map)
	bytes["other"] = 0
	reqs["other"] = 0
	dirty = 1
	flush()
	PROCINFO[pipe, "READ_TIMEOUT"] = 300
	PROCINFO[pipe, "RETRY"] = 1
	last = systime()
	for (;;) {
		line = ""
		r = (getline line < pipe)
		if (r == 0 || r == -1)
			break
		if (r < 0 || line == "") {
			flush()
			continue
		}
		i = index(line, "block_rq_complete: ")
		if (!i)
			continue
		s = substr(line, i + 19)
		split(s, f, " ")
		# DEV RWBS (CMD) SECTOR + NR_SECTORS [ERROR]
		if (f[2] !~ /W/ || !match(s, /[0-9]+ \+ [0-9]+ \[/))
			continue
		split(substr(s, RSTART, RLENGTH), g, " ")
		sec = g[1] + 0
		nr = g[3] + 0
		if (nr <= 0)
			continue
		matched = 0
		delete hit
		for (k = 1; k <= n; k++) {
			lo = sec > es[k] ? sec : es[k]
			hi = sec + nr < ee[k] ? sec + nr : ee[k]
			if (hi > lo) {
				bytes[ev[k]] += (hi - lo) * 512
				matched += hi - lo
				hit[ev[k]] = 1
			}
		}
		for (v in hit)
			reqs[v]++
		if (matched < nr) {
			bytes["other"] += (nr - matched) * 512
			if (!matched)
				reqs["other"]++
		}
		dirty = 1
		if (systime() != last) {
			flush()
			last = systime()
		}
	}
	flush()
}
