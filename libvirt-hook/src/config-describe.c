// SPDX-License-Identifier: GPL-2.0
/*
 * config-describe.c - one log line that says what a configuration caps.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config-int.h"

/* Append to @out (of @outlen bytes) at *@o; the end is cut if it is full. */
static void appendf(char *out, size_t outlen, size_t *o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void appendf(char *out, size_t outlen, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*o >= outlen - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(out + *o, outlen - *o, fmt, ap);
	va_end(ap);
	if (n > 0)
		*o = *o + (size_t)n < outlen ? *o + (size_t)n : outlen - 1;
}

void blockio_config_describe(const struct blockio_config *cfg, char *out,
			     size_t outlen)
{
	size_t o = 0;

	if (!outlen)
		return;
	out[0] = '\0';
	if (cfg->libvirt_limits && !cfg->nrules) {
		appendf(out, outlen, &o, "not capped: no <blockio:limits> in <metadata>, and no <iotune> or <blkiotune> limit on a local disk (type file or block, not on a network filesystem)");
		return;
	}
	if (!cfg->has_limits && !cfg->libvirt_limits) {
		appendf(out, outlen, &o, "not capped: no <blockio:limits> in <metadata>");
		return;
	}
	if (!cfg->nrules) {
		appendf(out, outlen, &o, "not capped: <blockio:limits> is empty");
		return;
	}
	appendf(out, outlen, &o, "capped:");
	for (size_t t = 0; t < cfg->ntargets; t++) {
		const struct blockio_target *target = &cfg->targets[t];
		const char *sep = "";
		char esc[ESC_MAX];

		appendf(out, outlen, &o, "%s %s", t ? ";" : "", target->element);
		if (target->devnode)
			appendf(out, outlen, &o, " on %s",
				cfg_escape(target->devnode, esc));
		appendf(out, outlen, &o, ":");
		for (size_t i = 0; i < cfg->nrules; i++) {
			const struct blockio_rule *r = &cfg->rules[i];
			bool bw = r->kind == BLOCKIO_BANDWIDTH;
			char limit[64], bucket[64];

			if (r->target != t)
				continue;
			blockio_format_quantity(r->limit, bw ? BLOCKIO_Q_BANDWIDTH
							     : BLOCKIO_Q_IOPS,
						limit, sizeof(limit));
			appendf(out, outlen, &o, "%s %s %s", sep,
				bw ? "bandwidth" : "iops", limit);
			if (r->strategy == BLOCKIO_TOKEN) {
				blockio_format_quantity(r->bucket,
							bw ? BLOCKIO_Q_BYTES
							   : BLOCKIO_Q_OPS,
							bucket, sizeof(bucket));
				appendf(out, outlen, &o, " token bucket %s", bucket);
			}
			sep = ",";
		}
	}
	for (size_t i = 0; i < cfg->nwarnings; i++)
		appendf(out, outlen, &o, "; warning: %s", cfg->warnings[i]);
	for (size_t t = 0; t < cfg->ntargets; t++) {
		for (const char *w = cfg->targets[t].warning; w && *w;) {
			size_t n = strcspn(w, "\n");

			appendf(out, outlen, &o, "; warning: %.*s", (int)n, w);
			w += n + (w[n] == '\n');
		}
	}
}
