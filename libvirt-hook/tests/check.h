/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check.h - the smallest test harness that does the job: CHECK() counts,
 * prints the failing expression with its location, and check_done()
 * prints "NAME: N passed, N failed" and returns the exit status.
 */
#ifndef BLOCKIO_CHECK_H
#define BLOCKIO_CHECK_H

#include <stdio.h>
#include <string.h>

static unsigned check_passed, check_failed;

#define CHECK(cond)                                                        \
	do {                                                               \
		if (cond) {                                                \
			check_passed++;                                    \
		} else {                                                   \
			check_failed++;                                    \
			fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__,     \
				__LINE__, #cond);                          \
		}                                                          \
	} while (0)

/* CHECK with context: a printf-style explanation on failure. */
#define CHECKF(cond, ...)                                                  \
	do {                                                               \
		if (cond) {                                                \
			check_passed++;                                    \
		} else {                                                   \
			check_failed++;                                    \
			fprintf(stderr, "%s:%d: FAIL: %s: ", __FILE__,     \
				__LINE__, #cond);                          \
			fprintf(stderr, __VA_ARGS__);                      \
			fputc('\n', stderr);                               \
		}                                                          \
	} while (0)

#define CHECK_STR(a, b)                                                    \
	CHECKF(!strcmp((a), (b)), "got '%s', want '%s'", (a), (b))

#define CHECK_CONTAINS(hay, needle)                                        \
	CHECKF(strstr((hay), (needle)) != NULL, "'%s' lacks '%s'", (hay),  \
	       (needle))

static inline int check_done(const char *name)
{
	printf("%s: %u passed, %u failed\n", name, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif /* BLOCKIO_CHECK_H */
