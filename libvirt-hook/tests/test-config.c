// SPDX-License-Identifier: GPL-2.0
/*
 * test-config.c - domain XML to rules: blockio_config_parse() and
 * blockio_config_resolve() against the fake host of fakefs.h.
 */
#include <stdlib.h>

#include "blockio.h"
#include "config.h"
#include "resolve.h"
#include "procfs.h"
#include "check.h"
#include "fakefs.h"

#define NS "xmlns:blockio='https://blockio.dev/xmlns/limits/1'"
#define UUID "c7a5fdbd-cdaf-9455-926a-d65c16db1809"

static char doc[16384];

/* A domain with every kind of disk the tests need, and @meta in <metadata>. */
static const char *domain_named(const char *name, const char *meta)
{
	snprintf(doc, sizeof(doc),
		 "<domain type='qemu'>\n"
		 "  <name>%s</name>\n"
		 "  <uuid>" UUID "</uuid>\n"
		 "  <metadata>%s</metadata>\n"
		 "  <devices>\n"
		 "    <disk type='file' device='disk'><driver name='qemu' type='raw'/>"
		 "<source file='/var/lib/libvirt/images/a.img'/><target dev='vda' bus='virtio'/></disk>\n"
		 "    <disk type='block' device='disk'><source dev='/dev/vdb'/><target dev='vdb'/></disk>\n"
		 "    <disk type='file' device='disk'><source file='/srv/b.img'/><target dev='vdc'/></disk>\n"
		 "    <disk type='network' device='disk'><source protocol='rbd' name='p/i'/><target dev='vdd'/></disk>\n"
		 "    <disk type='file' device='cdrom'><target dev='sda' bus='sata'/></disk>\n"
		 "    <disk type='file' device='disk'><source file='/tmp/t.img'/><target dev='vde'/></disk>\n"
		 "    <disk type='volume' device='disk'><source pool='p' volume='v'/><target dev='vdf'/></disk>\n"
		 "    <disk type='file' device='disk'><source file='/var/lib/libvirt/images/c.img'/><target dev='vdg'/></disk>\n"
		 "    <disk type='file' device='disk'><source file='/nope/x.img'/><target dev='vdh'/></disk>\n"
		 "    <disk type='nvme' device='disk'><source type='pci' managed='yes' namespace='1'/><target dev='vdi'/></disk>\n"
		 "    <disk device='disk'><source file='/srv/b.img'/><target dev='vdj'/></disk>\n"
		 "    <disk type='a&#10;b' device='disk'><target dev='vdk'/></disk>\n"
		 "  </devices>\n"
		 "</domain>\n", name, meta);
	return doc;
}

static const char *domain(const char *meta)
{
	return domain_named("vm1", meta);
}

/* "bandwidth /dev/vdc:8388608:0|iops /dev/vdc:500:0" */
static const char *rules_text(const struct blockio_config *cfg)
{
	static char text[4096];
	size_t o = 0;

	text[0] = '\0';
	for (size_t i = 0; i < cfg->nrules; i++) {
		char line[512];

		if (blockio_rule_format(cfg, &cfg->rules[i], line, sizeof(line)))
			return "FORMAT-ERROR";
		o += (size_t)snprintf(text + o, sizeof(text) - o, "%s%s %s",
				      i ? "|" : "",
				      cfg->rules[i].kind == BLOCKIO_IOPS ? "iops" : "bandwidth",
				      line);
	}
	return text;
}

static bool one_line(const char *s)
{
	return *s && !strchr(s, '\n') && !strchr(s, '\r');
}

/* @meta parses and resolves to exactly @want. */
static void ok_at(int line, const char *xml, const char *want)
{
	struct blockio_config cfg;
	struct blockio_error err = { "" };
	int rc = blockio_config_parse(xml, strlen(xml), &cfg, &err);

	if (!rc)
		rc = blockio_config_resolve(&cfg, &fake_host, &err);
	CHECKF(rc == 0, "line %d: %s", line, err.msg);
	if (!rc)
		CHECKF(!strcmp(rules_text(&cfg), want), "line %d: got '%s' want '%s'",
		       line, rules_text(&cfg), want);
	blockio_config_free(&cfg);
}

/* @xml fails to parse (or, with @resolve, to resolve) with @msg in the message. */
static void bad_at(int line, const char *xml, bool resolve, const char *msg)
{
	struct blockio_config cfg;
	struct blockio_error err = { "" };
	int rc = blockio_config_parse(xml, strlen(xml), &cfg, &err);

	if (resolve) {
		CHECKF(rc == 0, "line %d: parse failed: %s", line, err.msg);
		if (!rc)
			rc = blockio_config_resolve(&cfg, &fake_host, &err);
	}
	CHECKF(rc == -1, "line %d: accepted", line);
	CHECKF(strstr(err.msg, msg) != NULL, "line %d: message '%s' lacks '%s'",
	       line, err.msg, msg);
	CHECKF(one_line(err.msg), "line %d: message not one line: '%s'", line, err.msg);
	if (!resolve)
		CHECKF(cfg.nrules == 0 && cfg.ntargets == 0 && !cfg.name,
		       "line %d: rules left after an error", line);
	blockio_config_free(&cfg);
}

#define OK(meta, want) ok_at(__LINE__, domain(meta), want)
#define BAD(meta, msg) bad_at(__LINE__, domain(meta), false, msg)
#define BAD_XML(xml, msg) bad_at(__LINE__, xml, false, msg)
#define BAD_RESOLVE(meta, msg) bad_at(__LINE__, domain(meta), true, msg)
#define LIMITS(body) "<blockio:limits " NS ">" body "</blockio:limits>"

