// SPDX-License-Identifier: GPL-2.0
/*
 * fsync-lat FILE MIB ROUNDS: ROUNDS times, write MIB MiB to FILE through
 * the page cache (1 MiB writes, from the start of FILE each round) and
 * fsync() it.  Prints "round N write_ms W fsync_ms F" per round, then
 * "median_fsync_ms M" and "max_fsync_ms X".
 *
 * An fsync() waits for the file's own writeback and for the journal
 * commit that carries its metadata; a commit that waits for another
 * cgroup's writeback held by kiothrottled shows here as seconds, where
 * the time of a whole dd run hides it in the guest's CPU noise.  Each
 * call is timed by itself, not a process started from a shell.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "now.h"

#define MIB (1L << 20)

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long mib, rounds, *lat;
	static char buf[MIB];
	double t0, t1;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: fsync-lat FILE MIB ROUNDS\n");
		return 2;
	}
	mib = strtol(argv[2], NULL, 10);
	rounds = strtol(argv[3], NULL, 10);
	if (mib <= 0 || rounds <= 0 || rounds > 10000) {
		fprintf(stderr, "fsync-lat: MIB > 0, 0 < ROUNDS <= 10000\n");
		return 2;
	}
	lat = calloc(rounds, sizeof(*lat));
	fd = open(argv[1], O_WRONLY | O_CREAT, 0644);
	if (!lat || fd < 0) {
		fprintf(stderr, "fsync-lat: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	memset(buf, 0x5a, sizeof(buf));
	for (long r = 0; r < rounds; r++) {
		t0 = now();
		for (long i = 0; i < mib; i++) {
			if (pwrite(fd, buf, MIB, i * MIB) != MIB) {
				fprintf(stderr, "fsync-lat: write: %s\n", strerror(errno));
				return 1;
			}
		}
		t1 = now();
		if (fsync(fd)) {
			fprintf(stderr, "fsync-lat: fsync: %s\n", strerror(errno));
			return 1;
		}
		lat[r] = (long)((now() - t1) * 1000);
		printf("round %ld write_ms %ld fsync_ms %ld\n", r,
		       (long)((t1 - t0) * 1000), lat[r]);
	}
	qsort(lat, rounds, sizeof(*lat), cmp_long);
	printf("median_fsync_ms %ld\nmax_fsync_ms %ld\n", lat[rounds / 2],
	       lat[rounds - 1]);
	return 0;
}
