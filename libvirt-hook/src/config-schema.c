// SPDX-License-Identifier: GPL-2.0
/*
 * config-schema.c - the last gate: <blockio:limits> against the embedded
 * schema/blockio-limits.rng (libxml2 RELAX NG).
 */

#include <stdio.h>
#include <stdlib.h>

#include <libxml/relaxng.h>

#include "config-int.h"

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

int cfg_validate_schema(struct parse *p, xmlNodePtr limits)
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
