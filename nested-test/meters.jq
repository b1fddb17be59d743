# SPDX-License-Identifier: GPL-2.0
# nested-test: the meters of one VM in one sample (the meanings are in
# analyze.jq's header). Used by analyze.jq (the verdicts) and by report (the
# plots), with jq -L nested-test.

# meter($m; $w): counter $m ("blockio", "trace", "v2", "guest", "intake")
# of the VM object it is applied to, for workload $w ("seq": bytes, "rand":
# I/Os); null if the sample lacks it.
def meter($m; $w):
	if $m == "blockio" then
		(if .blockio == null then null
		 elif $w == "seq" then .blockio.write_bytes - (.held.bytes // 0)
		 else .blockio.ios - (.held.bios // 0) end)
	elif $m == "trace" then (if .trace == null then null elif $w == "seq" then .trace.bytes else .trace.reqs end)
	elif $m == "v2" then (if .v2 == null then null elif $w == "seq" then (.v2.wbytes // 0) else (.v2.wios // 0) end)
	elif $m == "guest" then (if .guest == null then null elif $w == "seq" then .guest.bytes else .guest.ops end)
	elif $m == "intake" then (if .trace == null or .v2 == null or $w != "seq" then null
		else .trace.bytes + (.v2.file_dirty // 0) + (.v2.file_writeback // 0) end)
	else null end;
