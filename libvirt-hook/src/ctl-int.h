/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctl-int.h - what blockioctl's pieces share (ctl.c: the command line and
 * the output helpers; ctl-check.c; ctl-status.c); not an API: ctl.h is.
 */
#ifndef BLOCKIO_CTL_INT_H
#define BLOCKIO_CTL_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "ctl.h"
#include "hookops.h"
#include "names.h"
#include "procfs.h"
#include "units.h"
#include "util.h"

#define ESC		512	/* an escaped name or path in a message */

/* @s escaped for one line (NULL as ""), in @buf. */
const char *ctl_esc(const char *s, char buf[ESC]);
/* @s as a JSON string: UTF-8 kept, invalid bytes become U+FFFD. */
void ctl_json_str(FILE *f, const char *s);
/* "8 MiB/s", "64 MiB", "500/s", "10k": the hook's units, a space before bytes. */
void ctl_human_cap(uint64_t v, enum blockio_quantity q, char *out, size_t len);
/* A counter of bytes, rounded: "512 B", "40.0 MiB", "1.2 GiB". */
void ctl_human_bytes(uint64_t v, char *out, size_t len);

/* blockioctl [--json] check [--offline] [FILE]: the exit status. */
int ctl_cmd_check(const struct blockio_ctl_env *env, const char *file,
		  bool json, bool offline);
/* blockioctl [--json] status [DOMAIN]: the exit status. */
int ctl_cmd_status(const struct blockio_ctl_env *env, const char *want,
		   bool json);

#endif /* BLOCKIO_CTL_INT_H */
