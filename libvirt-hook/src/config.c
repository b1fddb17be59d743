// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - a libvirt domain XML to a validated list of blockio rules.
 *
 * libxml2 parses (no recovery, no network, no DTD), XPath finds the pieces,
 * and every value goes through the checks below, which name the element,
 * attribute and value of the first problem.  The schema
 * (schema/blockio-limits.rng, embedded at build time) is the last gate: the
 * checks here are meant to reject everything it rejects, with a better
 * message, and the fuzz test holds both to an independent model.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>

#include "blockio.h"

#define ESC_MAX 160	/* an escaped value quoted in a message */
#define LIBXML_MSG_MAX 300	/* libxml2's message, as plain text */

/* Everything one parse needs. */
struct parse {
	xmlDocPtr doc;
	xmlXPathContextPtr xpath;
	struct blockio_config *cfg;
	struct blockio_error *err;
};

static const char *escape(const char *s, char buf[ESC_MAX])
{
	blockio_escape(s ? s : "", buf, ESC_MAX);
	return buf;
}

/* "prefix:name" of an element or attribute, escaped, for messages. */
static const char *qname(xmlNsPtr ns, const xmlChar *name, char buf[ESC_MAX])
{
	char raw[ESC_MAX];
	bool prefixed = ns && ns->prefix;

	snprintf(raw, sizeof(raw), "%s%s%s",
		 prefixed ? (const char *)ns->prefix : "", prefixed ? ":" : "",
		 (const char *)name);
	return escape(raw, buf);
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		abort();
	return p;
}

void blockio_config_free(struct blockio_config *cfg)
{
	for (size_t i = 0; i < cfg->ntargets; i++) {
		free(cfg->targets[i].element);
		free(cfg->targets[i].path);
		free(cfg->targets[i].disk);
		free(cfg->targets[i].devnode);
		free(cfg->targets[i].group);
		free(cfg->targets[i].warning);
	}
	free(cfg->targets);
	free(cfg->rules);
	for (size_t i = 0; i < cfg->nwarnings; i++)
		free(cfg->warnings[i]);
	free(cfg->warnings);
	free(cfg->name);
	memset(cfg, 0, sizeof(*cfg));
}

/* ---- reading the document --------------------------------------------- */

/* The first fatal (well-formedness) error of a parse: usually the cause;
 * the last one libxml2 keeps is often a consequence ("Premature end"). */
struct first_error {
	int line;
	char msg[LIBXML_MSG_MAX];
};

static void keep_first_fatal(void *user, xmlErrorPtr e)
{
	struct first_error *first = ((xmlParserCtxtPtr)user)->_private;

	if (first->msg[0] || !e || e->level != XML_ERR_FATAL)
		return;
	first->line = e->line;
	blockio_plain(e->message ? e->message : "unknown error", first->msg,
		      sizeof(first->msg));
}

static xmlDocPtr read_doc(const char *xml, size_t len,
			  struct blockio_error *err)
{
	struct first_error first = { 0, "" };
	xmlParserCtxtPtr ctxt;
	xmlDocPtr doc;

	if (len > BLOCKIO_XML_MAX) {
		blockio_error_set(err, "domain XML is larger than %d bytes",
				  BLOCKIO_XML_MAX);
		return NULL;
	}
	ctxt = xmlNewParserCtxt();
	if (!ctxt)
		abort();
	ctxt->_private = &first;
	ctxt->sax->serror = keep_first_fatal;	/* called with ctxt->userData = ctxt */
	/* No XML_PARSE_NOENT or DTDLOAD: entities stay unexpanded. */
	doc = xmlCtxtReadMemory(ctxt, xml, (int)len, "domain.xml", NULL,
				XML_PARSE_NONET | XML_PARSE_NOERROR |
				XML_PARSE_NOWARNING);
	if (!doc || !ctxt->wellFormed) {
		xmlErrorPtr e = xmlCtxtGetLastError(ctxt);

		if (!first.msg[0]) {
			first.line = e ? e->line : 0;
			blockio_plain(e && e->message ? e->message : "unknown error",
				      first.msg, sizeof(first.msg));
		}
		blockio_error_set(err,
				  "domain XML is not well-formed: line %d: %s",
				  first.line, first.msg);
		xmlFreeDoc(doc);
		doc = NULL;
	} else if (doc->intSubset || doc->extSubset) {
		blockio_error_set(err, "domain XML with a <!DOCTYPE> is not accepted");
		xmlFreeDoc(doc);
		doc = NULL;
	}
	xmlFreeParserCtxt(ctxt);
	return doc;
}

/* The string value of XPath @expr relative to @node; NULL if empty. */
static char *xpath_string(struct parse *p, xmlNodePtr node, const char *expr)
{
	xmlXPathObjectPtr obj;
	char *s = NULL;

	p->xpath->node = node;
	obj = xmlXPathEvalExpression(BAD_CAST expr, p->xpath);
	if (obj && obj->type == XPATH_STRING && obj->stringval &&
	    obj->stringval[0])
		s = xstrdup((const char *)obj->stringval);
	xmlXPathFreeObject(obj);
	return s;
}

/* The nodes XPath @expr selects relative to @node (may be empty). */
static xmlXPathObjectPtr xpath_nodes(struct parse *p, xmlNodePtr node,
				     const char *expr)
{
	xmlXPathObjectPtr obj;

	p->xpath->node = node;
	obj = xmlXPathEvalExpression(BAD_CAST expr, p->xpath);
	if (!obj || obj->type != XPATH_NODESET)
		abort();	/* our own expressions are all node sets */
	return obj;
}

static size_t nodeset_len(xmlXPathObjectPtr obj)
{
	return obj->nodesetval ? (size_t)obj->nodesetval->nodeNr : 0;
}