static void test_without_limits(void)
{
	struct blockio_config cfg;
	struct blockio_error err = { "" };
	const char *xml;

	xml = domain("");
	CHECK(blockio_config_parse(xml, strlen(xml), &cfg, &err) == 0);
	CHECK(!cfg.has_limits && cfg.nrules == 0);
	CHECK_STR(cfg.uuid, UUID);
	CHECK_STR(cfg.name, "vm1");
	blockio_config_free(&cfg);

	/* other namespaces in <metadata> are none of our business when
	 * neither their URI (more than 3 edits away, no blockio host), their
	 * prefix nor their content (no <disk>/<device> with a cap) is ours;
	 * test_lookalikes() has those that come close */
	xml = domain("<app:cfg xmlns:app='http://example.org/app'><app:x/></app:cfg>"
		     "<e:limits xmlns:e='https://example.dev/xmlns/limits/1'/>"
		     "<q:limits xmlns:q='https://example.org/qos' cpus='2'>"
		     "<q:disk name='data' quota='10G'/><q:device path='/dev/sdb'/></q:limits>"
		     "<o:x xmlns:o='urn:x'/><b:blockio xmlns:b='https://example.org/b'/>"
		     "<blockio/><limitsx/><cfg><limits/><disk dev='vda'/></cfg>");
	CHECK(blockio_config_parse(xml, strlen(xml), &cfg, &err) == 0);
	CHECKF(!cfg.has_limits && cfg.nrules == 0, "%s", err.msg);
	blockio_config_free(&cfg);

	/* our elements outside <metadata> are refused (libvirt would drop
	 * them: the VM would start uncapped) */
	xml = "<domain><name>x</name><devices>" LIMITS("<blockio:disk dev='vda' bandwidth='junk'/>")
	      "</devices></domain>";
	CHECK(blockio_config_parse(xml, strlen(xml), &cfg, &err) == -1);
	CHECK_CONTAINS(err.msg, "<blockio:limits> in <devices> is not a child of <metadata>; blockio reads only <limits> in namespace 'https://blockio.dev/xmlns/limits/1' as a child of <metadata>, so its caps would be ignored");
	blockio_config_free(&cfg);

	/* an empty <blockio:limits/> is valid: no caps */
	xml = domain("<blockio:limits " NS "/>");
	CHECK(blockio_config_parse(xml, strlen(xml), &cfg, &err) == 0);
	CHECK(cfg.has_limits && cfg.nrules == 0);
	blockio_config_free(&cfg);

	/* a domain without metadata needs no UUID */
	xml = "<domain><name>x</name></domain>";
	CHECK(blockio_config_parse(xml, strlen(xml), &cfg, &err) == 0);
	CHECK(cfg.uuid[0] == '\0');
	blockio_config_free(&cfg);
}

static void test_rules(void)
{
	OK(LIMITS("<blockio:disk dev='vda' bandwidth='8MiB/s' iops='500'/>"),
	   "bandwidth /dev/vdc:8388608:0|iops /dev/vdc:500:0");
	OK(LIMITS("<blockio:disk dev='vda' bandwidth='2M' strategy='leaky'/>"),
	   "bandwidth /dev/vdc:2097152:0");
	OK(LIMITS("<blockio:disk dev='vda' iops='10k/s'/>"), "iops /dev/vdc:10000:0");
	/* token bucket: explicit buckets, and the default (= the rate) */
	OK(LIMITS("<blockio:disk dev='vda' bandwidth='4MiB/s' iops='100' strategy='token' "
		  "bucket='64MiB' iops-bucket='1k'/>"),
	   "bandwidth /dev/vdc:4194304:1:67108864|iops /dev/vdc:100:1:1000");
	OK(LIMITS("<blockio:disk dev='vda' bandwidth='4M' iops='100' strategy='token'/>"),
	   "bandwidth /dev/vdc:4194304:1:4194304|iops /dev/vdc:100:1:100");
	OK(LIMITS("<blockio:disk dev='vda' iops='100' strategy='token' iops-bucket='300'/>"),
	   "iops /dev/vdc:100:1:300");
	/* targets: block-device disk, file on a partition, explicit devices */
	OK(LIMITS("<blockio:disk dev='vdb' bandwidth='1M'/>"), "bandwidth /dev/vdb:1048576:0");
	OK(LIMITS("<blockio:disk dev='vdc' bandwidth='1M'/>"), "bandwidth /dev/sdb:1048576:0");
	OK(LIMITS("<blockio:device path='/dev/sdb2' iops='50'/>"), "iops /dev/sdb:50:0");
	OK(LIMITS("<blockio:device path='/dev/vdc' iops='50'/>"), "iops /dev/vdc:50:0");
	OK(LIMITS("<blockio:device path='/dev/mapper/vg-lv' iops='50'/>"), "iops /dev/dm-0:50:0");
	/* several targets, in document order */
	OK(LIMITS("<blockio:disk dev='vda' bandwidth='8M'/>"
		  "<blockio:disk dev='vdb' bandwidth='4M' strategy='token' bucket='16M'/>"
		  "<blockio:device path='/dev/sdb' iops='200'/>"),
	   "bandwidth /dev/vdc:8388608:0|bandwidth /dev/vdb:4194304:1:16777216|iops /dev/sdb:200:0");
	/* whitespace, comments, processing instructions are fine */
	OK("\n  <!-- caps -->\n  <blockio:limits " NS ">\n    <!-- vda -->\n"
	   "    <blockio:disk dev='vda' bandwidth='1M'>\n  <?pi x?> </blockio:disk>\n"
	   "  </blockio:limits>\n", "bandwidth /dev/vdc:1048576:0");
	/* any prefix, or the default namespace, as long as the URI is ours */
	OK("<limits xmlns='https://blockio.dev/xmlns/limits/1'><disk dev='vda' iops='5'/></limits>",
	   "iops /dev/vdc:5:0");
	OK("<x:limits xmlns:x='https://blockio.dev/xmlns/limits/1'><x:disk dev='vda' iops='5'/></x:limits>",
	   "iops /dev/vdc:5:0");
	/* the maximum values */
	OK(LIMITS("<blockio:disk dev='vda' bandwidth='1TiB/s' iops='1G' strategy='token' "
		  "bucket='1T' iops-bucket='1000000000'/>"),
	   "bandwidth /dev/vdc:1099511627776:1:1099511627776|iops /dev/vdc:1000000000:1:1000000000");

	/* the namespace may be declared on <domain> */
	ok_at(__LINE__,
	      "<domain " NS "><name>n</name><uuid>" UUID "</uuid><metadata>"
	      "<blockio:limits><blockio:device path='/dev/vdb' iops='7'/></blockio:limits>"
	      "</metadata></domain>", "iops /dev/vdb:7:0");
}

