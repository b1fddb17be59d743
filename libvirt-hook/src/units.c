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
 *
 * A rejected value gets a reason that says what to write instead: the
 * accepted units, and for a fraction ("1.5MiB/s") the same amount as a
 * whole number of a smaller unit ("1536KiB/s") when there is one.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "blockio.h"
#include "units.h"
#include "names.h"

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

/* What a value of @q may look like, for messages. */
static const char *accepted(enum blockio_quantity q)
{
	switch (q) {
	case BLOCKIO_Q_BANDWIDTH:
		return "a whole number of bytes, then an optional unit: B; K, M, G, T or KiB, MiB, GiB, TiB (x1024); KB, MB, GB, TB (x1000); any case; then an optional '/s': e.g. 8MiB/s, 500KB/s, 1048576";
	case BLOCKIO_Q_BYTES:
		return "a whole number of bytes, then an optional unit: B; K, M, G, T or KiB, MiB, GiB, TiB (x1024); KB, MB, GB, TB (x1000); any case: e.g. 64MiB, 1048576";
	case BLOCKIO_Q_IOPS:
		return "a whole number of operations, then an optional k, m or g (x1000), then an optional '/s': e.g. 500, 10k/s";
	case BLOCKIO_Q_OPS:
		break;
	}
	return "a whole number of operations, then an optional k, m or g (x1000): e.g. 1000, 2k";
}

/* @raw (up to @len bytes) escaped for quoting in a message. */
static const char *quoted(const char *raw, size_t len, char out[200])
{
	char cut[48];

	snprintf(cut, sizeof(cut), "%.*s", (int)(len < 40 ? len : 40), raw);
	blockio_escape(cut, out, 200);
	if (len > 40 && strlen(out) < 196)
		strcat(out, "...");
	return out;
}

/*
 * @s is "[DIGITS].DIGITS[UNIT][/s]": say that fractions are not accepted
 * and, when the amount is a whole number of a smaller unit, which one.
 */
static void fraction_reason(const char *s, enum blockio_quantity q,
			    char *why, size_t whylen)
{
	const uint64_t max = is_bytes(q) ? BLOCKIO_BANDWIDTH_MAX
					 : BLOCKIO_IOPS_MAX;
	/* at most 12 digits after the point and whole <= 10 * max keep
	 * (whole * den + frac) * scale below 2^128 */
	unsigned __int128 whole = 0, frac = 0, den = 1, num;
	bool exact = true;
	const char *p = s;
	enum blockio_quantity shown = q;
	uint64_t scale = 1;
	char text[64] = "";
	size_t len;

	for (; *p >= '0' && *p <= '9'; p++)
		if (whole <= max)
			whole = whole * 10 + (unsigned)(*p - '0');
	for (p++; *p >= '0' && *p <= '9'; p++) {
		if (den >= 1000000000000ULL) {
			exact = false;
			continue;
		}
		frac = frac * 10 + (unsigned)(*p - '0');
		den *= 10;
	}
	len = strlen(p);
	if (is_rate(q) && len >= 2 && !strcmp(p + len - 2, "/s"))
		len -= 2;
	else if (q == BLOCKIO_Q_BANDWIDTH)
		shown = BLOCKIO_Q_BYTES;	/* suggest it as written: no "/s" */
	else if (q == BLOCKIO_Q_IOPS)
		shown = BLOCKIO_Q_OPS;
	if (len)
		scale = unit_scale(is_bytes(q) ? byte_units : ops_units, p, len);
	num = (whole * den + frac) * scale;
	if (exact && scale && num % den == 0 && num / den >= 1 &&
	    num / den <= max)
		blockio_format_quantity((uint64_t)(num / den), shown, text,
					sizeof(text));
	if (text[0])
		snprintf(why, whylen,
			 "a fraction is not accepted: write %s; expected %s",
			 text, accepted(q));
	else
		snprintf(why, whylen,
			 "a fraction is not accepted: use a whole number of a smaller unit; expected %s",
			 accepted(q));
}

static bool is_fraction(const char *s)
{
	while (*s >= '0' && *s <= '9')
		s++;
	return *s == '.' && s[1] >= '0' && s[1] <= '9';
}

int blockio_parse_quantity(const char *s, enum blockio_quantity q,
			   uint64_t *out, char *why, size_t whylen)
{
	const uint64_t max = is_bytes(q) ? BLOCKIO_BANDWIDTH_MAX
					 : BLOCKIO_IOPS_MAX;
	uint64_t value = 0, scale = 1;
	bool overflow = false;
	const char *p = s;
	char unit[200];
	size_t len;

	if (!*s) {
		snprintf(why, whylen, "empty value; expected %s", accepted(q));
		return -1;
	}
	if (is_fraction(s)) {
		fraction_reason(s, q, why, whylen);
		return -1;
	}
	if (*p < '0' || *p > '9') {
		snprintf(why, whylen, "it does not start with a digit; expected %s",
			 accepted(q));
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
			snprintf(why, whylen, "a size takes no '/s'; expected %s",
				 accepted(q));
			return -1;
		}
		len -= 2;
	}
	if (len) {
		scale = unit_scale(is_bytes(q) ? byte_units : ops_units, p, len);
		if (!scale && len >= 2 && !strcmp(p + len - 2, "/S") && is_rate(q) &&
		    (len == 2 || unit_scale(is_bytes(q) ? byte_units : ops_units,
					    p, len - 2))) {
			snprintf(why, whylen,
				 "unknown unit '%s': write '/s' in lower case; expected %s",
				 quoted(p, len, unit), accepted(q));
			return -1;
		}
		if (!scale) {
			snprintf(why, whylen, "unknown unit '%s'; expected %s",
				 quoted(p, len, unit), accepted(q));
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

void blockio_format_quantity(uint64_t v, enum blockio_quantity q, char *out,
			     size_t outlen)
{
	static const struct unit bytes_out[] = {
		{ "TiB", 1ULL << 40 }, { "GiB", 1ULL << 30 },
		{ "MiB", 1ULL << 20 }, { "KiB", 1ULL << 10 },
		{ "TB", 1000000000000ULL }, { "GB", 1000000000ULL },
		{ "MB", 1000000ULL }, { "KB", 1000ULL }, { "B", 1 },
		{ NULL, 0 },
	};
	static const struct unit ops_out[] = {
		{ "G", 1000000000ULL }, { "M", 1000000ULL }, { "k", 1000ULL },
		{ "", 1 }, { NULL, 0 },
	};
	char text[48], shortest[48] = "";

	/* the shortest exact form: 8MiB, 8MB, 3TB, 1048577B */
	for (const struct unit *u = is_bytes(q) ? bytes_out : ops_out; u->name; u++) {
		if (v % u->scale)
			continue;
		snprintf(text, sizeof(text), "%" PRIu64 "%s", v / u->scale, u->name);
		if (!shortest[0] || strlen(text) < strlen(shortest))
			snprintf(shortest, sizeof(shortest), "%s", text);
	}
	snprintf(out, outlen, "%s%s", shortest, is_rate(q) ? "/s" : "");
}
