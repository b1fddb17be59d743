/* SPDX-License-Identifier: GPL-2.0 */
/*
 * procfs.h - parsers for the kernel's text: mountinfo, /proc/cgroups,
 * /proc/PID/cgroup, the rows of blockio's files (procfs.c).
 */
#ifndef BLOCKIO_PROCFS_H
#define BLOCKIO_PROCFS_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"

/* The mount point of the first cgroup v1 hierarchy carrying blockio. */
int blockio_parse_mountinfo(const char *text, char *path, size_t pathlen);

/*
 * blockio in /proc/cgroups: 1 listed and enabled, 0 listed but disabled
 * (cgroup_disable=blockio), -1 not listed (a kernel without the patches).
 */
int blockio_parse_proc_cgroups(const char *text);

/* The blockio path from /proc/PID/cgroup ("/machine/UUID"), or -1. */
int blockio_parse_pid_cgroup(const char *text, char *path, size_t pathlen);

/* A row of blockio.bandwidth-max or blockio.iops-max. */
struct blockio_row {
	unsigned major, minor;
	uint64_t limit;		/* as read: x1000 for iops */
	unsigned strategy;
	uint64_t bucket;	/* as read: x1000 for iops */
};

/* Parse every row of @text; return the count, or -1 on a malformed row. */
int blockio_parse_rows(const char *text, struct blockio_row *rows,
		       size_t maxrows);

/* The line to write for @rule: "/dev/vdc:8388608:0" or ".../1:16777216". */
int blockio_rule_format(const struct blockio_config *cfg,
			const struct blockio_rule *rule, char *out,
			size_t outlen);

/*
 * Check that @rows (read back from the @kind file) hold exactly the rules
 * of @kind in @cfg: same devices, limits, strategies, and buckets for token
 * buckets, and nothing else.  Return 0 or -1 with @err naming the mismatch.
 */
int blockio_rows_match(const struct blockio_config *cfg,
		       enum blockio_kind kind, const struct blockio_row *rows,
		       size_t nrows, struct blockio_error *err);

const char *blockio_kind_file(enum blockio_kind kind);

/* A row of blockio.stat: MAJOR MINOR BYTES IOS WRITE_BYTES QUEUED_BIOS QUEUED_BYTES */
struct blockio_stat_row {
	unsigned major, minor;
	uint64_t bytes, ios, write_bytes, queued_bios, queued_bytes;
};

/* A row of blockio.throttlecnt: MAJOR MINOR BW_COUNTER BW_SLEEP IOPS_COUNTER IOPS_SLEEP */
struct blockio_throttle_row {
	unsigned major, minor;
	uint64_t bw_count, bw_sleep, iops_count, iops_sleep;	/* sleeps in clock ticks */
};

/* Parse every row; return the count, or -1 on a malformed row. */
int blockio_parse_stat(const char *text, struct blockio_stat_row *rows,
		       size_t maxrows);
int blockio_parse_throttlecnt(const char *text,
			      struct blockio_throttle_row *rows,
			      size_t maxrows);

#endif /* BLOCKIO_PROCFS_H */
