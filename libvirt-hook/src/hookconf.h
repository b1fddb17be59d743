/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hookconf.h - /etc/blockio/hook.conf: what it chooses and its parser
 * (hookconf.c); apply.h loads it from disk.
 */
#ifndef BLOCKIO_HOOKCONF_H
#define BLOCKIO_HOOKCONF_H

#include <stdbool.h>

#include "blockio.h"

/* What /etc/blockio/hook.conf chooses (hookconf.c). */
struct blockio_options {
	/*
	 * libvirt-limits = yes: a domain without <blockio:limits> is capped
	 * by its <disk><iotune> and <blkiotune><device> limits, as
	 * blockio_config_parse_opts() maps them.
	 */
	bool libvirt_limits;
	/*
	 * libvirt-limits-uncapped = refuse: such a domain that blockio cannot
	 * cap on this host (no controller or hierarchy, a host disk not
	 * found, a backing file on an uncapped host disk, cgroupfs failing)
	 * is refused as one with <blockio:limits> is.  Default (start): it
	 * starts limited by QEMU's <iotune> only, and the hook says so.
	 */
	bool libvirt_limits_refuse;
};

/*
 * Parse hook.conf text (@file names it in messages): "key = value" lines,
 * '#' comments, blank lines.  Keys: libvirt-limits (yes|no).  Anything
 * else is an error naming the line.  @opts starts from the defaults.
 */
int blockio_hookconf_parse(const char *text, const char *file,
			   struct blockio_options *opts,
			   struct blockio_error *err);

#endif /* BLOCKIO_HOOKCONF_H */
