// SPDX-License-Identifier: GPL-2.0
/* test-units.c - "8MiB/s", "500", "10k": blockio_parse_quantity(). */
#include <inttypes.h>

#include "blockio.h"
#include "check.h"

#define BW BLOCKIO_Q_BANDWIDTH
#define BYTES BLOCKIO_Q_BYTES
#define IOPS BLOCKIO_Q_IOPS
#define OPS BLOCKIO_Q_OPS

static const struct {
	const char *in;
	enum blockio_quantity q;
	uint64_t want;		/* 0: must fail */
	const char *why;	/* expected reason on failure */
} cases[] = {
	/* plain numbers and rates */
	{ "1", BW, 1, NULL },
	{ "1048576", BW, 1048576, NULL },
	{ "500/s", BW, 500, NULL },
	{ "0008", BW, 8, NULL },
	/* binary and decimal units, any case */
	{ "8M", BW, 8ULL << 20, NULL },
	{ "8m", BW, 8ULL << 20, NULL },
	{ "8MiB/s", BW, 8ULL << 20, NULL },
	{ "8mib/s", BW, 8ULL << 20, NULL },
	{ "8MB/s", BW, 8000000, NULL },
	{ "10k", BW, 10240, NULL },
	{ "10KiB", BW, 10240, NULL },
	{ "10KB", BW, 10000, NULL },
	{ "2G/s", BW, 2ULL << 30, NULL },
	{ "2GB", BW, 2000000000ULL, NULL },
	{ "1T", BW, 1ULL << 40, NULL },
	{ "1TiB/s", BW, 1ULL << 40, NULL },
	{ "512B/s", BW, 512, NULL },
	{ "512b", BW, 512, NULL },
	{ "16MiB", BYTES, 16ULL << 20, NULL },
	{ "500", IOPS, 500, NULL },
	{ "500/s", IOPS, 500, NULL },
	{ "10k", IOPS, 10000, NULL },
	{ "10K/s", IOPS, 10000, NULL },
	{ "2M", IOPS, 2000000, NULL },
	{ "1G", IOPS, 1000000000ULL, NULL },
	{ "1000", OPS, 1000, NULL },
	{ "2k", OPS, 2000, NULL },
	/* limits: exactly the maximum passes, one more fails */
	{ "1099511627776", BW, 1ULL << 40, NULL },
	{ "1099511627777", BW, 0, "out of range" },
	{ "1025G", BW, 0, "out of range" },
	{ "1000000000", IOPS, 1000000000ULL, NULL },
	{ "1000000001", IOPS, 0, "out of range" },
	{ "2G", IOPS, 0, "out of range" },
	{ "2T", BYTES, 0, "out of range" },
	/* overflow of the digits and of the multiplication */
	{ "18446744073709551615", BW, 0, "out of range" },
	{ "18446744073709551616", BW, 0, "out of range" },
	{ "99999999999999999999999999999999", IOPS, 0, "out of range" },
	{ "17179869184T", BW, 0, "out of range" },	/* 2^34 * 2^40 wraps */
	{ "18446744073709551616k", IOPS, 0, "out of range" },
	/* zero, negative, empty, signs, spaces, fractions */
	{ "0", BW, 0, "at least 1" },
	{ "0M", BW, 0, "at least 1" },
	{ "0/s", IOPS, 0, "at least 1" },
	{ "-1", BW, 0, "whole number" },
	{ "+1", BW, 0, "whole number" },
	{ "", BW, 0, "empty" },
	{ " 8M", BW, 0, "whole number" },
	{ "8M ", BW, 0, "unknown unit" },
	{ "8 M", BW, 0, "unknown unit" },
	{ "1.5M", BW, 0, "unknown unit '.5M'" },
	{ "0x10", BW, 0, "unknown unit 'x10'" },
	{ "1e6", IOPS, 0, "unknown unit 'e6'" },
	/* junk suffixes */
	{ "8XB/s", BW, 0, "unknown unit 'XB'" },
	{ "8MiB/m", BW, 0, "unknown unit 'MiB/m'" },
	{ "8MiB/s/s", BW, 0, "unknown unit" },
	{ "8/s/s", IOPS, 0, "unknown unit" },
	{ "8iB", BW, 0, "unknown unit 'iB'" },
	{ "8Mi", BW, 0, "unknown unit 'Mi'" },
	{ "8MiB", IOPS, 0, "unknown unit 'MiB'" },
	{ "8P", BW, 0, "unknown unit 'P'" },
	{ "8T", IOPS, 0, "unknown unit 'T'" },
	{ "8B", IOPS, 0, "unknown unit 'B'" },
	{ "/s", BW, 0, "whole number" },
	{ "k", IOPS, 0, "whole number" },
	{ "16MiB/s", BYTES, 0, "takes no '/s'" },
	{ "100/s", OPS, 0, "takes no '/s'" },
	{ "8M\n", BW, 0, "unknown unit 'M\\x0a'" },
	{ "8\xc3\xa9", BW, 0, "unknown unit '\xc3\xa9'" },
	{ "8\xff", BW, 0, "unknown unit '\\xff'" },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		char why[256] = "";
		int rc = blockio_parse_quantity(cases[i].in, cases[i].q, &v,
						why, sizeof(why));

		if (cases[i].want) {
			CHECKF(rc == 0 && v == cases[i].want,
			       "'%s' (q=%d): rc=%d v=%" PRIu64 " want %" PRIu64 " (%s)",
			       cases[i].in, (int)cases[i].q, rc, v,
			       cases[i].want, why);
		} else {
			CHECKF(rc == -1 && strstr(why, cases[i].why) &&
			       v == 12345,
			       "'%s' (q=%d): rc=%d why='%s' want '%s'",
			       cases[i].in, (int)cases[i].q, rc, why,
			       cases[i].why);
		}
	}
	/* a very long junk suffix is cut in the reason */
	{
		char in[300], why[128];
		uint64_t v;

		memset(in, 'x', sizeof(in));
		in[0] = '1';
		in[sizeof(in) - 1] = '\0';
		CHECK(blockio_parse_quantity(in, BW, &v, why, sizeof(why)) == -1);
		CHECK(strlen(why) < 80);
	}
	return check_done("test-units");
}
