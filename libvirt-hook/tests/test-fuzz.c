// SPDX-License-Identifier: GPL-2.0
/*
 * test-fuzz.c - mutation test of the domain XML parser.
 *
 * Valid domain XMLs (the vm-definitions/ examples and a few seeds below)
 * are mutated FUZZ_ITERATIONS times (default 12000, seed FUZZ_SEED): byte
 * flips, insertions, deletions, duplications, truncations and XML tokens
 * anywhere, and grammar-aware edits inside <metadata> (attribute values
 * from a generator of near-valid and invalid quantities, attributes added,
 * removed or renamed, elements duplicated or renamed, namespace URIs
 * changed, text, comments and CDATA inserted).  Each mutant goes through
 * blockio_config_parse() and blockio_config_resolve() on the fake host.
 *
 * Verdicts, asserted for every mutant:
 *
 *  - No crash: the test runs under ASan and UBSan with halt_on_error, so
 *    any memory error or undefined behaviour aborts the run.
 *
 *  - No accepted garbage.  A mutant is *accepted garbage* when the parser
 *    accepts it (returns rules, or "no caps") and the reference model
 *    below disagrees: either the model rejects the mutant, or the model
 *    accepts it with a different list of rules (count, order, kind, host
 *    device node, limit, strategy or bucket of any rule).  The model is
 *    written independently of src/: it walks the DOM by hand instead of
 *    XPath, checks values with POSIX regular expressions and 128-bit
 *    arithmetic, and resolves devices from a table instead of stat/sysfs.
 *    It rejects a document that is not well-formed, has a DTD, has a root
 *    other than <domain>, a <uuid> libvirt would not read (16 hex pairs,
 *    '-' or ' ' between them), an element in <metadata> with a lookalike
 *    namespace (near_uri(): at most 3 edits from ours, or a
 *    host naming blockio or 2 edits from blockio.dev), with the prefix
 *    blockio, holding a <disk> or <device> with one of our attributes, or
 *    with no namespace and a name like ours (limits, p:limits,
 *    blockio:anything), an element of our or a lookalike namespace that
 *    is not a child of <metadata> (nor inside <blockio:limits>), more
 *    than one blockio element or one not named limits; and, for
 *    <blockio:limits>: an attribute on it, non-blank text or a foreign
 *    element in it, a target with an unknown, namespaced or missing
 *    attribute, a malformed or out-of-range value, neither cap, a bucket
 *    without strategy='token' or without its cap, content inside a target,
 *    a duplicate target, an unknown disk or one without a local source,
 *    an unresolvable device, or two targets on one host disk.
 *
 *  - No false rejects: a mutant the model accepts must be accepted, so the
 *    parser's checks and the schema gate are no stricter than the model.
 *
 *  - Every rejection leaves an empty config and one line of message.
 *
 * The run also asserts that both verdicts occur often enough (at least 5 %
 * each) that the test cannot pass by rejecting or accepting everything.
 */
#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <regex.h>
#include <stdlib.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "blockio.h"
#include "config.h"
#include "resolve.h"
#include "check.h"
#include "fakefs.h"

#define NSURI "https://blockio.dev/xmlns/limits/1"
#define MAX_DOC 65536
#define MAX_RULES 64

/* ---- random numbers: xorshift64*, reproducible from FUZZ_SEED ---------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static size_t pick(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}

#define PICK(arr) ((arr)[pick(sizeof(arr) / sizeof((arr)[0]))])

/* ---- the reference model ------------------------------------------------- */

struct ref_rule {
	int kind;		/* 0 bandwidth, 1 iops */
	char dev[32];		/* "/dev/vdc" */
	uint64_t limit, bucket;
	int strategy;
};

struct ref {
	size_t n;
	struct ref_rule r[MAX_RULES];
};

static regex_t re_bw, re_bytes, re_iops, re_ops, re_dev, re_host, re_uuid;

static void compile(regex_t *re, const char *pattern)
{
	if (regcomp(re, pattern, REG_EXTENDED | REG_NOSUB)) {
		fprintf(stderr, "bad regex %s\n", pattern);
		exit(2);
	}
}

static bool named(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !n->ns &&
	       !strcmp((const char *)n->name, name);
}

static bool ours(xmlNodePtr n)
{
	return n->type == XML_ELEMENT_NODE && n->ns &&
	       !strcmp((const char *)n->ns->href, NSURI);
}

static bool blank_text(const xmlChar *s)
{
	for (; *s; s++)
		if (!strchr(" \t\r\n", *s))
			return false;
	return true;
}

/* Only comments, PIs and blank text: true. */
static bool only_blank(xmlNodePtr parent, bool allow_targets)
{
	for (xmlNodePtr c = parent->children; c; c = c->next) {
		if (c->type == XML_COMMENT_NODE || c->type == XML_PI_NODE)
			continue;
		if (c->type == XML_TEXT_NODE && blank_text(c->content))
			continue;
		if (allow_targets && ours(c) &&
		    (!strcmp((const char *)c->name, "disk") ||
		     !strcmp((const char *)c->name, "device")))
			continue;
		return false;
	}
	return true;
}

