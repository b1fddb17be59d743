// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - a libvirt domain XML to a validated list of blockio rules:
 * reading the document and the entry points; config-int.h says what each
 * config-*.c does.
 *
 * libxml2 parses (no recovery, no network, no DTD), XPath finds the pieces,
 * and every value goes through the checks of config-target.c and
 * config-limits.c, which name the element, attribute and value of the
 * first problem.  The schema (schema/blockio-limits.rng, embedded at build
 * time) is the last gate (config-schema.c): the checks are meant to reject
 * everything it rejects, with a better message, and the fuzz test holds
 * both to an independent model.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "config-int.h"

const char *cfg_escape(const char *s, char buf[ESC_MAX])
{
	blockio_escape(s ? s : "", buf, ESC_MAX);
	return buf;
}

/* "prefix:name" of an element or attribute, escaped, for messages. */
const char *cfg_qname(xmlNsPtr ns, const xmlChar *name, char buf[ESC_MAX])
{
	char raw[ESC_MAX];
	bool prefixed = ns && ns->prefix;

	snprintf(raw, sizeof(raw), "%s%s%s",
		 prefixed ? (const char *)ns->prefix : "", prefixed ? ":" : "",
		 (const char *)name);
	return cfg_escape(raw, buf);
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
char *cfg_xpath_string(struct parse *p, xmlNodePtr node, const char *expr)
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
xmlXPathObjectPtr cfg_xpath_nodes(struct parse *p, xmlNodePtr node,
				     const char *expr)
{
	xmlXPathObjectPtr obj;

	p->xpath->node = node;
	obj = xmlXPathEvalExpression(BAD_CAST expr, p->xpath);
	if (!obj || obj->type != XPATH_NODESET)
		abort();	/* our own expressions are all node sets */
	return obj;
}

size_t cfg_nodeset_len(xmlXPathObjectPtr obj)
{
	return obj->nodesetval ? (size_t)obj->nodesetval->nodeNr : 0;
}

int cfg_open_domain(struct parse *p, const char *xml, size_t len)
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
				  cfg_escape(root ? (const char *)root->name : "", esc));
		return -1;
	}
	p->xpath = xmlXPathNewContext(p->doc);
	if (!p->xpath)
		abort();

	p->cfg->name = cfg_xpath_string(p, root, "string(/domain/name)");
	uuid = cfg_xpath_string(p, root, "string(/domain/uuid)");
	if (uuid && blockio_uuid_parse(uuid, p->cfg->uuid)) {
		blockio_error_set(p->err, "invalid value '%s' of <uuid>",
				  cfg_escape(uuid, esc));
		free(uuid);
		return -1;
	}
	free(uuid);
	return 0;
}

void cfg_close_domain(struct parse *p)
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
	ret = cfg_open_domain(&p, xml, len);
	cfg_close_domain(&p);
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
		s = cfg_xpath_string(&p, NULL, "string(/domstatus/@pid)");
	}
	cfg_close_domain(&p);
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
	cfg_close_domain(&p);
	return limited;
}

int blockio_status_domain(const char *xml, size_t len, char **out,
			  size_t *outlen)
{
	struct blockio_error err;
	xmlDocPtr doc = read_doc(xml, len, &err), copy;
	xmlNodePtr root, node;
	xmlChar *text = NULL;
	int size = 0;

	*out = NULL;
	*outlen = 0;
	if (!doc)
		return -1;
	root = xmlDocGetRootElement(doc);
	node = NULL;
	if (root && !root->ns && !strcmp((const char *)root->name, "domstatus"))
		for (node = root->children; node; node = node->next)
			if (node->type == XML_ELEMENT_NODE && !node->ns &&
			    !strcmp((const char *)node->name, "domain"))
				break;
	if (!node) {
		xmlFreeDoc(doc);
		return -1;
	}
	copy = xmlNewDoc(BAD_CAST "1.0");
	if (!copy)
		abort();
	/* namespaces declared above <domain> come along */
	node = xmlDocCopyNode(node, copy, 1);
	if (!node)
		abort();
	xmlDocSetRootElement(copy, node);
	xmlReconciliateNs(copy, node);
	xmlDocDumpMemory(copy, &text, &size);
	xmlFreeDoc(copy);
	xmlFreeDoc(doc);
	if (!text || size <= 0)
		abort();
	*out = xstrdup((const char *)text);
	*outlen = (size_t)size;
	xmlFree(text);
	return 0;
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
		cfg->name = cfg_xpath_string(&p, NULL, "string(/domstatus/domain/name)");
		uuid = cfg_xpath_string(&p, NULL, "string(/domstatus/domain/uuid)");
		if (!cfg->name || !uuid)
			blockio_error_set(err, "not a libvirt status XML with a domain name and UUID");
		else if (blockio_uuid_parse(uuid, cfg->uuid))
			blockio_error_set(err, "invalid <uuid> in status XML");
		else
			ret = 0;
	}
	free(uuid);
	cfg_close_domain(&p);
	if (ret)
		blockio_config_free(cfg);
	return ret;
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
	ret = cfg_open_domain(&p, xml, len);
	if (!ret) {
		limits = cfg_find_limits(&p);
		ret = err->msg[0] ? -1 : 0;
	}
	if (!ret && limits) {
		cfg->has_limits = true;
		if (!cfg->name || !cfg->uuid[0]) {
			blockio_error_set(err, "a domain with <blockio:limits> needs a <name> and a <uuid>");
			ret = -1;
		} else {
			ret = cfg_parse_limits(&p, limits);
		}
	} else if (!ret && opts && opts->libvirt_limits) {
		cfg->libvirt_limits = true;
		cfg->uncapped_ok = !opts->libvirt_limits_refuse;
		ret = cfg_parse_libvirt_limits(&p);
	}
	cfg_close_domain(&p);
	if (ret)
		blockio_config_free(cfg);
	return ret;
}

