// SPDX-License-Identifier: GPL-2.0
/*
 * ctl.c - blockioctl, the admin's view of blockio caps.
 *
 *   blockioctl [--json] check [FILE]     what the hook makes of a domain XML
 *   blockioctl [--json] status [DOMAIN]  what the kernel holds for running VMs
 *   blockioctl set DOMAIN CAPS...        change caps through virsh (ctlset.c)
 *
 * check is in ctl-check.c, status in ctl-status.c; this file is the
 * command line and the output helpers both use.
 *
 * Everything goes through struct blockio_ctl_env so tests/ctl-fake.c runs
 * these files against fakefs.c, a fake /proc and run directory.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl-int.h"
#include "version.h"

const char *ctl_esc(const char *s, char buf[ESC])
{
	blockio_escape(s ? s : "", buf, ESC);
	return buf;
}

/* ---- output ---------------------------------------------------------------- */

/* @s as a JSON string: UTF-8 kept, invalid bytes become U+FFFD. */
void ctl_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	while (*p) {
		size_t n = 0;

		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
			continue;
		}
		if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
			continue;
		}
		if (*p < 0x80) {
			fputc(*p++, f);
			continue;
		}
		if (*p >= 0xc2 && *p <= 0xdf)
			n = 2;
		else if (*p >= 0xe0 && *p <= 0xef)
			n = 3;
		else if (*p >= 0xf0 && *p <= 0xf4)
			n = 4;
		for (size_t i = 1; i < n; i++)
			if ((p[i] & 0xc0) != 0x80)
				n = 0;
		if (!n) {
			fputs("\\ufffd", f);
			p++;
			continue;
		}
		fwrite(p, 1, n, f);
		p += n;
	}
	fputc('"', f);
}

/* "8 MiB/s", "64 MiB", "500/s", "10k": the hook's units, a space before bytes. */
void ctl_human_cap(uint64_t v, enum blockio_quantity q, char *out,
		      size_t len)
{
	char raw[64];
	size_t d;

	blockio_format_quantity(v, q, raw, sizeof(raw));
	d = strspn(raw, "0123456789");
	if (q == BLOCKIO_Q_BANDWIDTH || q == BLOCKIO_Q_BYTES)
		snprintf(out, len, "%.*s %s", (int)d, raw, raw + d);
	else
		snprintf(out, len, "%s", raw);
}

/* A counter of bytes, rounded: "512 B", "40.0 MiB", "1.2 GiB". */
void ctl_human_bytes(uint64_t v, char *out, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double x = (double)v;
	int u = -1;

	if (v < 1024) {
		snprintf(out, len, "%" PRIu64 " B", v);
		return;
	}
	while (x >= 1024 && u < 4) {
		x /= 1024;
		u++;
	}
	snprintf(out, len, "%.1f %s", x, units[u]);
}