static int open_domain(struct parse *p, const char *xml, size_t len)
{
	xmlNodePtr root;
	char *uuid;
	char esc[ESC_MAX];

	p->doc = read_doc(xml, len, p->err);
	if (!p->doc)
		return -1;
	root = xmlDocGetRootElement(p->doc);
	if (!root || root->ns || strcmp((const char *)root->name, "domain")) {
		blockio_error_set(p->err,
				  "not a libvirt domain XML: the root element is <%s>",
				  escape(root ? (const char *)root->name : "", esc));
		return -1;
	}
	p->xpath = xmlXPathNewContext(p->doc);
	if (!p->xpath)
		abort();

	p->cfg->name = xpath_string(p, root, "string(/domain/name)");
	uuid = xpath_string(p, root, "string(/domain/uuid)");
	if (uuid && blockio_uuid_parse(uuid, p->cfg->uuid)) {
		blockio_error_set(p->err, "invalid value '%s' of <uuid>",
				  escape(uuid, esc));
		free(uuid);
		return -1;
	}
	free(uuid);
	return 0;
}

static void close_domain(struct parse *p)
{
	xmlXPathFreeContext(p->xpath);
	xmlFreeDoc(p->doc);
}

int blockio_domain_identity(const char *xml, size_t len,
			    struct blockio_config *cfg,
			    struct blockio_error *err)
{
	struct parse p = { .cfg = cfg, .err = err };
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	ret = open_domain(&p, xml, len);
	close_domain(&p);
	if (ret)
		blockio_config_free(cfg);
	return ret;
}

int blockio_status_pid(const char *xml, size_t len, pid_t *pid)
{
	struct blockio_error err;
	struct parse p = { .err = &err };
	char *s = NULL, *end;
	long v = 0;

	p.doc = read_doc(xml, len, &err);
	if (p.doc) {
		p.xpath = xmlXPathNewContext(p.doc);
		if (!p.xpath)
			abort();
		s = xpath_string(&p, NULL, "string(/domstatus/@pid)");
	}
	close_domain(&p);
	if (s && *s >= '0' && *s <= '9') {
		errno = 0;
		v = strtol(s, &end, 10);
		if (errno || *end || v > INT_MAX)
			v = 0;
	}
	free(s);
	if (v < 2)
		return -1;
	*pid = (pid_t)v;
	return 0;
}

bool blockio_status_libvirt_limited(const char *xml, size_t len)
{
#define LIMIT_NAMES "self::total_bytes_sec or self::read_bytes_sec or " \
	"self::write_bytes_sec or self::total_iops_sec or " \
	"self::read_iops_sec or self::write_iops_sec"
	static const char expr[] =
		"boolean(/domstatus/domain[not(metadata/*[namespace-uri() = '"
		BLOCKIO_NS_URI "'])]"
		"[devices/disk[@type = 'file' or @type = 'block']/iotune/*"
		"[" LIMIT_NAMES "][number(.) > 0]"
		" or blkiotune/device/*[" LIMIT_NAMES "][number(.) > 0]])";
#undef LIMIT_NAMES
	struct blockio_error err;
	struct parse p = { .err = &err };
	bool limited = false;

	p.doc = read_doc(xml, len, &err);
	if (p.doc) {
		xmlXPathObjectPtr obj;

		p.xpath = xmlXPathNewContext(p.doc);
		if (!p.xpath)
			abort();
		obj = xmlXPathEvalExpression(BAD_CAST expr, p.xpath);
		limited = obj && obj->type == XPATH_BOOLEAN && obj->boolval;
		xmlXPathFreeObject(obj);
	}
	close_domain(&p);
	return limited;
}

int blockio_status_identity(const char *xml, size_t len,
			    struct blockio_config *cfg,
			    struct blockio_error *err)
{
	struct parse p = { .cfg = cfg, .err = err };
	char *uuid = NULL;
	int ret = -1;

	memset(cfg, 0, sizeof(*cfg));
	p.doc = read_doc(xml, len, err);
	if (p.doc) {
		p.xpath = xmlXPathNewContext(p.doc);
		if (!p.xpath)
			abort();
		cfg->name = xpath_string(&p, NULL, "string(/domstatus/domain/name)");
		uuid = xpath_string(&p, NULL, "string(/domstatus/domain/uuid)");
		if (!cfg->name || !uuid)
			blockio_error_set(err, "not a libvirt status XML with a domain name and UUID");
		else if (blockio_uuid_parse(uuid, cfg->uuid))
			blockio_error_set(err, "invalid <uuid> in status XML");
		else
			ret = 0;
	}
	free(uuid);
	close_domain(&p);
	if (ret)
		blockio_config_free(cfg);
	return ret;
}

/* ---- what else the domain says about disk I/O (for blockioctl) ----------- */

/* "name=value, ..." of the element children of @node, except @skip. */
static char *element_list(xmlNodePtr node, const char *skip)
{
	char *out = NULL;
	size_t len = 0;

	for (xmlNodePtr c = node->children; c; c = c->next) {
		xmlChar *v;
		char esc[ESC_MAX], esc2[ESC_MAX];
		size_t n;

		if (c->type != XML_ELEMENT_NODE ||
		    (skip && !strcmp((const char *)c->name, skip)))
			continue;
		v = xmlNodeGetContent(c);
		escape((const char *)c->name, esc);
		escape(v ? (const char *)v : "", esc2);
		xmlFree(v);
		n = strlen(esc) + strlen(esc2) + 4;
		out = xrealloc(out, len + n + 1);
		len += (size_t)snprintf(out + len, n + 1, "%s%s=%s",
					len ? ", " : "", esc, esc2);
	}
	return out;
}

