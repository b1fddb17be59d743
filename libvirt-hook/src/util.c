// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - memory, whole reads, child processes and UTF-8 for every
 * module (util.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		abort();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		abort();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		abort();
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	return s;
}

enum blockio_read blockio_read_all(int fd, size_t max, int timeout_ms,
				   char **buf, size_t *len)
{
	size_t size = 65536;
	enum blockio_read ret;

	*buf = xmalloc(size);
	*len = 0;
	for (;;) {
		ssize_t n;

		if (timeout_ms >= 0) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };
			int rc = poll(&pfd, 1, timeout_ms);

			if (rc < 0 && errno == EINTR)
				continue;
			if (rc < 0) {
				ret = BLOCKIO_READ_ERROR;
				break;
			}
			if (rc == 0) {
				ret = BLOCKIO_READ_TIMEOUT;
				break;
			}
		}
		if (*len + 1 == size) {
			size *= 2;
			*buf = xrealloc(*buf, size);
		}
		/* one byte past @max tells a file of exactly @max bytes apart */
		n = read(fd, *buf + *len, size - 1 - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = BLOCKIO_READ_ERROR;
			break;
		}
		if (n == 0) {
			ret = BLOCKIO_READ_OK;
			break;
		}
		*len += (size_t)n;
		if (*len > max) {
			*len = max;
			ret = BLOCKIO_READ_TOOBIG;
			break;
		}
	}
	(*buf)[*len] = '\0';
	return ret;
}

pid_t blockio_spawn(const char *const *argv, int *out_fd, int *err_fd)
{
	int ofd[2], efd[2] = { -1, -1 };
	pid_t pid;

	if (pipe(ofd) || (err_fd && pipe(efd)))
		abort();
	pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, STDIN_FILENO);
		dup2(ofd[1], STDOUT_FILENO);
		dup2(err_fd ? efd[1] : ofd[1], STDERR_FILENO);
		close(ofd[0]);
		if (err_fd)
			close(efd[0]);
		execvp(argv[0], (char *const *)argv);
		dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(ofd[1]);
	*out_fd = ofd[0];
	if (err_fd) {
		close(efd[1]);
		*err_fd = efd[0];
	}
	return pid;
}

int blockio_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

size_t blockio_utf8_decode(const unsigned char *s, uint32_t *cp)
{
	size_t n;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond Unicode */
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	*cp = c;
	return n;
}
