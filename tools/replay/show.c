/*
 * The replay's terminal views of a match: each frame from the all-seeing
 * view or as the lines one bot received, with the bots' notes and faults,
 * the results, a whole match, and stepping through it on a terminal; the
 * views, actions and events themselves are drawn by render.c.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "proc.h"
#include "render.h"
#include "replay.h"

static void	put_notes(FILE *, const struct frame *, int);
static void	put_escaped(FILE *, const char *, const char *);
static const char *find_answer(const struct rlog *, size_t, int, int64_t);
static void	put_message(FILE *, const struct replay *, size_t, int);
static int	bot_at(const struct replay *, size_t, int);
static int	full_after(const struct replay *, size_t);
static int	read_key(void);
static void	restore_tty(void);
static void	on_signal(int);

/* Writes the bots' debug text and the faults a frame carries. */
static void
put_notes(FILE *fp, const struct frame *f, int only_bot)
{
	const json_t *x;
	size_t i;

	json_array_foreach(f->faults, i, x) {
		if (only_bot >= 0 && json_integer_value(json_object_get(x,
		    "bot")) != only_bot)
			continue;
		fprintf(fp, "   %s! fault of seat %" JSON_INTEGER_FORMAT " (bot %"
		    JSON_INTEGER_FORMAT "): %s: %s%s\n", render_colour() ? "\033[1;31m" :
		    "", json_integer_value(json_object_get(x, "seat")),
		    json_integer_value(json_object_get(x, "bot")),
		    json_string_value(json_object_get(x, "fault")),
		    json_string_value(json_object_get(x, "detail")),
		    render_colour() ? "\033[0m" : "");
	}
	json_array_foreach(f->debug, i, x) {
		if (only_bot >= 0 && json_integer_value(json_object_get(x,
		    "bot")) != only_bot)
			continue;
		fprintf(fp, "   %s> seat %" JSON_INTEGER_FORMAT " %s: ",
		    render_colour() ? "\033[33m" : "", json_integer_value(
		    json_object_get(x, "seat")), strcmp(json_string_value(
		    json_object_get(x, "from")), "answer") == 0 ? "debug" :
		    "says");
		put_escaped(fp, json_string_value(json_object_get(x, "text")),
		    "\n     ");
		fprintf(fp, "%s\n", render_colour() ? "\033[0m" : "");
	}
}

/*
 * Writes a bot's text so that it cannot drive the terminal: control bytes
 * (and the C1 controls of UTF-8) as \ooo, a backslash doubled, each
 * newline as nl; other text as it is.
 */
static void
put_escaped(FILE *fp, const char *s, const char *nl)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '\n')
			fputs(nl, fp);
		else if (*p == '\\')
			fputs("\\\\", fp);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(fp, "\\%03o", *p);
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			fprintf(fp, "\\%03o\\%03o", p[0], p[1]);
			p++;
		} else
			fputc(*p, fp);
	}
}

/* Finds the bot's answer line to request id after line from; or NULL. */
static const char *
find_answer(const struct rlog *l, size_t from, int bot, int64_t id)
{
	const char *line;
	json_t *j;
	size_t i;
	int hit;

	for (i = from + 1; i < l->n; i++) {
		if (l->r[i].bot == bot && strcmp(rlog_msg_type(&l->r[i]),
		    "request") == 0)
			return NULL;
		if (strcmp(l->r[i].type, "recv") != 0 || l->r[i].bot != bot)
			continue;
		line = json_string_value(json_object_get(l->r[i].j, "line"));
		if (line == NULL)
			continue;
		j = json_loads(line, 0, NULL);
		hit = json_integer_value(json_object_get(j, "id")) == id;
		json_decref(j);
		if (hit)
			return line;
	}
	return NULL;
}

