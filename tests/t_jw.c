/*
 * Unit tests of the codecs' JSON writer (referee/engine/jw.h): the text back end
 * must give byte for byte the referee's encoding of the tree back end's
 * result, for nesting, empty containers, escapes, reals, cards, embedded
 * trees and the legal list's amount ranges, wherever in its buffer the
 * text starts (the writer's room is grown mid-document).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "jw.h"
#include "proto.h"

static void	ok(int, const char *, const char *, const char *);
static void	sample(struct jw *, int);
static void	check(int, const char *, const char *);
static void	strings(void);
static void	integers(void);
static void	int_same(long long, int *);
static void	cards(void);
static void	growth(void);

/* Prints one TAP line, and the two texts on a failure. */
static void
ok(int cond, const char *what, const char *a, const char *b)
{
	tap_ok(cond, "%s", what);
	if (!cond)
		printf("#   text: %s\n#   tree: %s\n", a, b);
}

/* Writes one document exercising every call; variant picks a shape. */
static void
sample(struct jw *w, int variant)
{
	static const int cards[] = { CARD(SPADES, 0), CARD(HEARTS, 9),
	    CARD(CLUBS, 12), JOKER };
	static const uint8_t u8[] = { CARD(DIAMONDS, 3), JOKER + 1, 0 };
	static const int8_t i8[] = { CARD(CLUBS, 11), JOKER, 7 };
	json_t *opts;

	switch (variant) {
	case 0:
		jw_int(w, -42);
		return;
	case 1:
		jw_obj(w);
		jw_end(w);
		return;
	case 4:
		jw_obj(w);
		jw_kint(w, "bad \" key", 1);
		jw_end(w);
		return;
	case 2:
		jw_arr(w);
		jw_arr(w);
		jw_end(w);
		jw_obj(w);
		jw_end(w);
		jw_null(w);
		jw_end(w);
		return;
	}
	opts = json_pack("{s:i,s:[s,s],s:b}", "players", 5, "bets", "win",
	    "exacta", "joker", 1);
	jw_obj(w);
	jw_kint(w, "seat", 3);
	jw_kstr(w, "escapes", "quote \" back \\ tab \t nl \n caf\xc3\xa9 \x01 \xff");
	jw_kbool(w, "yes", 1);
	jw_kbool(w, "no", 0);
	jw_knull(w, "nothing");
	jw_key(w, "half");
	jw_real(w, 0.5);
	jw_key(w, "whole");
	jw_real(w, 3.0);
	jw_key(w, "tiny");
	jw_real(w, 1e-7);
	jw_kcard(w, "card", CARD(DIAMONDS, 6));
	jw_kcards(w, "hand", cards, 4);
	jw_kcards(w, "none", cards, 0);
	jw_key(w, "bytes");
	jw_cards_u8(w, u8, 3);
	jw_key(w, "signed");
	jw_cards_i8(w, i8, 3);
	jw_key(w, "no_bytes");
	jw_cards_u8(w, u8, 0);
	jw_karr(w, "lists");
	jw_cards_i8(w, i8, 1);
	jw_cards_u8(w, u8, 0);
	jw_cards_i8(w, i8, 2);
	jw_end(w);
	jw_kword(w, "word", "plain", 5);
	jw_karr(w, "rows");
	jw_obj(w);
	jw_kint(w, "a", 1);
	jw_amount(w, 7);
	jw_end(w);
	w->range = 1;
	w->lo = 2;
	w->hi = 19;
	jw_obj(w);
	jw_kstr(w, "type", "bet");
	jw_amount(w, 2);
	jw_kint(w, "after", 0);
	jw_end(w);
	w->range = 0;
	jw_int(w, 9223372036854775807LL);
	jw_end(w);
	jw_key(w, "options");
	jw_json(w, opts);
	jw_end(w);
	json_decref(opts);
}

/* Writes variant both ways and compares; want, if set, is the text. */
static void
check(int variant, const char *what, const char *want)
{
	struct buf text = { 0 }, tree = { 0 };
	struct jw w;
	json_t *j;

	jw_text(&w, &text);
	sample(&w, variant);
	jw_tree(&w);
	sample(&w, variant);
	j = jw_root(&w);
	buf_json(&tree, j);
	buf_str(&text, "");
	buf_str(&tree, "");
	ok((text.len == tree.len && memcmp(text.p, tree.p, text.len) == 0) ==
	    (variant != 4), what, text.p, tree.p);
	if (want != NULL)
		ok(strcmp(text.p, want) == 0, "the text is the expected one",
		    text.p, want);
	json_decref(j);
	buf_free(&text);
	buf_free(&tree);
}