static char *node_source(struct parse *p, xmlNodePtr node)
{
	char *type = xpath_string(p, node, "string(@type)");
	char *src = NULL;

	if (type && !strcmp(type, "file"))
		src = xpath_string(p, node, "string(source/@file)");
	else if (type && !strcmp(type, "block"))
		src = xpath_string(p, node, "string(source/@dev)");
	free(type);
	return src;
}

static void read_disk(struct parse *p, xmlNodePtr node, struct blockio_disk *d)
{
	xmlXPathObjectPtr tune;
	xmlNodePtr bs = node;

	d->dev = xpath_string(p, node, "string(target/@dev)");
	if (!d->dev)
		d->dev = xstrdup("");
	d->type = xpath_string(p, node, "string(@type)");
	if (!d->type)
		d->type = xstrdup("");
	d->source = node_source(p, node);
	d->format = xpath_string(p, node, "string(driver/@type)");
	/* <backingStore type='file'><format/><source/><backingStore .../> */
	for (;;) {
		xmlXPathObjectPtr next = xpath_nodes(p, bs, "backingStore");
		char *src;

		bs = nodeset_len(next) ? next->nodesetval->nodeTab[0] : NULL;
		xmlXPathFreeObject(next);
		if (!bs)
			break;
		d->chain_known = true;
		src = node_source(p, bs);
		if (!src) {
			/* <backingStore/> ends the chain; a network one does not */
			d->backing_other = xpath_string(p, bs, "string(@type)");
			if (d->backing_other && !d->backing_other[0]) {
				free(d->backing_other);
				d->backing_other = NULL;
			}
			break;
		}
		d->backing = xrealloc(d->backing, (d->nbacking + 1) * sizeof(char *));
		d->backing[d->nbacking++] = src;
	}
	tune = xpath_nodes(p, node, "iotune");
	if (nodeset_len(tune))
		d->iotune = element_list(tune->nodesetval->nodeTab[0], NULL);
	xmlXPathFreeObject(tune);
}

int blockio_domain_io_parse(const char *xml, size_t len,
			    struct blockio_domain_io *io,
			    struct blockio_error *err)
{
	struct blockio_config cfg = { 0 };
	struct parse p = { .cfg = &cfg, .err = err };
	xmlXPathObjectPtr set;

	memset(io, 0, sizeof(*io));
	if (open_domain(&p, xml, len)) {
		close_domain(&p);
		blockio_config_free(&cfg);
		return -1;
	}
	set = xpath_nodes(&p, NULL, "/domain/devices/disk");
	io->ndisks = nodeset_len(set);
	io->disks = calloc(io->ndisks ? io->ndisks : 1, sizeof(*io->disks));
	if (!io->disks)
		abort();
	for (size_t i = 0; i < io->ndisks; i++)
		read_disk(&p, set->nodesetval->nodeTab[i], &io->disks[i]);
	xmlXPathFreeObject(set);

	set = xpath_nodes(&p, NULL, "/domain/blkiotune/device");
	io->ntunes = nodeset_len(set);
	io->tunes = calloc(io->ntunes ? io->ntunes : 1, sizeof(*io->tunes));
	if (!io->tunes)
		abort();
	for (size_t i = 0; i < io->ntunes; i++) {
		xmlNodePtr dev = set->nodesetval->nodeTab[i];

		io->tunes[i].path = xpath_string(&p, dev, "normalize-space(path)");
		if (!io->tunes[i].path)
			io->tunes[i].path = xstrdup("");
		io->tunes[i].limits = element_list(dev, "path");
		if (!io->tunes[i].limits)
			io->tunes[i].limits = xstrdup("");
	}
	xmlXPathFreeObject(set);
	close_domain(&p);
	blockio_config_free(&cfg);
	return 0;
}

void blockio_domain_io_free(struct blockio_domain_io *io)
{
	for (size_t i = 0; i < io->ndisks; i++) {
		struct blockio_disk *d = &io->disks[i];

		free(d->dev);
		free(d->type);
		free(d->source);
		free(d->format);
		for (size_t j = 0; j < d->nbacking; j++)
			free(d->backing[j]);
		free(d->backing);
		free(d->backing_other);
		free(d->iotune);
	}
	free(io->disks);
	for (size_t i = 0; i < io->ntunes; i++) {
		free(io->tunes[i].path);
		free(io->tunes[i].limits);
	}
	free(io->tunes);
	memset(io, 0, sizeof(*io));
}

/* ---- the schema gate ----------------------------------------------------- */

static void keep_first_error(void *data, xmlErrorPtr e)
{
	struct blockio_error *err = data;
	char msg[LIBXML_MSG_MAX];

	if (err->msg[0] || !e)
		return;
	blockio_plain(e->message ? e->message : "invalid", msg, sizeof(msg));
	blockio_error_set(err,
			  "<blockio:limits> does not match blockio-limits.rng: line %d: %s",
			  e->line, msg);
}

static xmlRelaxNGPtr schema(struct blockio_error *err)
{
	static xmlRelaxNGPtr compiled;
	xmlRelaxNGParserCtxtPtr ctxt;

	if (compiled)
		return compiled;
	ctxt = xmlRelaxNGNewMemParserCtxt((const char *)blockio_schema_rng,
					  (int)blockio_schema_rng_len);
	if (!ctxt)
		abort();
	xmlRelaxNGSetParserStructuredErrors(ctxt, keep_first_error, err);
	compiled = xmlRelaxNGParse(ctxt);
	xmlRelaxNGFreeParserCtxt(ctxt);
	if (!compiled) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		blockio_error_set(err, "internal error: the embedded schema does not compile: %s",
				  why);
	}
	return compiled;
}

