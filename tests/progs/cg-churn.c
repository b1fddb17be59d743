// SPDX-License-Identifier: GPL-2.0
/*
 * cg-churn [-n CGROUPS] [-w ALIVE] [-d PAUSE_MS] [-s SEED] HIERARCHY DEV
 * PID...: create CGROUPS (default 1000) blockio cgroups
 * HIERARCHY/test-churnN one after the other, PAUSE_MS (default 50) apart,
 * each with a bandwidth rule on DEV (128 KiB/s to 2 MiB/s, leaky or token
 * bucket) and half of them an IOPS rule (20 to 219/s), and remove them
 * again, ALIVE (default 8) alive at a time, while the writers
 * PID... move through them: cgroup N takes over everything that runs in
 * cgroup N - (number of PIDs), that is one writer and its children, so
 * what a writer dirtied is owned by cgroups that go away while
 * kiothrottled holds their writeback.  Before its rmdir a cgroup keeps
 * its rules, has them deleted, or has its bandwidth rule updated (chosen
 * at random); a task still in it is moved to the root first.
 *
 * Prints the seed (-s SEED repeats the choices), the time each kind of
 * operation took at most (a rule write, a move or an rmdir that waits for
 * held I/O would show there) and the most kiothrottled held (sampled every
 * 25 cgroups), and how many cgroups were removed while it held bios
 * charged to them (the race this is about).  Exit status 1 if an
 * operation failed or a writer vanished.
 * In C because a shell forks for every mkdir and rmdir, 0.2 s each in a
 * TCG guest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "now.h"

enum { MKDIR, RULES, MOVE, RMDIR, NOPS };
static const char *const op_name[NOPS] = { "mkdir", "rule writes", "moves", "rmdir" };
static double op_max[NOPS];
static const char *root;
static uint64_t rng;

static uint64_t rnd(void)	/* splitmix64 */
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void took(int op, double t0)
{
	double t = now() - t0;

	if (t > op_max[op])
		op_max[op] = t;
}

static void cg_path(char *p, size_t n, unsigned long i, const char *file)
{
	snprintf(p, n, "%s/test-churn%lu%s%s", root, i, file ? "/" : "", file ? file : "");
}

