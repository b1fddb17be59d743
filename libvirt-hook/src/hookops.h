/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hookops.h - what 50-blockio does at each operation (hookops.c).
 */
#ifndef BLOCKIO_HOOKOPS_H
#define BLOCKIO_HOOKOPS_H

#include <stddef.h>

#include "cgroup.h"

/*
 * What prepare, start and restore check on this host after parsing: every
 * target's host disk, the backing chains of capped disks when @io (the
 * same XML's disks) is given, and, with caps, the blockio controller and
 * its mount.  blockioctl check calls it too, so it refuses exactly what
 * they refuse.
 */
int blockio_check_host(const struct blockio_paths *paths,
		       const struct blockio_host *host,
		       struct blockio_config *cfg,
		       const struct blockio_domain_io *io,
		       struct blockio_error *err);

/*
 * What prepare, start and restore decide: blockio_check_host(), except
 * for a domain capped by libvirt's limits with libvirt-limits-uncapped =
 * start (cfg->uncapped_ok), which starts anyway: 1 and @err (why blockio
 * cannot cap it) when a host disk or the hierarchy is missing, and a
 * backing file on an uncapped host disk only adds a warning to @cfg.
 * 0: capped; -1: refused, @err says why.
 */
int blockio_check_prepare(const struct blockio_paths *paths,
			  const struct blockio_host *host,
			  struct blockio_config *cfg,
			  const struct blockio_domain_io *io,
			  struct blockio_error *err);

/* What the hook says, and the exit status it returns to libvirt. */
struct blockio_hook_result {
	int status;		/* 0, or 1: libvirt refuses the operation */
	int priority;		/* syslog priority of @log; -1: say nothing */
	char out[2048 + 16];	/* the line for stderr: "blockio: ...", no newline */
	char log[2048];		/* the line for syslog: names domain and operation */
};

/*
 * Run operation @op of libvirt's qemu hook for domain @name (raw; escaped
 * here) on domain XML @xml of @len bytes, or on NULL when reading stdin
 * failed for the reason in @readerr.  See hookops.c for each operation's
 * failure: prepare/start/restore/migrate/started refuse (status 1), with
 * caps prepare/start/restore check the controller and its mount, and
 * reconnect never fails (status 0, a LOG_ERR line "... NOT CAPPED ...").
 */
void blockio_hook_run(const struct blockio_paths *paths,
		      const struct blockio_host *host, const char *name,
		      const char *op, const char *xml, size_t len,
		      const struct blockio_error *readerr,
		      struct blockio_hook_result *res);

#endif /* BLOCKIO_HOOKOPS_H */
