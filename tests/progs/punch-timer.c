// SPDX-License-Identifier: GPL-2.0
/*
 * punch-timer FILE PID FROM TO TRUNC: while process PID lives, punch a
 * 1 MiB hole in FILE at FROM MiB, FROM+1 MiB, ... up to TO MiB, one every
 * 300 ms; then truncate FILE to TRUNC MiB.  Prints one line per call,
 * "punch OFFSET_MIB MS" or "truncate SIZE_MIB MS", then "slowest MS".
 *
 * Each call is timed around the system call alone: a shell's fork and
 * exec of fallocate(1) under TCG cost as much as what is measured (CI
 * once saw 508 ms against a 500 ms limit), and a test of "root never
 * waits for the capped reader's locks" must time root's waiting, not the
 * guest's process creation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "now.h"

#define MIB (1L << 20)

static long arg(const char *s, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0) {
		fprintf(stderr, "punch-timer: %s: not a non-negative integer: %s\n", what, s);
		exit(2);
	}
	return v;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	long pid, from, to, trunc, off, ms, slowest = 0;
	double t0;
	int fd;

	if (argc != 6) {
		fprintf(stderr, "usage: punch-timer FILE PID FROM_MIB TO_MIB TRUNC_MIB\n");
		return 2;
	}
	pid = arg(argv[2], "PID");
	from = arg(argv[3], "FROM_MIB");
	to = arg(argv[4], "TO_MIB");
	trunc = arg(argv[5], "TRUNC_MIB");
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "punch-timer: open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (off = from; off < to && kill((pid_t)pid, 0) == 0; off++) {
		t0 = now();
		if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      off * MIB, MIB)) {
			fprintf(stderr, "punch-timer: punch at %ld MiB: %s\n", off,
				strerror(errno));
			return 1;
		}
		ms = (long)((now() - t0) * 1000);
		printf("punch %ld %ld\n", off, ms);
		if (ms > slowest)
			slowest = ms;
		sleep_ms(300);
	}
	t0 = now();
	if (ftruncate(fd, trunc * MIB)) {
		fprintf(stderr, "punch-timer: truncate to %ld MiB: %s\n", trunc, strerror(errno));
		return 1;
	}
	ms = (long)((now() - t0) * 1000);
	printf("truncate %ld %ld\n", trunc, ms);
	if (ms > slowest)
		slowest = ms;
	printf("slowest %ld\n", slowest);
	return 0;
}