static int validate_schema(struct parse *p, xmlNodePtr limits)
{
	xmlRelaxNGPtr rng = schema(p->err);
	xmlRelaxNGValidCtxtPtr ctxt;
	xmlDocPtr doc;
	int rc;

	if (!rng)
		return -1;
	doc = xmlNewDoc(BAD_CAST "1.0");
	if (!doc)
		abort();
	xmlDocSetRootElement(doc, xmlDocCopyNode(limits, doc, 1));
	ctxt = xmlRelaxNGNewValidCtxt(rng);
	if (!ctxt)
		abort();
	xmlRelaxNGSetValidStructuredErrors(ctxt, keep_first_error, p->err);
	rc = xmlRelaxNGValidateDoc(ctxt, doc);
	xmlRelaxNGFreeValidCtxt(ctxt);
	xmlFreeDoc(doc);
	if (rc && !p->err->msg[0])
		blockio_error_set(p->err, "<blockio:limits> does not match blockio-limits.rng");
	return rc ? -1 : 0;
}

/* ---- <blockio:disk> and <blockio:device> ------------------------------ */

static bool is_ours(xmlNodePtr node)
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
static int check_child(struct parse *p, xmlNodePtr c, const char *what,
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
				  escape((const char *)c->content, esc), what);
		return -1;
	case XML_ELEMENT_NODE:
		if (want && want(c))
			return 1;
		blockio_error_set(p->err, "unexpected element <%s> in %s",
				  qname(c->ns, c->name, esc), what);
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
		if (check_child(p, c, what, NULL))
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
			 attr_names[key], escape(e->attr[key], esc));
	else
		snprintf(e->what, sizeof(e->what), "<blockio:%s>", tag);

	for (a = node->properties; a; a = a->next) {
		enum attr_id id = attr_lookup(a);

		if (a->ns || id == A_COUNT ||
		    (id == A_DEV && !e->is_disk) || (id == A_PATH && e->is_disk)) {
			blockio_error_set(p->err, "unsupported attribute '%s' of %s",
					  qname(a->ns, a->name, esc), e->what);
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
			  escape(e->attr[id], esc), attr_names[id], e->what, why);
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

static bool valid_path(const char *s)
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
		char *proto = xpath_string(p, disk, "string(source/@protocol)");

		blockio_error_set(p->err,
				  "%s: disk '%s' is a network disk (protocol '%s'): QEMU reaches it through no host block device, so blockio cannot cap it; use <iotune> in that <disk>, or attach the storage through the host kernel (rbd map, iscsiadm, nbd-client) as a <disk type='block'> and cap that",
				  e->what, escape(dev, esc),
				  escape(proto ? proto : "", esc2));
		free(proto);
	} else if (!strcmp(type, "volume")) {
		char *pool = xpath_string(p, disk, "string(source/@pool)");
		char *vol = xpath_string(p, disk, "string(source/@volume)");

		blockio_error_set(p->err,
				  "%s: disk '%s' is a storage pool volume (pool '%s', volume '%s'), which the hook cannot locate without calling libvirt; if the volume is a file or block device on a host disk, cap that disk with <blockio:device path='/dev/...'/>, otherwise (network storage) use <iotune> in that <disk>",
				  e->what, escape(dev, esc),
				  escape(pool ? pool : "", esc2),
				  escape(vol ? vol : "", esc3));
		free(pool);
		free(vol);
	} else {
		blockio_error_set(p->err,
				  "%s: disk '%s' is of type '%s': blockio caps only disks of type 'file' and 'block'; use <iotune> in that <disk>",
				  e->what, escape(dev, esc), escape(type, esc2));
	}
}

/*
 * The host path behind <disk><target dev=@dev/>: the source file of a
 * type='file' disk, the source device of a type='block' disk.
 */
static char *disk_source(struct parse *p, const struct element *e)
{
	const char *dev = e->attr[A_DEV];
	xmlXPathObjectPtr disks = xpath_nodes(p, NULL, "/domain/devices/disk");
	char *source = NULL, esc[ESC_MAX];
	bool found = false;

	for (size_t i = 0; i < nodeset_len(disks) && !found; i++) {
		xmlNodePtr disk = disks->nodesetval->nodeTab[i];
		char *target = xpath_string(p, disk, "string(target/@dev)");
		char *type;

		found = target && !strcmp(target, dev);
		free(target);
		if (!found)
			continue;
		type = xpath_string(p, disk, "string(@type)");
		if (type && !strcmp(type, "file"))
			source = xpath_string(p, disk, "string(source/@file)");
		else if (type && !strcmp(type, "block"))
			source = xpath_string(p, disk, "string(source/@dev)");
		else
			unsupported_disk(p, e, disk, type ? type : "");
		if (!source && !p->err->msg[0])
			blockio_error_set(p->err, "%s: disk '%s' has no source",
					  e->what, escape(dev, esc));
		free(type);
	}
	xmlXPathFreeObject(disks);
	if (!found)
		blockio_error_set(p->err,
				  "%s: the domain has no <disk> with <target dev='%s'/>",
				  e->what, escape(dev, esc));
	return source;
}

static void add_rule(struct blockio_config *cfg, enum blockio_kind kind,
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
			    escape(text, esc), e->what, human, (int)digits, text);
	else if (unitless && low)
		blockio_config_warn(cfg, "bandwidth='%s' of %s has no unit: it is read as bytes per second (%s), below 2 MB/s, the smallest cap QEMU's documentation calls safe for a disk (the guest's I/O may time out or hang); write the unit meant",
			    escape(text, esc), e->what, human);
	else if (unitless)
		blockio_config_warn(cfg, "bandwidth='%s' of %s has no unit: it is read as bytes per second (%s); write %s to say so",
			    escape(text, esc), e->what, human, human);
	else if (low)
		blockio_config_warn(cfg, "bandwidth %s of %s is below 2 MB/s, the smallest cap QEMU's documentation calls safe for a disk: the guest's I/O may time out or hang",
			    human, e->what);
}

