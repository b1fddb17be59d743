// SPDX-License-Identifier: GPL-2.0
/*
 * rule-fuzz [-n WRITES] [-s SEED] CGROUP PATH...: write WRITES (default
 * 100000) mutated rules to CGROUP/blockio.bandwidth-max and
 * CGROUP/blockio.iops-max and check each answer against the grammar of
 * Documentation/admin-guide/cgroup-v1/blockio.rst, 3.1:
 *
 *   DEV:LIMIT[:STRATEGY[:BUCKET_SIZE]]
 *
 * two to four fields, DEV a non-empty path, the others unsigned decimal
 * numbers (digits only, leading zeros allowed), STRATEGY 0 or 1, LIMIT
 * and BUCKET_SIZE at most 2^62 - 1 units (iops-max: after scaling by
 * 1000; the bound is BLOCKIO_MAX_UNITS, the document only says "too
 * large"); anything else EINVAL.  Whitespace around the whole rule
 * (" \t\n\v\f\r", echo's newline) is tolerated.  Then DEV: no such path
 * ENODEV, not a block device (or on a nodev mount, or a path error other
 * than ENOENT) EINVAL, a device number with no device behind it ENODEV; a
 * partition stands for its whole disk.  LIMIT 0 deletes the cap.  A write
 * longer than a page is refused by kernfs with E2BIG before blockio sees
 * it (tolerated, counted).
 *
 * After every write the written file is read back and compared with a
 * model of the accepted rules (LIMIT, STRATEGY, BUCKET_SIZE; an idle
 * cgroup's leaky bucket has no backlog, a token bucket is full); the
 * other file every 16 writes and after every accepted write.  CGROUP must
 * have no tasks.  PATH...: device paths the generator starts from (block
 * devices, partitions, aliases, and paths that are not block devices).
 *
 * The strings never contain upper-case letters or '#', so that the
 * kernel's "invalid rule" message cannot look like a splat (BUG:, Oops).
 * Prints the seed first: -s SEED reproduces the run.  Exit status 1 if any
 * answer or read-back disagreed with the document.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "now.h"

#define MAX_UNITS ((uint64_t)INT64_MAX / 2)	/* BLOCKIO_MAX_UNITS */
#define PAGE 4096
#define MAX_DEVS 64
#define MAX_PATHS 64
#define SHOW 3		/* disagreements printed in full, of each kind */

enum { BW, IOPS, NFILES };
static const char *const file_name[NFILES] = { "blockio.bandwidth-max", "blockio.iops-max" };

struct cap {
	bool set;
	uint64_t limit, size;
	int strategy;
	int64_t floor;	/* a token bucket's balance is at least this */
};

/* The model: what the cgroup's rule files must show, per whole disk. */
static struct {
	dev_t dev;
	struct cap cap[NFILES];
} model[MAX_DEVS];
static int nmodel;

/* Starting paths; those whose device is absent cost a modprobe: rare. */
static const char *paths[MAX_PATHS], *absent_paths[MAX_PATHS];
static int npaths, nabsent;

static uint64_t rng;

static uint64_t rnd(void)	/* splitmix64 */
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n)
{
	return rnd() % n;
}

/* A random byte that cannot make the kernel log look like a splat. */
static char safe_byte(void)
{
	unsigned char c = below(256);

	if ((c >= 'A' && c <= 'Z') || c == '#')
		c = 'x';
	return (char)c;
}

struct buf {
	char s[2 * PAGE];
	size_t len;
};

static void put(struct buf *b, const char *s, size_t n)
{
	size_t room = b->len < sizeof(b->s) ? sizeof(b->s) - b->len : 0;

	if (n > room)
		n = room;
	memcpy(b->s + b->len, s, n);
	b->len += n;
}

static void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

static void insert(struct buf *b, size_t at, const char *s, size_t n)
{
	if (b->len + n > sizeof(b->s))
		return;
	memmove(b->s + at + n, b->s + at, b->len - at);
	memcpy(b->s + at, s, n);
	b->len += n;
}

