// SPDX-License-Identifier: GPL-2.0
/*
 * procfs.c - parsers for the text the kernel gives and takes: mountinfo,
 * /proc/cgroups, /proc/PID/cgroup, and the rule files of a blockio cgroup.
 * Pure functions on strings; the thin layer reads the files.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "blockio.h"
#include "config.h"
#include "procfs.h"

const char *blockio_kind_file(enum blockio_kind kind)
{
	return kind == BLOCKIO_IOPS ? "blockio.iops-max"
				    : "blockio.bandwidth-max";
}

/* The next space-separated field of *@s, NUL-terminated in place. */
static char *field(char **s)
{
	char *f;

	while (**s == ' ')
		(*s)++;
	if (!**s)
		return NULL;
	f = *s;
	while (**s && **s != ' ')
		(*s)++;
	if (**s)
		*(*s)++ = '\0';
	return f;
}

/* Is @opt one of the comma-separated options in @opts? */
static bool has_option(const char *opts, const char *opt)
{
	size_t n = strlen(opt);

	for (const char *p = opts; p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (!strncmp(p, opt, n) && (p[n] == ',' || !p[n]))
			return true;
	}
	return false;
}

/* Undo mountinfo's octal escapes (\040 for a space) into @out. */
static int unescape_octal(const char *in, char *out, size_t outlen)
{
	size_t o = 0;

	for (; *in; in++) {
		char c = *in;

		if (c == '\\' && in[1] >= '0' && in[1] <= '3' &&
		    in[2] >= '0' && in[2] <= '7' && in[3] >= '0' && in[3] <= '7') {
			c = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 +
				   (in[3] - '0'));
			in += 3;
		}
		if (o + 1 >= outlen)
			return -1;
		out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

int blockio_parse_mountinfo(const char *text, char *path, size_t pathlen)
{
	char *copy = strdup(text), *line, *save = NULL;
	int ret = -1;

	if (!copy)
		abort();
	for (line = strtok_r(copy, "\n", &save); line && ret;
	     line = strtok_r(NULL, "\n", &save)) {
		char *s = line, *f[5], *fstype, *opts;
		int i;

		for (i = 0; i < 5; i++)
			if (!(f[i] = field(&s)))
				break;
		if (i < 5)
			continue;
		/* optional fields, then "-" */
		while ((fstype = field(&s)) && strcmp(fstype, "-"))
			;
		fstype = field(&s);
		if (!fstype || !field(&s) || !(opts = field(&s)))
			continue;
		/* f[3] is the root of the mount within its hierarchy */
		if (strcmp(fstype, "cgroup") || !has_option(opts, "blockio") ||
		    strcmp(f[3], "/"))
			continue;
		ret = unescape_octal(f[4], path, pathlen);
	}
	free(copy);
	return ret;
}

int blockio_parse_proc_cgroups(const char *text)
{
	for (const char *line = text; line; line = strchr(line, '\n')) {
		unsigned hier, num, enabled;
		char name[32];

		if (*line == '\n')
			line++;
		if (sscanf(line, "%31s %u %u %u", name, &hier, &num,
			   &enabled) == 4 && !strcmp(name, "blockio"))
			return enabled == 1 ? 1 : 0;
	}
	return -1;
}

int blockio_parse_pid_cgroup(const char *text, char *path, size_t pathlen)
{
	char *copy = strdup(text), *line, *save = NULL;
	int ret = -1;

	if (!copy)
		abort();
	for (line = strtok_r(copy, "\n", &save); line && ret;
	     line = strtok_r(NULL, "\n", &save)) {
		/* "5:blockio:/machine/UUID"; the path may itself hold ':' */
		char *ctrl = strchr(line, ':'), *p;

		if (!ctrl || !(p = strchr(ctrl + 1, ':')))
			continue;
		*p++ = '\0';
		if (!has_option(ctrl + 1, "blockio"))
			continue;
		if ((size_t)snprintf(path, pathlen, "%s", p) < pathlen)
			ret = 0;
	}
	free(copy);
	return ret;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static int parse_s64(const char *s)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	(void)strtoll(s, &end, 10);
	return errno || *end ? -1 : 0;
}

int blockio_parse_rows(const char *text, struct blockio_row *rows,
		       size_t maxrows)
{
	char *copy = strdup(text), *line, *save = NULL;
	int n = 0;

	if (!copy)
		abort();
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		/* MAJOR MINOR LIMIT STRATEGY LEAKY_STAT BUCKET_SIZE BUCKET_FILL TIME_DELTA */
		char *s = line, *f[8];
		uint64_t v[4];
		int i;

		for (i = 0; i < 8; i++)
			f[i] = field(&s);
		if (!f[0])
			continue;	/* blank line */
		if ((size_t)n == maxrows || field(&s) ||
		    parse_u64(f[0], &v[0]) || parse_u64(f[1], &v[1]) ||
		    parse_u64(f[2], &rows[n].limit) || parse_u64(f[3], &v[2]) ||
		    parse_s64(f[4]) || parse_u64(f[5], &rows[n].bucket) ||
		    parse_s64(f[6]) || parse_s64(f[7]) ||
		    v[0] > UINT32_MAX || v[1] > UINT32_MAX || v[2] > 1) {
			n = -1;
			break;
		}
		rows[n].major = (unsigned)v[0];
		rows[n].minor = (unsigned)v[1];
		rows[n].strategy = (unsigned)v[2];
		n++;
	}
	free(copy);
	return n;
}