static int parse_element(struct parse *p, xmlNodePtr node)
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
	if (!e.is_disk && !valid_path(e.attr[A_PATH])) {
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
		add_rule(cfg, BLOCKIO_BANDWIDTH, strategy, bw, bucket);
		check_bandwidth(cfg, &e, bw);
	}
	if (iops)
		add_rule(cfg, BLOCKIO_IOPS, strategy, iops, iops_bucket);
	ret = 0;
out:
	element_free(&e);
	return ret;
}

/* ---- <blockio:limits> ------------------------------------------------------ */

/*
 * Lookalikes.  An element that an admin may have meant as blockio's caps
 * but that blockio would not read is an error, never "not capped": ignoring
 * it would start the VM uncapped without a word.  A child of <metadata>
 * outside our namespace is meant as ours when
 *
 *  - its namespace URI is close to BLOCKIO_NS_URI (close_uri()): read as a
 *    person reads it (Unicode lookalikes as the ASCII letter they imitate,
 *    invisible characters dropped, any case, white space at either end
 *    ignored), it is at most LOOKALIKE_EDITS edits from ours, or its host,
 *    whatever the scheme (or none, or a URN), names blockio or is at most
 *    two edits from blockio.dev;
 *  - its prefix is "blockio", whatever namespace it is bound to;
 *  - it holds a <disk> or <device> with one of our attributes (bandwidth,
 *    iops, ...), whatever its own name and namespace;
 *  - it has no namespace and is named <limits>, or <blockio:limits> with
 *    the prefix never declared.
 *
 * And an element of our namespace, or a close one, anywhere but as a
 * child of <metadata> (inside another application's element, say) is
 * an error too: blockio reads only the children of <metadata>.
 *
 * libvirt itself drops the children of <metadata> that have no namespace
 * when it defines a domain, so the hook never sees those: blockioctl check
 * on the admin's file does.
 */
#define LOOKALIKE_EDITS	3
#define SKELETON_MAX	256	/* a longer URI is not close to ours */

/* The code point at *@s (UTF-8, as libxml2 hands it), advancing *@s. */
static uint32_t next_cp(const unsigned char **s)
{
	const unsigned char *p = *s;
	uint32_t cp;
	int n;

	if (p[0] < 0x80) {
		*s = p + 1;
		return p[0];
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 1;
		cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 2;
		cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 3;
		cp = p[0] & 0x07;
	} else {
		*s = p + 1;
		return 0xfffd;
	}
	for (int i = 1; i <= n; i++) {
		if ((p[i] & 0xc0) != 0x80) {	/* also stops at the NUL */
			*s = p + i;
			return 0xfffd;
		}
		cp = cp << 6 | (p[i] & 0x3f);
	}
	*s = p + n + 1;
	return cp;
}

/*
 * The ASCII character code point @cp passes for, lower case: ' ' for a
 * space, 0 for an invisible one (dropped), -1 for none.  Letters of
 * other scripts that look like Latin ones (Cyrillic, Greek), fullwidth
 * forms, mathematical letters and digits, dashes, dots, slashes, colons.
 */
static int fold_cp(uint32_t cp)
{
	static const struct {
		uint16_t cp;
		char c;
	} like[] = {
		{ 0x0131, 'i' }, { 0x0269, 'i' },
		{ 0x0391, 'a' }, { 0x0392, 'b' }, { 0x0395, 'e' }, { 0x0396, 'z' },
		{ 0x0397, 'h' }, { 0x0399, 'i' }, { 0x039a, 'k' }, { 0x039c, 'm' },
		{ 0x039d, 'n' }, { 0x039f, 'o' }, { 0x03a1, 'p' }, { 0x03a4, 't' },
		{ 0x03a5, 'y' }, { 0x03a7, 'x' }, { 0x03b1, 'a' }, { 0x03b9, 'i' },
		{ 0x03ba, 'k' }, { 0x03bd, 'v' }, { 0x03bf, 'o' }, { 0x03c1, 'p' },
		{ 0x03c4, 't' }, { 0x03c5, 'u' },
		{ 0x0405, 's' }, { 0x0406, 'i' }, { 0x0408, 'j' }, { 0x0410, 'a' },
		{ 0x0412, 'b' }, { 0x0415, 'e' }, { 0x041a, 'k' }, { 0x041c, 'm' },
		{ 0x041d, 'h' }, { 0x041e, 'o' }, { 0x0420, 'p' }, { 0x0421, 'c' },
		{ 0x0422, 't' }, { 0x0425, 'x' }, { 0x0430, 'a' }, { 0x0435, 'e' },
		{ 0x043a, 'k' }, { 0x043e, 'o' }, { 0x0440, 'p' }, { 0x0441, 'c' },
		{ 0x0443, 'y' }, { 0x0445, 'x' }, { 0x0455, 's' }, { 0x0456, 'i' },
		{ 0x0458, 'j' }, { 0x04bb, 'h' }, { 0x0501, 'd' }, { 0x051b, 'q' },
		{ 0x051d, 'w' },
		{ 0x2010, '-' }, { 0x2011, '-' }, { 0x2012, '-' }, { 0x2013, '-' },
		{ 0x2014, '-' }, { 0x2015, '-' }, { 0x2212, '-' },
		{ 0x2024, '.' }, { 0x3002, '.' }, { 0xff61, '.' },
		{ 0x2044, '/' }, { 0x2215, '/' }, { 0x29f8, '/' },
		{ 0x2236, ':' }, { 0xa789, ':' },
		{ 0x2113, 'l' }, { 0x2170, 'i' }, { 0x217c, 'l' },
	};

	if (cp == '\t' || cp == '\n' || cp == '\r')
		return ' ';
	if (cp < 0x80)
		return cp >= 'A' && cp <= 'Z' ? (int)(cp - 'A' + 'a') : (int)cp;
	if (cp == 0x00a0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) ||
	    cp == 0x2028 || cp == 0x2029 || cp == 0x202f || cp == 0x205f ||
	    cp == 0x3000)
		return ' ';
	if (cp == 0x00ad || cp == 0x034f || cp == 0x061c ||
	    (cp >= 0x180b && cp <= 0x180f) || (cp >= 0x200b && cp <= 0x200f) ||
	    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x206f) ||
	    (cp >= 0xfe00 && cp <= 0xfe0f) || cp == 0xfeff ||
	    (cp >= 0xe0000 && cp <= 0xe0fff))
		return 0;
	if (cp >= 0xff01 && cp <= 0xff5e)	/* fullwidth ASCII */
		return fold_cp(cp - 0xfee0);
	if (cp >= 0x1d400 && cp <= 0x1d6a3)	/* mathematical A-Z a-z */
		return 'a' + (int)((cp - 0x1d400) % 52 % 26);
	if (cp >= 0x1d7ce && cp <= 0x1d7ff)	/* mathematical digits */
		return '0' + (int)((cp - 0x1d7ce) % 10);
	for (size_t i = 0; i < sizeof(like) / sizeof(like[0]); i++)
		if (like[i].cp == cp)
			return like[i].c;
	return -1;
}

