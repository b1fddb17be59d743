/* SPDX-License-Identifier: GPL-2.0 */
/*
 * units.h - quantities as an admin writes them: "8MiB/s", "500", "10k" (units.c).
 */
#ifndef BLOCKIO_UNITS_H
#define BLOCKIO_UNITS_H

#include <stddef.h>
#include <stdint.h>

enum blockio_quantity {
	BLOCKIO_Q_BANDWIDTH,	/* bytes per second: 8MiB/s, 8M, 1048576 */
	BLOCKIO_Q_BYTES,	/* a size in bytes: 16MiB */
	BLOCKIO_Q_IOPS,		/* operations per second: 500, 500/s, 10k */
	BLOCKIO_Q_OPS,		/* a count of operations: 1000, 2k */
};

/*
 * Parse @s as a @q quantity into @out.  On failure return -1 and put the
 * reason ("unknown unit 'XB'", "out of range ...") into @why.
 */
int blockio_parse_quantity(const char *s, enum blockio_quantity q,
			   uint64_t *out, char *why, size_t whylen);

/*
 * The shortest exact form of @v as a @q quantity, the inverse of
 * blockio_parse_quantity(): "8MiB/s", "500KB", "1048577B/s", "10k/s".
 */
void blockio_format_quantity(uint64_t v, enum blockio_quantity q, char *out,
			     size_t outlen);

#endif /* BLOCKIO_UNITS_H */
