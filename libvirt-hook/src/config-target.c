// SPDX-License-Identifier: GPL-2.0
/*
 * config-target.c - one <blockio:disk> or <blockio:device>: its attributes,
 * values and source, into a target and its rules.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config-int.h"

bool cfg_is_ours(xmlNodePtr node)
{
	return node->type == XML_ELEMENT_NODE && node->ns && node->ns->href &&
	       !strcmp((const char *)node->ns->href, BLOCKIO_NS_URI);
}

static bool is_blank(const xmlChar *s)
{
	for (; s && *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
			return false;
	return true;
}

/*
 * Whitespace, comments and processing instructions are ignored anywhere in
 * <blockio:limits>.  Return 0 for such a node, 1 for an element @want
 * accepts, -1 (with a message naming @what) for anything else.
 */
int cfg_check_child(struct parse *p, xmlNodePtr c, const char *what,
		       bool (*want)(xmlNodePtr))
{
	char esc[ESC_MAX];

	switch (c->type) {
	case XML_COMMENT_NODE:
	case XML_PI_NODE:
		return 0;
	case XML_TEXT_NODE:
		if (is_blank(c->content))
			return 0;
		blockio_error_set(p->err, "unexpected text '%s' in %s",
				  cfg_escape((const char *)c->content, esc), what);
		return -1;
	case XML_ELEMENT_NODE:
		if (want && want(c))
			return 1;
		blockio_error_set(p->err, "unexpected element <%s> in %s",
				  cfg_qname(c->ns, c->name, esc), what);
		return -1;
	default:
		blockio_error_set(p->err, "unexpected content in %s", what);
		return -1;
	}
}

/* <blockio:disk> and <blockio:device> are empty elements. */
static int check_empty(struct parse *p, xmlNodePtr node, const char *what)
{
	for (xmlNodePtr c = node->children; c; c = c->next)
		if (cfg_check_child(p, c, what, NULL))
			return -1;
	return 0;
}

/* The attributes one element may carry, and the values read from them. */
enum attr_id { A_DEV, A_PATH, A_BANDWIDTH, A_IOPS, A_STRATEGY, A_BUCKET,
	       A_IOPS_BUCKET, A_COUNT };

static const char *const attr_names[A_COUNT] = {
	[A_DEV] = "dev", [A_PATH] = "path", [A_BANDWIDTH] = "bandwidth",
	[A_IOPS] = "iops", [A_STRATEGY] = "strategy", [A_BUCKET] = "bucket",
	[A_IOPS_BUCKET] = "iops-bucket",
};

struct element {
	bool is_disk;		/* <disk>, else <device> */
	char *attr[A_COUNT];	/* value, NULL if absent */
	char what[2 * ESC_MAX];	/* "<blockio:disk dev='vda'>" */
};

static void element_free(struct element *e)
{
	for (int i = 0; i < A_COUNT; i++)
		xmlFree(e->attr[i]);
}

static enum attr_id attr_lookup(xmlAttrPtr a)
{
	enum attr_id id;

	for (id = 0; id < A_COUNT; id++)
		if (!strcmp((const char *)a->name, attr_names[id]))
			break;
	return id;
}

static char *attr_value(struct parse *p, xmlAttrPtr a)
{
	char *v = (char *)xmlNodeListGetString(p->doc, a->children, 1);

	/* attr='' has no children */
	return v ? v : (char *)xmlStrdup(BAD_CAST "");
}