/* The first child element called @name (no namespace), its text; "" if none. */
static void first_text(xmlNodePtr parent, const char *name, char *out, size_t n)
{
	out[0] = '\0';
	for (xmlNodePtr c = parent->children; c; c = c->next) {
		if (named(c, name)) {
			xmlChar *t = xmlNodeGetContent(c);

			snprintf(out, n, "%s", t ? (const char *)t : "");
			xmlFree(t);
			return;
		}
	}
}

/* A <uuid> libvirt reads (virUUIDParse): 16 hex pairs, '-' or ' ' between. */
static bool libvirt_uuid(const char *s)
{
	return !regexec(&re_uuid, s, 0, NULL, 0);
}

/* Value of quantity @s: bytes (binary letters) or ops; 0 = invalid. */
static uint64_t ref_quantity(const char *s, bool bytes, bool rate)
{
	regex_t *re = bytes ? (rate ? &re_bw : &re_bytes) : (rate ? &re_iops : &re_ops);
	unsigned __int128 v = 0, max = bytes ? (1ULL << 40) : 1000000000ULL;
	const char *p = s;
	unsigned power = 0, base = bytes ? 1024 : 1000;

	if (regexec(re, s, 0, NULL, 0))
		return 0;
	for (; isdigit((unsigned char)*p); p++) {
		v = v * 10 + (unsigned)(*p - '0');
		if (v > ((unsigned __int128)1 << 100))
			return 0;
	}
	switch (tolower((unsigned char)*p)) {
	case 'k': power = 1; break;
	case 'm': power = 2; break;
	case 'g': power = 3; break;
	case 't': power = 4; break;
	default: break;
	}
	/* "KB", "MB": decimal; "KiB", "K": binary (bytes only) */
	if (bytes && power && p[1] && tolower((unsigned char)p[1]) == 'b')
		base = 1000;
	while (power--)
		v *= base;
	return v >= 1 && v <= max ? (uint64_t)v : 0;
}

/* The host whole disk behind @path, as the fake host has it; NULL if none. */
static const char *ref_disk_of(const char *path, bool must_be_block)
{
	static const char *const devs[][2] = {
		{ "/dev/vda", "/dev/vda" }, { "/dev/vda1", "/dev/vda" },
		{ "/dev/vdb", "/dev/vdb" }, { "/dev/vdc", "/dev/vdc" },
		{ "/dev/sdb", "/dev/sdb" }, { "/dev/sdb1", "/dev/sdb" },
		{ "/dev/sdb2", "/dev/sdb" }, { "/dev/dm-0", "/dev/dm-0" },
		{ "/dev/mapper/vg-lv", "/dev/dm-0" },
	};
	static const char *const dirs[][2] = {
		{ "/var/lib/libvirt/images/", "/dev/vdc" },
		{ "/srv/", "/dev/sdb" }, { "/etc/", "/dev/vda" },
	};

	for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++)
		if (!strcmp(path, devs[i][0]))
			return devs[i][1];
	if (must_be_block)
		return NULL;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strncmp(path, dirs[i][0], strlen(dirs[i][0])) &&
		    path[strlen(dirs[i][0])])
			return dirs[i][1];
	return NULL;
}

/* A <blockio:device path>: absolute, <= 4095 bytes, no control characters. */
static bool ref_path_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (*p != '/' || strlen(s) > 4095)
		return false;
	for (; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return false;
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			return false;
	}
	return true;
}

/* The source of the domain disk with target @dev; NULL if none or not local. */
static char *ref_disk_source(xmlNodePtr root, const char *dev)
{
	for (xmlNodePtr devices = root->children; devices; devices = devices->next) {
		if (!named(devices, "devices"))
			continue;
		for (xmlNodePtr disk = devices->children; disk; disk = disk->next) {
			xmlChar *tdev = NULL, *type, *src = NULL;
			const char *want;
			bool match;

			if (!named(disk, "disk"))
				continue;
			for (xmlNodePtr t = disk->children; t && !tdev; t = t->next)
				if (named(t, "target"))
					tdev = xmlGetNoNsProp(t, BAD_CAST "dev");
			match = tdev && !strcmp((const char *)tdev, dev);
			xmlFree(tdev);
			if (!match)
				continue;
			/* the first matching disk decides */
			type = xmlGetNoNsProp(disk, BAD_CAST "type");
			want = !type ? NULL : !strcmp((char *)type, "file") ? "file"
					: !strcmp((char *)type, "block") ? "dev" : NULL;
			xmlFree(type);
			for (xmlNodePtr s = disk->children; s && want && !src; s = s->next)
				if (named(s, "source"))
					src = xmlGetNoNsProp(s, BAD_CAST want);
			if (src && !*src) {
				xmlFree(src);
				src = NULL;
			}
			return (char *)src;
		}
	}
	return NULL;
}

static const char *const ref_attrs[] = { "dev", "path", "bandwidth", "iops",
					 "strategy", "bucket", "iops-bucket" };

static int ref_attr_index(const char *name)
{
	for (int i = 0; i < 7; i++)
		if (!strcmp(name, ref_attrs[i]))
			return i;
	return -1;
}

