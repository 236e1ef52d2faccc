/*
 * bin/human: a seat for a person.  It is a bot to the referee (the C SDK's
 * protocol loop on stdin and stdout) and talks to the person on the
 * terminal (/dev/tty): each request draws the table with the terminal
 * renderer (tools/render/), what happened since the last request, and the
 * legal actions numbered from 1; the person types a number, an amount
 * within its range for a ranged action, and confirms.  "?" shows the
 * help, "t" the table again, "q" leaves the match.
 *
 * The referee runs each bot in a process group of its own, which a
 * terminal treats as a background job: reading it would stop us.  So
 * bin/human makes its group the terminal's foreground group while it runs
 * and gives the terminal back to the group that had it when it exits (an
 * isolated bot cannot see that group: the referee takes it back).  A
 * Ctrl-C typed meanwhile reaches us: we die of it, and the referee, seeing
 * a bot killed by SIGINT, stops the match as if interrupted itself (a
 * signal sent to the referee would not pass the uid of a bot of its own).
 *
 *   bin/referee -g nyse -n 3 --time-per-move 3600000 --no-sandbox \
 *       -b bin/human -b bin/nyse_bot -b bin/random
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "lib/bot.h"
#include "render.h"

static FILE	*tty;		/* the person's terminal */
static pid_t	 saved_pgrp = -1;	/* its foreground group before us */
static int	 tty_fd = -1;

static void	 release_tty(void);
static void	 on_interrupt(int);
static void	 open_tty(void);
static char	*ask(const char *);
static void	 put_help(void);
static void	 put_table(const char *, const json_t *, int);
static void	 put_events(const json_t *);
static void	 put_entry(int, const json_t *);
static int	 choose(struct bot *, const json_t *, int32_t *);
static void	 on_message(struct bot *, const json_t *);

/* Gives the terminal back to the group that had it. */
static void
release_tty(void)
{
	if (tty_fd != -1 && saved_pgrp > 0 && saved_pgrp != getpgrp())
		tcsetpgrp(tty_fd, saved_pgrp);
}