static int read_attrs(struct parse *p, xmlNodePtr node, struct element *e)
{
	const enum attr_id key = e->is_disk ? A_DEV : A_PATH;
	const char *tag = e->is_disk ? "disk" : "device";
	char esc[ESC_MAX];
	xmlAttrPtr a;

	/* the key attribute first: it names the element in messages */
	for (a = node->properties; a; a = a->next)
		if (!a->ns && attr_lookup(a) == key && !e->attr[key])
			e->attr[key] = attr_value(p, a);
	if (e->attr[key])
		snprintf(e->what, sizeof(e->what), "<blockio:%s %s='%s'>", tag,
			 attr_names[key], cfg_escape(e->attr[key], esc));
	else
		snprintf(e->what, sizeof(e->what), "<blockio:%s>", tag);

	for (a = node->properties; a; a = a->next) {
		enum attr_id id = attr_lookup(a);

		if (a->ns || id == A_COUNT ||
		    (id == A_DEV && !e->is_disk) || (id == A_PATH && e->is_disk)) {
			blockio_error_set(p->err, "unsupported attribute '%s' of %s",
					  cfg_qname(a->ns, a->name, esc), e->what);
			return -1;
		}
		if (!e->attr[id])
			e->attr[id] = attr_value(p, a);
	}
	if (!e->attr[key]) {
		blockio_error_set(p->err, "missing attribute '%s' of %s",
				  attr_names[key], e->what);
		return -1;
	}
	return 0;
}

static int bad_value(struct parse *p, const struct element *e,
		     enum attr_id id, const char *why)
{
	char esc[ESC_MAX];

	blockio_error_set(p->err, "invalid value '%s' for attribute '%s' of %s: %s",
			  cfg_escape(e->attr[id], esc), attr_names[id], e->what, why);
	return -1;
}

static int quantity(struct parse *p, const struct element *e, enum attr_id id,
		    enum blockio_quantity q, uint64_t *out)
{
	char why[512];

	*out = 0;
	if (!e->attr[id])
		return 0;
	if (blockio_parse_quantity(e->attr[id], q, out, why, sizeof(why)))
		return bad_value(p, e, id, why);
	return 0;
}

static bool valid_dev_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '.' ||
		      *s == '-'))
			return false;
	return true;
}

bool cfg_valid_path(const char *s)
{
	if (s[0] != '/' || strlen(s) > 4095)
		return false;
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			return false;
	/* C1 controls (U+0080..U+009F) are \p{Cc} for the schema too */
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if (c[0] == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f)
			return false;
	return true;
}

/*
 * Why a <disk> of @type has no host path blockio can cap, and what to do
 * instead.  blockio charges the I/O that QEMU's own threads send to a host
 * block device.  A network disk's I/O leaves QEMU over a socket (librbd,
 * libiscsi, gluster, NBD), through no host block device: a
 * <blockio:device> would be accepted and cap nothing.  A volume lives in a
 * storage pool that only libvirt can resolve, and a hook must not call
 * libvirt.
 */
static void unsupported_disk(struct parse *p, const struct element *e,
			     xmlNodePtr disk, const char *type)
{
	const char *dev = e->attr[A_DEV];
	char esc[ESC_MAX], esc2[ESC_MAX], esc3[ESC_MAX];

	if (!strcmp(type, "network")) {
		char *proto = cfg_xpath_string(p, disk, "string(source/@protocol)");

		blockio_error_set(p->err,
				  "%s: disk '%s' is a network disk (protocol '%s'): QEMU reaches it through no host block device, so blockio cannot cap it; use <iotune> in that <disk>, or attach the storage through the host kernel (rbd map, iscsiadm, nbd-client) as a <disk type='block'> and cap that",
				  e->what, cfg_escape(dev, esc),
				  cfg_escape(proto ? proto : "", esc2));
		free(proto);
	} else if (!strcmp(type, "volume")) {
		char *pool = cfg_xpath_string(p, disk, "string(source/@pool)");
		char *vol = cfg_xpath_string(p, disk, "string(source/@volume)");

		blockio_error_set(p->err,
				  "%s: disk '%s' is a storage pool volume (pool '%s', volume '%s'), which the hook cannot locate without calling libvirt; if the volume is a file or block device on a host disk, cap that disk with <blockio:device path='/dev/...'/>, otherwise (network storage) use <iotune> in that <disk>",
				  e->what, cfg_escape(dev, esc),
				  cfg_escape(pool ? pool : "", esc2),
				  cfg_escape(vol ? vol : "", esc3));
		free(pool);
		free(vol);
	} else {
		blockio_error_set(p->err,
				  "%s: disk '%s' is of type '%s': blockio caps only disks of type 'file' and 'block'; use <iotune> in that <disk>",
				  e->what, cfg_escape(dev, esc), cfg_escape(type, esc2));
	}
}

