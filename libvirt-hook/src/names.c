// SPDX-License-Identifier: GPL-2.0
/*
 * names.c - names that come from a domain XML, made safe.
 *
 * A domain name may hold spaces, "..", newlines and any Unicode (libvirt
 * refuses only '/', and '\n' only for persistent domains).  It is never
 * used to build a cgroup path: the VM's cgroup is machine/<UUID>, and the
 * UUID is accepted only in canonical form.  The name and every value
 * quoted in a message go through blockio_escape() so a message stays one
 * line that a terminal shows as it is.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "blockio.h"
#include "names.h"
#include "util.h"

void blockio_error_set(struct blockio_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

/* Length of the valid UTF-8 sequence at @s (1..4), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s)
{
	uint32_t cp;
	size_t n = blockio_utf8_decode(s, &cp);

	if (!n)
		return 0;
	/* C1 controls and the line/paragraph separators break lines too */
	if ((cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029)
		return 0;
	return n;
}

/* The printable form of the character at @s into @buf; its input length. */
static size_t escape_one(const unsigned char *s, char buf[8], size_t *plen)
{
	size_t n = utf8_len(s);

	if (n == 0 || (n == 1 && (*s < 0x20 || *s == 0x7f || *s == '\\' ||
				  *s == '\''))) {
		snprintf(buf, 8, "\\x%02x", *s);
		*plen = 4;
		return 1;
	}
	memcpy(buf, s, n);
	*plen = n;
	return n;
}

void blockio_escape(const char *in, char *out, size_t outlen)
{
	const unsigned char *s;
	size_t total = 0, limit, o = 0;
	char piece[8];

	if (outlen < 4) {
		if (outlen)
			out[0] = '\0';
		return;
	}
	for (s = (const unsigned char *)in; *s;) {
		size_t plen;

		s += escape_one(s, piece, &plen);
		total += plen;
	}
	/* all of it if it fits, else as much as fits before "..." */
	limit = total < outlen ? outlen - 1 : outlen - 4;
	for (s = (const unsigned char *)in; *s;) {
		size_t plen, n = escape_one(s, piece, &plen);

		if (o + plen > limit)
			break;
		memcpy(out + o, piece, plen);
		o += plen;
		s += n;
	}
	if (*s) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
}

/* A line break or control character of any kind at @s: its length, else 0. */
static size_t space_len(const unsigned char *s)
{
	if (*s < 0x20 || *s == ' ' || *s == 0x7f)
		return 1;
	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
		return 2;	/* C1 controls, NEL included */
	if (s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9))
		return 3;	/* line and paragraph separators */
	return 0;
}

void blockio_plain(const char *in, char *out, size_t outlen)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0, n;
	bool space = false, cut = false;

	if (outlen < 4) {
		if (outlen)
			out[0] = '\0';
		return;
	}
	while (*s) {
		if ((n = space_len(s))) {
			space = o > 0;	/* none at the start */
			s += n;
			continue;
		}
		n = utf8_len(s);
		if (o + space + (n ? n : 1) > outlen - 1) {
			cut = true;
			break;
		}
		if (space)
			out[o++] = ' ';
		space = false;
		if (n) {
			memcpy(out + o, s, n);
			o += n;
			s += n;
		} else {
			out[o++] = '?';
			s++;
		}
	}
	if (cut) {
		if (o > outlen - 4) {
			o = outlen - 4;
			/* back to the start of the character cut in two */
			while (o && ((unsigned char)out[o] & 0xc0) == 0x80)
				o--;
		}
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
}

int blockio_uuid_normalize(const char *s, char out[37])
{
	static const char hex[] = "0123456789abcdef";

	if (strlen(s) != 36)
		return -1;
	for (size_t i = 0; i < 36; i++) {
		char c = s[i];

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (c != '-')
				return -1;
			out[i] = '-';
			continue;
		}
		if (c >= 'A' && c <= 'F')
			c = (char)(c - 'A' + 'a');
		if (!strchr(hex, c) || !c)
			return -1;
		out[i] = c;
	}
	out[36] = '\0';
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool uuid_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

int blockio_uuid_parse(const char *s, char out[37])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char b[16];
	size_t i = 0, o = 0;

	while (uuid_space(*s))
		s++;
	while (i < 16) {
		if (!*s)
			return -1;
		if (*s == '-' || *s == ' ') {
			s++;
			continue;
		}
		if (hexval(s[0]) < 0 || hexval(s[1]) < 0)
			return -1;
		b[i++] = (unsigned char)(hexval(s[0]) << 4 | hexval(s[1]));
		s += 2;
	}
	for (; *s; s++)
		if (!uuid_space(*s))
			return -1;
	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[o++] = '-';
		out[o++] = hex[b[i] >> 4];
		out[o++] = hex[b[i] & 15];
	}
	out[o] = '\0';
	return 0;
}