/* One target element; false = the model rejects the document. */
static bool ref_target(xmlNodePtr root, xmlNodePtr el, struct ref *out,
		       char disks[][32], char keys[][2][4100], size_t *ntargets)
{
	bool is_disk = !strcmp((const char *)el->name, "disk");
	char *v[7] = { NULL };
	uint64_t bw = 0, iops = 0, bucket = 0, iops_bucket = 0;
	int strategy = 0;
	const char *disk;
	char *source = NULL;
	bool ok = false;

	for (xmlAttrPtr a = el->properties; a; a = a->next) {
		int i = ref_attr_index((const char *)a->name);

		if (a->ns || i < 0 || (is_disk && i == 1) || (!is_disk && i == 0))
			goto out;
		v[i] = (char *)xmlGetNoNsProp(el, a->name);
	}
	if (!only_blank(el, false))
		goto out;
	if (is_disk ? !v[0] || regexec(&re_dev, v[0], 0, NULL, 0)
		    : !v[1] || !ref_path_ok(v[1]))
		goto out;
	if ((v[2] && !(bw = ref_quantity(v[2], true, true))) ||
	    (v[3] && !(iops = ref_quantity(v[3], false, true))) ||
	    (v[5] && !(bucket = ref_quantity(v[5], true, false))) ||
	    (v[6] && !(iops_bucket = ref_quantity(v[6], false, false))))
		goto out;
	if (v[4]) {
		if (!strcmp(v[4], "token"))
			strategy = 1;
		else if (strcmp(v[4], "leaky"))
			goto out;
	}
	if ((!bw && !iops) || ((bucket || iops_bucket) && strategy != 1) ||
	    (bucket && !bw) || (iops_bucket && !iops))
		goto out;
	/* duplicate key */
	for (size_t i = 0; i < *ntargets; i++)
		if (!strcmp(keys[i][0], is_disk ? "d" : "p") &&
		    !strcmp(keys[i][1], is_disk ? v[0] : v[1]))
			goto out;
	if (is_disk) {
		source = ref_disk_source(root, v[0]);
		disk = source ? ref_disk_of(source, false) : NULL;
	} else {
		disk = ref_disk_of(v[1], true);
	}
	if (!disk)
		goto out;
	for (size_t i = 0; i < *ntargets; i++)
		if (!strcmp(disks[i], disk))
			goto out;	/* two targets on one host disk */
	snprintf(disks[*ntargets], 32, "%s", disk);
	snprintf(keys[*ntargets][0], 4, "%s", is_disk ? "d" : "p");
	snprintf(keys[*ntargets][1], 4100, "%s", is_disk ? v[0] : v[1]);
	(*ntargets)++;
	if (bw && out->n < MAX_RULES)
		out->r[out->n++] = (struct ref_rule){ 0, "", bw,
			strategy ? (bucket ? bucket : bw) : 0, strategy };
	if (bw)
		snprintf(out->r[out->n - 1].dev, 32, "%s", disk);
	if (iops && out->n < MAX_RULES)
		out->r[out->n++] = (struct ref_rule){ 1, "", iops,
			strategy ? (iops_bucket ? iops_bucket : iops) : 0, strategy };
	if (iops)
		snprintf(out->r[out->n - 1].dev, 32, "%s", disk);
	ok = true;
out:
	for (int i = 0; i < 7; i++)
		xmlFree(v[i]);
	xmlFree(source);
	return ok;
}

/* An element name without namespace that must not be ignored. */
static bool lookalike_name(const char *name)
{
	size_t n = strlen(name);

	return !strcmp(name, "limits") || (n >= 7 && !strcmp(name + n - 7, ":limits")) ||
	       !strncasecmp(name, "blockio:", 8);
}

/* Can @a become @b with at most @k insertions, deletions, substitutions? */
static bool within_edits(const char *a, const char *b, int k)
{
	if (!*a || !*b)
		return (int)(strlen(a) + strlen(b)) <= k;
	if (*a == *b)
		return within_edits(a + 1, b + 1, k);
	return k > 0 && (within_edits(a + 1, b, k - 1) || within_edits(a, b + 1, k - 1) ||
			 within_edits(a + 1, b + 1, k - 1));
}

/*
 * A namespace URI (not ours) an admin may have meant as ours.  ASCII
 * only: a mutant's bytes stay ASCII or make the document ill-formed, so
 * the parser's folding of Unicode lookalikes is test-config's to test.
 */
static bool near_uri(const char *href)
{
	char sk[300], host[300];
	regmatch_t m[3];
	size_t n = 0, h;

	if (strlen(href) > 256)
		return false;
	while (*href == ' ' || *href == '\t' || *href == '\n' || *href == '\r')
		href++;
	for (; *href; href++)
		sk[n++] = (char)tolower((unsigned char)*href);
	while (n && strchr(" \t\n\r", sk[n - 1]))
		n--;
	sk[n] = '\0';
	if (within_edits(sk, NSURI, 3))
		return true;
	if (regexec(&re_host, sk, 3, m, 0))
		return false;
	h = (size_t)(m[2].rm_eo - m[2].rm_so);
	memcpy(host, sk + m[2].rm_so, h);
	while (h && host[h - 1] == '.')
		h--;
	host[h] = '\0';
	return strstr(host, "blockio") || within_edits(host, "blockio.dev", 2);
}

/* After a ':' if unprefixed (an undeclared prefix stays in the name). */
static const char *local(const xmlChar *name, bool has_ns)
{
	const char *colon = has_ns ? NULL : strrchr((const char *)name, ':');

	return colon ? colon + 1 : (const char *)name;
}

