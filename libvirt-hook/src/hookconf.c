// SPDX-License-Identifier: GPL-2.0
/*
 * hookconf.c - /etc/blockio/hook.conf, the host's choices for the hook,
 * blockio-metad and blockioctl check:
 *
 *   # blockio: also cap domains by libvirt's own <iotune>/<blkiotune>
 *   libvirt-limits = yes
 *
 * One "key = value" per line; '#' starts a comment line; blank lines and
 * spaces around key and value are ignored.  An unknown key or value is an
 * error that names the file and line: the hook then refuses to start
 * domains rather than guess what the host meant (a typo in the key that
 * turns the fleet drop-in on would otherwise leave every VM uncapped).
 * No file: the defaults (libvirt-limits = no, libvirt-limits-uncapped =
 * start).
 */
#include <stdio.h>
#include <string.h>

#include "blockio.h"
#include "names.h"
#include "config.h"

#define LINE_MAX_SHOWN 80

static const char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

static int parse_bool(const char *v, bool *out)
{
	if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1")) {
		*out = true;
		return 0;
	}
	if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0")) {
		*out = false;
		return 0;
	}
	return -1;
}

int blockio_hookconf_parse(const char *text, const char *file,
			   struct blockio_options *opts,
			   struct blockio_error *err)
{
	const char *p = text;
	unsigned lineno = 0;

	memset(opts, 0, sizeof(*opts));
	while (*p) {
		char line[1024], esc[LINE_MAX_SHOWN * 4 + 8];
		const char *key, *value;
		size_t n = strcspn(p, "\n");
		char *eq;

		lineno++;
		if (n >= sizeof(line)) {
			blockio_error_set(err, "%s line %u: longer than %zu bytes",
					  file, lineno, sizeof(line) - 1);
			return -1;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		p += n + (p[n] == '\n');
		if (strlen(line) != n) {
			blockio_error_set(err, "%s line %u: a NUL byte", file, lineno);
			return -1;
		}
		key = trim(line);
		if (!*key || *key == '#')
			continue;
		eq = strchr(line, '=');
		if (!eq) {
			blockio_escape(key, esc, sizeof(esc));
			blockio_error_set(err, "%s line %u: '%s' is not 'key = value'",
					  file, lineno, esc);
			return -1;
		}
		*eq = '\0';
		key = trim(line);
		value = trim(eq + 1);
		if (!strcmp(key, "libvirt-limits-uncapped")) {
			if (strcmp(value, "start") && strcmp(value, "refuse")) {
				blockio_escape(value, esc, sizeof(esc));
				blockio_error_set(err,
						  "%s line %u: invalid value '%s' for libvirt-limits-uncapped: expected 'start' or 'refuse'",
						  file, lineno, esc);
				return -1;
			}
			opts->libvirt_limits_refuse = !strcmp(value, "refuse");
		} else if (!strcmp(key, "libvirt-limits")) {
			if (parse_bool(value, &opts->libvirt_limits)) {
				blockio_escape(value, esc, sizeof(esc));
				blockio_error_set(err,
						  "%s line %u: invalid value '%s' for libvirt-limits: expected 'yes' or 'no'",
						  file, lineno, esc);
				return -1;
			}
		} else {
			blockio_escape(key, esc, sizeof(esc));
			blockio_error_set(err,
					  "%s line %u: unknown setting '%s'; the settings are: libvirt-limits, libvirt-limits-uncapped",
					  file, lineno, esc);
			return -1;
		}
	}
	return 0;
}
