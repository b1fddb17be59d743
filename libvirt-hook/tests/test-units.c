// SPDX-License-Identifier: GPL-2.0
/* test-units.c - "8MiB/s", "500", "10k": blockio_parse_quantity(). */
#include <inttypes.h>

#include "units.h"
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
	{ "-1", BW, 0, "does not start with a digit" },
	{ "+1", BW, 0, "does not start with a digit" },
	{ "", BW, 0, "empty" },
	{ " 8M", BW, 0, "does not start with a digit" },
	{ "8M ", BW, 0, "unknown unit" },
	{ "8 M", BW, 0, "unknown unit" },
	/* fractions: the same amount as a whole number of a smaller unit */
	{ "1.5M", BW, 0, "a fraction is not accepted: write 1536KiB;" },
	{ "1.5MiB/s", BW, 0, "a fraction is not accepted: write 1536KiB/s;" },
	{ ".5MiB", BW, 0, "a fraction is not accepted: write 512KiB;" },
	{ "0.5GB/s", BW, 0, "write 500MB/s;" },
	{ "2.5", BW, 0, "use a whole number of a smaller unit" },
	{ "1.0000000000001T", BW, 0, "use a whole number of a smaller unit" },
	{ "1.3M", BW, 0, "use a whole number of a smaller unit" },
	{ "1.5XB", BW, 0, "use a whole number of a smaller unit" },
	{ "1.5k", IOPS, 0, "write 1500;" },
	{ "2.5k/s", IOPS, 0, "write 2500/s;" },
	{ "0.5", IOPS, 0, "use a whole number" },
	{ "1.5M", IOPS, 0, "write 1500k;" },
	{ "1.5G", IOPS, 0, "use a whole number" },	/* over 1G/s */
	{ "1.5T", BW, 0, "use a whole number" },	/* over 1TiB/s */
	{ "99999999999999999999.5T", BW, 0, "use a whole number" },
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
	{ "/s", BW, 0, "does not start with a digit" },
	{ "k", IOPS, 0, "does not start with a digit" },
	{ "MiB/S", BW, 0, "does not start with a digit" },
	/* '/s' is lower case, the unit any case */
	{ "8MiB/S", BW, 0, "unknown unit 'MiB/S': write '/s' in lower case" },
	{ "8/S", IOPS, 0, "unknown unit '/S': write '/s' in lower case" },
	{ "8XB/S", BW, 0, "unknown unit 'XB/S'; expected" },
	{ "16MiB/s", BYTES, 0, "takes no '/s'" },
	{ "100/s", OPS, 0, "takes no '/s'" },
	{ "8M\n", BW, 0, "unknown unit 'M\\x0a'" },
	{ "8\xc3\xa9", BW, 0, "unknown unit '\xc3\xa9'" },
	{ "8\xff", BW, 0, "unknown unit '\\xff'" },
	/* every unit error lists what is accepted */
	{ "8XB/s", BW, 0, "'XB'; expected a whole number of bytes, then an optional unit: B; K, M, G, T or KiB, MiB, GiB, TiB (x1024); KB, MB, GB, TB (x1000); any case; then an optional '/s'" },
	{ "8MiB", IOPS, 0, "'MiB'; expected a whole number of operations, then an optional k, m or g (x1000), then an optional '/s'" },
	{ "16MiB/s", BYTES, 0, "takes no '/s'; expected a whole number of bytes, then an optional unit: B; K, M, G, T or KiB, MiB, GiB, TiB (x1024); KB, MB, GB, TB (x1000); any case: e.g. 64MiB" },
	{ "2x", OPS, 0, "'x'; expected a whole number of operations, then an optional k, m or g (x1000): e.g. 1000, 2k" },
	{ "", IOPS, 0, "empty value; expected a whole number of operations" },
};

/* blockio_format_quantity(): the shortest exact form, and back. */
static const struct {
	uint64_t v;
	enum blockio_quantity q;
	const char *want;
} formats[] = {
	{ 8ULL << 20, BW, "8MiB/s" },
	{ 8000000, BW, "8MB/s" },
	{ 1536 * 1024, BW, "1536KiB/s" },
	{ 1048577, BW, "1048577B/s" },
	{ 1, BW, "1B/s" },
	{ 1000, BYTES, "1KB" },
	{ 1024, BYTES, "1KiB" },
	{ 1ULL << 40, BW, "1TiB/s" },
	{ 2000000000ULL, BYTES, "2GB" },	/* not 1953125KiB */
	{ 3ULL << 30, BYTES, "3GiB" },
	{ 64ULL << 20, BYTES, "64MiB" },
	{ 500, IOPS, "500/s" },
	{ 10000, IOPS, "10k/s" },
	{ 1000000000, IOPS, "1G/s" },
	{ 2500000, OPS, "2500k" },
	{ 7, OPS, "7" },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		char why[512] = "";
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
		/* 40 of the 298 x, then "..." */
		CHECK_CONTAINS(why, "unknown unit 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'");
		CHECK(strlen(why) < sizeof(why));
	}
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		char text[64], why[512] = "";
		uint64_t v = 0;

		blockio_format_quantity(formats[i].v, formats[i].q, text, sizeof(text));
		CHECK_STR(text, formats[i].want);
		CHECKF(blockio_parse_quantity(text, formats[i].q, &v, why, sizeof(why)) == 0 &&
		       v == formats[i].v, "'%s' parses to %" PRIu64 " (%s)", text, v, why);
	}
	return check_done("test-units");
}