/* Does @c hold a <disk> or <device> with a bandwidth, iops, ... attribute? */
static bool holds_caps(xmlNodePtr c)
{
	static const char *const caps[] = { "bandwidth", "iops", "strategy", "bucket", "iops-bucket" };

	for (xmlNodePtr d = c->children; d; d = d->next) {
		if (d->type != XML_ELEMENT_NODE)
			continue;
		if (strcasecmp(local(d->name, d->ns), "disk") &&
		    strcasecmp(local(d->name, d->ns), "device"))
			continue;
		for (xmlAttrPtr a = d->properties; a; a = a->next)
			for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
				if (!strcasecmp(local(a->name, a->ns), caps[i]))
					return true;
	}
	return false;
}

/*
 * Is there an element of our or a near namespace where blockio never
 * looks: anywhere but as a child of @meta, the first <metadata> (the one
 * libvirt keeps), or inside one of ours there?
 */
static bool stray(xmlNodePtr n, xmlNodePtr meta)
{
	for (xmlNodePtr c = n->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (n == meta) {
			if (!ours(c) && stray(c, meta))
				return true;
			continue;
		}
		if (ours(c) || (c->ns && near_uri((const char *)c->ns->href)) ||
		    stray(c, meta))
			return true;
	}
	return false;
}

/* The model's verdict: true = accept with @out, false = reject. */
static bool reference(const char *xml, size_t len, struct ref *out)
{
	static char disks[MAX_RULES][32], keys[MAX_RULES][2][4100];
	xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
	xmlDocPtr doc;
	xmlNodePtr root, meta, limits = NULL;
	char name[256], uuid[256];
	size_t ntargets = 0;
	bool ok = false;

	out->n = 0;
	doc = xmlCtxtReadMemory(ctxt, xml, (int)len, "m.xml", NULL,
				XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (!doc || !ctxt->wellFormed || doc->intSubset || doc->extSubset)
		goto out;
	root = xmlDocGetRootElement(doc);
	if (!root || !named(root, "domain"))
		goto out;
	first_text(root, "name", name, sizeof(name));
	first_text(root, "uuid", uuid, sizeof(uuid));
	if (*uuid && !libvirt_uuid(uuid))
		goto out;
	for (meta = root->children; meta && !named(meta, "metadata"); meta = meta->next)
		;
	for (xmlNodePtr m = meta; m; m = NULL) {	/* the first only */
		for (xmlNodePtr c = m->children; c; c = c->next) {
			if (c->type != XML_ELEMENT_NODE)
				continue;
			if (ours(c)) {
				if (limits || strcmp((const char *)c->name, "limits"))
					goto out;
				limits = c;
			} else if (c->ns ? near_uri((const char *)c->ns->href) ||
					   (c->ns->prefix &&
					    !strcasecmp((const char *)c->ns->prefix, "blockio"))
					 : lookalike_name((const char *)c->name)) {
				goto out;
			} else if (holds_caps(c)) {
				goto out;
			}
		}
	}
	if (stray(root, meta))
		goto out;
	if (!limits) {
		ok = true;
		goto out;
	}
	if (!*name || !*uuid || limits->properties || !only_blank(limits, true))
		goto out;
	for (xmlNodePtr c = limits->children; c; c = c->next)
		if (ours(c) && !ref_target(root, c, out, disks, keys, &ntargets))
			goto out;
	ok = true;
out:
	if (!ok)
		out->n = 0;
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctxt);
	return ok;
}

/* ---- comparing the parser with the model --------------------------------- */

static const char *diff(const struct blockio_config *cfg, const struct ref *ref)
{
	static char why[256];

	if (cfg->nrules != ref->n) {
		snprintf(why, sizeof(why), "%zu rules, model has %zu", cfg->nrules, ref->n);
		return why;
	}
	for (size_t i = 0; i < ref->n; i++) {
		const struct blockio_rule *r = &cfg->rules[i];
		const struct ref_rule *m = &ref->r[i];

		if ((int)r->kind != m->kind || r->limit != m->limit ||
		    r->bucket != m->bucket || (int)r->strategy != m->strategy ||
		    strcmp(cfg->targets[r->target].devnode, m->dev)) {
			snprintf(why, sizeof(why),
				 "rule %zu: %d %s %" PRIu64 " %d %" PRIu64 ", model %d %s %" PRIu64 " %d %" PRIu64,
				 i, (int)r->kind, cfg->targets[r->target].devnode, r->limit,
				 (int)r->strategy, r->bucket, m->kind, m->dev, m->limit,
				 m->strategy, m->bucket);
			return why;
		}
	}
	return NULL;
}

/* ---- mutations ------------------------------------------------------------ */

struct buf {
	char s[MAX_DOC];
	size_t len;
};

static void splice(struct buf *b, size_t at, size_t del, const char *ins, size_t inslen)
{
	if (at > b->len)
		at = b->len;
	if (del > b->len - at)
		del = b->len - at;
	if (b->len - del + inslen >= MAX_DOC)
		return;
	memmove(b->s + at + inslen, b->s + at + del, b->len - at - del);
	memcpy(b->s + at, ins, inslen);
	b->len = b->len - del + inslen;
}

static void insert(struct buf *b, size_t at, const char *ins)
{
	splice(b, at, 0, ins, strlen(ins));
}