static const char *const boundary[] = {
	"0", "1", "00", "007", "512", "4096", "1048576", "1073741824",
	"4611686018427387903",	/* the largest LIMIT */
	"4611686018427387904",
	"4611686018427387",	/* the largest iops LIMIT */
	"4611686018427388",
	"9223372036854775807", "9223372036854775808",
	"18446744073709551615", "18446744073709551616",
	"99999999999999999999999", "-1", "+1", "1.5", "1e3", "0x10", " 1", "",
};

static void number(struct buf *b)
{
	char n[32];

	switch (below(6)) {
	case 0:
		puts_(b, boundary[below(sizeof(boundary) / sizeof(boundary[0]))]);
		return;
	case 1:
		snprintf(n, sizeof(n), "%" PRIu64, below(10));
		break;
	case 2:
		snprintf(n, sizeof(n), "%" PRIu64, below(1 << 24));
		break;
	case 3:
		snprintf(n, sizeof(n), "%" PRIu64, rnd() >> below(64));
		break;
	default:
		snprintf(n, sizeof(n), "%" PRIu64, 1 + below(1 << 30));
		break;
	}
	puts_(b, n);
}

static const char *pick_path(void)
{
	if (nabsent && below(2000) == 0)
		return absent_paths[below(nabsent)];
	return paths[below(npaths)];
}

/* DEV:LIMIT[:STRATEGY[:BUCKET_SIZE]], mostly well formed. */
static void rule(struct buf *b)
{
	static const char *const strategy[] = { "0", "1", "0", "1", "2", "00", "01", "" };
	int fields = 2 + below(3);

	if (below(20) == 0)
		fields = below(2) ? 1 : 5 + below(3);
	if (below(30) == 0) {	/* MAJOR:MINOR, as cgroup v2 files take */
		char n[32];

		snprintf(n, sizeof(n), "%" PRIu64 ":%" PRIu64, below(300), below(64));
		puts_(b, n);
	} else {
		puts_(b, pick_path());
	}
	for (int i = 1; i < fields; i++) {
		puts_(b, ":");
		if (i == 2 && below(3))
			puts_(b, strategy[below(sizeof(strategy) / sizeof(strategy[0]))]);
		else
			number(b);
	}
	if (below(2))
		puts_(b, "\n");
}

static void mutate(struct buf *b)
{
	static const char ws[] = { ' ', '\t', '\n', '\r', '\v', '\f', (char)0xa0 };
	size_t at = b->len ? below(b->len + 1) : 0;
	char c;

	switch (below(13)) {
	case 0:
		if (b->len)
			b->s[below(b->len)] = safe_byte();
		break;
	case 1:
		c = safe_byte();
		insert(b, at, &c, 1);
		break;
	case 2:
		if (at < b->len) {
			memmove(b->s + at, b->s + at + 1, b->len - at - 1);
			b->len--;
		}
		break;
	case 3:
		insert(b, at, ":", 1);
		break;
	case 4:
		insert(b, at, "", 1);	/* an embedded NUL */
		break;
	case 5:
		insert(b, at, &ws[below(sizeof(ws))], 1);
		break;
	case 6:	/* a sign before a number */
		for (size_t i = 0; i < b->len; i++)
			if (b->s[i] == ':' && i + 1 < b->len && b->s[i + 1] >= '0' && b->s[i + 1] <= '9') {
				insert(b, i + 1, below(2) ? "+" : "-", 1);
				break;
			}
		break;
	case 7:	/* leading zeros */
		for (size_t i = 0; i < b->len; i++)
			if (b->s[i] == ':' && below(2)) {
				insert(b, i + 1, "0000000000000000000000000", 1 + below(25));
				break;
			}
		break;
	case 8:
		b->len = at;
		break;
	case 9:
		if (at < b->len) {
			char tmp[64];
			size_t n = below(b->len - at < sizeof(tmp) ? b->len - at : sizeof(tmp)) + 1;

			memcpy(tmp, b->s + at, n);
			insert(b, below(b->len + 1), tmp, n);
		}
		break;
	case 10:
		puts_(b, ":");
		number(b);
		break;
	case 11:
		insert(b, 0, &ws[below(sizeof(ws))], 1);
		put(b, &ws[below(sizeof(ws))], 1);
		break;
	case 12:	/* a newline after a number, inside the rule */
		for (size_t i = 0; i + 1 < b->len; i++)
			if (b->s[i] >= '0' && b->s[i] <= '9' && b->s[i + 1] == ':') {
				insert(b, i + 1, "\n", 1);
				break;
			}
		break;
	}
}