/*
 * @uri (at most SKELETON_MAX bytes) as a person reads it, into @out:
 * lower-case ASCII, lookalikes folded, invisible characters dropped,
 * white space at either end removed; any other non-ASCII character
 * becomes \x01, one edit from anything.
 */
static void skeleton(const char *uri, char out[SKELETON_MAX + 1])
{
	const unsigned char *s = (const unsigned char *)uri;
	size_t o = 0;

	while (*s) {
		int c = fold_cp(next_cp(&s));

		if (!c || (c == ' ' && !o))
			continue;
		out[o++] = c < 0 ? '\x01' : (char)c;	/* never more than strlen(uri) */
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
}

/* Levenshtein distance of @a and @b, each at most SKELETON_MAX long. */
static size_t edits(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[SKELETON_MAX + 1];

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* Is namespace URI @href (not ours) close to ours?  See above. */
static bool close_uri(const char *href)
{
	char sk[SKELETON_MAX + 1], host[SKELETON_MAX + 1];
	const char *h;
	size_t n;

	if (strlen(href) > SKELETON_MAX)
		return false;
	skeleton(href, sk);
	if (edits(sk, BLOCKIO_NS_URI) <= LOOKALIKE_EDITS)
		return true;
	/* the host: after a scheme ("https:", "urn:") if any, and slashes */
	h = sk;
	n = strspn(sk, "abcdefghijklmnopqrstuvwxyz0123456789+-.");
	if (n && sk[n] == ':' && sk[0] >= 'a' && sk[0] <= 'z')
		h = sk + n + 1;
	h += strspn(h, "/\\");
	n = strcspn(h, "/\\?#:");
	memcpy(host, h, n);
	while (n && host[n - 1] == '.')
		n--;
	host[n] = '\0';
	return strstr(host, "blockio") || edits(host, "blockio.dev") <= 2;
}

/* Why namespace @href, close to ours, is not ours, when not obvious. */
static void uri_hint(const char *href, char *out, size_t len)
{
	const unsigned char *s = (const unsigned char *)href;
	size_t n = strlen(href);

	out[0] = '\0';
	for (size_t i = 1; *s; i++) {
		uint32_t cp = next_cp(&s);

		if (cp >= 0x80) {
			snprintf(out, len, "; its character %zu is U+%04X, not ASCII: type the URI anew",
				 i, (unsigned)cp);
			return;
		}
	}
	if (n && (strchr(" \t\r\n", href[0]) || strchr(" \t\r\n", href[n - 1])))
		snprintf(out, len, "; white space at the start or end of a namespace URI counts");
	else if (!strcasecmp(href, BLOCKIO_NS_URI))
		snprintf(out, len, "; namespace URIs are compared exactly, case included");
}

/* An element without a namespace, or a prefixed one: its local name. */
static const char *local_name(xmlNodePtr n)
{
	const char *name = (const char *)n->name;
	const char *colon = n->ns ? NULL : strrchr(name, ':');

	return colon ? colon + 1 : name;
}

/*
 * Does @n hold a <disk> or <device> (any namespace, any case) with one of
 * our attributes?  Then say which in @out: "<qos:disk> with attribute
 * 'bandwidth'".
 */
static bool shaped_like_ours(xmlNodePtr n, char *out, size_t len)
{
	static const char *const ours[] = {
		"bandwidth", "iops", "bucket", "iops-bucket", "strategy",
	};

	for (xmlNodePtr c = n->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE ||
		    (strcasecmp(local_name(c), "disk") &&
		     strcasecmp(local_name(c), "device")))
			continue;
		for (xmlAttrPtr a = c->properties; a; a = a->next) {
			const char *an = (const char *)a->name;
			const char *colon = a->ns ? NULL : strrchr(an, ':');
			char esc[ESC_MAX], esc2[ESC_MAX];

			if (colon)
				an = colon + 1;
			for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++) {
				if (strcasecmp(an, ours[i]))
					continue;
				snprintf(out, len, "<%s> with attribute '%s'",
					 qname(c->ns, c->name, esc), escape(an, esc2));
				return true;
			}
		}
	}
	return false;
}

/*
 * An element without a namespace that looks like ours: <limits>, or a
 * prefixed name whose prefix was never declared (<blockio:limits> without
 * xmlns:blockio; libxml2 keeps "blockio:limits" as its name).
 */