/*
 * The host path behind <disk><target dev=@dev/>: the source file of a
 * type='file' disk, the source device of a type='block' disk.
 */
static char *disk_source(struct parse *p, const struct element *e)
{
	const char *dev = e->attr[A_DEV];
	xmlXPathObjectPtr disks = cfg_xpath_nodes(p, NULL, "/domain/devices/disk");
	char *source = NULL, esc[ESC_MAX];
	bool found = false;

	for (size_t i = 0; i < cfg_nodeset_len(disks) && !found; i++) {
		xmlNodePtr disk = disks->nodesetval->nodeTab[i];
		char *target = cfg_xpath_string(p, disk, "string(target/@dev)");
		char *type;

		found = target && !strcmp(target, dev);
		free(target);
		if (!found)
			continue;
		type = cfg_xpath_string(p, disk, "string(@type)");
		if (type && !strcmp(type, "file"))
			source = cfg_xpath_string(p, disk, "string(source/@file)");
		else if (type && !strcmp(type, "block"))
			source = cfg_xpath_string(p, disk, "string(source/@dev)");
		else
			unsupported_disk(p, e, disk, type ? type : "");
		if (!source && !p->err->msg[0])
			blockio_error_set(p->err, "%s: disk '%s' has no source",
					  e->what, cfg_escape(dev, esc));
		free(type);
	}
	xmlXPathFreeObject(disks);
	if (!found)
		blockio_error_set(p->err,
				  "%s: the domain has no <disk> with <target dev='%s'/>",
				  e->what, cfg_escape(dev, esc));
	return source;
}

void cfg_add_rule(struct blockio_config *cfg, enum blockio_kind kind,
		     enum blockio_strategy strategy, uint64_t limit,
		     uint64_t bucket)
{
	struct blockio_rule *r;

	cfg->rules = xrealloc(cfg->rules, (cfg->nrules + 1) * sizeof(*r));
	r = &cfg->rules[cfg->nrules++];
	r->kind = kind;
	r->strategy = strategy;
	r->limit = limit;
	r->bucket = strategy == BLOCKIO_TOKEN ? (bucket ? bucket : limit) : 0;
	r->target = cfg->ntargets - 1;
}

void blockio_config_warn(struct blockio_config *cfg, const char *fmt, ...)
{
	va_list ap;
	char *w;

	va_start(ap, fmt);
	if (vasprintf(&w, fmt, ap) < 0)
		abort();
	va_end(ap);
	cfg->warnings = xrealloc(cfg->warnings,
				 (cfg->nwarnings + 1) * sizeof(char *));
	cfg->warnings[cfg->nwarnings++] = w;
}

/*
 * A bandwidth that is valid but likely not what was meant: a bare number
 * (bytes per second: bandwidth='8' is 8 B/s, not 8 MiB/s), or less than
 * QEMU's documentation calls safe for a disk.
 */
static void check_bandwidth(struct blockio_config *cfg, const struct element *e,
			    uint64_t bw)
{
	const char *text = e->attr[A_BANDWIDTH];
	size_t digits = strspn(text, "0123456789");
	bool unitless = !text[digits] || !strcmp(text + digits, "/s");
	bool low = bw < BLOCKIO_BANDWIDTH_SAFE;
	char esc[ESC_MAX], human[64];

	blockio_format_quantity(bw, BLOCKIO_Q_BANDWIDTH, human, sizeof(human));
	if (unitless && low && bw < 1024)	/* 8 for 8MiB/s, most likely */
		blockio_config_warn(cfg, "bandwidth='%s' of %s has no unit: it is read as bytes per second (%s), below 2 MB/s, the smallest cap QEMU's documentation calls safe for a disk (the guest's I/O may time out or hang); write the unit meant, e.g. %.*sMiB/s",
			    cfg_escape(text, esc), e->what, human, (int)digits, text);
	else if (unitless && low)
		blockio_config_warn(cfg, "bandwidth='%s' of %s has no unit: it is read as bytes per second (%s), below 2 MB/s, the smallest cap QEMU's documentation calls safe for a disk (the guest's I/O may time out or hang); write the unit meant",
			    cfg_escape(text, esc), e->what, human);
	else if (unitless)
		blockio_config_warn(cfg, "bandwidth='%s' of %s has no unit: it is read as bytes per second (%s); write %s to say so",
			    cfg_escape(text, esc), e->what, human, human);
	else if (low)
		blockio_config_warn(cfg, "bandwidth %s of %s is below 2 MB/s, the smallest cap QEMU's documentation calls safe for a disk: the guest's I/O may time out or hang",
			    human, e->what);
}

