// SPDX-License-Identifier: GPL-2.0
/*
 * dio-mmap TARGET SOURCE MIB [KIB]: O_DIRECT-write MIB MiB to TARGET in
 * KIB KiB requests (default 1024), the user buffer being a read-only
 * MAP_SHARED mapping of SOURCE's page cache.  Prints the elapsed seconds.
 *
 * A direct write from a buffer that happens to be some file's page cache
 * is still direct I/O of the writer: blockio must charge it to the
 * writer's cgroup, not take it for that file's writeback.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "now.h"

int main(int argc, char **argv)
{
	long mib, kib = 1024;
	size_t bs, total, done = 0;
	int src, dst;
	double t0;
	char *buf;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: dio-mmap TARGET SOURCE MIB [KIB]\n");
		return 2;
	}
	mib = strtol(argv[3], NULL, 10);
	if (argc == 5)
		kib = strtol(argv[4], NULL, 10);
	if (mib <= 0 || kib <= 0 || kib % 4) {
		fprintf(stderr, "dio-mmap: MIB > 0, KIB a positive multiple of 4\n");
		return 2;
	}
	bs = (size_t)kib << 10;
	total = (size_t)mib << 20;

	src = open(argv[2], O_RDONLY);
	if (src < 0) {
		fprintf(stderr, "dio-mmap: open %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	buf = mmap(NULL, bs, PROT_READ, MAP_SHARED, src, 0);
	if (buf == MAP_FAILED) {
		fprintf(stderr, "dio-mmap: mmap %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	/* fault the buffer in: its pages are now the source's page cache */
	for (size_t i = 0; i < bs; i += 4096)
		(void)*(volatile char *)(buf + i);

	dst = open(argv[1], O_WRONLY | O_CREAT | O_DIRECT, 0644);
	if (dst < 0) {
		fprintf(stderr, "dio-mmap: open %s O_DIRECT: %s\n", argv[1], strerror(errno));
		return 1;
	}
	t0 = now();
	while (done < total) {
		ssize_t n = pwrite(dst, buf, bs, done);

		if (n < 0) {
			fprintf(stderr, "dio-mmap: write %s: %s\n", argv[1], strerror(errno));
			return 1;
		}
		done += n;
	}
	printf("%.2f\n", now() - t0);
	close(dst);
	munmap(buf, bs);
	close(src);
	return 0;
}