static void test_values(void)
{
	/* the message names the value, the attribute and the element */
	BAD(LIMITS("<blockio:disk dev='vda' bandwidth='8XB/s'/>"),
	    "invalid value '8XB/s' for attribute 'bandwidth' of <blockio:disk dev='vda'>: unknown unit 'XB'");
	BAD(LIMITS("<blockio:disk dev='vda' iops='-5'/>"),
	    "invalid value '-5' for attribute 'iops' of <blockio:disk dev='vda'>");
	BAD(LIMITS("<blockio:disk dev='vda' iops='0'/>"), "must be at least 1");
	BAD(LIMITS("<blockio:disk dev='vda' bandwidth=''/>"),
	    "invalid value '' for attribute 'bandwidth' of <blockio:disk dev='vda'>: empty value");
	BAD(LIMITS("<blockio:disk dev='vda' bandwidth='99999999999999999999999'/>"), "out of range");
	BAD(LIMITS("<blockio:disk dev='vda' bandwidth='2T'/>"), "out of range: more than 1TiB/s");
	BAD(LIMITS("<blockio:disk dev='vda' iops='5' strategy='Token'/>"),
	    "invalid value 'Token' for attribute 'strategy' of <blockio:disk dev='vda'>: expected 'leaky' or 'token'");
	BAD(LIMITS("<blockio:disk dev='vda' iops='5' strategy=' token'/>"), "attribute 'strategy'");
	BAD(LIMITS("<blockio:disk dev='vda' iops='5' strategy=''/>"), "attribute 'strategy'");
	BAD(LIMITS("<blockio:disk dev='vda' bandwidth='1M' strategy='token' bucket='1M/s'/>"),
	    "invalid value '1M/s' for attribute 'bucket' of <blockio:disk dev='vda'>: a size takes no '/s'");
	BAD(LIMITS("<blockio:disk dev='vda' iops='5' strategy='token' iops-bucket='0'/>"),
	    "attribute 'iops-bucket'");
	/* the value is escaped: the message stays one line */
	BAD(LIMITS("<blockio:disk dev='vda' bandwidth='8M&#10;B'/>"),
	    "invalid value '8M\\x0aB' for attribute 'bandwidth'");
	BAD(LIMITS("<blockio:device path='/dev/a&#10;b' iops='1'/>"),
	    "invalid value '/dev/a\\x0ab' for attribute 'path' of <blockio:device path='/dev/a\\x0ab'>: not an absolute path");
	BAD(LIMITS("<blockio:device path='dev/sdb' iops='1'/>"), "not an absolute path");
	BAD(LIMITS("<blockio:device path='' iops='1'/>"), "not an absolute path");
	BAD(LIMITS("<blockio:disk dev='vd a' iops='1'/>"), "not a disk target name");
	BAD(LIMITS("<blockio:disk dev='' iops='1'/>"), "not a disk target name");
}

static void test_structure(void)
{
	BAD(LIMITS("<blockio:disk dev='vda'/>"),
	    "<blockio:disk dev='vda'> sets neither 'bandwidth' nor 'iops'");
	BAD(LIMITS("<blockio:disk dev='vda' bandwidth='1M' bucket='2M'/>"),
	    "attribute 'bucket' of <blockio:disk dev='vda'> needs strategy='token'");
	BAD(LIMITS("<blockio:disk dev='vda' iops='1' strategy='leaky' iops-bucket='2'/>"),
	    "attribute 'iops-bucket' of <blockio:disk dev='vda'> needs strategy='token'");
	BAD(LIMITS("<blockio:disk dev='vda' iops='1' strategy='token' bucket='2M'/>"),
	    "attribute 'bucket' of <blockio:disk dev='vda'> needs attribute 'bandwidth'");
	BAD(LIMITS("<blockio:disk dev='vda' bandwidth='1M' strategy='token' iops-bucket='2'/>"),
	    "attribute 'iops-bucket' of <blockio:disk dev='vda'> needs attribute 'iops'");
	BAD(LIMITS("<blockio:disk bandwidth='1M'/>"), "missing attribute 'dev' of <blockio:disk>");
	BAD(LIMITS("<blockio:device bandwidth='1M'/>"), "missing attribute 'path' of <blockio:device>");
	BAD(LIMITS("<blockio:disk dev='vda' path='/dev/sdb' bandwidth='1M'/>"),
	    "unsupported attribute 'path' of <blockio:disk dev='vda'>");
	BAD(LIMITS("<blockio:device dev='vda' path='/dev/sdb' bandwidth='1M'/>"),
	    "unsupported attribute 'dev' of <blockio:device path='/dev/sdb'>");
	BAD(LIMITS("<blockio:disk dev='vda' bandwith='1M'/>"),
	    "unsupported attribute 'bandwith' of <blockio:disk dev='vda'>");
	BAD(LIMITS("<blockio:disk dev='vda' blockio:iops='1'/>"),
	    "unsupported attribute 'blockio:iops' of <blockio:disk dev='vda'>");
	BAD(LIMITS("<blockio:disk xmlns:o='urn:o' dev='vda' iops='1' o:x='1'/>"),
	    "unsupported attribute 'o:x'");
	BAD(LIMITS("<blockio:disk dev='vda' bandwidth='1M'/><blockio:disk dev='vda' iops='5'/>"),
	    "duplicate <blockio:disk dev='vda'>");
	BAD(LIMITS("<blockio:device path='/dev/sdb' iops='5'/><blockio:device path='/dev/sdb' iops='5'/>"),
	    "duplicate <blockio:device path='/dev/sdb'>");
	BAD(LIMITS("<blockio:disk dev='vda' iops='1'><blockio:disk dev='vdb' iops='1'/></blockio:disk>"),
	    "unexpected element <blockio:disk> in <blockio:disk dev='vda'>");
	BAD(LIMITS("<blockio:disk dev='vda' iops='1'>text</blockio:disk>"),
	    "unexpected text 'text' in <blockio:disk dev='vda'>");
	BAD(LIMITS("<blockio:disk dev='vda' iops='1'><![CDATA[x]]></blockio:disk>"),
	    "unexpected content in <blockio:disk dev='vda'>");
	BAD(LIMITS("<blockio:limit dev='vda' iops='1'/>"),
	    "unexpected element <blockio:limit> in <blockio:limits>");
	BAD(LIMITS("<disk dev='vda' iops='1'/>"), "unexpected element <disk> in <blockio:limits>");
	BAD(LIMITS("junk<blockio:disk dev='vda' iops='1'/>"),
	    "unexpected text 'junk' in <blockio:limits>");
	BAD("<blockio:limits " NS " version='2'/>", "unsupported attribute 'version' of <blockio:limits>");
	BAD(LIMITS("") LIMITS(""), "more than one element of namespace");
	BAD("<blockio:caps " NS "/>", "unsupported element <blockio:caps> in <metadata>");
	BAD("<b:limits xmlns:b='https://blockio.dev/xmlns/limits/2'/>",
	    "<b:limits> in <metadata> has namespace 'https://blockio.dev/xmlns/limits/2'; "
	    "blockio reads only 'https://blockio.dev/xmlns/limits/1'");
}

