// SPDX-License-Identifier: GPL-2.0
/* test-names.c - escaping names and values for messages; UUIDs. */
#include "names.h"
#include "check.h"

static const char *esc(const char *in, size_t outlen)
{
	static char out[512];

	memset(out, 'Z', sizeof(out));
	blockio_escape(in, out, outlen);
	return out;
}

static const char *plain(const char *in, size_t outlen)
{
	static char out[512];

	memset(out, 'Z', sizeof(out));
	blockio_plain(in, out, outlen);
	return out;
}

/* libxml2's messages: plain text on one line, quotes as they are. */
static void test_plain(void)
{
	CHECK_STR(plain("Entity 'undefined' not defined\n", 64), "Entity 'undefined' not defined");
	CHECK_STR(plain("Opening and ending tag mismatch: a line 1 and b\n", 64),
		  "Opening and ending tag mismatch: a line 1 and b");
	/* embedded newlines and runs of blanks collapse, ends are trimmed */
	CHECK_STR(plain("  two\nlines \r\n\tand\x01more \n\n", 64), "two lines and more");
	CHECK_STR(plain("a\xc2\x85" "b\xe2\x80\xa8" "c", 64), "a b c");
	CHECK_STR(plain("back\\slash \"dq\"", 64), "back\\slash \"dq\"");
	/* valid UTF-8 stays, invalid bytes become '?' */
	CHECK_STR(plain("caf\xc3\xa9 \xff\xc3", 64), "caf\xc3\xa9 ??");
	CHECK_STR(plain("\n\n", 64), "");
	CHECK_STR(plain("", 64), "");
	/* cut: in bounds, marked, never inside a character */
	CHECK_STR(plain("abcdefghij", 8), "abcd...");
	CHECK_STR(plain("abcdefg", 8), "abcdefg");
	CHECK_STR(plain("abc  \n  defgh", 8), "abc ...");
	CHECK_STR(plain("ab\xe2\x9c\x93\xe2\x9c\x93", 8), "ab...");
	CHECK_STR(plain("abc", 3), "");
	{
		char out[16];

		memset(out, 'Z', sizeof(out));
		blockio_plain("\xe2\x9c\x93\xe2\x9c\x93\xe2\x9c\x93\xe2\x9c\x93", out, 10);
		CHECK(out[10] == 'Z');
		CHECK_STR(out, "\xe2\x9c\x93\xe2\x9c\x93...");
	}
}