static void generate_any(struct buf *b);

/* Longer than usual: padded paths and numbers around the page size. */
static void overlong(struct buf *b)
{
	size_t target = 4000 + below(200);

	switch (below(3)) {
	case 0:	/* /dev///...//vdb:LIMIT: a valid path while it fits */
		puts_(b, "/dev");
		while (b->len < target - 16)
			puts_(b, "/");
		puts_(b, strrchr(paths[0], '/'));
		puts_(b, ":1048576");
		break;
	case 1:	/* LIMIT with thousands of leading zeros */
		puts_(b, paths[0]);
		puts_(b, ":");
		while (b->len < target - 8)
			puts_(b, "0");
		puts_(b, "1048576");
		break;
	default:
		while (b->len < target)
			put(b, (char[]){ safe_byte() }, 1);
		break;
	}
}

/* A write of nothing is no rule (the kernel returns 0): never empty. */
static void generate(struct buf *b)
{
	generate_any(b);
	if (!b->len)
		puts_(b, "\n");
}

static void generate_any(struct buf *b)
{
	b->len = 0;
	switch (below(20)) {
	case 0:
	case 1:	/* random bytes */
		for (size_t n = 1 + below(80); n; n--)
			put(b, (char[]){ safe_byte() }, 1);
		break;
	case 2:	/* the rule's own alphabet */
		for (size_t n = 1 + below(40); n; n--)
			put(b, &"0123456789::::/devb+- \n\t"[below(24)], 1);
		break;
	case 3:
		if (below(4) == 0) {
			overlong(b);
			break;
		}
		/* fall through */
	default:
		rule(b);
		if (below(10) < 6)
			for (int m = 1 + below(3); m; m--)
				mutate(b);
		break;
	}
}

/* --- the document's grammar ------------------------------------------- */

struct expect {
	int err;		/* 0: accepted */
	dev_t dev;		/* whole disk */
	struct cap cap;		/* cap.limit 0: delete */
};