/*
 * A namespace that looks like ours, or <limits> without one, would leave
 * the VM uncapped if it were ignored: it is an error that names what was
 * found and the URI expected.
 */
#define EXPECTED "blockio reads only 'https://blockio.dev/xmlns/limits/1', so its caps would be ignored"
#define EXPECTED_NONS "blockio reads only <limits> in namespace 'https://blockio.dev/xmlns/limits/1', " \
	"e.g. <blockio:limits xmlns:blockio='https://blockio.dev/xmlns/limits/1'>, so its caps would be ignored"

static void test_lookalikes(void)
{
	static const char *const uris[] = {
		"http://blockio.dev/xmlns/limits/1",
		"https://blockio.dev/xmlns/limits",
		"https://blockio.dev/xmlns/limits/",
		"https://blockio.dev/xmlns/limits/1/",
		"https://blockio.dev/xmlns/limits/2",
		"https://blockio.dev/",
		"https://blockio.dev",
		"https://blockio.dev/limits",
		"https://www.blockio.dev/xmlns/limits/1",
		"HTTPS://BLOCKIO.DEV/xmlns/limits/1",
		"https://blockio.dev/XMLNS/limits/1",
		"https://blockio.dev:443/xmlns/limits/1",
		" https://blockio.dev/xmlns/limits/1",
		"https://blockio.dev/xmlns/limits/1 ",
		"https://blockio.dev/xmlns/limits/1?x",
		/* issue 25: another scheme, none, typos, lookalike characters */
		"ftp://blockio.dev/xmlns/limits/1",
		"blockio.dev/xmlns/limits/1",
		"//blockio.dev/xmlns/limits/1",
		"urn:blockio.dev:limits",
		"urn:blockio:limits:1",
		"https://blokio.dev/xmlns/limits/1",
		"https://blockio.de/xmlns/limits/1",
		"https://bIockio.dev/xmlns/limits/1",
		"https://blcokio.dev/xmlns/limts/1",
		"https://notblockio.dev/xmlns/limits/1",
		"https://blockio.dev.example.org/limits/1",
		"https://blockio.dev./xmlns/limits/1",
		"https://blockio.dev/xmlns/limits/1.",
		"https://blockio.dev/xmlns/limit/1",
		"https://blockio.io/xmlns/limits/1",
		"https://blocklo.dev/xmlns/limits/1",
		"https://bl\xd0\xbe" "ckio.dev/xmlns/limits/1",	/* Cyrillic o */
		"https://bl\xce\xbf" "ckio.dev/xmlns/limits/1",	/* Greek omicron */
		"https://block\xe2\x80\x8bio.dev/xmlns/limits/1",	/* zero-width space */
		"\xef\xbd\x88ttps://blockio.dev/xmlns/limits/1",	/* fullwidth h */
		"https\xef\xbc\x9a//blockio.dev/xmlns/limits/1",	/* fullwidth colon */
		"https://blockio\xe2\x80\xa4" "dev/xmlns/limits/1",	/* one dot leader */
		"https://\xf0\x9d\x90\x9blockio.dev/xmlns/limits/1",	/* mathematical b */
		"https://bl\xc3\xb6" "ckio.dev/xmlns/limits/1",	/* o with diaeresis */
		"\xc2\xa0https://blockio.dev/xmlns/limits/1",	/* no-break space */
		"HTTPS://BL\xd0\x9e" "CKIO.DEV/XMLNS/LIMITS/1",	/* Cyrillic capital O */
		"http\xd1\x95://blockio.dev/xmlns/limits/1",	/* Cyrillic dze for s */
		"https://blockio.dev/xmlns/lim\xc2\xad" "its/1",	/* soft hyphen */
		"https://blockio.dev/xmlns/limits/1\xe2\x80\x8b",	/* zero-width space at the end */
		"\xef\xbd\x88\xef\xbd\x94\xef\xbd\x94\xef\xbd\x90\xef\xbd\x93\xef\xbc\x9a\xef\xbc\x8f\xef\xbc\x8f"
		"\xef\xbd\x82\xef\xbd\x8c\xef\xbd\x8f\xef\xbd\x83\xef\xbd\x8b\xef\xbd\x89\xef\xbd\x8f\xef\xbc\x8e"
		"\xef\xbd\x84\xef\xbd\x85\xef\xbd\x96",	/* fullwidth https://blockio.dev */
		"https://blockio.dev/xmlns/limits/1#",
		"https://blockio.dev/xmlns/limits/01",
		"https://user@blockio.dev/xmlns/limits/1",
	};
	char meta[512], want[512];

	for (size_t i = 0; i < sizeof(uris) / sizeof(uris[0]); i++) {
		snprintf(meta, sizeof(meta),
			 "<blockio:limits xmlns:blockio='%s'><blockio:disk dev='vda' bandwidth='8M'/></blockio:limits>",
			 uris[i]);
		snprintf(want, sizeof(want),
			 "<blockio:limits> in <metadata> has namespace '%s'; " EXPECTED, uris[i]);
		BAD(meta, want);
		/* the default namespace, any element, any prefix */
		snprintf(meta, sizeof(meta), "<limits xmlns='%s'/>", uris[i]);
		snprintf(want, sizeof(want), "<limits> in <metadata> has namespace '%s'; " EXPECTED, uris[i]);
		BAD(meta, want);
		snprintf(meta, sizeof(meta), "<x:caps xmlns:x='%s'/>", uris[i]);
		snprintf(want, sizeof(want), "<x:caps> in <metadata> has namespace '%s'; " EXPECTED, uris[i]);
		BAD(meta, want);
	}
	/* beside a correct element, in either order */
	BAD(LIMITS("<blockio:disk dev='vda' iops='5'/>") "<old:limits xmlns:old='http://blockio.dev/xmlns/limits/1'/>",
	    "<old:limits> in <metadata> has namespace 'http://blockio.dev/xmlns/limits/1'; " EXPECTED);
	BAD("<old:limits xmlns:old='http://blockio.dev/xmlns/limits/1'/>" LIMITS("<blockio:disk dev='vda' iops='5'/>"),
	    "<old:limits> in <metadata> has namespace 'http://blockio.dev/xmlns/limits/1'; " EXPECTED);
	/* declared on <domain> */
	BAD_XML("<domain xmlns:blockio='http://blockio.dev/xmlns/limits/1'><name>n</name><uuid>" UUID "</uuid>"
		"<metadata><blockio:limits/></metadata></domain>",
		"<blockio:limits> in <metadata> has namespace 'http://blockio.dev/xmlns/limits/1'; " EXPECTED);
	/* a hostile URI stays on one line */
	BAD("<b:limits xmlns:b='https://blockio.dev/a&#10;b&apos;c'/>",
	    "<b:limits> in <metadata> has namespace 'https://blockio.dev/a\\x0ab\\x27c'; " EXPECTED);

	/* no namespace at all: <limits>, or a prefix never declared */
	BAD("<limits><disk dev='vda' bandwidth='8M'/></limits>",
	    "<limits> in <metadata> has no namespace; " EXPECTED_NONS);
	BAD("<limits/>", "<limits> in <metadata> has no namespace; " EXPECTED_NONS);
	BAD("<blockio:limits><blockio:disk dev='vda' bandwidth='8M'/></blockio:limits>",
	    "<blockio:limits> in <metadata> has no namespace (prefix 'blockio' is not declared); " EXPECTED_NONS);
	BAD("<b:limits/>", "<b:limits> in <metadata> has no namespace (prefix 'b' is not declared); " EXPECTED_NONS);
	BAD("<blockio:disk dev='vda' iops='1'/>",
	    "<blockio:disk> in <metadata> has no namespace (prefix 'blockio' is not declared)");
	BAD("<limits xmlns=''/>", "<limits> in <metadata> has no namespace; " EXPECTED_NONS);
	BAD(LIMITS("") "<limits/>", "<limits> in <metadata> has no namespace");

	/* what tells an admin the difference when the URI looks right */
	BAD("<b:limits xmlns:b='https://bl\xd0\xbe" "ckio.dev/xmlns/limits/1'/>",
	    EXPECTED "; its character 11 is U+043E, not ASCII: type the URI anew");
	BAD("<b:limits xmlns:b='https://block\xe2\x80\x8bio.dev/xmlns/limits/1'/>",
	    EXPECTED "; its character 14 is U+200B, not ASCII: type the URI anew");
	BAD("<b:limits xmlns:b='https://blockio.dev/xmlns/limits/1 '/>",
	    EXPECTED "; white space at the start or end of a namespace URI counts");
	BAD("<b:limits xmlns:b='Https://blockio.dev/xmlns/limits/1'/>",
	    EXPECTED "; namespace URIs are compared exactly, case included");

	/* the prefix blockio bound to another namespace */
	BAD("<blockio:limits xmlns:blockio='https://example.org/xmlns/blockio'/>",
	    "<blockio:limits> in <metadata> has namespace 'https://example.org/xmlns/blockio'; " EXPECTED);
	BAD("<BlockIO:caps xmlns:BlockIO='urn:x'/>", "<BlockIO:caps> in <metadata> has namespace 'urn:x'; " EXPECTED);

	/* shaped like ours, in another namespace or none, any name and case */
	BAD("<q:limits xmlns:q='https://example.org/qos'><q:disk dev='vda' bandwidth='8M'/></q:limits>",
	    "<q:limits> in <metadata> holds <q:disk> with attribute 'bandwidth' as <blockio:limits> does, "
	    "but has namespace 'https://example.org/qos'; " EXPECTED);
	BAD("<caps xmlns='urn:x'><x:Device xmlns:x='urn:y' path='/dev/sdb' IOPS='5'/></caps>",
	    "<caps> in <metadata> holds <x:Device> with attribute 'IOPS' as <blockio:limits> does, "
	    "but has namespace 'urn:x'; " EXPECTED);
	BAD("<caps><disk dev='vda' iops-bucket='5'/></caps>",
	    "<caps> in <metadata> holds <disk> with attribute 'iops-bucket' as <blockio:limits> does, "
	    "but has no namespace; " EXPECTED_NONS);
	BAD("<caps><disk dev='vda' strategy='token'/></caps>", "with attribute 'strategy'");
	BAD("<caps><disk dev='vda' bucket='1M'/></caps>", "with attribute 'bucket'");

	/* ours, or close, anywhere but as a child of <metadata> */
	BAD("<app:cfg xmlns:app='urn:app'>" LIMITS("<blockio:disk dev='vda' iops='5'/>") "</app:cfg>",
	    "<blockio:limits> in <app:cfg> is not a child of <metadata>; blockio reads only <limits> in "
	    "namespace 'https://blockio.dev/xmlns/limits/1' as a child of <metadata>, so its caps would be ignored");
	BAD("<app:cfg xmlns:app='urn:app'><app:x><b:disk xmlns:b='http://blockio.dev/xmlns/limits/1'/></app:x></app:cfg>",
	    "<b:disk> in <app:x> is not a child of <metadata> and has namespace 'http://blockio.dev/xmlns/limits/1'; "
	    "blockio reads only");
	BAD_XML("<domain><name>n</name><uuid>" UUID "</uuid><blockio:limits " NS "/></domain>",
		"<blockio:limits> in <domain> is not a child of <metadata>");
	/* libvirt keeps only the first <metadata> */
	BAD_XML("<domain><name>n</name><uuid>" UUID "</uuid><metadata/><metadata>"
		LIMITS("<blockio:disk dev='vda' iops='5'/>") "</metadata></domain>",
		"<blockio:limits> is in a second <metadata>; libvirt keeps only the first <metadata>, "
		"so its caps would be ignored: move it there");
	BAD_XML("<domain><name>n</name><uuid>" UUID "</uuid><metadata/><metadata>"
		"<b:x xmlns:b='http://blockio.dev/xmlns/limits/1'/></metadata></domain>",
		"<b:x> is in a second <metadata> and has namespace 'http://blockio.dev/xmlns/limits/1'");
	{
		/* in the first one, with an empty second: read as always */
		static const char xml[] = "<domain><name>n</name><uuid>" UUID "</uuid><metadata>"
			LIMITS("") "</metadata><metadata/></domain>";
		struct blockio_config cfg;
		struct blockio_error err = { "" };

		CHECKF(blockio_config_parse(xml, sizeof(xml) - 1, &cfg, &err) == 0, "%s", err.msg);
		CHECK(cfg.has_limits);
		blockio_config_free(&cfg);
	}
	/* inside our own element: its own checks name it */
	BAD(LIMITS("<blockio:limits/>"), "unexpected element <blockio:limits> in <blockio:limits>");

	/* the right namespace, any spelling of the prefix: unchanged */
	OK("<limits xmlns='https://blockio.dev/xmlns/limits/1'><disk dev='vda' iops='5'/></limits>",
	   "iops /dev/vdc:5:0");
}

