// SPDX-License-Identifier: GPL-2.0
/*
 * setspec.c - blockioctl set's pure half: command-line caps to the body of
 * <blockio:limits>, and a domain XML with that body in its <metadata>, so
 * that the hook's own parser and host checks judge the change before virsh
 * writes it (ctlset.c).
 *
 *   vda:bandwidth=8MiB/s,iops=500            <disk dev='vda' .../>
 *   /dev/sdb:bandwidth=4M,strategy=token     <device path='/dev/sdb' .../>
 *
 * The values are not checked here: blockio_config_parse() does that with
 * the messages the hook prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>

#include "blockio.h"
#include "names.h"
#include "setspec.h"

static const char *const set_keys[] = {
	"bandwidth", "iops", "strategy", "bucket", "iops-bucket",
};

/* Append @s to @out at *@o, XML-escaped for an attribute; -1 if full. */
static int put_escaped(char *out, size_t outlen, size_t *o, const char *s,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *rep = NULL;
		char one[2] = { s[i], '\0' };
		size_t len;

		switch (s[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '\'': rep = "&apos;"; break;
		case '"': rep = "&quot;"; break;
		default: rep = one; break;
		}
		len = strlen(rep);
		if (*o + len >= outlen)
			return -1;
		memcpy(out + *o, rep, len + 1);
		*o += len;
	}
	return 0;
}

static int put(char *out, size_t outlen, size_t *o, const char *s)
{
	size_t len = strlen(s);

	if (*o + len >= outlen)
		return -1;
	memcpy(out + *o, s, len + 1);
	*o += len;
	return 0;
}

int blockio_set_body(int n, char *const *specs, char *out, size_t outlen,
		     struct blockio_error *err)
{
	size_t o = 0;

	out[0] = '\0';
	if (put(out, outlen, &o, "<limits>"))
		goto full;
	for (int i = 0; i < n; i++) {
		const char *spec = specs[i], *colon = strchr(spec, ':');
		const char *p;
		char esc[256];
		bool device = spec[0] == '/';

		blockio_escape(spec, esc, sizeof(esc));
		if (!colon || colon == spec || !colon[1]) {
			blockio_error_set(err, "'%s' is not DISK:KEY=VALUE[,KEY=VALUE...] (DISK a target such as vda, or a /dev path)",
					  esc);
			return -1;
		}
		if (put(out, outlen, &o, device ? "<device path='" : "<disk dev='") ||
		    put_escaped(out, outlen, &o, spec, (size_t)(colon - spec)) ||
		    put(out, outlen, &o, "'"))
			goto full;
		for (p = colon + 1; *p;) {
			size_t len = strcspn(p, ","), klen;
			const char *eq = memchr(p, '=', len);
			bool known = false;

			if (!eq || eq == p) {
				blockio_error_set(err, "'%s': '%.*s' is not KEY=VALUE",
						  esc, (int)len, p);
				return -1;
			}
			klen = (size_t)(eq - p);
			for (size_t k = 0; k < sizeof(set_keys) / sizeof(set_keys[0]); k++)
				known |= strlen(set_keys[k]) == klen &&
					 !strncmp(set_keys[k], p, klen);
			if (!known) {
				blockio_error_set(err, "'%s': unknown key '%.*s'; the keys are bandwidth, iops, strategy, bucket, iops-bucket",
						  esc, (int)klen, p);
				return -1;
			}
			if (put(out, outlen, &o, " ") ||
			    put_escaped(out, outlen, &o, p, klen) ||
			    put(out, outlen, &o, "='") ||
			    put_escaped(out, outlen, &o, eq + 1, len - klen - 1) ||
			    put(out, outlen, &o, "'"))
				goto full;
			p += len + (p[len] == ',');
		}
		if (put(out, outlen, &o, "/>"))
			goto full;
	}
	if (put(out, outlen, &o, "</limits>"))
		goto full;
	return 0;
full:
	blockio_error_set(err, "the caps are longer than %zu bytes", outlen - 1);
	return -1;
}

int blockio_domain_with_limits(const char *xml, size_t len, const char *body,
			       char **out, size_t *outlen,
			       struct blockio_error *err)
{
	xmlDocPtr doc, frag = NULL;
	xmlNodePtr root, meta = NULL, limits, next;
	xmlNsPtr ns;
	xmlChar *mem = NULL;
	int size = 0, ret = -1;

	*out = NULL;
	doc = xmlReadMemory(xml, (int)len, "domain.xml", NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	root = doc ? xmlDocGetRootElement(doc) : NULL;
	if (!root || strcmp((const char *)root->name, "domain")) {
		blockio_error_set(err, "virsh dumpxml did not give a domain XML");
		goto out;
	}
	for (xmlNodePtr c = root->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && !strcmp((const char *)c->name, "metadata"))
			meta = c;
	if (!meta) {
		meta = xmlNewNode(NULL, BAD_CAST "metadata");
		if (!meta)
			abort();
		/* libvirt keeps <metadata> after <description>/<title>; any place parses */
		xmlAddChild(root, meta);
	}
	/* the old element of our namespace goes; the new one takes its place */
	for (xmlNodePtr c = meta->children; c; c = next) {
		next = c->next;
		if (c->type == XML_ELEMENT_NODE && c->ns && c->ns->href &&
		    !strcmp((const char *)c->ns->href, BLOCKIO_NS_URI)) {
			xmlUnlinkNode(c);
			xmlFreeNode(c);
		}
	}
	if (body) {
		frag = xmlReadMemory(body, (int)strlen(body), "limits.xml", NULL,
				     XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
		if (!frag || !xmlDocGetRootElement(frag)) {
			blockio_error_set(err, "the caps do not make an XML element: %s", body);
			goto out;
		}
		limits = xmlDocCopyNode(xmlDocGetRootElement(frag), doc, 1);
		if (!limits)
			abort();
		/* as virsh metadata --key blockio --uri NS puts it */
		ns = xmlNewNs(limits, BAD_CAST BLOCKIO_NS_URI, BAD_CAST BLOCKIO_NS_PREFIX);
		for (xmlNodePtr n = limits; n; n = n == limits ? n->children : n->next)
			if (n->type == XML_ELEMENT_NODE)
				xmlSetNs(n, ns);
		xmlAddChild(meta, limits);
	}
	xmlDocDumpMemory(doc, &mem, &size);
	if (!mem)
		abort();
	*out = strdup((const char *)mem);
	if (!*out)
		abort();
	*outlen = (size_t)size;
	ret = 0;
out:
	xmlFree(mem);
	xmlFreeDoc(frag);
	xmlFreeDoc(doc);
	return ret;
}
