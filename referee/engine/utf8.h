/*
 * UTF-8's validity, the one check: the engine's JSON strings (buf.c, which
 * writes U+FFFD for what fails it) and the C bot SDK's reader of messages
 * (bots/lib/jload.c, which gives up on it as jansson rejects it).  Inline
 * and alone in its header, so that the SDK, installed apart from the
 * engine, takes it with the header.
 */
#ifndef CARDARENA_UTF8_H
#define CARDARENA_UTF8_H

#include <stddef.h>

/*
 * The length of the valid UTF-8 sequence at s (n bytes there, at least
 * one): 1 for ASCII; 0 for a bad first or continuation byte, a truncated
 * sequence, an overlong form, a surrogate or a value past U+10FFFF.
 */
static inline size_t
utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (len > n || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

#endif