static void test_disks(void)
{
	BAD(LIMITS("<blockio:disk dev='vdz' iops='1'/>"),
	    "<blockio:disk dev='vdz'>: the domain has no <disk> with <target dev='vdz'/>");
	/* no host block device carries a network disk's I/O: <iotune> */
	BAD(LIMITS("<blockio:disk dev='vdd' iops='1'/>"),
	    "<blockio:disk dev='vdd'>: disk 'vdd' is a network disk (protocol 'rbd'): QEMU reaches it through "
	    "no host block device, so blockio cannot cap it; use <iotune> in that <disk>, or attach the "
	    "storage through the host kernel (rbd map, iscsiadm, nbd-client) as a <disk type='block'> and cap that");
	BAD(LIMITS("<blockio:disk dev='vdf' iops='1'/>"),
	    "<blockio:disk dev='vdf'>: disk 'vdf' is a storage pool volume (pool 'p', volume 'v'), which the hook "
	    "cannot locate without calling libvirt; if the volume is a file or block device on a host disk, cap "
	    "that disk with <blockio:device path='/dev/...'/>, otherwise (network storage) use <iotune> in that <disk>");
	BAD(LIMITS("<blockio:disk dev='vdi' iops='1'/>"),
	    "<blockio:disk dev='vdi'>: disk 'vdi' is of type 'nvme': blockio caps only disks of type 'file' "
	    "and 'block'; use <iotune> in that <disk>");
	BAD(LIMITS("<blockio:disk dev='vdj' iops='1'/>"), "disk 'vdj' is of type '': blockio caps only");
	BAD(LIMITS("<blockio:disk dev='vdk' iops='1'/>"), "disk 'vdk' is of type 'a\\x0ab'");
	/* every network protocol gets the same advice */
	{
		static const char *const protos[] = { "iscsi", "nbd", "gluster", "http", "" };

		for (size_t i = 0; i < sizeof(protos) / sizeof(protos[0]); i++) {
			char xml[1024], want[128];

			snprintf(xml, sizeof(xml),
				 "<domain><name>n</name><uuid>" UUID "</uuid><metadata>%s</metadata><devices>"
				 "<disk type='network' device='disk'><source protocol='%s' name='x'/>"
				 "<target dev='vda'/></disk></devices></domain>",
				 LIMITS("<blockio:disk dev='vda' bandwidth='1M'/>"), protos[i]);
			snprintf(want, sizeof(want), "is a network disk (protocol '%s'): ", protos[i]);
			bad_at(__LINE__, xml, false, want);
			bad_at(__LINE__, xml, false, "use <iotune> in that <disk>");
		}
	}
	BAD(LIMITS("<blockio:disk dev='sda' iops='1'/>"), "<blockio:disk dev='sda'>: disk 'sda' has no source");
}