/*
 * Every byte, at every place of a string around the length copied without
 * the escaper (jw_str's table): text equals the tree's encoding.
 */
static void
strings(void)
{
	struct buf text = { 0 }, tree = { 0 };
	char s[80];
	struct jw w;
	json_t *j;
	size_t n, at;
	int c, k, bad = 0;

	for (c = 1; c < 256; c++)
		for (n = 1; n < sizeof s - 1; n += n < 60 ? 29 : 1)
			for (k = 0; k < 3; k++) {
				at = k == 0 ? 0 : k == 1 ? n / 2 : n - 1;
				memset(s, 'a', n);
				s[n] = '\0';
				s[at] = (char)c;
				text.len = tree.len = 0;
				jw_text(&w, &text);
				jw_str(&w, s);
				jw_tree(&w);
				jw_str(&w, s);
				j = jw_root(&w);
				buf_json(&tree, j);
				json_decref(j);
				buf_str(&text, "");
				buf_str(&tree, "");
				if (strcmp(text.p, tree.p) != 0 && bad++ == 0)
					ok(0, "a string", text.p, tree.p);
			}
	ok(bad == 0, "every byte anywhere in a string: text equals the tree's",
	    "", "");
	buf_free(&text);
	buf_free(&tree);
}

/* Counts in *bad a value put_int_any writes otherwise than printf. */
static void
int_same(long long v, int *bad)
{
	char a[32], b[32];

	*put_int_any(a, v) = '\0';
	snprintf(b, sizeof b, "%lld", v);
	if (strcmp(a, b) != 0 && (*bad)++ == 0)
		ok(0, "an integer", a, b);
}

/* put_int_any against printf, at every length and both ends. */
static void
integers(void)
{
	long long v, p;
	int bad = 0;

	int_same(LLONG_MAX, &bad);
	int_same(LLONG_MIN, &bad);
	int_same(LLONG_MIN + 1, &bad);
	for (p = 1; p <= LLONG_MAX / 10; p *= 10)
		for (v = p - 2; v <= p + 2; v++) {
			int_same(v, &bad);
			int_same(-v, &bad);
		}
	for (v = -100000; v <= 100000; v++)
		int_same(v, &bad);
	ok(bad == 0, "put_int_any writes what printf does", "", "");
}

/* Every card: the text's table gives card_name's letters. */
static void
cards(void)
{
	struct buf text = { 0 };
	char name[3], want[8];
	struct jw w;
	int c, bad = 0;

	for (c = 0; c <= JOKER + 1; c++) {
		text.len = 0;
		jw_text(&w, &text);
		jw_card(&w, c);
		card_name(c, name);
		snprintf(want, sizeof want, "\"%s\"", name);
		if (strcmp(text.p, want) != 0 && bad++ == 0)
			ok(0, "a card", text.p, want);
	}
	ok(bad == 0, "every card's text is its name", "", "");
	buf_free(&text);
}

/*
 * The document of every call, written after 0 to 700 bytes already in its
 * buffer (the room runs out at every place in it, the buffer grown to
 * powers of two from 256): the same text each time, nothing written past
 * the room (a SANITIZE=1 build checks).
 */
static void
growth(void)
{
	struct buf text = { 0 }, want = { 0 };
	struct jw w;
	size_t pre;
	int bad = 0;

	jw_text(&w, &want);
	sample(&w, 3);
	for (pre = 0; pre <= 700; pre++) {
		buf_free(&text);
		while (text.len < pre)
			buf_ch(&text, 'x');
		jw_text(&w, &text);
		sample(&w, 3);
		if ((text.len != pre + want.len || memcmp(text.p + pre, want.p,
		    want.len) != 0 || text.p[text.len] != '\0') && bad++ == 0)
			ok(0, "text after some bytes", text.p + pre, want.p);
	}
	ok(bad == 0, "the text is the same wherever in its buffer it starts",
	    "", "");
	buf_free(&text);
	buf_free(&want);
}

int
main(void)
{
	check(0, "a bare number", "-42");
	check(1, "an empty object", "{}");
	check(2, "nested empty containers", "[[],{},null]");
	check(3, "every call: text equals the tree's encoding", NULL);
	check(4, "a key against the contract (a quote) makes text and tree "
	    "differ, which the fuzzer's comparison catches", NULL);
	strings();
	integers();
	cards();
	growth();
	return tap_done();
}
