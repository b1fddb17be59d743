/* SPDX-License-Identifier: GPL-2.0 */
/*
 * setspec.h - blockioctl set's caps to XML (setspec.c).
 */
#ifndef BLOCKIO_SETSPEC_H
#define BLOCKIO_SETSPEC_H

#include <stddef.h>

#include "blockio.h"

/*
 * The body virsh metadata --key blockio --set takes, "<limits><disk
 * dev='vda' bandwidth='8MiB/s'/>...</limits>", from @n specs
 * "DISK:KEY=VALUE[,KEY=VALUE...]" (DISK a target name, or a path starting
 * with '/' for <device path=...>; keys bandwidth, iops, strategy, bucket,
 * iops-bucket; values XML-escaped, not checked).  0, or -1 with @err.
 */
int blockio_set_body(int n, char *const *specs, char *out, size_t outlen,
		     struct blockio_error *err);

/*
 * Domain XML @xml with its element of our namespace in <metadata> replaced
 * by @body in that namespace (NULL: removed), in *@out (malloc'ed).
 */
int blockio_domain_with_limits(const char *xml, size_t len, const char *body,
			       char **out, size_t *outlen,
			       struct blockio_error *err);

#endif /* BLOCKIO_SETSPEC_H */