/* Writes one message a bot received, as it reads. */
static void
put_message(FILE *fp, const struct replay *rp, size_t rec, int players)
{
	const json_t *m = json_object_get(rp->log->r[rec].j, "msg"), *x;
	const char *type, *ans;
	json_t *aj;
	size_t i;
	long chosen = -1;

	type = json_string_value(json_object_get(m, "type"));
	if (type == NULL)
		type = "?";
	fprintf(fp, "   %s<- %s", render_colour() ? "\033[1m" : "", type);
	if (json_object_get(m, "id") != NULL) {
		fputs(" #", fp);
		render_inline(fp, json_object_get(m, "id"));
	}
	if (json_object_get(m, "time_left_ms") != NULL) {
		fputs(" (", fp);
		render_inline(fp, json_object_get(m, "time_left_ms"));
		fputs(" ms left)", fp);
	}
	fputs(render_colour() ? "\033[0m\n" : "\n", fp);
	if (strcmp(type, "request") != 0 && strcmp(type, "start") != 0 &&
	    strcmp(type, "end") != 0) {
		fputs("      ", fp);
		render_inline(fp, m);
		fputc('\n', fp);
		return;
	}
	if (json_array_size(json_object_get(m, "events")) > 0) {
		fputs("      events:\n", fp);
		json_array_foreach(json_object_get(m, "events"), i, x) {
			fputs("        ", fp);
			render_action(fp, x);
			fputc('\n', fp);
		}
	}
	if (json_object_get(m, "places") != NULL) {
		fputs("      places ", fp);
		render_inline(fp, json_object_get(m, "places"));
		fputs(", scores ", fp);
		render_inline(fp, json_object_get(m, "scores"));
		fputc('\n', fp);
	}
	if ((x = json_object_get(m, "view")) != NULL)
		render_table(fp, rp->g->name, x, 6, players);
	if (strcmp(type, "request") != 0)
		return;
	ans = find_answer(rp->log, rec, rp->log->r[rec].bot,
	    json_integer_value(json_object_get(m, "id")));
	if (ans != NULL && (aj = json_loads(ans, 0, NULL)) != NULL) {
		if (json_is_integer(json_object_get(aj, "index")))
			chosen = (long)json_integer_value(json_object_get(aj,
			    "index"));
		json_decref(aj);
	}
	fputs("      legal:\n", fp);
	json_array_foreach(json_object_get(m, "legal"), i, x) {
		fprintf(fp, "     %s%3zu. ", (long)i == chosen ? "->" : "  ", i);
		render_action(fp, x);
		fputc('\n', fp);
	}
	fprintf(fp, "   -> answer: %s\n", ans != NULL ? ans : "(none)");
}

/* The bot at seat in the game of frame k. */
static int
bot_at(const struct replay *rp, size_t k, int seat)
{
	return rp->games[rp->f[k].game].seats[seat];
}

/* Is frame k drawn as changes to frame k - 1 (in a match's listing)? */
static int
full_after(const struct replay *rp, size_t k)
{
	return k > 0 && rp->f[k - 1].game == rp->f[k].game && !render_whole();
}

void
render_frame(FILE *fp, const struct replay *rp, size_t k, int seat)
{
	const struct frame *f = &rp->f[k];
	size_t i, from;
	const json_t *x;
	int bot;

	if (f->step == -1)
		fprintf(fp, "%s== step %zu: game %d dealt (seed %llu) ==%s\n",
		    render_colour() ? "\033[1;36m" : "", k, rp->games[f->game].gi,
		    (unsigned long long)rp->games[f->game].seed,
		    render_colour() ? "\033[0m" : "");
	else if (seat >= 0)
		fprintf(fp, "%s-- step %zu (game %d, step %ld) --%s\n",
		    render_colour() ? "\033[1m" : "", k, rp->games[f->game].gi,
		    f->step, render_colour() ? "\033[0m" : "");
	else
		fprintf(fp, "%s-- step %zu (game %d, step %ld): %s --%s\n",
		    render_colour() ? "\033[1m" : "", k, rp->games[f->game].gi,
		    f->step, f->label, render_colour() ? "\033[0m" : "");
	if (seat < 0) {
		put_notes(fp, f, -1);
		json_array_foreach(f->events, i, x) {
			fputs("   * ", fp);
			render_action(fp, x);
			fputc('\n', fp);
		}
		if (f->step == -1 || !full_after(rp, k))
			render_table(fp, rp->g->name, f->all, 3, rp->players);
		else
			render_view_changes(fp, rp->f[k - 1].all, f->all, 3,
			    rp->players);
		return;
	}
	/* Exactly the lines the seat's bot received up to this frame. */
	bot = bot_at(rp, k, seat);
	from = k > 0 ? replay_seen_end(rp, k - 1) : 0;
	for (i = from; i < replay_seen_end(rp, k); i++)
		if (strcmp(rp->log->r[i].type, "send") == 0 &&
		    rp->log->r[i].bot == bot)
			put_message(fp, rp, i, rp->players);
	put_notes(fp, f, bot);
}