static void test_documents(void)
{
	BAD_XML("", "not well-formed");
	BAD_XML("<domain>", "not well-formed");
	BAD_XML("<domain><name>x</name></domian>", "not well-formed");
	BAD_XML("<domain>\xff</domain>", "not well-formed");
	BAD_XML("<domain a='1' a='2'/>", "not well-formed");
	/* libxml2's message as plain text: no \\x27 for its quotes */
	BAD_XML("<domain>&undefined;</domain>",
		"domain XML is not well-formed: line 1: Entity 'undefined' not defined");
	BAD_XML("<domain>\n<a>\n</b>\n</domain>",
		"domain XML is not well-formed: line 3: Opening and ending tag mismatch: a line 2 and b");
	BAD_XML("<domains/>", "not a libvirt domain XML: the root element is <domains>");
	BAD_XML("<x:domain xmlns:x='urn:x'/>", "not a libvirt domain XML");
	BAD_XML("<!DOCTYPE domain><domain/>", "<!DOCTYPE> is not accepted");
	BAD_XML("<?xml version='1.0'?><!DOCTYPE d [<!ENTITY a 'aaaaaaaaaa'><!ENTITY b '&a;&a;&a;&a;&a;'>"
		"<!ENTITY c '&b;&b;&b;&b;&b;&b;'>]><domain>&c;</domain>", "domain XML");
	BAD_XML("<!DOCTYPE d [<!ENTITY a 'x'>]><domain>&a;</domain>", "<!DOCTYPE> is not accepted");
	BAD_XML("<domain><uuid>not-a-uuid</uuid></domain>", "invalid value 'not-a-uuid' of <uuid>");
	BAD_XML("<domain><uuid>c7a5fdbdcdaf9455926ad65c16db180</uuid></domain>", "of <uuid>");
	/* a <uuid> as libvirt reads it, dashes or not: its canonical form */
	{
		static const char xml[] = "<domain><name>n</name><uuid> C7A5FDBDCDAF9455926AD65C16DB1809\n</uuid>"
					  "<metadata>" LIMITS("") "</metadata></domain>";
		struct blockio_config cfg;
		struct blockio_error err = { "" };

		CHECK(blockio_config_parse(xml, sizeof(xml) - 1, &cfg, &err) == 0);
		CHECK_STR(cfg.uuid, "c7a5fdbd-cdaf-9455-926a-d65c16db1809");
		blockio_config_free(&cfg);
	}
	BAD_XML("<domain><name>x</name><metadata>" LIMITS("") "</metadata></domain>",
		"needs a <name> and a <uuid>");
	/* an embedded NUL ends nothing: the document is not well-formed */
	{
		static const char nul[] = "<domain><name>a\0b</name></domain>";
		struct blockio_config cfg;
		struct blockio_error err = { "" };

		CHECK(blockio_config_parse(nul, sizeof(nul) - 1, &cfg, &err) == -1);
		CHECK_CONTAINS(err.msg, "not well-formed");
	}
}