static bool lookalike_plain(xmlNodePtr n)
{
	const char *name = (const char *)n->name;

	return !n->ns && (!strcmp(local_name(n), "limits") ||
			  !strncasecmp(name, BLOCKIO_NS_PREFIX ":",
				       strlen(BLOCKIO_NS_PREFIX ":")));
}

/*
 * If child @n of <metadata> (not of our namespace) looks like ours, set
 * the error naming what was found and the URI expected, and return true.
 */
static bool lookalike(struct parse *p, xmlNodePtr n)
{
	const char *name = (const char *)n->name;
	const char *colon = strchr(name, ':');
	const char *href = n->ns && n->ns->href ? (const char *)n->ns->href : NULL;
	char esc[ESC_MAX], esc2[ESC_MAX], shape[2 * ESC_MAX + 40];
	char holds[sizeof(shape) + 64] = "", hint[96] = "";
	char undeclared[ESC_MAX + 40] = "";
	bool close = href && close_uri(href);
	bool prefix = n->ns && n->ns->prefix &&
		      !strcasecmp((const char *)n->ns->prefix, BLOCKIO_NS_PREFIX);
	bool named = !n->ns && lookalike_plain(n);
	bool shaped = shaped_like_ours(n, shape, sizeof(shape));

	if (!close && !prefix && !named && !shaped)
		return false;
	if (shaped && !close && !prefix && !named)
		snprintf(holds, sizeof(holds),
			 " holds %s as <blockio:limits> does, but", shape);
	if (n->ns) {
		if (close)
			uri_hint(href, hint, sizeof(hint));
		blockio_error_set(p->err,
				  "<%s> in <metadata>%s has namespace '%s'; blockio reads only '%s', so its caps would be ignored%s",
				  qname(n->ns, n->name, esc), holds,
				  escape(href, esc2), BLOCKIO_NS_URI, hint);
		return true;
	}
	if (colon) {
		char pfx[ESC_MAX];

		snprintf(pfx, sizeof(pfx), "%.*s", (int)(colon - name), name);
		snprintf(undeclared, sizeof(undeclared),
			 " (prefix '%s' is not declared)", escape(pfx, esc2));
	}
	blockio_error_set(p->err,
			  "<%s> in <metadata>%s has no namespace%s; blockio reads only <limits> in namespace '%s', e.g. <blockio:limits xmlns:blockio='%s'>, so its caps would be ignored",
			  escape(name, esc), holds, undeclared, BLOCKIO_NS_URI,
			  BLOCKIO_NS_URI);
	return true;
}

/* The next element after @n in document order below @top, NULL at the end. */
static xmlNodePtr next_element(xmlNodePtr n, xmlNodePtr top, bool descend)
{
	if (descend)
		for (xmlNodePtr c = n->children; c; c = c->next)
			if (c->type == XML_ELEMENT_NODE)
				return c;
	for (; n && n != top; n = n->parent)
		for (xmlNodePtr s = n->next; s; s = s->next)
			if (s->type == XML_ELEMENT_NODE)
				return s;
	return NULL;
}

/*
 * An element of our namespace, or a close one, that is not a child of
 * <metadata> (the children of our own <blockio:limits> are
 * parse_limits()'s to judge): set the error and return -1.
 */
static bool is_metadata(xmlNodePtr n, xmlNodePtr root)
{
	return n && n->type == XML_ELEMENT_NODE && n->parent == root &&
	       !n->ns && !strcmp((const char *)n->name, "metadata");
}

static int misplaced(struct parse *p, xmlNodePtr root)
{
	xmlNodePtr first = NULL;

	/* libvirt reads only the first <metadata> (metadata[1]) */
	for (xmlNodePtr c = root->children; c && !first; c = c->next)
		if (is_metadata(c, root))
			first = c;
	for (xmlNodePtr n = next_element(root, root, true); n;) {
		xmlNodePtr parent = n->parent;
		bool in_metadata = parent == first && first;
		bool ours = is_ours(n);
		char esc[ESC_MAX], esc2[ESC_MAX], esc3[ESC_MAX], also[ESC_MAX + 40] = "";

		if (in_metadata) {
			/* a child of <metadata>: find_limits() judged it */
			n = next_element(n, root, !ours);
			continue;
		}
		if (!ours && !(n->ns && n->ns->href &&
			       close_uri((const char *)n->ns->href))) {
			n = next_element(n, root, true);
			continue;
		}
		if (!ours)
			snprintf(also, sizeof(also), " and has namespace '%s'",
				 escape((const char *)n->ns->href, esc3));
		if (is_metadata(parent, root)) {
			blockio_error_set(p->err,
					  "<%s> is in a second <metadata>%s; libvirt keeps only the first <metadata>, so its caps would be ignored: move it there",
					  qname(n->ns, n->name, esc), also);
			return -1;
		}
		blockio_error_set(p->err,
				  "<%s> in <%s> is not a child of <metadata>%s; blockio reads only <limits> in namespace '%s' as a child of <metadata>, so its caps would be ignored",
				  qname(n->ns, n->name, esc),
				  qname(parent->ns, parent->name, esc2), also,
				  BLOCKIO_NS_URI);
		return -1;
	}
	return 0;
}