/* [start, end) of <metadata>...</metadata>, or the whole document. */
static void region(const struct buf *b, size_t *start, size_t *end)
{
	const char *s = memmem(b->s, b->len, "<metadata>", 10);
	const char *e = memmem(b->s, b->len, "</metadata>", 11);

	*start = 0;
	*end = b->len;
	if (s && e && e > s) {
		*start = (size_t)(s - b->s) + 10;
		*end = (size_t)(e - b->s);
	}
}

static const char *const digits[] = {
	"0", "1", "7", "500", "1024", "0008", "1099511627776", "1099511627777",
	"1000000000", "1000000001", "18446744073709551615", "18446744073709551616",
	"99999999999999999999999", "", "2", "16", "100",
};
static const char *const units[] = {
	"", "", "", "b", "B", "k", "K", "kb", "KB", "kib", "KiB", "KIB", "m", "M",
	"MiB", "mb", "MB", "g", "G", "GiB", "gb", "t", "T", "TiB", "tb", "p", "P",
	"iB", "XB", "Mi", "e6", ".5M", " ", "\xc3\xa9", "&#10;", "&amp;", "0x",
};
static const char *const rates[] = { "", "", "", "/s", "/s", "/s", "/S", "/m", "/s/s", " /s", "/" };
static const char *const prefixes[] = { "", "", "", "", "", "", "", "-", "+", " ", "\t" };
/* values at and just past the limits, where off-by-one errors live */
static const char *const edges[] = {
	"1099511627776", "1099511627777", "1099511627776/s", "1TiB/s", "1T", "1025G", "1024G/s",
	"1048576K", "1048577K", "1099511MB", "1099512MB", "1099511627KB", "1099511628KB", "2T",
	"17179869184T", "18014398509481984k", "1000000000", "1000000001", "1G", "2G", "1000000k",
	"1000001k", "1000M", "1001M", "1/s", "1", "0", "0/s", "1b", "0b",
};
static const char *const strategies[] = {
	"leaky", "token", "token", "Token", "LEAKY", " token", "", "tokens", "1",
};
static const char *const devs[] = {
	"vda", "vdb", "vdc", "vdd", "vde", "vdf", "vdg", "vdh", "sda", "vdz", "",
	"vd a", "VDA", "../vda", "vda/", "vda&#10;", "v\xc3\xa9",
};
static const char *const paths[] = {
	"/dev/vda", "/dev/vda1", "/dev/vdb", "/dev/vdc", "/dev/sdb", "/dev/sdb1",
	"/dev/sdb2", "/dev/dm-0", "/dev/mapper/vg-lv", "/dev/stale", "/dev/null",
	"/dev/nonexistent", "dev/sdb", "", "/", "/dev/sdb&#10;", "/etc/hostname",
	"/var/lib/libvirt/images/a.img", "/dev/sd\xc2\x85", "/dev/../dev/sdb",
};
static const char *const attr_names[] = {
	"dev", "path", "bandwidth", "iops", "strategy", "bucket", "iops-bucket",
	"bandwith", "Bandwidth", "blockio:iops", "xml:lang", "size", "iops_bucket",
};
static const char *const tokens_meta[] = {
	"text", "<!-- c -->", "<?pi x?>", "<![CDATA[x]]>", "<blockio:x/>", "<x/>",
	"&#10;", "&amp;", "\n  ", "<blockio:limits xmlns:blockio='" NSURI "'/>",
	"<blockio:disk dev='vda' iops='5'/>", "<blockio:device path='/dev/sdb' bandwidth='1M'/>",
	"<o:x xmlns:o='urn:o'/>", "<blockio:disk dev='vdb' bandwidth='2M' strategy='token' bucket='4M'/>",
	"<limits/>", "<limits><disk dev='vda' iops='5'/></limits>", "<limitsx/>", "<p:limits/>",
	"<o:limits xmlns:o='http://blockio.dev/xmlns/limits/1'/>",
	"<q:limits xmlns:q='urn:q'><q:disk dev='vda' bandwidth='1M'/></q:limits>",
	"<a:x xmlns:a='urn:a'><blockio:limits xmlns:blockio='" NSURI "'/></a:x>",
	"<blockio:x xmlns:blockio='urn:b'/>",
};
static const char *const tokens_any[] = {
	"<", ">", "&", "'", "\"", "]]>", "<!DOCTYPE d>", "\xff", "\xc3", "<!--", "-->",
	"</domain>", "<domain>", "&lt;", "<metadata>", "</metadata>", "xmlns:blockio='" NSURI "'",
	"=", "/", "\n",
};
static const char *const uris[] = {
	"https://blockio.dev/xmlns/limits/2", NSURI "/", "http://blockio.dev/xmlns/limits/1",
	"urn:x", "", "https://blockio.dev/xmlns/limits/", "https://blockio.dev/xmlns/limits",
	"HTTPS://Blockio.Dev/xmlns/limits/1", "https://www.blockio.dev/xmlns/limits/1",
	"https://notblockio.dev/xmlns/limits/1", "https://blockio.dev.example/limits/1",
	"urn:blockio.dev:limits", "ftp://blockio.dev/xmlns/limits/1", "blockio.dev/xmlns/limits/1",
	"https://blokio.dev/xmlns/limits/1", "https://blockio.dev./xmlns/limits/1",
	"https://example.org/xmlns/limits/1", "https://blcokio.dev/xmlns/limts/1",
};