static void test_resolution(void)
{
	BAD_RESOLVE(LIMITS("<blockio:disk dev='vde' iops='1'/>"),
		    "<blockio:disk dev='vde'>: '/tmp/t.img' is on tmpfs (0:45), in memory: its writes reach no disk, so blockio has nothing to cap");
	BAD_RESOLVE(LIMITS("<blockio:disk dev='vdh' iops='1'/>"),
		    "<blockio:disk dev='vdh'>: cannot stat '/nope/x.img': No such file or directory");
	BAD_RESOLVE(LIMITS("<blockio:device path='/dev/nonexistent' iops='1'/>"), "cannot stat");
	BAD_RESOLVE(LIMITS("<blockio:device path='/dev/null' iops='1'/>"),
		    "'/dev/null' is not a block device");
	BAD_RESOLVE(LIMITS("<blockio:device path='/var/lib/libvirt/images/a.img' iops='1'/>"),
		    "is not a block device");
	BAD_RESOLVE(LIMITS("<blockio:device path='/var/lib/libvirt/images' iops='1'/>"),
		    "is not a block device");
	BAD_RESOLVE(LIMITS("<blockio:device path='/dev/stale' iops='1'/>"),
		    "no block device 8:99 in /sys/dev/block");
	/* one host disk, two targets: the kernel has one rule per disk */
	BAD_RESOLVE(LIMITS("<blockio:disk dev='vda' iops='1'/><blockio:disk dev='vdg' iops='2'/>"),
		    "<blockio:disk dev='vda'> and <blockio:disk dev='vdg'> are both on host disk /dev/vdc (252:32)");
	BAD_RESOLVE(LIMITS("<blockio:disk dev='vdc' iops='1'/><blockio:device path='/dev/sdb2' iops='2'/>"),
		    "are both on host disk /dev/sdb");
	BAD_RESOLVE(LIMITS("<blockio:device path='/dev/dm-0' iops='1'/><blockio:device path='/dev/mapper/vg-lv' iops='2'/>"),
		    "are both on host disk /dev/dm-0");
}

/* Hostile names parse like any other; the UUID is what names the cgroup. */
static void test_names(void)
{
	static const char *const names[] = {
		"a/b", "../../../etc", "..", ".", "my vm", "line1&#10;line2",
		"caf\xc3\xa9-\xe2\x9c\x93", "tab&#9;x", "'quoted'", "$(rm -rf /)",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct blockio_config cfg;
		struct blockio_error err = { "" };
		const char *xml = domain_named(names[i], LIMITS("<blockio:disk dev='vda' iops='5'/>"));

		CHECKF(blockio_config_parse(xml, strlen(xml), &cfg, &err) == 0,
		       "%s: %s", names[i], err.msg);
		CHECK_STR(cfg.uuid, UUID);
		CHECK(cfg.name && cfg.nrules == 1);
		blockio_config_free(&cfg);
	}
	/* the raw name survives parsing; messages escape it */
	{
		struct blockio_config cfg;
		struct blockio_error err = { "" };
		const char *xml = domain_named("a&#10;b", "");

		CHECK(blockio_config_parse(xml, strlen(xml), &cfg, &err) == 0);
		CHECK_STR(cfg.name, "a\nb");
		blockio_config_free(&cfg);
	}
}

/* What the hook's log line says: after parsing, and after resolving. */
static void describe_at(int line, const char *meta, bool resolve, const char *want)
{
	struct blockio_config cfg;
	struct blockio_error err = { "" };
	const char *xml = domain(meta);
	char text[1024];
	int rc = blockio_config_parse(xml, strlen(xml), &cfg, &err);

	if (!rc && resolve)
		rc = blockio_config_resolve(&cfg, &fake_host, &err);
	CHECKF(rc == 0, "line %d: %s", line, err.msg);
	blockio_config_describe(&cfg, text, sizeof(text));
	CHECKF(!strcmp(text, want), "line %d: got '%s' want '%s'", line, text, want);
	blockio_config_free(&cfg);
}

