/* SPDX-License-Identifier: GPL-2.0 */
/*
 * resolve.h - a target to its whole-disk device node (resolve.c).
 */
#ifndef BLOCKIO_RESOLVE_H
#define BLOCKIO_RESOLVE_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "config.h"

/*
 * The filesystem as device resolution sees it; tests pass a fake one.
 * Both return 0 or a negative errno.
 */
struct blockio_host {
	/* stat(2), following symlinks */
	int (*stat)(void *priv, const char *path, struct stat *st);
	/* read up to @size - 1 bytes of a (sysfs) file, NUL-terminate */
	int (*read_file)(void *priv, const char *path, char *buf, size_t size);
	void *priv;
};

extern const struct blockio_host blockio_host_real;

/*
 * Map every target to the whole disk that holds it: a regular file to the
 * disk under its filesystem (st_dev), a block device to itself (st_rdev),
 * a partition to its disk; then find that disk's node in /dev.  Two
 * targets on one disk are an error: the kernel keeps one rule per device.
 * With libvirt_limits, an <iotune> on a file on a network filesystem is
 * left out (netfs set, no rule): QEMU's own limit is all there is there.
 */
int blockio_config_resolve(struct blockio_config *cfg,
			   const struct blockio_host *host,
			   struct blockio_error *err);

/*
 * Map one target to its whole disk (fills devnode and dev), as
 * blockio_config_resolve() does for each; blockioctl uses it to name the
 * host disk of every target and disk even when the domain is refused.
 */
int blockio_target_resolve(const struct blockio_host *host,
			   struct blockio_target *t, struct blockio_error *err);

/*
 * The backing chain of every capped disk, as libvirt lists it in the XML it
 * gives start and restore (<backingStore>; prepare's XML has none yet):
 * QEMU reads each backing file, so each must be on a host disk that the
 * domain caps, or those reads would go uncapped; -1 with a message that
 * names the file, its host disk and what to do.  A backing store that is
 * not a file or block device (network) is refused the same way.
 * Called after blockio_config_resolve().
 */
int blockio_check_backing(const struct blockio_host *host,
			  const struct blockio_config *cfg,
			  const struct blockio_domain_io *io,
			  struct blockio_error *err);

/* The /dev node of whole disk or partition @dev, e.g. for deleting a rule. */
int blockio_devnode(const struct blockio_host *host, dev_t dev,
		    char *out, size_t outlen, struct blockio_error *err);

#endif /* BLOCKIO_RESOLVE_H */