/* A value for attribute @name: near-valid more often than not. */
static void gen_value(const char *name, char *out, size_t n)
{
	if (!strcmp(name, "strategy")) {
		snprintf(out, n, "%s", PICK(strategies));
	} else if (!strcmp(name, "dev")) {
		snprintf(out, n, "%s", PICK(devs));
	} else if (!strcmp(name, "path")) {
		snprintf(out, n, "%s", PICK(paths));
	} else if (pick(4) == 0) {
		snprintf(out, n, "%s", PICK(edges));
	} else if (pick(8) == 0) {
		/* random digits */
		size_t len = 1 + pick(25), i;

		for (i = 0; i < len && i + 1 < n; i++)
			out[i] = (char)('0' + pick(10));
		out[i] = '\0';
	} else {
		snprintf(out, n, "%s%s%s%s", PICK(prefixes), PICK(digits),
			 PICK(units), PICK(rates));
	}
}

/* The span [*vs, *ve) of a random attribute value in [start, end); its name. */
static bool find_attr(const struct buf *b, size_t start, size_t end,
		      size_t *ns, size_t *vs, size_t *ve)
{
	size_t cand[256], nc = 0;

	for (size_t i = start + 1; i + 1 < end && nc < 256; i++)
		if (b->s[i] == '=' && (b->s[i + 1] == '\'' || b->s[i + 1] == '"') &&
		    (isalnum((unsigned char)b->s[i - 1]) || b->s[i - 1] == '-'))
			cand[nc++] = i;
	if (!nc)
		return false;
	{
		size_t eq = cand[pick(nc)];
		char q = b->s[eq + 1];
		const char *close = memchr(b->s + eq + 2, q, end - eq - 2);

		if (!close)
			return false;
		*ns = eq;
		while (*ns > start && (isalnum((unsigned char)b->s[*ns - 1]) ||
				       b->s[*ns - 1] == '-' || b->s[*ns - 1] == ':'))
			(*ns)--;
		*vs = eq + 2;
		*ve = (size_t)(close - b->s);
	}
	return true;
}

/* Position just after a random "<blockio:disk"/"<blockio:device" in the region. */
static bool find_target(const struct buf *b, size_t start, size_t end, size_t *at, size_t *stop)
{
	size_t cand[64], nc = 0;

	for (size_t i = start; i + 8 < end && nc < 64; i++)
		if (!memcmp(b->s + i, "<blockio:d", 10) || !memcmp(b->s + i, "<disk ", 6) ||
		    !memcmp(b->s + i, "<x:disk ", 8))
			cand[nc++] = i;
	if (!nc)
		return false;
	*at = cand[pick(nc)];
	{
		const char *e = memmem(b->s + *at, end - *at, "/>", 2);

		*stop = e ? (size_t)(e - b->s) + 2 : *at;
	}
	return true;
}

enum { M_VALUE, M_ADD_ATTR, M_DEL_ATTR, M_RENAME_ATTR, M_DUP_TARGET, M_RENAME_ELEM,
       M_URI, M_META_TOKEN, M_FLIP, M_INS_BYTE, M_DEL_SPAN, M_DUP_SPAN, M_TRUNCATE,
       M_ANY_TOKEN, M_COUNT };

static const char *const mutation_names[M_COUNT] = {
	"value", "add-attr", "del-attr", "rename-attr", "dup-target", "rename-elem",
	"uri", "meta-token", "flip", "ins-byte", "del-span", "dup-span", "truncate",
	"any-token",
};

static void mutate(struct buf *b, int m)
{
	size_t start, end, ns, vs, ve, at, stop;
	char val[128];

	region(b, &start, &end);
	switch (m) {
	case M_VALUE:
		if (find_attr(b, start, end, &ns, &vs, &ve)) {
			char name[64];

			snprintf(name, sizeof(name), "%.*s", (int)(vs - 2 - ns), b->s + ns);
			gen_value(name, val, sizeof(val));
			splice(b, vs, ve - vs, val, strlen(val));
		}
		break;
	case M_ADD_ATTR:
		if (find_target(b, start, end, &at, &stop)) {
			const char *name = PICK(attr_names);
			char attr[256];
			const char *space = memchr(b->s + at, ' ', stop > at ? stop - at : 0);

			gen_value(name, val, sizeof(val));
			snprintf(attr, sizeof(attr), " %s='%s'", name, val);
			if (space)
				insert(b, (size_t)(space - b->s), attr);
		}
		break;
	case M_DEL_ATTR:
		if (find_attr(b, start, end, &ns, &vs, &ve))
			splice(b, ns, ve + 1 - ns, "", 0);
		break;
	case M_RENAME_ATTR:
		if (find_attr(b, start, end, &ns, &vs, &ve)) {
			const char *name = PICK(attr_names);

			splice(b, ns, vs - 2 - ns, name, strlen(name));
		}
		break;
	case M_DUP_TARGET:
		if (find_target(b, start, end, &at, &stop) && stop > at) {
			char copy[1024];
			size_t n = stop - at < sizeof(copy) ? stop - at : sizeof(copy) - 1;

			memcpy(copy, b->s + at, n);
			splice(b, stop, 0, copy, n);
		}
		break;
	case M_RENAME_ELEM:
		if (find_target(b, start, end, &at, &stop)) {
			static const char *const names[] = {
				"<blockio:device", "<blockio:disk", "<blockio:disks", "<disk",
				"<blockio:limits", "<blockio:Disk",
			};
			const char *name = PICK(names);
			const char *space = memchr(b->s + at, ' ', stop > at ? stop - at : 0);

			if (space)
				splice(b, at, (size_t)(space - b->s) - at, name, strlen(name));
		}
		break;
	case M_URI: {
		const char *u = memmem(b->s + start, end - start, NSURI, strlen(NSURI));
		const char *to = PICK(uris);

		if (u)
			splice(b, (size_t)(u - b->s), strlen(NSURI), to, strlen(to));
		break;
	}
	case M_META_TOKEN:
		insert(b, start + pick(end - start + 1), PICK(tokens_meta));
		break;
	case M_FLIP:
		if (b->len)
			b->s[pick(b->len)] ^= (char)(1u << pick(8));
		break;
	case M_INS_BYTE: {
		char c = (char)pick(256);

		splice(b, pick(b->len + 1), 0, &c, 1);
		break;
	}
	case M_DEL_SPAN:
		at = pick(b->len + 1);
		splice(b, at, 1 + pick(16), "", 0);
		break;
	case M_DUP_SPAN: {
		char copy[64];
		size_t n = 1 + pick(sizeof(copy) - 1);

		at = pick(b->len + 1);
		if (n > b->len - at)
			n = b->len - at;
		memcpy(copy, b->s + at, n);
		splice(b, pick(b->len + 1), 0, copy, n);
		break;
	}
	case M_TRUNCATE:
		b->len = pick(b->len + 1);
		break;
	case M_ANY_TOKEN:
		insert(b, pick(b->len + 1), PICK(tokens_any));
		break;
	}
}