static void test_describe(void)
{
	describe_at(__LINE__, "", false, "not capped: no <blockio:limits> in <metadata>");
	describe_at(__LINE__, "<app:x xmlns:app='urn:app'/>", true,
		    "not capped: no <blockio:limits> in <metadata>");
	describe_at(__LINE__, "<blockio:limits " NS "/>", true, "not capped: <blockio:limits> is empty");
	describe_at(__LINE__, LIMITS("<blockio:disk dev='vda' bandwidth='8MiB/s' iops='500'/>"), false,
		    "capped: <blockio:disk dev='vda'>: bandwidth 8MiB/s, iops 500/s");
	describe_at(__LINE__, LIMITS("<blockio:disk dev='vda' bandwidth='8MiB/s' iops='500'/>"), true,
		    "capped: <blockio:disk dev='vda'> on /dev/vdc: bandwidth 8MiB/s, iops 500/s");
	describe_at(__LINE__,
		    LIMITS("<blockio:disk dev='vda' bandwidth='8000000' iops='10k' strategy='token' iops-bucket='25000'/>"
			   "<blockio:device path='/dev/sdb2' bandwidth='4M' strategy='token' bucket='64MiB'/>"
			   "<blockio:device path='/dev/mapper/vg-lv' bandwidth='1048577'/>"), true,
		    "capped: <blockio:disk dev='vda'> on /dev/vdc: bandwidth 8MB/s token bucket 8MB, "
		    "iops 10k/s token bucket 25k; <blockio:device path='/dev/sdb2'> on /dev/sdb: "
		    "bandwidth 4MiB/s token bucket 64MiB; <blockio:device path='/dev/mapper/vg-lv'> on "
		    "/dev/dm-0: bandwidth 1048577B/s; warning: bandwidth='8000000' of <blockio:disk dev='vda'> "
		    "has no unit: it is read as bytes per second (8MB/s); write 8MB/s to say so; warning: "
		    "bandwidth='1048577' of <blockio:device path='/dev/mapper/vg-lv'> has no unit: it is read "
		    "as bytes per second (1048577B/s), below 2 MB/s, the smallest cap QEMU's documentation "
		    "calls safe for a disk (the guest's I/O may time out or hang); write the unit meant");
	/* a bandwidth likely not meant: a warning naming it, still capped */
	describe_at(__LINE__, LIMITS("<blockio:disk dev='vda' bandwidth='8'/>"), false,
		    "capped: <blockio:disk dev='vda'>: bandwidth 8B/s; warning: bandwidth='8' of "
		    "<blockio:disk dev='vda'> has no unit: it is read as bytes per second (8B/s), below "
		    "2 MB/s, the smallest cap QEMU's documentation calls safe for a disk (the guest's I/O "
		    "may time out or hang); write the unit meant, e.g. 8MiB/s");
	describe_at(__LINE__, LIMITS("<blockio:disk dev='vda' bandwidth='500/s'/>"), false,
		    "capped: <blockio:disk dev='vda'>: bandwidth 500B/s; warning: bandwidth='500/s' of "
		    "<blockio:disk dev='vda'> has no unit: it is read as bytes per second (500B/s), below "
		    "2 MB/s, the smallest cap QEMU's documentation calls safe for a disk (the guest's I/O "
		    "may time out or hang); write the unit meant, e.g. 500MiB/s");
	describe_at(__LINE__, LIMITS("<blockio:disk dev='vda' bandwidth='1999999B/s'/>"), false,
		    "capped: <blockio:disk dev='vda'>: bandwidth 1999999B/s; warning: bandwidth 1999999B/s "
		    "of <blockio:disk dev='vda'> is below 2 MB/s, the smallest cap QEMU's documentation "
		    "calls safe for a disk: the guest's I/O may time out or hang");
	describe_at(__LINE__, LIMITS("<blockio:disk dev='vda' bandwidth='2MB/s' iops='5'/>"), false,
		    "capped: <blockio:disk dev='vda'>: bandwidth 2MB/s, iops 5/s");
	describe_at(__LINE__, LIMITS("<blockio:disk dev='vda' iops='5'/>"), false,
		    "capped: <blockio:disk dev='vda'>: iops 5/s");
	/* a line too long for the buffer is cut, NUL-terminated */
	{
		struct blockio_config cfg;
		struct blockio_error err = { "" };
		const char *xml = domain(LIMITS("<blockio:disk dev='vda' bandwidth='8M'/>"));
		char text[24];

		CHECK(blockio_config_parse(xml, strlen(xml), &cfg, &err) == 0);
		memset(text, 'Z', sizeof(text));
		blockio_config_describe(&cfg, text, sizeof(text));
		CHECK_STR(text, "capped: <blockio:disk d");
		blockio_config_free(&cfg);
	}
}

static void test_identity_and_status(void)
{
	struct blockio_config cfg;
	struct blockio_error err = { "" };
	const char *xml = domain(LIMITS("<blockio:disk dev='vda' bandwidth='8XB/s'/>"));
	const char *status;
	pid_t pid = 0;

	/* on stop the metadata may be broken: the identity still reads */
	CHECK(blockio_domain_identity(xml, strlen(xml), &cfg, &err) == 0);
	CHECK_STR(cfg.uuid, UUID);
	blockio_config_free(&cfg);

	status = "<domstatus state='running' reason='booted' pid='4242'><domain/></domstatus>";
	CHECK(blockio_status_pid(status, strlen(status), &pid) == 0 && pid == 4242);
	status = "<domstatus pid='1'/>";
	CHECK(blockio_status_pid(status, strlen(status), &pid) == -1);
	status = "<domstatus pid='12x'/>";
	CHECK(blockio_status_pid(status, strlen(status), &pid) == -1);
	status = "<domstatus pid='99999999999999'/>";
	CHECK(blockio_status_pid(status, strlen(status), &pid) == -1);
	status = "<domstatus/>";
	CHECK(blockio_status_pid(status, strlen(status), &pid) == -1);
	status = "<domstatus";
	CHECK(blockio_status_pid(status, strlen(status), &pid) == -1);
}

int main(void)
{
	test_without_limits();
	test_rules();
	test_values();
	test_structure();
	test_lookalikes();
	test_disks();
	test_documents();
	test_resolution();
	test_names();
	test_describe();
	test_identity_and_status();
	return check_done("test-config");
}
