// SPDX-License-Identifier: GPL-2.0
/*
 * l2-workload - the disk workload of the blockio L2 guest.
 *
 * Runs one workload against a block device (or a file) and prints exactly
 * one machine-readable line on stdout:
 *
 *   BLOCKIO-L2-RESULT mode=seq bytes=33554432 seconds=8.210 rate_kib=3991 ops=32 ... status=ok
 *
 * Modes:
 *   seq   sequential writes of --size bytes in --bs blocks, then fsync
 *   rand  random 4 KiB writes: --count ops, or for --duration seconds, then fsync;
 *         with --duration also prints progress lines every second (fsync_ms=0)
 *   loop  repeated sequential passes of --size for --duration seconds, fsync
 *         after each pass; prints
 *         "BLOCKIO-L2-PROGRESS t=S bytes=B rate_kib=R ops=N fsync_ms=F"
 *         every second so an observer outside the guest sees progress
 *         (F: how long the last pass's fsync took)
 *   read  sequential reads of --size bytes in --bs blocks
 *   trim  what mkfs and fstrim send a disk: over --size in --bs blocks, a
 *         discard (BLKDISCARD) then a write-zeroes (BLKZEROOUT) of each
 *         block, again and again for --duration seconds, with progress
 *         lines (bytes: zeroed; ops: ioctls, two per block)
 *
 * loop with --threads N (N > 1) writes from N threads, each its own slice
 * of --size, at once: with --direct 1 the device sees N requests of --bs
 * in flight, the deep queue of a tenant's database or backup job.
 *
 * --direct 1 opens with O_DIRECT (sizes must be 4 KiB multiples), --sync 1
 * with O_SYNC. Offsets wrap at the end of the device. Sizes take K, M, G
 * suffixes (powers of 1024).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/fs.h>

#define RAND_BS 4096u
#define ALIGN 4096u

struct opts {
	const char *mode;
	const char *dev;
	uint64_t size;
	uint64_t bs;
	uint64_t count;
	uint64_t threads;
	double duration;
	bool direct;
	bool sync;
};

struct result {
	uint64_t bytes;
	uint64_t ops;
	double seconds;
};

static const char *g_mode = "?";

/* Print the error result line (one word per value: spaces become '_') and exit 1. */
static void fail(const char *what, int err)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "%s:%s", what, err ? strerror(err) : "invalid");
	for (char *p = msg; *p; p++)
		if (*p == ' ')
			*p = '_';
	printf("BLOCKIO-L2-RESULT mode=%s status=error error=%s\n", g_mode, msg);
	fflush(stdout);
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return false;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	default: break;
	}
	if (*end == 'i' || *end == 'B')
		end++;
	if (*end == 'B')
		end++;
	if (*end)
		return false;
	*out = v;
	return true;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: l2-workload --mode seq|rand|loop|read|trim --dev PATH [--size N] [--bs N]\n"
		   "                   [--direct 0|1] [--sync 0|1] [--count N] [--duration S]\n"
		   "                   [--threads N]\n");
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	*o = (struct opts){ .mode = "seq", .dev = "/dev/vda", .size = 32u << 20, .bs = 1u << 20 };
	for (int i = 1; i < argc; i++) {
		const char *k = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t n;

		if (!strcmp(k, "-h") || !strcmp(k, "--help")) {
			usage(stdout);
			exit(0);
		}
		if (!v) {
			usage(stderr);
			fail("missing-value", 0);
		}
		i++;
		if (!strcmp(k, "--mode")) {
			o->mode = v;
		} else if (!strcmp(k, "--dev")) {
			o->dev = v;
		} else if (!strcmp(k, "--duration")) {
			char *end;
			o->duration = strtod(v, &end);
			if (*end || o->duration < 0)
				fail("duration", 0);
		} else if (parse_size(v, &n)) {
			if (!strcmp(k, "--size"))
				o->size = n;
			else if (!strcmp(k, "--bs"))
				o->bs = n;
			else if (!strcmp(k, "--count"))
				o->count = n;
			else if (!strcmp(k, "--direct"))
				o->direct = n != 0;
			else if (!strcmp(k, "--sync"))
				o->sync = n != 0;
			else if (!strcmp(k, "--threads"))
				o->threads = n;
			else
				fail("unknown-option", 0);
		} else {
			fail("bad-number", 0);
		}
	}
	g_mode = o->mode;
	if (o->bs == 0 || o->size == 0)
		fail("zero-size", 0);
	if (o->direct && (o->bs % 512 || o->size % 512))
		fail("direct-needs-512-multiples", 0);
	if (o->threads > 256 || (o->threads > 1 && strcmp(o->mode, "loop")))
		fail("threads-only-loop-up-to-256", 0);
	if (o->threads > 1 && o->size / o->threads < o->bs)
		fail("size-below-threads-times-bs", 0);
}