/* Ctrl-C: the terminal back, then death by the signal (the referee stops). */
static void
on_interrupt(int sig)
{
	static const char note[] = "\ninterrupted: the referee stops the "
	    "match\n";

	if (tty_fd != -1)
		(void)!write(tty_fd, note, sizeof note - 1);
	release_tty();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Opens the terminal and takes its foreground; exits if there is none. */
static void
open_tty(void)
{
	if ((tty_fd = open("/dev/tty", O_RDWR | O_CLOEXEC)) == -1)
		err(1, "human: no terminal to play on (/dev/tty; a sandboxed "
		    "bot has none: run the referee with --no-sandbox)");
	if ((tty = fdopen(tty_fd, "r+")) == NULL)
		err(1, "human: /dev/tty");
	setvbuf(tty, NULL, _IOLBF, 0);
	/* 0: the referee's group is outside our PID namespace (isolated) */
	saved_pgrp = tcgetpgrp(tty_fd);
	signal(SIGTTOU, SIG_IGN);
	signal(SIGTTIN, SIG_IGN);
	if (saved_pgrp != getpgrp() && tcsetpgrp(tty_fd, getpgrp()) == -1)
		err(1, "human: cannot take the terminal");
	signal(SIGINT, on_interrupt);
	signal(SIGQUIT, on_interrupt);
	atexit(release_tty);
}

/* Prompts and reads one line (its newline cut); exits at end of input. */
static char *
ask(const char *prompt)
{
	static char line[256];
	size_t n;

	fputs(prompt, tty);
	fflush(tty);
	clearerr(tty);
	if (fgets(line, sizeof line, tty) == NULL) {
		fputs("\nend of input: leaving the match\n", tty);
		exit(1);
	}
	n = strcspn(line, "\r\n");
	line[n] = '\0';
	return line;
}

/* The help text. */
static void
put_help(void)
{
	fputs(
"  N      choose action N of the list (then an amount if it has a range,\n"
"         then y or Enter to confirm, n to choose again)\n"
"  t      the table again          e  what happened since your last move\n"
"  l      the list of actions      ?  this help\n"
"  q      leave the match (the referee plays your seat from then on)\n"
"  Ctrl-C stop the match (the referee ends it, every seat)\n"
"The rules of each game: docs/rules/GAME.md; the fields of the table:\n"
"protocol.md, the game's section.\n", tty);
}

/* Draws the table: the view as the game's table, with a heading. */
static void
put_table(const char *game, const json_t *view, int players)
{
	fputs("---- the table ----\n", tty);
	render_table(tty, game, view, 2, players);
}

/* Writes the events since the last request, one a line. */
static void
put_events(const json_t *events)
{
	const json_t *e;
	size_t i;

	if (json_array_size(events) == 0)
		return;
	fputs("---- since your last move ----\n", tty);
	json_array_foreach(events, i, e) {
		fputs("  ", tty);
		render_action(tty, e);
		fputc('\n', tty);
	}
}

/* Writes legal entry i numbered from 1, its amount as a range. */
static void
put_entry(int i, const json_t *e)
{
	json_t *copy, *r;

	copy = json_deep_copy(e);
	r = json_incref(json_object_get(copy, "amount"));
	if (json_is_object(r))
		json_object_del(copy, "amount");
	fprintf(tty, "  %3d  ", i + 1);
	render_action(tty, copy);
	if (json_is_object(r))
		fprintf(tty, "  (amount %" JSON_INTEGER_FORMAT "..%"
		    JSON_INTEGER_FORMAT ")",
		    json_integer_value(json_object_get(r, "min")),
		    json_integer_value(json_object_get(r, "max")));
	fputc('\n', tty);
	json_decref(r);
	json_decref(copy);
}

/* Asks the person for an action of the request; the index of the entry. */
static int
choose(struct bot *b, const json_t *req, int32_t *amount)
{
	const json_t *legal = json_object_get(req, "legal"), *e, *r;
	json_t *chosen;
	const char *errstr;
	char *line, prompt[128], *text;
	size_t i, n = json_array_size(legal);
	long long lo, hi, v;
	json_int_t left;

	fprintf(tty, "\n==== %s, game %" JSON_INTEGER_FORMAT ", seat %d: "
	    "your move ====\n", b->game, json_integer_value(json_object_get(
	    req, "game")), b->seat);
	put_events(json_object_get(req, "events"));
	put_table(b->game, json_object_get(req, "view"), b->players);
	fputs("---- your actions ----\n", tty);
	json_array_foreach(legal, i, e)
		put_entry((int)i, e);
	left = json_integer_value(json_object_get(req, "time_left_ms"));
	if (left < 60000)
		fprintf(tty, "  (you have %.1f s: give the referee a longer "
		    "--time-per-move)\n", left / 1000.0);
	for (;;) {
		snprintf(prompt, sizeof prompt, "action 1-%zu (? help): ", n);
		line = ask(prompt);
		if (strcmp(line, "?") == 0 || strcmp(line, "h") == 0) {
			put_help();
			continue;
		}
		if (strcmp(line, "t") == 0) {
			put_table(b->game, json_object_get(req, "view"),
			    b->players);
			continue;
		}
		if (strcmp(line, "e") == 0) {
			put_events(json_object_get(req, "events"));
			continue;
		}
		if (strcmp(line, "l") == 0) {
			json_array_foreach(legal, i, e)
				put_entry((int)i, e);
			continue;
		}
		if (strcmp(line, "q") == 0) {
			if (strcmp(ask("leave the match? (y/n): "), "y") == 0)
				exit(0);
			continue;
		}
		v = strtonum(line, 1, (long long)n, &errstr);
		if (errstr != NULL) {
			fprintf(tty, "  '%s': type a number from 1 to %zu, or ? "
			    "for help\n", line, n);
			continue;
		}
		e = json_array_get(legal, (size_t)v - 1);
		r = json_object_get(e, "amount");
		if (json_is_object(r)) {
			lo = json_integer_value(json_object_get(r, "min"));
			hi = json_integer_value(json_object_get(r, "max"));
			snprintf(prompt, sizeof prompt, "amount %lld-%lld: ",
			    lo, hi);
			for (;;) {
				line = ask(prompt);
				*amount = (int32_t)strtonum(line, lo, hi,
				    &errstr);
				if (errstr == NULL)
					break;
				fprintf(tty, "  '%s': the amount must be a "
				    "whole number from %lld to %lld\n", line,
				    lo, hi);
			}
		}
		/* the action as it will be played, amount in place of range */
		chosen = json_deep_copy(e);
		if (json_is_object(r))
			json_object_set_new(chosen, "amount",
			    json_integer(*amount));
		text = render_action_text(chosen);
		json_decref(chosen);
		fprintf(tty, "play %s? (y/n, Enter = y): ", text);
		free(text);
		line = ask("");
		if (line[0] == '\0' || strcmp(line, "y") == 0 ||
		    strcmp(line, "yes") == 0)
			return (int)v - 1;
	}
}

/* Tells the person about the hello, each game's start and end, faults. */
static void
on_message(struct bot *b, const json_t *msg)
{
	const char *type = json_string_value(json_object_get(msg, "type"));
	const json_t *places, *scores;
	size_t i;

	if (type == NULL)
		return;
	if (strcmp(type, "hello") == 0) {
		fprintf(tty, "cardarena: %s, %d players, %" JSON_INTEGER_FORMAT
		    " game(s); you play seat %d.  Type ? for help at any "
		    "prompt.\n", b->game, b->players, json_integer_value(
		    json_object_get(msg, "games")), b->seat);
	} else if (strcmp(type, "start") == 0) {
		fprintf(tty, "\n==== game %" JSON_INTEGER_FORMAT " starts: "
		    "you are seat %d ====\n", json_integer_value(
		    json_object_get(msg, "game")), b->seat);
	} else if (strcmp(type, "end") == 0) {
		places = json_object_get(msg, "places");
		scores = json_object_get(msg, "scores");
		fprintf(tty, "\n==== game %" JSON_INTEGER_FORMAT " over ====\n",
		    json_integer_value(json_object_get(msg, "game")));
		put_events(json_object_get(msg, "events"));
		for (i = 0; i < json_array_size(places); i++) {
			fprintf(tty, "  seat %zu%s: place ", i, (int)i ==
			    b->seat ? " (you)" : "");
			render_inline(tty, json_array_get(places, i));
			fputs(", score ", tty);
			render_inline(tty, json_array_get(scores, i));
			fputc('\n', tty);
		}
		fprintf(tty, "  you placed ");
		render_inline(tty, json_array_get(places, (size_t)b->seat));
		fputc('\n', tty);
	} else if (strcmp(type, "error") == 0) {
		fprintf(tty, "  the referee says: %s\n", json_string_value(
		    json_object_get(msg, "message")));
	}
}

int
main(int argc, char **argv)
{
	char *args[4];
	int i, n = 0, colour = 1, utf8 = 1, rc;

	args[n++] = argv[0];
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--ascii") == 0)
			utf8 = 0;
		else if (strcmp(argv[i], "--no-colour") == 0 ||
		    strcmp(argv[i], "--no-color") == 0)
			colour = 0;
		else if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			printf("usage: human [--ascii] [--no-colour]\n"
			    "A seat for a person: run it as a bot, e.g.\n"
			    "  bin/referee -g nyse -n 3 --time-per-move "
			    "3600000 --no-sandbox -b bin/human \\\n"
			    "      -b bin/nyse_bot -b bin/random\n"
			    "It draws the table on the terminal and asks "
			    "for each move (? for help).\n"
			    "  --ascii      suits as letters, not symbols\n"
			    "  --no-colour  no colours\n"
			    "  --version    the SDK's version and protocol\n"
			    "Ctrl-C stops the match (the referee ends it); q "
			    "leaves it (the referee\nplays the seat on).\n"
			    "Exit status: 0 after the match, 1 without a "
			    "terminal to play on or when\nits input ends, 2 "
			    "for a bad command line; killed by SIGINT after "
			    "a Ctrl-C.\n");
			return 0;
		} else if (strcmp(argv[i], "--version") == 0) {
			printf("human (cardarena C bot SDK %s), protocol %d\n",
			    BOT_SDK_VERSION, BOT_PROTOCOL);
			return 0;
		} else {
			fprintf(stderr, "human: unknown option %s (see human "
			    "--help)\n", argv[i]);
			return 2;
		}
	}
	args[n] = NULL;
	open_tty();
	render_init(colour && getenv("NO_COLOR") == NULL, utf8, 1);
	rc = bot_main(n, args, "human", choose, on_message, NULL);
	fputs("\n==== the match is over ====\n", tty);
	return rc;
}