int blockio_rule_format(const struct blockio_config *cfg,
			const struct blockio_rule *rule, char *out,
			size_t outlen)
{
	const char *dev = cfg->targets[rule->target].devnode;
	int n;

	if (rule->strategy == BLOCKIO_TOKEN)
		n = snprintf(out, outlen, "%s:%" PRIu64 ":1:%" PRIu64, dev,
			     rule->limit, rule->bucket);
	else
		n = snprintf(out, outlen, "%s:%" PRIu64 ":0", dev, rule->limit);
	return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

int blockio_rows_match(const struct blockio_config *cfg,
		       enum blockio_kind kind, const struct blockio_row *rows,
		       size_t nrows, struct blockio_error *err)
{
	const uint64_t scale = kind == BLOCKIO_IOPS ? BLOCKIO_IOPS_SCALE : 1;
	const char *file = blockio_kind_file(kind);
	size_t expected = 0;

	for (size_t i = 0; i < cfg->nrules; i++) {
		const struct blockio_rule *r = &cfg->rules[i];
		const struct blockio_target *t = &cfg->targets[r->target];
		const struct blockio_row *row = NULL;

		if (r->kind != kind)
			continue;
		expected++;
		for (size_t j = 0; j < nrows && !row; j++)
			if (rows[j].major == major(t->dev) &&
			    rows[j].minor == minor(t->dev))
				row = &rows[j];
		if (!row) {
			blockio_error_set(err, "%s reads back without a rule for %s (%u:%u)",
					  file, t->devnode, major(t->dev),
					  minor(t->dev));
			return -1;
		}
		if (row->limit != r->limit * scale ||
		    row->strategy != (unsigned)r->strategy ||
		    (r->strategy == BLOCKIO_TOKEN &&
		     row->bucket != r->bucket * scale)) {
			blockio_error_set(err,
					  "%s reads back '%u %u %" PRIu64 " %u ... %" PRIu64 "' for %s, expected limit %" PRIu64 " strategy %d bucket %" PRIu64,
					  file, row->major, row->minor,
					  row->limit, row->strategy,
					  row->bucket, t->devnode,
					  r->limit * scale, (int)r->strategy,
					  r->bucket * scale);
			return -1;
		}
	}
	if (nrows != expected) {
		blockio_error_set(err, "%s reads back %zu rules, expected %zu",
				  file, nrows, expected);
		return -1;
	}
	return 0;
}

/*
 * Rows of @ncols unsigned columns after MAJOR MINOR into @vals (@ncols + 2
 * per row); the count, or -1 on a malformed row.
 */
static int parse_counter_rows(const char *text, size_t ncols, uint64_t *vals,
			      size_t maxrows)
{
	char *copy = strdup(text), *line, *save = NULL;
	int n = 0;

	if (!copy)
		abort();
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		uint64_t *v = vals + (size_t)n * (ncols + 2);
		char *s = line, *f = field(&s);
		size_t i;

		if (!f)
			continue;	/* blank line */
		if ((size_t)n == maxrows) {
			n = -1;
			break;
		}
		for (i = 0; i < ncols + 2 && f; i++, f = field(&s))
			if (parse_u64(f, &v[i]))
				break;
		if (i < ncols + 2 || f || v[0] > UINT32_MAX || v[1] > UINT32_MAX) {
			n = -1;
			break;
		}
		n++;
	}
	free(copy);
	return n;
}

int blockio_parse_stat(const char *text, struct blockio_stat_row *rows,
		       size_t maxrows)
{
	uint64_t *v = calloc(maxrows ? maxrows : 1, 7 * sizeof(*v));
	int n;

	if (!v)
		abort();
	n = parse_counter_rows(text, 5, v, maxrows);
	for (int i = 0; i < n; i++) {
		const uint64_t *r = v + (size_t)i * 7;

		rows[i] = (struct blockio_stat_row){
			.major = (unsigned)r[0], .minor = (unsigned)r[1],
			.bytes = r[2], .ios = r[3], .write_bytes = r[4],
			.queued_bios = r[5], .queued_bytes = r[6],
		};
	}
	free(v);
	return n;
}

int blockio_parse_throttlecnt(const char *text,
			      struct blockio_throttle_row *rows,
			      size_t maxrows)
{
	uint64_t *v = calloc(maxrows ? maxrows : 1, 6 * sizeof(*v));
	int n;

	if (!v)
		abort();
	n = parse_counter_rows(text, 4, v, maxrows);
	for (int i = 0; i < n; i++) {
		const uint64_t *r = v + (size_t)i * 6;

		rows[i] = (struct blockio_throttle_row){
			.major = (unsigned)r[0], .minor = (unsigned)r[1],
			.bw_count = r[2], .bw_sleep = r[3],
			.iops_count = r[4], .iops_sleep = r[5],
		};
	}
	free(v);
	return n;
}