static bool ascii_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* Digits only, no overflow. */
static bool decimal(const char *s, size_t n, uint64_t *v)
{
	*v = 0;
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (*v > (UINT64_MAX - (s[i] - '0')) / 10)
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

/* The whole disk behind a block device number, from sysfs; false if none. */
static bool whole_disk(dev_t rdev, dev_t *disk)
{
	static struct known { dev_t dev, disk; bool present; } cache[MAX_DEVS];
	static int ncache;
	char p[PATH_MAX + 16], real[PATH_MAX];
	unsigned int ma, mi;
	bool present = false;
	FILE *f;

	for (int i = 0; i < ncache; i++)
		if (cache[i].dev == rdev) {
			*disk = cache[i].disk;
			return cache[i].present;
		}
	*disk = rdev;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	if (realpath(p, real)) {
		present = true;
		snprintf(p, sizeof(p), "%s/partition", real);
		if (access(p, F_OK) == 0) {
			snprintf(p, sizeof(p), "%s/../dev", real);
			f = fopen(p, "r");
			if (f && fscanf(f, "%u:%u", &ma, &mi) == 2)
				*disk = makedev(ma, mi);
			if (f)
				fclose(f);
		}
	}
	if (ncache < MAX_DEVS)
		cache[ncache++] = (struct known){ rdev, *disk, present };
	return present;
}

static void expect_rule(const struct buf *b, int file, struct expect *e)
{
	const char *s = b->s, *end = b->s + b->len, *f[5];
	size_t n[5];
	uint64_t v[4] = { 0, 0, 0, 0 };
	int nf = 0;
	char path[PAGE + 1];
	struct stat st;
	struct statvfs sv;

	memset(e, 0, sizeof(*e));
	e->err = EINVAL;
	if (b->len > PAGE) {
		e->err = E2BIG;
		return;
	}
	if (memchr(s, '\0', b->len))
		return;
	while (s < end && ascii_space(*s))
		s++;
	while (end > s && ascii_space(end[-1]))
		end--;
	for (const char *p = s;; p++) {
		if (p == end || *p == ':') {
			if (nf == 5)
				return;
			f[nf] = s;
			n[nf++] = p - s;
			s = p + 1;
			if (p == end)
				break;
		}
	}
	if (nf < 2 || nf > 4 || !n[0])
		return;
	for (int i = 1; i < nf; i++)
		if (!decimal(f[i], n[i], &v[i]))
			return;
	if (nf > 2 && v[2] > 1)
		return;
	if (file == IOPS) {
		if (v[1] > MAX_UNITS / 1000 || v[3] > MAX_UNITS / 1000)
			return;
		v[1] *= 1000;
		v[3] *= 1000;
	}
	if (v[1] > MAX_UNITS || v[3] > MAX_UNITS)
		return;
	e->cap.limit = v[1];
	e->cap.strategy = (int)v[2];
	e->cap.size = e->cap.strategy ? (v[3] ? v[3] : v[1]) : 0;

	memcpy(path, f[0], n[0]);
	path[n[0]] = '\0';
	if (stat(path, &st)) {
		e->err = errno == ENOENT ? ENODEV : EINVAL;
		return;
	}
	if (!S_ISBLK(st.st_mode))
		return;
	if (statvfs(path, &sv) == 0 && (sv.f_flag & ST_NODEV))
		return;
	if (!whole_disk(st.st_rdev, &e->dev)) {
		e->err = ENODEV;
		return;
	}
	e->err = 0;
}

static struct cap *model_cap(dev_t dev, int file, bool create)
{
	for (int i = 0; i < nmodel; i++)
		if (model[i].dev == dev)
			return &model[i].cap[file];
	if (!create || nmodel == MAX_DEVS)
		return NULL;
	model[nmodel].dev = dev;
	return &model[nmodel++].cap[file];
}

static void model_apply(int file, const struct expect *e)
{
	struct cap *c = model_cap(e->dev, file, e->cap.limit != 0);

	int64_t floor = (int64_t)e->cap.size;

	if (!c)
		return;
	/*
	 * Nobody in the cgroup does I/O, so a token bucket is full or filling
	 * up: a new one starts full, an updated one keeps its balance cut to
	 * the new size (blockio_bucket_update()) and refills from there.
	 */
	if (c->set && c->strategy == 1 && e->cap.strategy == 1 && c->floor < floor)
		floor = c->floor;
	*c = e->cap;
	c->set = e->cap.limit != 0;
	c->floor = c->strategy == 1 ? floor : 0;
}

/* --- reading back ------------------------------------------------------ */

static int rfd[NFILES];

/* "" if FILE shows exactly the model, else what is wrong. */
static const char *check_file(int file)
{
	static char why[256], text[64 * 1024];
	bool seen[MAX_DEVS] = { false };
	ssize_t len = 0, r;
	char *line, *save;

	if (lseek(rfd[file], 0, SEEK_SET) < 0)
		return strerror(errno);
	while ((r = read(rfd[file], text + len, sizeof(text) - 1 - len)) > 0)
		len += r;
	if (r < 0)
		return strerror(errno);
	text[len] = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned int ma, mi;
		unsigned long long limit, leaky, size, delta;
		long long fill;
		int strategy, idx = -1;
		struct cap *c;

		if (sscanf(line, "%u %u %llu %d %llu %llu %lld %llu", &ma, &mi, &limit, &strategy,
			   &leaky, &size, &fill, &delta) != 8) {
			snprintf(why, sizeof(why), "unreadable line \"%.80s\"", line);
			return why;
		}
		for (int i = 0; i < nmodel; i++)
			if (model[i].dev == makedev(ma, mi))
				idx = i;
		c = idx < 0 ? NULL : &model[idx].cap[file];
		if (!c || !c->set) {
			snprintf(why, sizeof(why), "a rule nobody set or that was deleted: \"%.80s\"", line);
			return why;
		}
		if (seen[idx]) {
			snprintf(why, sizeof(why), "two lines for %u:%u", ma, mi);
			return why;
		}
		seen[idx] = true;
		if (limit != c->limit || strategy != c->strategy || size != c->size) {
			snprintf(why, sizeof(why),
				 "\"%.80s\": want limit %" PRIu64 " strategy %d size %" PRIu64,
				 line, c->limit, c->strategy, c->size);
			return why;
		}
		/* nobody in the cgroup does I/O: no backlog, no debt */
		if (leaky || fill < c->floor || fill > (long long)c->size) {
			snprintf(why, sizeof(why),
				 "\"%.80s\": an idle bucket with a backlog, or a balance out of [%" PRId64
				 ", %" PRIu64 "]", line, c->floor, c->size);
			return why;
		}
	}
	for (int i = 0; i < nmodel; i++)
		if (model[i].cap[file].set && !seen[i]) {
			snprintf(why, sizeof(why), "the rule for %u:%u is missing",
				 major(model[i].dev), minor(model[i].dev));
			return why;
		}
	return "";
}