/* ---- the command line ------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: blockioctl [--json] check [--offline] [FILE]\n"
		"       blockioctl [--json] status [DOMAIN]\n"
		"       blockioctl [-c URI] [--timeout SECONDS] set DOMAIN DISK:KEY=VALUE[,KEY=VALUE...] ... | none\n"
		"       blockioctl -h | --help | --version\n"
		"\n"
		"  check   what the blockio hook makes of a domain XML (FILE, or standard\n"
		"          input): every cap on its host disk, warnings, and exit 1 with the\n"
		"          hook's message when prepare would refuse the domain on this host;\n"
		"          --offline: the XML alone (no blockio kernel, host disk or qemu-img\n"
		"          needed), exit 1 only for what no host would accept\n"
		"  status  each running VM's blockio cgroup (or only DOMAIN, a name or UUID):\n"
		"          its caps, bytes and I/Os charged, held back, delays, and whether\n"
		"          it is capped as its XML means: exit 3 if one is not, 4 if one is\n"
		"          limited by libvirt's limits only (libvirt-limits = yes), else 0\n"
		"  set     check new caps with the hook's code, then write them with\n"
		"          virsh metadata (--live when running, --config when persistent);\n"
		"          DISK is a target (vda) or a host device path (/dev/sdb), KEY one\n"
		"          of bandwidth, iops, strategy, bucket, iops-bucket; 'none' removes\n"
		"          all caps.  e.g. set vm1 vda:bandwidth=8MiB/s,iops=500\n"
		"          A running domain's change is waited for until the kernel holds it\n"
		"          (blockio-metad applies it): --timeout SECONDS (default 10, 0: do\n"
		"          not wait); exit 3 if it does not, naming what blockio-metad does\n"
		"  --json  the same as one JSON object (keys in blockioctl(8))\n"
		"  -c, --connect URI  libvirt URI for set (default qemu:///system)\n"
		"\n"
		"Caps are read from <blockio:limits xmlns:blockio='%s'>\n"
		"in <metadata>; see blockio-hook(8).\n", BLOCKIO_NS_URI);
}

static void short_usage(void)
{
	fputs("usage: blockioctl [--json] check [--offline] [FILE] | status [DOMAIN] | set DOMAIN CAPS...\n"
	      "Try 'blockioctl --help'.\n", stderr);
}

static void bad(struct blockio_ctl_args *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void bad(struct blockio_ctl_args *a, const char *fmt, ...)
{
	va_list ap;

	a->cmd = BLOCKIO_CTL_BAD;
	va_start(ap, fmt);
	a->why = xvasprintf(fmt, ap);
	va_end(ap);
}

void blockio_ctl_parse_args(int argc, char **argv, struct blockio_ctl_args *a)
{
	char **words = xcalloc((size_t)argc + 1, sizeof(char *));
	bool uri_given = false;
	int nwords = 0;

	memset(a, 0, sizeof(*a));
	a->uri = "qemu:///system";
	a->timeout_s = -1;
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];

		if (!strcmp(w, "-h") || !strcmp(w, "--help")) {
			a->cmd = BLOCKIO_CTL_HELP;
			goto out;
		}
		if (!strcmp(w, "--version")) {
			a->cmd = BLOCKIO_CTL_VERSION;
			goto out;
		}
		if (!strcmp(w, "--json")) {
			a->json = true;
		} else if (!strcmp(w, "--offline")) {
			a->offline = true;
		} else if (!strcmp(w, "-c") || !strcmp(w, "--connect")) {
			if (i + 1 == argc) {
				bad(a, "%s needs a URI", w);
				goto out;
			}
			a->uri = argv[++i];
			uri_given = true;
		} else if (!strcmp(w, "--timeout")) {
			char *end;
			long t;

			if (i + 1 == argc) {
				bad(a, "%s needs a number of seconds", w);
				goto out;
			}
			errno = 0;
			t = strtol(argv[++i], &end, 10);
			if (errno || end == argv[i] || *end || t < 0 || t > 3600) {
				bad(a, "--timeout takes a whole number of seconds from 0 to 3600, not '%s'",
				    argv[i]);
				goto out;
			}
			a->timeout_s = (int)t;
		} else if (!strcmp(w, "--")) {
			for (i++; i < argc; i++)
				words[nwords++] = argv[i];
		} else if (w[0] == '-' && w[1]) {
			bad(a, "unknown option '%s'", w);
			goto out;
		} else {
			words[nwords++] = argv[i];
		}
	}
	if (nwords && !strcmp(words[0], "set")) {
		if (a->json || a->offline) {
			bad(a, "set has no %s", a->json ? "--json" : "--offline");
		} else if (nwords < 3) {
			bad(a, "set needs a DOMAIN and caps (DISK:KEY=VALUE,... or none)");
		} else {
			a->cmd = BLOCKIO_CTL_SET;
			a->arg = words[1];
			a->nspecs = nwords - 2;
			a->specs = xcalloc((size_t)a->nspecs + 1, sizeof(char *));
			memcpy(a->specs, words + 2,
			       (size_t)a->nspecs * sizeof(char *));
		}
	} else if (uri_given) {
		bad(a, "-c is for set only");
	} else if (a->timeout_s >= 0) {
		bad(a, "--timeout is for set only");
	} else if (a->offline && (!nwords || strcmp(words[0], "check"))) {
		bad(a, "--offline is for check only");
	} else if (nwords && nwords <= 2 && !strcmp(words[0], "check")) {
		a->cmd = BLOCKIO_CTL_CHECK;
		a->arg = nwords == 2 ? words[1] : NULL;
	} else if (nwords && nwords <= 2 && !strcmp(words[0], "status")) {
		a->cmd = BLOCKIO_CTL_STATUS;
		a->arg = nwords == 2 ? words[1] : NULL;
	} else {
		a->cmd = BLOCKIO_CTL_BAD;
	}
out:
	free(words);
}

void blockio_ctl_args_free(struct blockio_ctl_args *a)
{
	free(a->specs);
	free(a->why);
	memset(a, 0, sizeof(*a));
}

int blockio_ctl_main(int argc, char **argv, const struct blockio_ctl_env *env)
{
	struct blockio_ctl_args a;
	int ret = 2;

	blockio_ctl_parse_args(argc, argv, &a);
	switch (a.cmd) {
	case BLOCKIO_CTL_BAD:
		if (a.why)
			fprintf(stderr, "blockioctl: %s\n", a.why);
		short_usage();
		break;
	case BLOCKIO_CTL_HELP:
		usage(stdout);
		ret = 0;
		break;
	case BLOCKIO_CTL_VERSION:
		printf("blockioctl %s\n", BLOCKIO_VERSION);
		ret = 0;
		break;
	case BLOCKIO_CTL_CHECK:
		ret = ctl_cmd_check(env, a.arg, a.json, a.offline);
		break;
	case BLOCKIO_CTL_STATUS:
		ret = ctl_cmd_status(env, a.arg, a.json);
		break;
	case BLOCKIO_CTL_SET:
		ret = blockio_ctl_set(env, a.uri, a.arg, a.nspecs, a.specs,
				      a.timeout_s >= 0 ? a.timeout_s * 1000 :
				      env->set_wait_ms);
		break;
	}
	blockio_ctl_args_free(&a);
	return ret;
}
