// SPDX-License-Identifier: GPL-2.0
/*
 * scatter-read DEV SECONDS [IOVECS]: O_DIRECT preadv() of DEV in requests of
 * IOVECS (default 256) buffers of 512 bytes, each at the start of a page of
 * its own, sequentially from offset 0 (wrapping at 64 MiB), for SECONDS.
 * Prints the requests made.
 *
 * A request of that shape is one bio of IOVECS segments, which a disk
 * that takes no gap between segments (NVMe, null_blk virt_boundary=1)
 * gets as IOVECS requests: an IOPS cap must count those, not the bio.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "now.h"

#define SPAN (64L << 20)

int main(int argc, char **argv)
{
	long secs, n = 256, i, reqs = 0;
	struct iovec *iov;
	double t0;
	off_t off = 0;
	char *buf;
	int fd;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: scatter-read DEV SECONDS [IOVECS]\n");
		return 2;
	}
	secs = strtol(argv[2], NULL, 10);
	if (argc == 4)
		n = strtol(argv[3], NULL, 10);
	if (secs <= 0 || n <= 0 || n > IOV_MAX) {
		fprintf(stderr, "scatter-read: SECONDS > 0, IOVECS in 1..%d\n", IOV_MAX);
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0) {
		fprintf(stderr, "scatter-read: open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	iov = calloc(n, sizeof(*iov));
	if (!iov || posix_memalign((void **)&buf, 4096, n * 4096)) {
		fprintf(stderr, "scatter-read: out of memory\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		iov[i].iov_base = buf + i * 4096;
		iov[i].iov_len = 512;
	}
	t0 = now();
	while (now() - t0 < secs) {
		if (preadv(fd, iov, n, off) != n * 512) {
			fprintf(stderr, "scatter-read: preadv: %s\n", strerror(errno));
			return 1;
		}
		reqs++;
		off = (off + n * 512) % SPAN;
	}
	printf("%ld\n", reqs);
	return 0;
}
