/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - what every module needs and none should write again: memory
 * that is there or aborts, reading a whole file descriptor with a limit,
 * running a program with its output in a pipe, and UTF-8 (util.c).
 */
#ifndef BLOCKIO_UTIL_H
#define BLOCKIO_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* malloc(3) and friends that abort(3) instead of returning NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);	/* n == 0 allocates one element */
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xvasprintf(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

/* What blockio_read_all() stopped at. */
enum blockio_read {
	BLOCKIO_READ_OK = 0,	/* end of file */
	BLOCKIO_READ_TOOBIG,	/* more than @max bytes: the first @max read */
	BLOCKIO_READ_TIMEOUT,	/* nothing for @timeout_ms */
	BLOCKIO_READ_ERROR,	/* read(2) failed: errno is set */
};

/*
 * Read @fd to its end into *@buf (malloc'ed, NUL-terminated, set whatever
 * the result; *@len its length), at most @max bytes; @timeout_ms >= 0 is
 * the longest wait for each read (poll(2)), -1 none.  The hook's stdin,
 * blockioctl check's file, the output of virsh and qemu-img.
 */
enum blockio_read blockio_read_all(int fd, size_t max, int timeout_ms,
				   char **buf, size_t *len);

/*
 * Start @argv[0] (found in $PATH) with @argv, stdin /dev/null, stdout on
 * the pipe *@out_fd and stderr on the pipe *@err_fd, or on *@out_fd too
 * when @err_fd is NULL.  When it cannot be run, the child writes "cannot
 * run PROG: REASON" to its stderr and exits 127.  The child's PID.
 */
pid_t blockio_spawn(const char *const *argv, int *out_fd, int *err_fd);

/* Wait for @pid: its exit status, or -1 when a signal ended it. */
int blockio_wait(pid_t pid);

/*
 * The well-formed UTF-8 sequence at @s: its length (1..4) and its code
 * point in *@cp; 0 for anything else (a stray or overlong byte, a
 * surrogate, beyond U+10FFFF, a sequence cut short, also by the NUL).
 */
size_t blockio_utf8_decode(const unsigned char *s, uint32_t *cp);

#endif /* BLOCKIO_UTIL_H */
