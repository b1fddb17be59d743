/* SPDX-License-Identifier: GPL-2.0 */
/* Monotonic time in seconds, for the test programs' own timings. */
#ifndef BLOCKIO_TESTS_NOW_H
#define BLOCKIO_TESTS_NOW_H

#include <time.h>

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
