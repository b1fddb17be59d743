// SPDX-License-Identifier: GPL-2.0
/*
 * aio-eagain: submit O_DIRECT writes one at a time with io_submit() for a
 * while and report how many were refused with EAGAIN.
 *
 * Usage: aio-eagain DEVICE SECONDS BLOCK_SIZE
 * Prints: submitted=N eagain=N bytes=N seconds=S rate=B/s
 *         resubmitted_after_eagain=N
 * Raw syscalls: no libaio needed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "now.h"

int main(int argc, char **argv)
{
	unsigned long long submitted = 0, eagain = 0, bytes = 0, after = 0;
	aio_context_t ctx = 0;
	struct io_event ev[64];
	struct iocb cb, *cbs[1] = { &cb };
	double start, end, t;
	int fd, inflight = 0, seen_eagain = 0;
	size_t bs;
	void *buf;

	if (argc != 4) {
		fprintf(stderr, "usage: %s DEVICE SECONDS BLOCK_SIZE\n", argv[0]);
		return 2;
	}
	bs = strtoul(argv[3], NULL, 0);
	fd = open(argv[1], O_WRONLY | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, 4096, bs)) {
		perror(argv[1]);
		return 1;
	}
	memset(buf, 0x5a, bs);
	if (syscall(SYS_io_setup, 64, &ctx)) {
		perror("io_setup");
		return 1;
	}
	start = now();
	end = start + atof(argv[2]);
	while ((t = now()) < end) {
		long r;

		if (inflight == 64 || (inflight && seen_eagain)) {
			r = syscall(SYS_io_getevents, ctx, 1, 64, ev, NULL);
			if (r > 0)
				inflight -= r;
		}
		memset(&cb, 0, sizeof(cb));
		cb.aio_fildes = fd;
		cb.aio_lio_opcode = IOCB_CMD_PWRITE;
		cb.aio_buf = (uintptr_t)buf;
		cb.aio_nbytes = bs;
		cb.aio_offset = (off_t)((submitted * bs) % (1ULL << 30));
		r = syscall(SYS_io_submit, ctx, 1, cbs);
		if (r == 1) {
			submitted++;
			bytes += bs;
			inflight++;
			if (seen_eagain)
				after++;
			seen_eagain = 0;
		} else if (r < 0 && errno == EAGAIN) {
			eagain++;
			seen_eagain = 1;
			usleep(1000);
		} else {
			perror("io_submit");
			return 1;
		}
	}
	while (inflight > 0) {
		long r = syscall(SYS_io_getevents, ctx, 1, 64, ev, NULL);

		if (r > 0)
			inflight -= r;
	}
	t = now() - start;
	printf("submitted=%llu eagain=%llu bytes=%llu seconds=%.2f rate=%.0f resubmitted_after_eagain=%llu\n",
	       submitted, eagain, bytes, t, bytes / t, after);
	return 0;
}
