/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config-int.h - what the pieces of the domain XML parser share (config.c,
 * config-io.c, config-schema.c, config-target.c, config-limits.c,
 * config-libvirt.c, config-describe.c); not an API: config.h is.
 *
 * config.c reads the document (libxml2, no recovery, no network, no DTD)
 * and runs a parse; XPath finds the pieces, and every value goes through
 * the checks of config-target.c and config-limits.c, which name the
 * element, attribute and value of the first problem.  The schema
 * (config-schema.c) is the last gate: the checks are meant to reject
 * everything it rejects, with a better message, and the fuzz test holds
 * both to an independent model.
 */
#ifndef BLOCKIO_CONFIG_INT_H
#define BLOCKIO_CONFIG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libxml/tree.h>
#include <libxml/xpath.h>

#include "config.h"
#include "names.h"
#include "units.h"
#include "util.h"

#define ESC_MAX 160	/* an escaped value quoted in a message */
#define LIBXML_MSG_MAX 300	/* libxml2's message, as plain text */

/* Everything one parse needs. */
struct parse {
	xmlDocPtr doc;
	xmlXPathContextPtr xpath;
	struct blockio_config *cfg;
	struct blockio_error *err;
};

/* ---- config.c: reading the document ---- */

/* @s escaped for a message (NULL as ""), in @buf. */
const char *cfg_escape(const char *s, char buf[ESC_MAX]);
/* "prefix:name" of an element or attribute, escaped, for messages. */
const char *cfg_qname(xmlNsPtr ns, const xmlChar *name, char buf[ESC_MAX]);
/* The string value of XPath @expr relative to @node; NULL if empty. */
char *cfg_xpath_string(struct parse *p, xmlNodePtr node, const char *expr);
/* The nodes XPath @expr selects relative to @node (may be empty). */
xmlXPathObjectPtr cfg_xpath_nodes(struct parse *p, xmlNodePtr node,
				  const char *expr);
size_t cfg_nodeset_len(xmlXPathObjectPtr obj);
/* Parse @xml into @p: a <domain>, its <name> and <uuid>; -1 with p->err. */
int cfg_open_domain(struct parse *p, const char *xml, size_t len);
void cfg_close_domain(struct parse *p);

/* ---- config-io.c ---- */

/* The file or block source of a <disk> or <backingStore>, or NULL. */
char *cfg_node_source(struct parse *p, xmlNodePtr node);

/* ---- config-schema.c ---- */

/* @limits against schema/blockio-limits.rng; -1 with p->err. */
int cfg_validate_schema(struct parse *p, xmlNodePtr limits);

/* ---- config-target.c ---- */

/* An element of blockio's namespace. */
bool cfg_is_ours(xmlNodePtr node);
/* A child @c of @what: 0 blank text or a comment, 1 an element @want
 * accepts, -1 (p->err naming @what) anything else. */
int cfg_check_child(struct parse *p, xmlNodePtr c, const char *what,
		    bool (*want)(xmlNodePtr));
bool cfg_valid_path(const char *s);
void cfg_add_rule(struct blockio_config *cfg, enum blockio_kind kind,
		  enum blockio_strategy strategy, uint64_t limit,
		  uint64_t bucket);
/* One <blockio:disk> or <blockio:device> into a target and its rules. */
int cfg_parse_element(struct parse *p, xmlNodePtr node);

/* ---- config-limits.c ---- */

/* <blockio:limits> in <metadata>, NULL when none (or p->err set). */
xmlNodePtr cfg_find_limits(struct parse *p);
int cfg_parse_limits(struct parse *p, xmlNodePtr limits);

/* ---- config-libvirt.c ---- */

/* <iotune> and <blkiotune> into targets (libvirt-limits = yes). */
int cfg_parse_libvirt_limits(struct parse *p);

#endif /* BLOCKIO_CONFIG_INT_H */