/* The one <blockio:limits> of the domain, NULL if none (or on error). */
static xmlNodePtr find_limits(struct parse *p)
{
	xmlXPathObjectPtr meta = xpath_nodes(p, NULL, "/domain/metadata[1]/*");
	xmlNodePtr limits = NULL;
	char esc[ESC_MAX];
	int ret = 0;

	for (size_t i = 0; i < nodeset_len(meta) && !ret; i++) {
		xmlNodePtr n = meta->nodesetval->nodeTab[i];

		if (!is_ours(n)) {
			if (lookalike(p, n))
				ret = -1;
		} else if (limits) {
			blockio_error_set(p->err,
					  "more than one element of namespace '%s' in <metadata>",
					  BLOCKIO_NS_URI);
			ret = -1;
		} else if (strcmp((const char *)n->name, "limits")) {
			blockio_error_set(p->err,
					  "unsupported element <blockio:%s> in <metadata>: expected <blockio:limits>",
					  escape((const char *)n->name, esc));
			ret = -1;
		} else {
			limits = n;
		}
	}
	xmlXPathFreeObject(meta);
	if (!ret)
		ret = misplaced(p, xmlDocGetRootElement(p->doc));
	return ret ? NULL : limits;
}

static bool is_target(xmlNodePtr node)
{
	return is_ours(node) && (!strcmp((const char *)node->name, "disk") ||
				 !strcmp((const char *)node->name, "device"));
}

static int parse_limits(struct parse *p, xmlNodePtr limits)
{
	char esc[ESC_MAX];

	if (limits->properties) {
		xmlAttrPtr a = limits->properties;

		blockio_error_set(p->err, "unsupported attribute '%s' of <blockio:limits>",
				  qname(a->ns, a->name, esc));
		return -1;
	}
	for (xmlNodePtr c = limits->children; c; c = c->next) {
		int kind = check_child(p, c, "<blockio:limits>", is_target);

		if (kind < 0 || (kind > 0 && parse_element(p, c)))
			return -1;
	}
	return validate_schema(p, limits);
}


/* ---- libvirt's own limits (hook.conf: libvirt-limits = yes) ------------ */

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
				  escape(text, esc), name, what);
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
		text = xpath_string(p, node, expr);
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
		add_rule(cfg, BLOCKIO_BANDWIDTH, BLOCKIO_LEAKY, bw, 0);
	if (iops)
		add_rule(cfg, BLOCKIO_IOPS, BLOCKIO_LEAKY, iops, 0);
}

/*
 * Every <disk type='file|block'> with an <iotune>, every
 * <blkiotune><device>.  Network and volume disks keep QEMU's own
 * throttling only: their I/O reaches no host block device blockio sees.
 */
static int parse_libvirt_limits(struct parse *p)
{
	xmlXPathObjectPtr set;
	char esc[ESC_MAX], what[2 * ESC_MAX];
	int ret = 0;

	set = xpath_nodes(p, NULL, "/domain/devices/disk[iotune]");
	for (size_t i = 0; i < nodeset_len(set) && !ret; i++) {
		xmlNodePtr disk = set->nodesetval->nodeTab[i];
		xmlXPathObjectPtr tune = xpath_nodes(p, disk, "iotune");
		xmlNodePtr node = tune->nodesetval->nodeTab[0];
		char *dev = xpath_string(p, disk, "string(target/@dev)");
		char *src = node_source(p, disk), *warning = NULL;
		uint64_t bw = 0, iops = 0;

		xmlXPathFreeObject(tune);
		snprintf(what, sizeof(what), "<iotune> of disk '%s'",
			 escape(dev ? dev : "", esc));
		if (libvirt_kind(p, node, what, "bytes", true, &bw, &warning) ||
		    libvirt_kind(p, node, what, "iops", true, &iops, &warning)) {
			ret = -1;
		} else if (src && (bw || iops)) {
			add_libvirt_target(p, what, src, dev, BLOCKIO_MERGE_SUM,
					   xpath_string(p, node, "normalize-space(group_name)"),
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

	set = xpath_nodes(p, NULL, "/domain/blkiotune/device");
	for (size_t i = 0; i < nodeset_len(set) && !ret; i++) {
		xmlNodePtr node = set->nodesetval->nodeTab[i];
		char *path = xpath_string(p, node, "normalize-space(path)");
		char *warning = NULL;
		uint64_t bw = 0, iops = 0;

		snprintf(what, sizeof(what), "<blkiotune><device> '%s'",
			 escape(path ? path : "", esc));
		if (!path || !valid_path(path)) {
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
			add_rule(cfg, BLOCKIO_BANDWIDTH, BLOCKIO_LEAKY, bw, 0);
		if (iops)
			add_rule(cfg, BLOCKIO_IOPS, BLOCKIO_LEAKY, iops, 0);
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

int blockio_config_parse(const char *xml, size_t len,
			 struct blockio_config *cfg, struct blockio_error *err)
{
	return blockio_config_parse_opts(xml, len, NULL, cfg, err);
}

int blockio_config_parse_opts(const char *xml, size_t len,
			      const struct blockio_options *opts,
			      struct blockio_config *cfg,
			      struct blockio_error *err)
{
	struct parse p = { .cfg = cfg, .err = err };
	xmlNodePtr limits = NULL;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	err->msg[0] = '\0';
	ret = open_domain(&p, xml, len);
	if (!ret) {
		limits = find_limits(&p);
		ret = err->msg[0] ? -1 : 0;
	}
	if (!ret && limits) {
		cfg->has_limits = true;
		if (!cfg->name || !cfg->uuid[0]) {
			blockio_error_set(err, "a domain with <blockio:limits> needs a <name> and a <uuid>");
			ret = -1;
		} else {
			ret = parse_limits(&p, limits);
		}
	} else if (!ret && opts && opts->libvirt_limits) {
		cfg->libvirt_limits = true;
		cfg->uncapped_ok = !opts->libvirt_limits_refuse;
		ret = parse_libvirt_limits(&p);
	}
	close_domain(&p);
	if (ret)
		blockio_config_free(cfg);
	return ret;
}

/* ---- describing a configuration ------------------------------------------- */

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
				escape(target->devnode, esc));
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