int cfg_parse_element(struct parse *p, xmlNodePtr node)
{
	struct blockio_config *cfg = p->cfg;
	struct element e = { .is_disk = !strcmp((const char *)node->name, "disk") };
	enum blockio_strategy strategy = BLOCKIO_LEAKY;
	uint64_t bw, bucket, iops, iops_bucket;
	struct blockio_target *t;
	char *path = NULL;
	int ret = -1;

	if (read_attrs(p, node, &e) || check_empty(p, node, e.what))
		goto out;
	if (e.is_disk && !valid_dev_name(e.attr[A_DEV])) {
		bad_value(p, &e, A_DEV, "not a disk target name");
		goto out;
	}
	if (!e.is_disk && !cfg_valid_path(e.attr[A_PATH])) {
		bad_value(p, &e, A_PATH, "not an absolute path");
		goto out;
	}
	if (quantity(p, &e, A_BANDWIDTH, BLOCKIO_Q_BANDWIDTH, &bw) ||
	    quantity(p, &e, A_IOPS, BLOCKIO_Q_IOPS, &iops))
		goto out;
	if (e.attr[A_STRATEGY]) {
		if (!strcmp(e.attr[A_STRATEGY], "token")) {
			strategy = BLOCKIO_TOKEN;
		} else if (strcmp(e.attr[A_STRATEGY], "leaky")) {
			bad_value(p, &e, A_STRATEGY, "expected 'leaky' or 'token'");
			goto out;
		}
	}
	if (quantity(p, &e, A_BUCKET, BLOCKIO_Q_BYTES, &bucket) ||
	    quantity(p, &e, A_IOPS_BUCKET, BLOCKIO_Q_OPS, &iops_bucket))
		goto out;
	if (!bw && !iops) {
		blockio_error_set(p->err, "%s sets neither 'bandwidth' nor 'iops'",
				  e.what);
		goto out;
	}
	if ((bucket || iops_bucket) && strategy != BLOCKIO_TOKEN) {
		blockio_error_set(p->err, "attribute '%s' of %s needs strategy='token'",
				  bucket ? "bucket" : "iops-bucket", e.what);
		goto out;
	}
	if ((bucket && !bw) || (iops_bucket && !iops)) {
		blockio_error_set(p->err, "attribute '%s' of %s needs attribute '%s'",
				  bucket && !bw ? "bucket" : "iops-bucket", e.what,
				  bucket && !bw ? "bandwidth" : "iops");
		goto out;
	}
	for (size_t i = 0; i < cfg->ntargets; i++) {
		if (!strcmp(cfg->targets[i].element, e.what)) {
			blockio_error_set(p->err, "duplicate %s", e.what);
			goto out;
		}
	}
	if (e.is_disk) {
		path = disk_source(p, &e);
		if (!path)
			goto out;
	} else {
		path = xstrdup(e.attr[A_PATH]);
	}

	cfg->targets = xrealloc(cfg->targets, (cfg->ntargets + 1) * sizeof(*t));
	t = &cfg->targets[cfg->ntargets++];
	memset(t, 0, sizeof(*t));
	t->element = xstrdup(e.what);
	t->path = path;
	t->disk = e.is_disk ? xstrdup(e.attr[A_DEV]) : NULL;
	t->must_be_block = !e.is_disk;
	if (bw) {
		cfg_add_rule(cfg, BLOCKIO_BANDWIDTH, strategy, bw, bucket);
		check_bandwidth(cfg, &e, bw);
	}
	if (iops)
		cfg_add_rule(cfg, BLOCKIO_IOPS, strategy, iops, iops_bucket);
	ret = 0;
out:
	element_free(&e);
	return ret;
}
