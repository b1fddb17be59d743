// SPDX-License-Identifier: GPL-2.0
/*
 * config-libvirt.c - libvirt's own limits as caps (hook.conf:
 * libvirt-limits = yes): <disk><iotune> and <blkiotune><device> into
 * targets, merged per host disk after resolution.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config-int.h"

uint64_t blockio_libvirt_cap(uint64_t total, uint64_t read, uint64_t write)
{
	if (total)
		return total;
	return read > write ? read : write;
}

/* libvirt's limits are plain decimal numbers (unsigned long long). */
static int libvirt_number(struct parse *p, const char *what, const char *name,
			  const char *text, uint64_t max, uint64_t *out)
{
	char esc[ESC_MAX];
	uint64_t v = 0;
	const char *c = text;

	for (; *c >= '0' && *c <= '9'; c++) {
		if (v > (UINT64_MAX - (uint64_t)(*c - '0')) / 10)
			break;
		v = v * 10 + (uint64_t)(*c - '0');
	}
	if (c == text || *c) {
		blockio_error_set(p->err, "invalid value '%s' of <%s> in %s: expected a whole number",
				  cfg_escape(text, esc), name, what);
		return -1;
	}
	if (v > max) {
		blockio_error_set(p->err, "value %llu of <%s> in %s is above blockio's largest cap, %llu",
				  (unsigned long long)v, name, what,
				  (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

/*
 * One kind (@unit "bytes" or "iops") of an <iotune> or <blkiotune><device>
 * at @node: blockio_libvirt_cap() of its total_/read_/write_@unit_sec.
 */
/* Append line @text to *@warning (lines separated by '\n'). */
static void add_note(char **warning, const char *text)
{
	size_t old = *warning ? strlen(*warning) : 0;

	*warning = xrealloc(*warning, old + strlen(text) + 2);
	sprintf(*warning + old, "%s%s", old ? "\n" : "", text);
}

static int libvirt_kind(struct parse *p, xmlNodePtr node, const char *what,
			const char *unit, bool has_total, uint64_t *cap,
			char **warning)
{
	static const char *const dirs[] = { "total", "read", "write" };
	uint64_t v[3] = { 0, 0, 0 };
	uint64_t max = strcmp(unit, "bytes") ? BLOCKIO_IOPS_MAX
					     : BLOCKIO_BANDWIDTH_MAX;

	for (int i = has_total ? 0 : 1; i < 3; i++) {
		char name[32], expr[64], *text;
		int rc;

		snprintf(name, sizeof(name), "%s_%s_sec", dirs[i], unit);
		snprintf(expr, sizeof(expr), "normalize-space(%s)", name);
		text = cfg_xpath_string(p, node, expr);
		rc = text ? libvirt_number(p, what, name, text, max, &v[i]) : 0;
		free(text);
		if (rc)
			return -1;
	}
	if (v[0] && (v[1] || v[2])) {
		blockio_error_set(p->err,
				  "%s sets total_%s_sec together with read_%s_sec or write_%s_sec, which libvirt does not accept",
				  what, unit, unit, unit);
		return -1;
	}
	*cap = blockio_libvirt_cap(v[0], v[1], v[2]);
	/* where blockio's one cap differs from what libvirt enforces */
	if (!v[0] && (v[1] || v[2])) {
		char text[4 * ESC_MAX], human[64];

		blockio_format_quantity(*cap, strcmp(unit, "bytes") ? BLOCKIO_Q_IOPS
								     : BLOCKIO_Q_BANDWIDTH,
					human, sizeof(human));
		if (v[1] && v[2])
			snprintf(text, sizeof(text),
				 "%s limits reads (read_%s_sec=%" PRIu64 ") and writes (write_%s_sec=%" PRIu64 ") apart; blockio caps reads and writes together at the larger, %s",
				 what, unit, v[1], unit, v[2], human);
		else
			snprintf(text, sizeof(text),
				 "%s limits only %s (%s_%s_sec=%" PRIu64 "); blockio caps reads and writes together at %s, so %s share that cap",
				 what, v[1] ? "reads" : "writes",
				 v[1] ? "read" : "write", unit, v[1] ? v[1] : v[2],
				 human, v[1] ? "writes" : "reads");
		add_note(warning, text);
	}
	return 0;
}

static void add_libvirt_target(struct parse *p, const char *what, char *path,
			       const char *disk, enum blockio_merge merge,
			       char *group, uint64_t bw, uint64_t iops,
			       char *warning)
{
	struct blockio_config *cfg = p->cfg;
	struct blockio_target *t;

	cfg->targets = xrealloc(cfg->targets, (cfg->ntargets + 1) * sizeof(*t));
	t = &cfg->targets[cfg->ntargets++];
	memset(t, 0, sizeof(*t));
	t->element = xstrdup(what);
	t->path = path;
	t->disk = disk ? xstrdup(disk) : NULL;
	t->must_be_block = merge == BLOCKIO_MERGE_MIN;
	t->merge = merge;
	t->group = group;
	t->warning = warning;
	if (bw)
		cfg_add_rule(cfg, BLOCKIO_BANDWIDTH, BLOCKIO_LEAKY, bw, 0);
	if (iops)
		cfg_add_rule(cfg, BLOCKIO_IOPS, BLOCKIO_LEAKY, iops, 0);
}

/*
 * Every <disk type='file|block'> with an <iotune>, every
 * <blkiotune><device>.  Network and volume disks keep QEMU's own
 * throttling only: their I/O reaches no host block device blockio sees.
 */
int cfg_parse_libvirt_limits(struct parse *p)
{
	xmlXPathObjectPtr set;
	char esc[ESC_MAX], what[2 * ESC_MAX];
	int ret = 0;

	set = cfg_xpath_nodes(p, NULL, "/domain/devices/disk[iotune]");
	for (size_t i = 0; i < cfg_nodeset_len(set) && !ret; i++) {
		xmlNodePtr disk = set->nodesetval->nodeTab[i];
		xmlXPathObjectPtr tune = cfg_xpath_nodes(p, disk, "iotune");
		xmlNodePtr node = tune->nodesetval->nodeTab[0];
		char *dev = cfg_xpath_string(p, disk, "string(target/@dev)");
		char *src = cfg_node_source(p, disk), *warning = NULL;
		uint64_t bw = 0, iops = 0;

		xmlXPathFreeObject(tune);
		snprintf(what, sizeof(what), "<iotune> of disk '%s'",
			 cfg_escape(dev ? dev : "", esc));
		if (libvirt_kind(p, node, what, "bytes", true, &bw, &warning) ||
		    libvirt_kind(p, node, what, "iops", true, &iops, &warning)) {
			ret = -1;
		} else if (src && (bw || iops)) {
			add_libvirt_target(p, what, src, dev, BLOCKIO_MERGE_SUM,
					   cfg_xpath_string(p, node, "normalize-space(group_name)"),
					   bw, iops, warning);
			warning = NULL;
		} else {
			free(src);
		}
		free(warning);
		free(dev);
		if (ret)
			free(src);
	}
	xmlXPathFreeObject(set);

	set = cfg_xpath_nodes(p, NULL, "/domain/blkiotune/device");
	for (size_t i = 0; i < cfg_nodeset_len(set) && !ret; i++) {
		xmlNodePtr node = set->nodesetval->nodeTab[i];
		char *path = cfg_xpath_string(p, node, "normalize-space(path)");
		char *warning = NULL;
		uint64_t bw = 0, iops = 0;

		snprintf(what, sizeof(what), "<blkiotune><device> '%s'",
			 cfg_escape(path ? path : "", esc));
		if (!path || !cfg_valid_path(path)) {
			blockio_error_set(p->err, "%s: <path> is not an absolute path", what);
			ret = -1;
		} else if (libvirt_kind(p, node, what, "bytes", false, &bw, &warning) ||
			   libvirt_kind(p, node, what, "iops", false, &iops, &warning)) {
			ret = -1;
		} else if (bw || iops) {
			add_libvirt_target(p, what, path, NULL, BLOCKIO_MERGE_MIN,
					   NULL, bw, iops, warning);
			path = NULL;
			warning = NULL;
		}
		free(path);
		free(warning);
	}
	xmlXPathFreeObject(set);
	if (!ret && p->cfg->nrules && (!p->cfg->name || !p->cfg->uuid[0])) {
		blockio_error_set(p->err, "a domain capped by its <iotune>/<blkiotune> (libvirt-limits in hook.conf) needs a <name> and a <uuid>");
		ret = -1;
	}
	return ret;
}

/* The limit of @kind on target @t, 0 if none. */
static uint64_t target_limit(const struct blockio_config *cfg, size_t t,
			     enum blockio_kind kind)
{
	for (size_t i = 0; i < cfg->nrules; i++)
		if (cfg->rules[i].target == t && cfg->rules[i].kind == kind)
			return cfg->rules[i].limit;
	return 0;
}

static uint64_t kind_max(enum blockio_kind kind)
{
	return kind == BLOCKIO_BANDWIDTH ? BLOCKIO_BANDWIDTH_MAX : BLOCKIO_IOPS_MAX;
}

/* The merged limit of @kind for the targets on @dev; 0: none. */
static uint64_t merged_limit(const struct blockio_config *cfg, dev_t dev,
			     enum blockio_kind kind)
{
	uint64_t sum = 0, min = 0;
	bool any_sum = false, sum_unlimited = false;

	for (size_t t = 0; t < cfg->ntargets; t++) {
		const struct blockio_target *tg = &cfg->targets[t];
		uint64_t v = target_limit(cfg, t, kind);
		bool counted = false;

		if (tg->dev != dev)
			continue;
		if (tg->merge == BLOCKIO_MERGE_MIN) {
			if (v && (!min || v < min))
				min = v;
			continue;
		}
		any_sum = true;
		/* a throttle group shares one limit: count it once per disk */
		for (size_t u = 0; tg->group && u < t && !counted; u++)
			counted = cfg->targets[u].dev == dev &&
				  cfg->targets[u].merge == BLOCKIO_MERGE_SUM &&
				  cfg->targets[u].group &&
				  !strcmp(cfg->targets[u].group, tg->group);
		if (counted)
			continue;
		if (!v)
			sum_unlimited = true;
		else
			sum = sum + v > kind_max(kind) ? kind_max(kind) : sum + v;
	}
	if (!any_sum || sum_unlimited)
		return min;
	return min && min < sum ? min : sum;
}

void blockio_config_merge(struct blockio_config *cfg)
{
	struct blockio_target *targets = cfg->targets;
	struct blockio_rule *rules = cfg->rules;
	size_t ntargets = cfg->ntargets;
	struct blockio_config old = *cfg;

	cfg->targets = NULL;
	cfg->rules = NULL;
	cfg->ntargets = cfg->nrules = 0;
	for (size_t t = 0; t < ntargets; t++) {
		struct blockio_target *tg = &targets[t], *n;
		uint64_t bw, iops;
		bool first = true;
		char *element;
		size_t len;

		for (size_t u = 0; u < t && first; u++)
			first = targets[u].dev != tg->dev;
		if (!first || tg->netfs)	/* QEMU's <iotune> only */
			continue;
		bw = merged_limit(&old, tg->dev, BLOCKIO_BANDWIDTH);
		iops = merged_limit(&old, tg->dev, BLOCKIO_IOPS);
		if (!bw && !iops)
			continue;
		/* "<iotune> of disk 'vda' + <iotune> of disk 'vdb'" */
		element = xstrdup(tg->element);
		len = strlen(element);
		for (size_t u = t + 1; u < ntargets; u++) {
			if (targets[u].dev != tg->dev)
				continue;
			element = xrealloc(element, len + strlen(targets[u].element) + 4);
			len += (size_t)sprintf(element + len, " + %s", targets[u].element);
		}
		cfg->targets = xrealloc(cfg->targets, (cfg->ntargets + 1) * sizeof(*n));
		n = &cfg->targets[cfg->ntargets++];
		memset(n, 0, sizeof(*n));
		n->element = element;
		n->path = xstrdup(tg->path);
		n->disk = tg->disk ? xstrdup(tg->disk) : NULL;
		n->must_be_block = tg->must_be_block;
		n->merge = tg->merge;
		n->devnode = tg->devnode ? xstrdup(tg->devnode) : NULL;
		n->dev = tg->dev;
		for (size_t u = t; u < ntargets; u++)
			if (targets[u].dev == tg->dev && targets[u].warning)
				add_note(&n->warning, targets[u].warning);
		if (bw)
			cfg_add_rule(cfg, BLOCKIO_BANDWIDTH, BLOCKIO_LEAKY, bw, 0);
		if (iops)
			cfg_add_rule(cfg, BLOCKIO_IOPS, BLOCKIO_LEAKY, iops, 0);
	}
	for (size_t t = 0; t < ntargets; t++) {
		free(targets[t].element);
		free(targets[t].path);
		free(targets[t].disk);
		free(targets[t].devnode);
		free(targets[t].group);
		free(targets[t].warning);
	}
	free(targets);
	free(rules);
}