/* Write S to FILE of cgroup I; 0, or errno (and says so). */
static int cg_write(unsigned long i, const char *file, const char *s)
{
	char p[PATH_MAX];
	int fd, ret = 0;

	cg_path(p, sizeof(p), i, file);
	fd = open(p, O_WRONLY);
	if (fd < 0 || write(fd, s, strlen(s)) < 0) {
		ret = errno;
		fprintf(stderr, "cg-churn: write \"%.*s\" to %s: %s\n", (int)strcspn(s, "\n"), s, p,
			strerror(ret));
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * Move every task of cgroup FROM into TO (a cgroup number, or -1 for the
 * root).  Returns how many moved, -1 on an error other than a task gone.
 */
static long move_all(unsigned long from, long to)
{
	char p[PATH_MAX], line[32];
	long moved = 0;
	FILE *f;
	int fd;

	if (to < 0)
		snprintf(p, sizeof(p), "%s/cgroup.procs", root);
	else
		cg_path(p, sizeof(p), to, "cgroup.procs");
	fd = open(p, O_WRONLY);
	cg_path(p, sizeof(p), from, "cgroup.procs");
	f = fopen(p, "r");
	if (fd < 0 || !f) {
		fprintf(stderr, "cg-churn: open for a move: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
		if (f)
			fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (write(fd, line, strlen(line)) >= 0)
			moved++;
		else if (errno != ESRCH) {
			fprintf(stderr, "cg-churn: move %s", line);
			moved = -1;
			break;
		}
	}
	fclose(f);
	close(fd);
	return moved;
}

/*
 * Bytes kiothrottled holds now (CGROUP MAJOR:MINOR SECTOR BYTES MS), for
 * cgroup test-churnI, or for anybody if I is -1.
 */
static unsigned long long held(long i)
{
	unsigned long long sum = 0, bytes;
	char line[512], cg[64], want[64];
	FILE *f = fopen("/proc/kiothrottled_debug", "r");

	if (!f)
		return 0;
	snprintf(want, sizeof(want), "/test-churn%ld", i);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %*s %*s %llu", cg, &bytes) == 2 && (i < 0 || !strcmp(cg, want)))
			sum += bytes;
	fclose(f);
	return sum;
}

static unsigned long removed_holding;	/* rmdirs while bios were held for it */

/* Empty cgroup I into the root and remove it; 0 or -1. */
static int remove_cg(unsigned long i, unsigned long *retries)
{
	char p[PATH_MAX];
	double t0;

	removed_holding += held(i) > 0;
	t0 = now();
	cg_path(p, sizeof(p), i, NULL);
	for (int try = 0; try < 200; try++) {
		if (move_all(i, -1) < 0)
			return -1;
		if (rmdir(p) == 0) {
			took(RMDIR, t0);
			return 0;
		}
		if (errno != EBUSY)
			break;
		/* a writer forked into it meanwhile, or a task is still exiting */
		(*retries)++;
		usleep(10000);
	}
	fprintf(stderr, "cg-churn: rmdir %s: %s\n", p, strerror(errno));
	return -1;
}

int main(int argc, char **argv)
{
	unsigned long n = 1000, alive = 8, pause_ms = 50, i, kept = 0, deleted = 0, updated = 0;
	unsigned long retries = 0;
	unsigned long long held_max = 0, h;
	unsigned long npids;
	const char *dev;
	char rule[PATH_MAX + 64], p[PATH_MAX];
	int opt, fails = 0;
	double t0, start;

	while ((opt = getopt(argc, argv, "n:w:d:s:")) != -1) {
		switch (opt) {
		case 'n':
			n = strtoul(optarg, NULL, 10);
			break;
		case 'd':
			pause_ms = strtoul(optarg, NULL, 10);
			break;
		case 'w':
			alive = strtoul(optarg, NULL, 10);
			break;
		case 's':
			rng = strtoull(optarg, NULL, 10);
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind < 3 || alive < 1) {
usage:
		fprintf(stderr, "usage: cg-churn [-n CGROUPS] [-w ALIVE] [-d PAUSE_MS] [-s SEED] HIERARCHY DEV PID...\n");
		return 2;
	}
	root = argv[optind];
	dev = argv[optind + 1];
	npids = argc - optind - 2;
	if (alive <= npids) {
		fprintf(stderr, "cg-churn: ALIVE must be larger than the number of PIDs\n");
		return 2;
	}
	if (!rng) {
		FILE *u = fopen("/dev/urandom", "r");

		if (!u || fread(&rng, sizeof(rng), 1, u) != 1) {
			perror("cg-churn: /dev/urandom");
			return 2;
		}
		fclose(u);
		rng %= 1000000000000ULL;
	}
	printf("seed %" PRIu64 " (cg-churn -s %" PRIu64 " repeats the choices)\n", rng, rng);
	fflush(stdout);

	start = now();
	for (i = 0; i < n && !fails; i++) {
		cg_path(p, sizeof(p), i, NULL);
		t0 = now();
		if (mkdir(p, 0755)) {
			fprintf(stderr, "cg-churn: mkdir %s: %s\n", p, strerror(errno));
			fails++;
			break;
		}
		took(MKDIR, t0);

		t0 = now();
		snprintf(rule, sizeof(rule), "%s:%" PRIu64 ":%" PRIu64, dev,
			 (128 + rnd() % 1920) << 10, rnd() % 2);
		fails += !!cg_write(i, "blockio.bandwidth-max", rule);
		if (rnd() % 2) {
			snprintf(rule, sizeof(rule), "%s:%" PRIu64, dev, 20 + rnd() % 200);
			fails += !!cg_write(i, "blockio.iops-max", rule);
		}
		took(RULES, t0);

		/* the next writer, with whatever it runs, moves in */
		t0 = now();
		if (i < npids) {
			snprintf(rule, sizeof(rule), "%s\n", argv[optind + 2 + i]);
			fails += !!cg_write(i, "cgroup.procs", rule);
		} else if (move_all(i - npids, i) <= 0) {
			fprintf(stderr, "cg-churn: nothing ran in test-churn%lu: a writer is gone\n",
				i - npids);
			fails++;
		}
		took(MOVE, t0);

		if (i >= alive) {
			unsigned long old = i - alive;

			switch (rnd() % 3) {
			case 0:
				kept++;
				break;
			case 1:
				deleted++;
				snprintf(rule, sizeof(rule), "%s:0", dev);
				fails += !!cg_write(old, "blockio.bandwidth-max", rule);
				fails += !!cg_write(old, "blockio.iops-max", rule);
				break;
			default:
				updated++;
				snprintf(rule, sizeof(rule), "%s:%d:1", dev, 8 << 20);
				fails += !!cg_write(old, "blockio.bandwidth-max", rule);
				break;
			}
			fails += !!remove_cg(old, &retries);
		}
		if (i % 25 == 0 && (h = held(-1)) > held_max)
			held_max = h;
		if (pause_ms)
			usleep(pause_ms * 1000);
	}
	/* the writers end in the root */
	for (unsigned long j = i > alive ? i - alive : 0; j < i; j++)
		fails += !!remove_cg(j, &retries);

	printf("%lu cgroups in %.1f s, %lu alive at a time; before rmdir: rules kept %lu, "
	       "deleted %lu, updated %lu; rmdir retried %lu times\n",
	       i, now() - start, alive, kept, deleted, updated, retries);
	printf("slowest:");
	for (int op = 0; op < NOPS; op++)
		printf("%s %s %.0f ms", op ? "," : "", op_name[op], op_max[op] * 1000);
	printf("\nheld at most %llu KiB (sampled every 25 cgroups); %lu cgroups removed while "
	       "kiothrottled held bios charged to them\n", held_max >> 10, removed_holding);
	if (fails)
		printf("%d operations failed\n", fails);
	return fails ? 1 : 0;
}