/* ---- seeds ----------------------------------------------------------------- */

#define SEED_DOMAIN(meta)                                                      \
	"<domain type='qemu'><name>seed</name>"                                \
	"<uuid>c7a5fdbd-cdaf-9455-926a-d65c16db1809</uuid><metadata>" meta      \
	"</metadata><devices>"                                                 \
	"<disk type='file' device='disk'><source file='/var/lib/libvirt/images/a.img'/><target dev='vda'/></disk>" \
	"<disk type='block' device='disk'><source dev='/dev/vdb'/><target dev='vdb'/></disk>" \
	"<disk type='file' device='disk'><source file='/srv/b.img'/><target dev='vdc'/></disk>" \
	"<disk type='network' device='disk'><source protocol='rbd' name='p'/><target dev='vdd'/></disk>" \
	"<disk type='file' device='disk'><source file='/tmp/t.img'/><target dev='vde'/></disk>" \
	"</devices></domain>\n"

static const char *const builtin_seeds[] = {
	SEED_DOMAIN("<blockio:limits xmlns:blockio='" NSURI "'>"
		    "<blockio:disk dev='vda' bandwidth='8MiB/s' iops='500'/>"
		    "<blockio:device path='/dev/sdb2' bandwidth='4M' strategy='token' bucket='64MiB'/>"
		    "</blockio:limits>"),
	SEED_DOMAIN("<blockio:limits xmlns:blockio='" NSURI "'>\n  <!-- c -->\n"
		    "<blockio:disk dev='vdb' iops='10k' strategy='token' iops-bucket='20k'/>\n"
		    "<blockio:disk dev='vdc' bandwidth='1GB/s' strategy='leaky'/>\n"
		    "</blockio:limits>"),
	SEED_DOMAIN("<limits xmlns='" NSURI "'><disk dev='vda' bandwidth='1048576'/>"
		    "<device path='/dev/mapper/vg-lv' iops='7/s'/></limits>"),
	SEED_DOMAIN("<x:limits xmlns:x='" NSURI "'><x:disk dev='vda' iops='1G' bandwidth='1TiB/s' "
		    "strategy='token' bucket='1T' iops-bucket='1000000000'/></x:limits>"
		    "<app:cfg xmlns:app='urn:app'/>"),
	SEED_DOMAIN("<blockio:limits xmlns:blockio='" NSURI "'/>"),
};

static size_t load_seeds(struct buf *seeds, size_t max)
{
	size_t n = 0;
	DIR *dir = opendir(SRCDIR "/../vm-definitions");
	struct dirent *d;

	for (size_t i = 0; i < sizeof(builtin_seeds) / sizeof(builtin_seeds[0]) && n < max; i++) {
		seeds[n].len = strlen(builtin_seeds[i]);
		memcpy(seeds[n].s, builtin_seeds[i], seeds[n].len);
		n++;
	}
	while (dir && (d = readdir(dir)) && n < max) {
		char path[512];
		FILE *f;

		if (!strstr(d->d_name, ".xml"))
			continue;
		snprintf(path, sizeof(path), SRCDIR "/../vm-definitions/%s", d->d_name);
		f = fopen(path, "rb");
		if (!f)
			continue;
		seeds[n].len = fread(seeds[n].s, 1, MAX_DOC - 1, f);
		fclose(f);
		n++;
	}
	if (dir)
		closedir(dir);
	return n;
}

/* ---- the run ---------------------------------------------------------------- */

static void report(const char *what, const struct buf *b, const char *detail)
{
	static unsigned shown;

	if (shown++ >= 5)
		return;
	fprintf(stderr, "---- %s: %s\n%.*s\n----\n", what, detail, (int)(b->len < 3000 ? b->len : 3000), b->s);
}

