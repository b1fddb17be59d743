// SPDX-License-Identifier: GPL-2.0
/*
 * config-limits.c - finding <blockio:limits> in <metadata>, refusing its
 * lookalikes (URIs close to ours, elements shaped like ours), and reading
 * its children.
 */
#include <stdio.h>
#include <string.h>

#include "config-int.h"

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

/*
 * The code point at *@s (UTF-8, as libxml2 hands it: well-formed),
 * advancing *@s; U+FFFD and one byte for anything else.
 */
static uint32_t next_cp(const unsigned char **s)
{
	uint32_t cp;
	size_t n = blockio_utf8_decode(*s, &cp);

	*s += n ? n : 1;
	return n ? cp : 0xfffd;
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
					 cfg_qname(c->ns, c->name, esc), cfg_escape(an, esc2));
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
				  cfg_qname(n->ns, n->name, esc), holds,
				  cfg_escape(href, esc2), BLOCKIO_NS_URI, hint);
		return true;
	}
	if (colon) {
		char pfx[ESC_MAX];

		snprintf(pfx, sizeof(pfx), "%.*s", (int)(colon - name), name);
		snprintf(undeclared, sizeof(undeclared),
			 " (prefix '%s' is not declared)", cfg_escape(pfx, esc2));
	}
	blockio_error_set(p->err,
			  "<%s> in <metadata>%s has no namespace%s; blockio reads only <limits> in namespace '%s', e.g. <blockio:limits xmlns:blockio='%s'>, so its caps would be ignored",
			  cfg_escape(name, esc), holds, undeclared, BLOCKIO_NS_URI,
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
 * cfg_parse_limits()'s to judge): set the error and return -1.
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
		bool ours = cfg_is_ours(n);
		char esc[ESC_MAX], esc2[ESC_MAX], esc3[ESC_MAX], also[ESC_MAX + 40] = "";

		if (in_metadata) {
			/* a child of <metadata>: cfg_find_limits() judged it */
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
				 cfg_escape((const char *)n->ns->href, esc3));
		if (is_metadata(parent, root)) {
			blockio_error_set(p->err,
					  "<%s> is in a second <metadata>%s; libvirt keeps only the first <metadata>, so its caps would be ignored: move it there",
					  cfg_qname(n->ns, n->name, esc), also);
			return -1;
		}
		blockio_error_set(p->err,
				  "<%s> in <%s> is not a child of <metadata>%s; blockio reads only <limits> in namespace '%s' as a child of <metadata>, so its caps would be ignored",
				  cfg_qname(n->ns, n->name, esc),
				  cfg_qname(parent->ns, parent->name, esc2), also,
				  BLOCKIO_NS_URI);
		return -1;
	}
	return 0;
}

/* The one <blockio:limits> of the domain, NULL if none (or on error). */
xmlNodePtr cfg_find_limits(struct parse *p)
{
	xmlXPathObjectPtr meta = cfg_xpath_nodes(p, NULL, "/domain/metadata[1]/*");
	xmlNodePtr limits = NULL;
	char esc[ESC_MAX];
	int ret = 0;

	for (size_t i = 0; i < cfg_nodeset_len(meta) && !ret; i++) {
		xmlNodePtr n = meta->nodesetval->nodeTab[i];

		if (!cfg_is_ours(n)) {
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
					  cfg_escape((const char *)n->name, esc));
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
	return cfg_is_ours(node) && (!strcmp((const char *)node->name, "disk") ||
				 !strcmp((const char *)node->name, "device"));
}

int cfg_parse_limits(struct parse *p, xmlNodePtr limits)
{
	char esc[ESC_MAX];

	if (limits->properties) {
		xmlAttrPtr a = limits->properties;

		blockio_error_set(p->err, "unsupported attribute '%s' of <blockio:limits>",
				  cfg_qname(a->ns, a->name, esc));
		return -1;
	}
	for (xmlNodePtr c = limits->children; c; c = c->next) {
		int kind = cfg_check_child(p, c, "<blockio:limits>", is_target);

		if (kind < 0 || (kind > 0 && cfg_parse_element(p, c)))
			return -1;
	}
	return cfg_validate_schema(p, limits);
}
