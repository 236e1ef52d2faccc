/*
 * The helpers every drawer (<game>.c) shares: strings owned by the
 * drawing, cards and suits, padding by the columns a terminal shows,
 * lines cut to DRAW_WIDTH.  render_table (table.c) picks the drawer.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "card.h"
#include "draw.h"
#include "render.h"

/* Keeps s until the drawing ends; see draw.h. */
char *
draw_own(struct draw *d, char *s)
{
	d->str = xreallocarray(d->str, d->nstr + 1, sizeof *d->str);
	d->str[d->nstr++] = s;
	return s;
}

const json_t *
draw_get(struct draw *d, const char *k)
{
	json_object_set_new(d->shown, k, json_true());
	return json_object_get(d->view, k);
}

void
draw_hide(struct draw *d, ...)
{
	va_list ap;
	const char *k;

	va_start(ap, d);
	while ((k = va_arg(ap, const char *)) != NULL)
		json_object_set_new(d->shown, k, json_true());
	va_end(ap);
}

long long
draw_int(const json_t *o, const char *k, long long def)
{
	const json_t *x = json_object_get(o, k);

	return json_is_integer(x) ? (long long)json_integer_value(x) : def;
}

char *
draw_fmt(struct draw *d, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) == -1)
		abort();
	va_end(ap);
	return draw_own(d, s);
}

char *
draw_card(struct draw *d, const json_t *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	if (!json_is_string(c))
		return draw_fmt(d, "-");
	if ((fp = open_memstream(&buf, &len)) == NULL)
		abort();
	render_card(fp, json_string_value(c));
	fclose(fp);
	return draw_own(d, buf);
}

char *
draw_cards(struct draw *d, const json_t *a)
{
	char *buf = NULL;
	size_t len = 0, i;
	const json_t *c;
	FILE *fp;

	if (json_array_size(a) == 0)
		return draw_fmt(d, "-");
	if ((fp = open_memstream(&buf, &len)) == NULL)
		abort();
	json_array_foreach(a, i, c) {
		if (i > 0)
			fputc(' ', fp);
		if (json_is_string(c))
			render_card(fp, json_string_value(c));
		else
			render_inline(fp, c);
	}
	fclose(fp);
	return draw_own(d, buf);
}

char *
draw_suit(struct draw *d, const char *s)
{
	static const char letters[] = "SHDC";
	static const char *const sym[] = { "\u2660", "\u2665", "\u2666",
	    "\u2663" };
	const char *p;

	if (s == NULL || strlen(s) != 1 || (p = strchr(letters, s[0])) ==
	    NULL)
		return draw_fmt(d, "%s", s != NULL ? s : "-");
	if (!render_utf8())
		return draw_fmt(d, "%s", s);
	if (render_colour() && (s[0] == 'H' || s[0] == 'D'))
		return draw_fmt(d, "\033[31m%s\033[0m", sym[p - letters]);
	return draw_fmt(d, "%s", sym[p - letters]);
}

const char *
draw_sym(const char *utf8, const char *ascii)
{
	return render_utf8() ? utf8 : ascii;
}

const char *
draw_str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s != NULL ? s : "?";
}

long long
draw_at(const json_t *a, size_t i, long long def)
{
	const json_t *x = json_array_get(a, i);

	return json_is_integer(x) ? (long long)json_integer_value(x) : def;
}

char *
draw_who(struct draw *d, long long s)
{
	if (s < 0)
		return draw_fmt(d, "nobody");
	if (s == d->seat)
		return draw_fmt(d, "you");
	return draw_fmt(d, "seat %lld", s);
}

char *
draw_whoj(struct draw *d, const json_t *s)
{
	return draw_who(d, json_is_integer(s) ? (long long)
	    json_integer_value(s) : -1);
}

int
draw_width(const char *s)
{
	int w = 0;

	while (*s != '\0') {
		if (*s == '\033') {
			/* a colour: ESC [ ... m */
			while (*s != '\0' && *s != 'm')
				s++;
			if (*s != '\0')
				s++;
			continue;
		}
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
		s++;
	}
	return w;
}

char *
draw_pad(struct draw *d, const char *s, int w)
{
	int n = abs(w) - draw_width(s);

	if (n < 0)
		n = 0;
	if (w < 0)
		return draw_fmt(d, "%*s%s", n, "", s);
	return draw_fmt(d, "%s%*s", s, n, "");
}

void
draw_line(struct draw *d, const char *fmt, ...)
{
	va_list ap;

	fprintf(d->fp, "%*s", d->indent, "");
	va_start(ap, fmt);
	vfprintf(d->fp, fmt, ap);
	va_end(ap);
	fputc('\n', d->fp);
}

void
draw_wrap(struct draw *d, const char *head, const char *body,
    const char *sep)
{
	const char *p, *q;
	size_t slen = strlen(sep), core, gap;
	int col, hw, w;
	char *item;

	/* sep is a mark, kept with the item before it, then blanks */
	for (gap = 0; gap < slen && sep[slen - 1 - gap] == ' '; gap++)
		;
	core = slen - gap;
	if (body == NULL)
		body = "-";
	hw = draw_width(head);
	fprintf(d->fp, "%*s%s", d->indent, "", head);
	col = d->indent + hw;
	for (p = body;; p = q + slen) {
		q = slen > 0 ? strstr(p, sep) : NULL;
		if ((item = strndup(p, q != NULL ? (size_t)(q - p) + core :
		    strlen(p))) == NULL)
			abort();
		w = draw_width(item);
		if (p != body) {
			if (col + (int)gap + w > DRAW_WIDTH) {
				fprintf(d->fp, "\n%*s", d->indent + hw, "");
				col = d->indent + hw;
			} else {
				fprintf(d->fp, "%*s", (int)gap, "");
				col += (int)gap;
			}
		}
		fputs(item, d->fp);
		col += w;
		free(item);
		if (q == NULL)
			break;
	}
	fputc('\n', d->fp);
}