int main(void)
{
	static struct buf seeds[16], mutant;
	const char *env_iter = getenv("FUZZ_ITERATIONS"), *env_seed = getenv("FUZZ_SEED");
	unsigned long iterations = env_iter ? strtoul(env_iter, NULL, 10) : 12000;
	uint64_t seed = env_seed ? strtoull(env_seed, NULL, 0) : 0x5eedb10c;
	unsigned long accepted = 0, rejected = 0, garbage = 0, false_rejects = 0;
	unsigned long per[M_COUNT][2] = { { 0 } };
	size_t nseeds;

	rng_state = seed ? seed : 1;
	compile(&re_bw, "^[0-9]+([bB]|[kKmMgGtT]([iI]?[bB])?)?(/s)?$");
	compile(&re_bytes, "^[0-9]+([bB]|[kKmMgGtT]([iI]?[bB])?)?$");
	compile(&re_iops, "^[0-9]+[kKmMgG]?(/s)?$");
	compile(&re_ops, "^[0-9]+[kKmMgG]?$");
	compile(&re_dev, "^[A-Za-z0-9_.-]+$");
	compile(&re_uuid, "^[[:space:]]*([- ]*[0-9a-fA-F]{2}){16}[[:space:]]*$");
	if (regcomp(&re_host, "^([a-z][a-z0-9+.-]*:)?[/\\\\]*([^/\\\\?#:]*)", REG_EXTENDED)) {
		fprintf(stderr, "bad host regex\n");
		return 2;
	}

	nseeds = load_seeds(seeds, 16);
	CHECKF(nseeds >= 8, "only %zu seeds", nseeds);

	/* every seed is valid, and parser and model agree on it */
	for (size_t i = 0; i < nseeds; i++) {
		struct blockio_config cfg;
		struct blockio_error err = { "" };
		struct ref ref;
		int rc = blockio_config_parse(seeds[i].s, seeds[i].len, &cfg, &err);

		rc = rc ? rc : blockio_config_resolve(&cfg, &fake_host, &err);
		CHECKF(rc == 0, "seed %zu: %s", i, err.msg);
		CHECKF(reference(seeds[i].s, seeds[i].len, &ref), "seed %zu: model rejects", i);
		if (!rc)
			CHECKF(!diff(&cfg, &ref), "seed %zu: %s", i, diff(&cfg, &ref));
		blockio_config_free(&cfg);
	}

	printf("test-fuzz: %lu mutants, FUZZ_SEED=0x%" PRIx64 "\n", iterations, seed);
	for (unsigned long it = 0; it < iterations; it++) {
		struct blockio_config cfg;
		struct blockio_error err = { "" };
		struct ref ref;
		int first = -1, rc, parsed;
		bool want;

		mutant = seeds[pick(nseeds)];
		for (size_t k = 0, n = 1 + pick(3); k < n; k++) {
			/* 60 % grammar-aware edits in <metadata>, 40 % bytes anywhere */
			int m = pick(10) < 6 ? (int)pick(M_FLIP) : M_FLIP + (int)pick(M_COUNT - M_FLIP);

			if (first < 0)
				first = m;
			mutate(&mutant, m);
		}
		rc = parsed = blockio_config_parse(mutant.s, mutant.len, &cfg, &err);
		if (!rc)
			rc = blockio_config_resolve(&cfg, &fake_host, &err);
		want = reference(mutant.s, mutant.len, &ref);
		per[first][rc == 0]++;
		if (rc == 0) {
			const char *d = want ? diff(&cfg, &ref) : "the model rejects it";

			accepted++;
			if (d) {
				garbage++;
				report("accepted garbage", &mutant, d);
			}
		} else {
			rejected++;
			if (want) {
				false_rejects++;
				report("false reject", &mutant, err.msg);
			}
			/* a failed parse leaves nothing behind; every failure says one line */
			if (!err.msg[0] || strchr(err.msg, '\n') ||
			    (parsed && (cfg.nrules || cfg.ntargets || cfg.name))) {
				garbage++;
				report("bad rejection", &mutant, err.msg);
			}
		}
		blockio_config_free(&cfg);
	}

	printf("test-fuzz: %lu accepted, %lu rejected, %lu accepted garbage, %lu false rejects\n",
	       accepted, rejected, garbage, false_rejects);
	for (int m = 0; m < M_COUNT; m++)
		printf("test-fuzz:   %-12s %6lu accepted %6lu rejected\n", mutation_names[m],
		       per[m][1], per[m][0]);
	CHECKF(iterations < 10000 || accepted + rejected >= 10000, "ran %lu", accepted + rejected);
	CHECKF(garbage == 0, "%lu mutants accepted as garbage", garbage);
	CHECKF(false_rejects == 0, "%lu valid mutants rejected", false_rejects);
	CHECKF(accepted * 20 >= iterations && rejected * 20 >= iterations,
	       "verdicts too lopsided to mean anything: %lu accepted, %lu rejected",
	       accepted, rejected);
	regfree(&re_bw);
	regfree(&re_bytes);
	regfree(&re_iops);
	regfree(&re_ops);
	regfree(&re_dev);
	regfree(&re_host);
	regfree(&re_uuid);
	return check_done("test-fuzz");
}