void
render_match(FILE *fp, const struct replay *rp, size_t from, int seat)
{
	const json_t *h = rp->log->header, *bots, *x;
	size_t k, i;

	fprintf(fp, "%s: %s, %d players, seed %llu\n   options ", rp->g->name,
	    rp->g->title, rp->players, (unsigned long long)rp->seed);
	render_inline(fp, json_object_get(h, "options"));
	fputc('\n', fp);
	bots = json_object_get(h, "bots");
	json_array_foreach(bots, i, x)
		fprintf(fp, "   bot %zu: %s (%s)\n", i, json_string_value(
		    json_object_get(x, "name")), json_string_value(
		    json_object_get(x, "command")));
	if (seat >= 0)
		fprintf(fp, "   shown: what the bot at seat %d received\n", seat);
	for (k = from; k < rp->nf; k++) {
		render_frame(fp, rp, k, seat);
		if (k + 1 == rp->nf || rp->f[k + 1].game != rp->f[k].game)
			render_result(fp, rp, rp->f[k].game);
	}
}

void
render_result(FILE *fp, const struct replay *rp, int game)
{
	const json_t *e = rp->games[game].end;
	int s;

	if (e == NULL)
		return;
	fprintf(fp, "%s== game %d over%s ==%s\n", render_colour() ? "\033[1;36m" : "",
	    rp->games[game].gi, json_is_true(json_object_get(e, "capped")) ?
	    " (turn cap reached)" : "", render_colour() ? "\033[0m" : "");
	for (s = 0; s < rp->players; s++) {
		fprintf(fp, "   seat %d (bot %d): place ", s,
		    rp->games[game].seats[s]);
		render_inline(fp, json_array_get(json_object_get(e, "places"),
		    (size_t)s));
		fputs(", score ", fp);
		render_inline(fp, json_array_get(json_object_get(e, "scores"),
		    (size_t)s));
		fputc('\n', fp);
	}
}

static struct termios	saved_tty;
static int		tty_raw;

/* Puts the terminal back as it was. */
static void
restore_tty(void)
{
	if (tty_raw)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tty);
	tty_raw = 0;
}

/* A signal while stepping: the terminal back as it was, then exit. */
static void
on_signal(int sig)
{
	if (tty_raw)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tty);
	_exit(128 + sig);
}

/*
 * Reads one key: 'n'ext, 'p'revious, 'f'irst, 'l'ast, 'q'uit, or 0 for
 * anything else; the arrow, Home, End and Page keys map to those.
 */
static int
read_key(void)
{
	unsigned char c, seq[3];

	if (read(STDIN_FILENO, &c, 1) != 1)
		return 'q';
	switch (c) {
	case ' ': case '\r': case '\n': case 'n': case 'j': case 'l':
		return 'n';
	case 'p': case 'k': case 'h': case 0x7f: case 'b':
		return 'p';
	case 'g': case '<':
		return 'f';
	case 'G': case '>':
		return 'l';
	case 'q': case 'Q': case 0x04:
		return 'q';
	case 0x1b:
		if (read(STDIN_FILENO, &seq[0], 1) != 1 ||
		    read(STDIN_FILENO, &seq[1], 1) != 1)
			return 'q';
		if (seq[0] != '[' && seq[0] != 'O')
			return 0;
		switch (seq[1]) {
		case 'C': case 'B':
			return 'n';
		case 'D': case 'A':
			return 'p';
		case 'H':
			return 'f';
		case 'F':
			return 'l';
		case '1': case '4': case '5': case '6':
			if (read(STDIN_FILENO, &seq[2], 1) != 1)
				return 'q';
			return seq[1] == '1' ? 'f' : seq[1] == '4' ? 'l' :
			    seq[1] == '5' ? 'p' : 'n';
		}
		return 0;
	}
	return 0;
}

int
render_interactive(const struct replay *rp, size_t k, int seat)
{
	struct termios raw;
	int key;

	if (tcgetattr(STDIN_FILENO, &saved_tty) == -1)
		return -1;
	raw = saved_tty;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == -1)
		return -1;
	tty_raw = 1;
	atexit(restore_tty);
	proc_catch(on_signal);
	for (;;) {
		/* The frame, then the status line where the screen ends. */
		fputs("\033[H\033[2J", stdout);
		render_frame(stdout, rp, k, seat);
		if (k + 1 == rp->nf || rp->f[k + 1].game != rp->f[k].game)
			render_result(stdout, rp, rp->f[k].game);
		printf("%s%s replay: step %zu of %zu%s   [n/space/right: next, "
		    "p/left: back, g: first, G: last, q: quit] ",
		    render_colour() ? "\033[7m" : "", rp->g->name, k, rp->nf - 1,
		    render_colour() ? "\033[0m" : "");
		fflush(stdout);
		key = read_key();
		if (key == 'q')
			break;
		if (key == 'n' && k + 1 < rp->nf)
			k++;
		else if (key == 'p' && k > 0)
			k--;
		else if (key == 'f')
			k = 0;
		else if (key == 'l')
			k = rp->nf - 1;
	}
	restore_tty();
	return 0;
}