/* Device (or file) size; 0 means "no end" (a regular file that may grow). */
static uint64_t dev_size(int fd)
{
	off_t end = lseek(fd, 0, SEEK_END);

	if (end < 0)
		fail("lseek", errno);
	return (uint64_t)end;
}

static void pwrite_all(int fd, const char *buf, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, buf, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fail("write", n < 0 ? errno : EIO);
		buf += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
}

static size_t pread_some(int fd, char *buf, size_t len, uint64_t off)
{
	ssize_t n;

	do
		n = pread(fd, buf, len, (off_t)off);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		fail("read", errno);
	return (size_t)n;
}

/* Next offset for a sequential block of len bytes, wrapping at devsz. */
static uint64_t seq_offset(uint64_t *pos, uint64_t len, uint64_t devsz)
{
	uint64_t off;

	if (devsz && *pos + len > devsz)
		*pos = 0;
	off = *pos;
	*pos += len;
	return off;
}

static void do_fsync(int fd)
{
	if (fsync(fd))
		fail("fsync", errno);
}

/* One sequential write pass of o->size bytes; returns bytes written. */
static uint64_t seq_pass(int fd, const struct opts *o, const char *buf, uint64_t devsz, uint64_t *pos,
			 uint64_t *ops)
{
	uint64_t done = 0;

	while (done < o->size) {
		uint64_t len = o->size - done < o->bs ? o->size - done : o->bs;

		pwrite_all(fd, buf, len, seq_offset(pos, len, devsz));
		done += len;
		(*ops)++;
	}
	return done;
}

static void run_seq(int fd, const struct opts *o, const char *buf, struct result *r)
{
	uint64_t pos = 0, devsz = dev_size(fd);

	r->bytes = seq_pass(fd, o, buf, devsz, &pos, &r->ops);
	do_fsync(fd);
}

/* One BLOCKIO-L2-PROGRESS line per whole second elapsed since the last call. */
static void print_progress(const struct result *r, double t0, double *next, double fsync_ms)
{
	double t;

	for (t = now() - t0; t >= *next; *next += 1)
		printf("BLOCKIO-L2-PROGRESS t=%.0f bytes=%" PRIu64 " rate_kib=%.0f ops=%" PRIu64 " fsync_ms=%.1f\n",
		       *next, r->bytes, (double)r->bytes / 1024 / t, r->ops, fsync_ms);
	fflush(stdout);
}

static void run_loop(int fd, const struct opts *o, const char *buf, struct result *r, double t0)
{
	uint64_t pos = 0, devsz = dev_size(fd);
	double duration = o->duration > 0 ? o->duration : 10, next = 1;

	while (now() - t0 < duration) {
		double f0;

		r->bytes += seq_pass(fd, o, buf, devsz, &pos, &r->ops);
		f0 = now();
		do_fsync(fd);
		print_progress(r, t0, &next, (now() - f0) * 1000);
	}
}

/* One writer of run_loop_threads(): its slice of the device, its buffer. */
struct writer {
	pthread_t tid;
	int fd;
	const struct opts *o;
	char *buf;
	uint64_t first, len;
	double t0;
};

static _Atomic uint64_t g_bytes, g_ops;

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	double duration = w->o->duration > 0 ? w->o->duration : 10;
	uint64_t pos = 0;

	while (now() - w->t0 < duration) {
		pwrite_all(w->fd, w->buf, w->o->bs, w->first + seq_offset(&pos, w->o->bs, w->len));
		atomic_fetch_add(&g_bytes, w->o->bs);
		atomic_fetch_add(&g_ops, 1);
		/* a pass over the slice done: as run_loop(), fsync */
		if (pos + w->o->bs > w->len)
			do_fsync(w->fd);
	}
	return NULL;
}

/* loop with --threads: one writer per slice, progress from this thread. */
static void run_loop_threads(int fd, const struct opts *o, struct result *r, double t0)
{
	uint64_t n = o->threads, slice = o->size / n / o->bs * o->bs;
	struct writer *w = calloc(n, sizeof(*w));
	double next = 1;

	if (!w)
		fail("alloc", ENOMEM);
	for (uint64_t i = 0; i < n; i++) {
		w[i] = (struct writer){ .fd = fd, .o = o, .first = i * slice, .len = slice, .t0 = t0 };
		if (posix_memalign((void **)&w[i].buf, ALIGN, o->bs))
			fail("alloc", ENOMEM);
		memset(w[i].buf, 0xa5 ^ (int)i, o->bs);
		if (pthread_create(&w[i].tid, NULL, writer_main, &w[i]))
			fail("pthread_create", EAGAIN);
	}
	while (now() - t0 < (o->duration > 0 ? o->duration : 10)) {
		struct timespec ts = { 0, 200 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		r->bytes = atomic_load(&g_bytes);
		r->ops = atomic_load(&g_ops);
		print_progress(r, t0, &next, 0);
	}
	for (uint64_t i = 0; i < n; i++) {
		pthread_join(w[i].tid, NULL);
		free(w[i].buf);
	}
	free(w);
	r->bytes = atomic_load(&g_bytes);
	r->ops = atomic_load(&g_ops);
}

static void run_rand(int fd, const struct opts *o, const char *buf, struct result *r, double t0)
{
	uint64_t devsz = dev_size(fd), blocks, x = 0x9e3779b97f4a7c15ull;
	uint64_t count = o->count;
	double next = 1;

	if (!devsz)
		devsz = o->size;
	blocks = devsz / RAND_BS;
	if (!blocks)
		fail("device-too-small", 0);
	if (!count && o->duration <= 0)
		count = 1000;
	while (count ? r->ops < count : now() - t0 < o->duration) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		pwrite_all(fd, buf, RAND_BS, (x % blocks) * RAND_BS);
		r->bytes += RAND_BS;
		r->ops++;
		if (!count && !(r->ops & 15))
			print_progress(r, t0, &next, 0);
	}
	do_fsync(fd);
}