/* Make the model what the kernel shows (after a disagreement was counted). */
static void model_reload(void)
{
	static char text[64 * 1024];

	for (int i = 0; i < nmodel; i++)
		memset(model[i].cap, 0, sizeof(model[i].cap));
	for (int file = 0; file < NFILES; file++) {
		ssize_t len = 0, r;
		char *line, *save;

		if (lseek(rfd[file], 0, SEEK_SET) < 0)
			continue;
		while ((r = read(rfd[file], text + len, sizeof(text) - 1 - len)) > 0)
			len += r;
		text[len > 0 ? len : 0] = '\0';
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			unsigned int ma, mi;
			unsigned long long limit, size;
			long long fill;
			int strategy;
			struct cap *c;

			if (sscanf(line, "%u %u %llu %d %*u %llu %lld", &ma, &mi, &limit, &strategy, &size,
				   &fill) != 6)
				continue;
			c = model_cap(makedev(ma, mi), file, true);
			if (c)
				*c = (struct cap){ true, limit, size, strategy, fill };
		}
	}
}

/* --- reporting ------------------------------------------------------------ */

static void escape(const struct buf *b, char *out, size_t size)
{
	size_t o = 0, i;

	/* room for the longest escape and the "...(N bytes)" tail */
	for (i = 0; i < b->len && o + 40 < size; i++) {
		unsigned char c = b->s[i];

		if (c == '\\' || c == '"')
			o += snprintf(out + o, size - o, "\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			out[o++] = c;
		else
			o += snprintf(out + o, size - o, "\\x%02x", c);
	}
	out[o] = '\0';
	if (i < b->len)
		snprintf(out + o, size - o, "...(%zu bytes)", b->len);
}

/*
 * What sets an input apart from the documented grammar, for the report:
 * the first of these it has, else "other".
 */
static const char *const class_name[] = {
	"embedded NUL", "plus sign", "byte 0xa0", "newline inside", "other",
};
#define NCLASS (sizeof(class_name) / sizeof(class_name[0]))

static unsigned int class_of(const struct buf *b)
{
	if (memchr(b->s, '\0', b->len))
		return 0;
	if (memchr(b->s, '+', b->len))
		return 1;
	if (memchr(b->s, (char)0xa0, b->len))
		return 2;
	for (size_t i = 0; i + 1 < b->len; i++)
		if (b->s[i] == '\n' && b->s[i + 1] == ':')
			return 3;
	return 4;
}

static const char *errname(int e)
{
	switch (e) {
	case 0: return "accepted";
	case EINVAL: return "EINVAL";
	case ENODEV: return "ENODEV";
	case E2BIG: return "E2BIG";
	default: return strerror(e);
	}
}

int main(int argc, char **argv)
{
	unsigned long long writes = 100000, i, got_n[5] = { 0 }, bad = 0, badread = 0;
	unsigned long long accepted[NFILES] = { 0 }, deletes = 0, by_class[NCLASS] = { 0 };
	int wfd[NFILES], opt;
	bool seeded = false;
	double t0;

	while ((opt = getopt(argc, argv, "n:s:")) != -1) {
		switch (opt) {
		case 'n':
			writes = strtoull(optarg, NULL, 10);
			break;
		case 's':
			rng = strtoull(optarg, NULL, 10);
			seeded = true;
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind < 2) {
usage:
		fprintf(stderr, "usage: rule-fuzz [-n WRITES] [-s SEED] CGROUP PATH...\n");
		return 2;
	}
	if (!seeded) {
		FILE *u = fopen("/dev/urandom", "r");

		if (!u || fread(&rng, sizeof(rng), 1, u) != 1) {
			perror("rule-fuzz: /dev/urandom");
			return 2;
		}
		fclose(u);
		rng %= 1000000000000ULL;	/* short enough to type */
	}
	printf("seed %" PRIu64 " (rule-fuzz -s %" PRIu64 " reproduces this run)\n", rng, rng);
	fflush(stdout);

	for (int f = 0; f < NFILES; f++) {
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/%s", argv[optind], file_name[f]);
		wfd[f] = open(p, O_WRONLY);
		rfd[f] = open(p, O_RDONLY);
		if (wfd[f] < 0 || rfd[f] < 0) {
			fprintf(stderr, "rule-fuzz: open %s: %s\n", p, strerror(errno));
			return 2;
		}
	}
	/* relative paths in the rules resolve from / in the kernel and here */
	if (chdir("/")) {
		perror("rule-fuzz: chdir /");
		return 2;
	}
	for (int a = optind + 1; a < argc && npaths < MAX_PATHS; a++) {
		struct stat st;
		dev_t disk;

		if (stat(argv[a], &st) == 0 && S_ISBLK(st.st_mode) && !whole_disk(st.st_rdev, &disk))
			absent_paths[nabsent++] = argv[a];
		else
			paths[npaths++] = argv[a];
	}
	if (!npaths || strncmp(paths[0], "/dev/", 5)) {
		fprintf(stderr, "rule-fuzz: the first PATH must be a present /dev/ block device\n");
		return 2;
	}
	for (int f = 0; f < NFILES; f++)
		if (*check_file(f)) {
			fprintf(stderr, "rule-fuzz: %s is not empty at the start\n", file_name[f]);
			return 2;
		}

	t0 = now();
	for (i = 0; i < writes; i++) {
		struct buf b;
		struct expect e;
		int file = below(NFILES), got;
		ssize_t r;
		const char *why;

		generate(&b);
		expect_rule(&b, file, &e);
		r = write(wfd[file], b.s, b.len);
		got = r == (ssize_t)b.len ? 0 : r < 0 ? errno : EIO;
		got_n[got == 0 ? 0 : got == EINVAL ? 1 : got == ENODEV ? 2 : got == E2BIG ? 3 : 4]++;
		if (got != e.err) {
			unsigned int c = class_of(&b);

			bad++;
			if (by_class[c]++ < SHOW) {
				char esc[512];

				escape(&b, esc, sizeof(esc));
				printf("write %llu to %s: \"%s\": want %s, got %s (%s)\n", i,
				       file_name[file], esc, errname(e.err), errname(got), class_name[c]);
			}
		}
		if (got == 0 && !e.err) {
			model_apply(file, &e);
			accepted[file]++;
			deletes += e.cap.limit == 0;
		} else if (got == 0) {
			/* accepted against the document (reported): follow the kernel */
			model_reload();
		}
		why = check_file(file);
		if (!*why && (got == 0 || i % 16 == 0))
			why = check_file(!file);
		if (*why) {
			char esc[512];

			escape(&b, esc, sizeof(esc));
			if (badread++ < SHOW)
				printf("read-back after write %llu \"%s\" (%s): %s\n", i, esc, errname(got), why);
			model_reload();
		}
	}
	printf("%llu writes in %.1f s: accepted %llu (bandwidth-max %llu, iops-max %llu, %llu deletes), "
	       "EINVAL %llu, ENODEV %llu, E2BIG %llu (longer than a page), other %llu\n",
	       i, now() - t0, got_n[0], accepted[0], accepted[1], deletes, got_n[1], got_n[2], got_n[3],
	       got_n[4]);
	printf("rules at the end: %d disks in the model\n", nmodel);
	printf("answers that differ from the document: %llu", bad);
	for (unsigned int c = 0; c < NCLASS; c++)
		printf("%s%s %llu", c ? ", " : " (", class_name[c], by_class[c]);
	printf(")\n");
	printf("read-backs that differ from the accepted rules: %llu\n", badread);
	return bad || badread ? 1 : 0;
}