int main(void)
{
	char uuid[37];

	/* printable ASCII and valid UTF-8 stay as they are */
	CHECK_STR(esc("vm-01", 64), "vm-01");
	CHECK_STR(esc("my vm .. ok", 64), "my vm .. ok");
	CHECK_STR(esc("../../etc", 64), "../../etc");
	CHECK_STR(esc("caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x92\xbe", 64),
		  "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x92\xbe");
	/* control bytes, quote, backslash: \xHH, so a message is one line */
	CHECK_STR(esc("a\nb", 64), "a\\x0ab");
	CHECK_STR(esc("a\r\tb\x7f", 64), "a\\x0d\\x09b\\x7f");
	CHECK_STR(esc("it's", 64), "it\\x27s");
	CHECK_STR(esc("a\\b", 64), "a\\x5cb");
	CHECK_STR(esc("\x1b[31mred", 64), "\\x1b[31mred");
	/* invalid UTF-8: lone continuation, truncated, overlong, surrogate */
	CHECK_STR(esc("\x80", 64), "\\x80");
	CHECK_STR(esc("\xc3", 64), "\\xc3");
	CHECK_STR(esc("\xe2\x9c", 64), "\\xe2\\x9c");
	CHECK_STR(esc("\xc0\xaf", 64), "\\xc0\\xaf");
	CHECK_STR(esc("\xed\xa0\x80", 64), "\\xed\\xa0\\x80");
	CHECK_STR(esc("\xf4\x90\x80\x80", 64), "\\xf4\\x90\\x80\\x80");
	/* C1 controls and U+2028 would break lines on some terminals */
	CHECK_STR(esc("a\xc2\x85" "b", 64), "a\\xc2\\x85b");
	CHECK_STR(esc("a\xe2\x80\xa8" "b", 64), "a\\xe2\\x80\\xa8b");
	/* truncation keeps the result NUL-terminated, marked, in bounds */
	CHECK_STR(esc("abcdefghij", 8), "abcd...");
	CHECK_STR(esc("abcdefg", 8), "abcdefg");
	CHECK_STR(esc("\n\n\n", 8), "\\x0a...");
	CHECK_STR(esc("abc", 4), "abc");
	CHECK_STR(esc("abcd", 4), "...");
	CHECK_STR(esc("abc", 3), "");
	CHECK_STR(esc("", 1), "");
	{
		char out[16];

		memset(out, 'Z', sizeof(out));
		blockio_escape("\xe2\x9c\x93\xe2\x9c\x93\xe2\x9c\x93\xe2\x9c\x93\xe2\x9c\x93", out, 10);
		CHECK(strlen(out) <= 9);
		CHECK(out[10] == 'Z');
		CHECK_STR(out, "\xe2\x9c\x93\xe2\x9c\x93...");
	}

	/* UUIDs: canonical form only, normalized to lower case */
	CHECK(blockio_uuid_normalize("6695eb01-f6a4-8304-79aa-97f2502e193f", uuid) == 0);
	CHECK_STR(uuid, "6695eb01-f6a4-8304-79aa-97f2502e193f");
	CHECK(blockio_uuid_normalize("6695EB01-F6A4-8304-79AA-97F2502E193F", uuid) == 0);
	CHECK_STR(uuid, "6695eb01-f6a4-8304-79aa-97f2502e193f");
	CHECK(blockio_uuid_normalize("6695eb01f6a4830479aa97f2502e193f", uuid) == -1);
	CHECK(blockio_uuid_normalize("6695eb01-f6a4-8304-79aa-97f2502e193", uuid) == -1);
	CHECK(blockio_uuid_normalize("6695eb01-f6a4-8304-79aa-97f2502e193ff", uuid) == -1);
	CHECK(blockio_uuid_normalize("6695eb01-f6a4-8304-79aa-97f2502e193g", uuid) == -1);
	CHECK(blockio_uuid_normalize("../../../../../../../../../../../..", uuid) == -1);

	/* libvirt's reading of a <uuid> (virUUIDParse): dashes optional */
	CHECK(blockio_uuid_parse("6695eb01f6a4830479aa97f2502e193f", uuid) == 0);
	CHECK_STR(uuid, "6695eb01-f6a4-8304-79aa-97f2502e193f");
	CHECK(blockio_uuid_parse("6695EB01-F6A4-8304-79AA-97F2502E193F", uuid) == 0);
	CHECK_STR(uuid, "6695eb01-f6a4-8304-79aa-97f2502e193f");
	CHECK(blockio_uuid_parse(" \n6695eb01-f6a48304-79aa-97f2502e193f\t ", uuid) == 0);
	CHECK_STR(uuid, "6695eb01-f6a4-8304-79aa-97f2502e193f");
	CHECK(blockio_uuid_parse("66-95 eb01f6a4830479aa97f2502e193f", uuid) == 0);
	CHECK_STR(uuid, "6695eb01-f6a4-8304-79aa-97f2502e193f");
	CHECK(blockio_uuid_parse("6695eb01f6a4830479aa97f2502e193", uuid) == -1);
	CHECK(blockio_uuid_parse("6695eb01f6a4830479aa97f2502e193f0", uuid) == -1);
	CHECK(blockio_uuid_parse("6695eb01f6a4830479aa97f2502e193g", uuid) == -1);
	CHECK(blockio_uuid_parse("6-695eb01f6a4830479aa97f2502e193f", uuid) == -1);
	CHECK(blockio_uuid_parse("6695eb01f6a4830479aa97f2502e193f x", uuid) == -1);
	CHECK(blockio_uuid_parse("", uuid) == -1);
	CHECK(blockio_uuid_parse("../../../../../../../../../../../..", uuid) == -1);
	CHECK(blockio_uuid_normalize("6695eb01-f6a4-8304-79aa/97f2502e193f", uuid) == -1);
	CHECK(blockio_uuid_normalize("6695eb01 f6a4-8304-79aa-97f2502e193f", uuid) == -1);
	CHECK(blockio_uuid_normalize(" 6695eb01-f6a4-8304-79aa-97f2502e193", uuid) == -1);
	CHECK(blockio_uuid_normalize("", uuid) == -1);
	test_plain();
	return check_done("test-names");
}