/* One BLKDISCARD or BLKZEROOUT ioctl of [off, off + len). */
static void range_ioctl(int fd, unsigned long req, uint64_t off, uint64_t len)
{
	uint64_t range[2] = { off, len };

	while (ioctl(fd, req, range)) {
		if (errno != EINTR)
			fail(req == BLKDISCARD ? "discard" : "zeroout", errno);
	}
}

static void run_trim(int fd, const struct opts *o, struct result *r, double t0)
{
	uint64_t pos = 0, devsz = dev_size(fd);
	double duration = o->duration > 0 ? o->duration : 10, next = 1;

	if (o->bs % ALIGN || (devsz && devsz < o->bs))
		fail("trim-needs-4k-blocks-within-the-device", 0);
	while (now() - t0 < duration) {
		uint64_t off = seq_offset(&pos, o->bs, devsz && devsz < o->size ? devsz : o->size);

		range_ioctl(fd, BLKDISCARD, off, o->bs);
		range_ioctl(fd, BLKZEROOUT, off, o->bs);
		r->bytes += o->bs;
		r->ops += 2;
		print_progress(r, t0, &next, 0);
	}
}

static void run_read(int fd, const struct opts *o, char *buf, struct result *r)
{
	uint64_t pos = 0, devsz = dev_size(fd);

	while (r->bytes < o->size) {
		uint64_t len = o->size - r->bytes < o->bs ? o->size - r->bytes : o->bs;
		size_t n = pread_some(fd, buf, len, seq_offset(&pos, len, devsz));

		if (n == 0) {
			if (pos == len)
				fail("read-empty", 0);
			pos = 0;
			continue;
		}
		r->bytes += n;
		r->ops++;
	}
}

int main(int argc, char **argv)
{
	struct opts o;
	struct result r = { 0 };
	bool is_read;
	char *buf;
	double t0;
	int fd, flags;

	parse_args(argc, argv, &o);
	is_read = !strcmp(o.mode, "read");
	if (!is_read && strcmp(o.mode, "seq") && strcmp(o.mode, "rand") && strcmp(o.mode, "loop") &&
	    strcmp(o.mode, "trim"))
		fail("unknown-mode", 0);

	flags = (is_read ? O_RDONLY : O_WRONLY) | O_CLOEXEC;
	if (o.direct)
		flags |= O_DIRECT;
	if (o.sync && !is_read)
		flags |= O_SYNC;
	fd = open(o.dev, flags);
	if (fd < 0)
		fail("open", errno);

	if (posix_memalign((void **)&buf, ALIGN, o.bs > RAND_BS ? o.bs : RAND_BS))
		fail("alloc", ENOMEM);
	for (uint64_t i = 0; i < (o.bs > RAND_BS ? o.bs : RAND_BS); i++)
		buf[i] = (char)(0xa5 ^ (i >> 9));

	t0 = now();
	if (is_read)
		run_read(fd, &o, buf, &r);
	else if (!strcmp(o.mode, "seq"))
		run_seq(fd, &o, buf, &r);
	else if (!strcmp(o.mode, "rand"))
		run_rand(fd, &o, buf, &r, t0);
	else if (!strcmp(o.mode, "trim"))
		run_trim(fd, &o, &r, t0);
	else if (o.threads > 1)
		run_loop_threads(fd, &o, &r, t0);
	else
		run_loop(fd, &o, buf, &r, t0);
	r.seconds = now() - t0;
	close(fd);
	free(buf);

	printf("BLOCKIO-L2-RESULT mode=%s bytes=%" PRIu64 " seconds=%.3f rate_kib=%.0f ops=%" PRIu64
	       " bs=%" PRIu64 " direct=%d sync=%d threads=%" PRIu64 " status=ok\n",
	       o.mode, r.bytes, r.seconds, r.seconds > 0 ? (double)r.bytes / 1024 / r.seconds : 0.0, r.ops,
	       !strcmp(o.mode, "rand") ? (uint64_t)RAND_BS : o.bs, o.direct, o.sync,
	       o.threads ? o.threads : 1);
	return 0;
}
