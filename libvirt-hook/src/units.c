// SPDX-License-Identifier: GPL-2.0
/*
 * units.c - quantities with human units: "8MiB/s", "8M", "500", "10k".
 *
 * Grammar (no spaces, no sign, no fraction; units are case-insensitive):
 *
 *   bandwidth := DIGITS [byte-unit] ["/s"]     bytes per second
 *   bytes     := DIGITS [byte-unit]            a bucket size in bytes
 *   iops      := DIGITS [ops-unit] ["/s"]      operations per second
 *   ops       := DIGITS [ops-unit]             a bucket size in operations
 *
 *   byte-unit := b | k | kib | m | mib | g | gib | t | tib   (powers of 1024)
 *              | kb | mb | gb | tb                          (powers of 1000)
 *   ops-unit  := k | m | g                                  (powers of 1000)
 *
 * This follows libvirt's own scaled integers (<memory unit='KiB'>): a lone
 * letter and "iB" are binary, "B" after a letter is decimal.  Operations
 * are counted, not stored, so their suffixes are decimal.
 *
 * Every quantity must be at least 1 (0 would delete the kernel rule; leave
 * the attribute out instead) and at most BLOCKIO_BANDWIDTH_MAX bytes or
 * BLOCKIO_IOPS_MAX operations.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "blockio.h"

struct unit {
	const char *name;
	uint64_t scale;
};

static const struct unit byte_units[] = {
	{ "b", 1 },
	{ "k", 1ULL << 10 }, { "kib", 1ULL << 10 }, { "kb", 1000ULL },
	{ "m", 1ULL << 20 }, { "mib", 1ULL << 20 }, { "mb", 1000000ULL },
	{ "g", 1ULL << 30 }, { "gib", 1ULL << 30 }, { "gb", 1000000000ULL },
	{ "t", 1ULL << 40 }, { "tib", 1ULL << 40 }, { "tb", 1000000000000ULL },
	{ NULL, 0 },
};

static const struct unit ops_units[] = {
	{ "k", 1000ULL }, { "m", 1000000ULL }, { "g", 1000000000ULL },
	{ NULL, 0 },
};

static bool is_rate(enum blockio_quantity q)
{
	return q == BLOCKIO_Q_BANDWIDTH || q == BLOCKIO_Q_IOPS;
}

static bool is_bytes(enum blockio_quantity q)
{
	return q == BLOCKIO_Q_BANDWIDTH || q == BLOCKIO_Q_BYTES;
}

static const char *max_text(enum blockio_quantity q)
{
	switch (q) {
	case BLOCKIO_Q_BANDWIDTH:
		return "1TiB/s";
	case BLOCKIO_Q_BYTES:
		return "1TiB";
	case BLOCKIO_Q_IOPS:
		return "1G operations/s";
	case BLOCKIO_Q_OPS:
		break;
	}
	return "1G operations";
}

/* Look @suffix (of @len bytes) up in @units; 0 if unknown. */
static uint64_t unit_scale(const struct unit *units, const char *suffix,
			   size_t len)
{
	for (const struct unit *u = units; u->name; u++)
		if (strlen(u->name) == len && !strncasecmp(u->name, suffix, len))
			return u->scale;
	return 0;
}

int blockio_parse_quantity(const char *s, enum blockio_quantity q,
			   uint64_t *out, char *why, size_t whylen)
{
	const uint64_t max = is_bytes(q) ? BLOCKIO_BANDWIDTH_MAX
					 : BLOCKIO_IOPS_MAX;
	uint64_t value = 0, scale = 1;
	bool overflow = false;
	const char *p = s;
	size_t len;

	if (!*s) {
		snprintf(why, whylen, "empty value");
		return -1;
	}
	if (*p < '0' || *p > '9') {
		snprintf(why, whylen, "expected a whole number");
		return -1;
	}
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned digit = (unsigned)(*p - '0');

		if (value > (UINT64_MAX - digit) / 10)
			overflow = true;
		else
			value = value * 10 + digit;
	}

	/* p is the unit, possibly followed by "/s". */
	len = strlen(p);
	if (len >= 2 && !strcmp(p + len - 2, "/s")) {
		if (!is_rate(q)) {
			snprintf(why, whylen, "a size takes no '/s'");
			return -1;
		}
		len -= 2;
	}
	if (len) {
		scale = unit_scale(is_bytes(q) ? byte_units : ops_units, p, len);
		if (!scale) {
			char raw[48], unit[200];

			snprintf(raw, sizeof(raw), "%.*s",
				 (int)(len < 40 ? len : 40), p);
			blockio_escape(raw, unit, sizeof(unit));
			snprintf(why, whylen, "unknown unit '%s'", unit);
			return -1;
		}
	}

	if (overflow || value > max / scale) {
		snprintf(why, whylen, "out of range: more than %s", max_text(q));
		return -1;
	}
	if (!value) {
		snprintf(why, whylen,
			 "must be at least 1 (leave the attribute out for no cap)");
		return -1;
	}
	*out = value * scale;
	return 0;
}
