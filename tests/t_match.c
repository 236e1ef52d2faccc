/*
 * Unit tests of the referee core without any real game: the -b splitting,
 * the JSON encoders against jansson's own, the reading of answers, and
 * whole matches of a tiny test-only game (never registered in the games
 * table) whose bots are this program re-executed with --bot MODE.  The
 * matches check that simultaneous answers arriving out of order are
 * applied in seat order, that each seat is told only its events, that a
 * ranged answer by value or by index is taken, and that the log ends with
 * the right result.
 */
#include <sys/stat.h>

#include <err.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "cpulease.h"
#include "jw.h"
#include "match.h"
#include "proc.h"

#define TINY_ROUNDS	3
#define T_PASS		0	/* action codes of the tiny game */
#define T_PICK		1	/* + amount 0..9 */
#define E_ROUND		1	/* event: x round, a0 seat, a1 pick */
#define E_MINE		2	/* event told one seat: a0 its pick */

struct tiny {
	int	players, round;
	int	pick[MAX_PLAYERS], picked[MAX_PLAYERS];
	int	score[MAX_PLAYERS];
};

static const struct optdesc tiny_options[] = { { .name = NULL } };


static void	tiny_init(void *, const struct opts *, const void *,
		    struct rng *, struct events *);
static uint32_t	tiny_deciders(const void *);
static int	tiny_legal(const void *, int, struct legal *, int);
static int	tiny_apply(void *, int, struct action, struct rng *,
		    struct events *);
static struct action tiny_default(const void *, int);
static int	tiny_over(const void *);
static void	tiny_result(const void *, int *, double *);
static void	tiny_view_write(const void *, int, struct jw *);
static void	tiny_action_write(const void *, int, struct action,
		    struct jw *);
static int	tiny_action_parse(const void *, int, const json_t *,
		    struct action *, char *, size_t);
static void	tiny_event_write(const void *, const struct event *,
		    struct jw *);
static int	bot(const char *);
static json_t	*read_log(const char *, const char *);
static void	test_split(void);
static void	test_together(void);
static void	test_encoders(void);
static void	test_answers(void);
static void	test_match(const char *);
static void	test_setup_fails(const char *);
static void	tiny_config(struct match_config *, char **, const char *);

static const struct game tiny = {
	.name = "tiny", .title = "the test game", .min_players = 2,
	.max_players = 4, .default_players = 2, .options = tiny_options,
	.state_size = sizeof(struct tiny), .init = tiny_init,
	.deciders = tiny_deciders, .legal = tiny_legal, .apply = tiny_apply,
	.default_action = tiny_default, .over = tiny_over,
	.result = tiny_result, .view_write = tiny_view_write,
	.action_write = tiny_action_write, .action_parse = tiny_action_parse,
	.event_write = tiny_event_write
};

/* Deals nothing: every seat picks a number each round, all at once. */
static void
tiny_init(void *vst, const struct opts *o, const void *setup, struct rng *r,
    struct events *ev)
{
	struct tiny *st = vst;

	memset(st, 0, sizeof *st);
	st->players = o->players;
}

/* Every seat that has not picked this round. */
static uint32_t
tiny_deciders(const void *vst)
{
	const struct tiny *st = vst;
	uint32_t d = 0;
	int p;

	if (st->round >= TINY_ROUNDS)
		return 0;
	for (p = 0; p < st->players; p++)
		if (!st->picked[p])
			d |= 1u << p;
	return d;
}

/* Pass, or pick 0..9. */
static int
tiny_legal(const void *vst, int p, struct legal *l, int max)
{
	if (!(tiny_deciders(vst) & (1u << p)) || max < 2)
		return 0;
	l[0] = (struct legal){ T_PASS, 0, 0, 0 };
	l[1] = (struct legal){ T_PICK, 0, 9, 1 };
	return 2;
}

/* Records a pick; the round ends when every seat has picked. */
static int
tiny_apply(void *vst, int p, struct action a, struct rng *r,
    struct events *ev)
{
	struct tiny *st = vst;
	int q;

	if (!legal_contains(&tiny, st, p, a))
		return -1;
	st->picked[p] = 1;
	st->pick[p] = a.code == T_PICK ? a.amount : 0;
	ev_push(ev, 1u << p, E_MINE, st->round, st->pick[p], 0, 0, 0, 0);
	for (q = 0; q < st->players; q++)
		if (!st->picked[q])
			return 0;
	for (q = 0; q < st->players; q++) {
		st->score[q] += st->pick[q];
		ev_push(ev, SEEN_ALL, E_ROUND, st->round, q, st->pick[q], 0, 0,
		    0);
		st->picked[q] = 0;
	}
	st->round++;
	return 0;
}

static struct action
tiny_default(const void *vst, int p)
{
	return (struct action){ T_PASS, 0 };
}

static int
tiny_over(const void *vst)
{
	return ((const struct tiny *)vst)->round >= TINY_ROUNDS;
}

static void
tiny_result(const void *vst, int *places, double *scores)
{
	const struct tiny *st = vst;
	int p;

	for (p = 0; p < st->players; p++)
		scores[p] = st->score[p];
	places_from_scores(st->players, scores, places);
}

/* The round, the scores, and (to the seat) its own pending pick. */
static void
tiny_view_write(const void *vst, int seat, struct jw *w)
{
	const struct tiny *st = vst;
	int p;

	jw_obj(w);
	jw_kint(w, "round", st->round);
	jw_karr(w, "scores");
	for (p = 0; p < st->players; p++)
		jw_int(w, st->score[p]);
	jw_end(w);
	if (seat >= 0 && st->picked[seat])
		jw_kint(w, "my_pick", st->pick[seat]);
	jw_end(w);
}

/* {"type": "pass"} or {"type": "pick", "amount": N}. */
static void
tiny_action_write(const void *vst, int p, struct action a, struct jw *w)
{
	jw_obj(w);
	if (a.code == T_PICK) {
		jw_kstr(w, "type", "pick");
		jw_amount(w, a.amount);
	} else
		jw_kstr(w, "type", "pass");
	jw_end(w);
}

static int
tiny_action_parse(const void *vst, int p, const json_t *j, struct action *a,
    char *cause, size_t len)
{
	const char *t = json_string_value(json_object_get(j, "type"));

	if (t != NULL && strcmp(t, "pass") == 0) {
		*a = (struct action){ T_PASS, 0 };
		return 0;
	}
	if (t != NULL && strcmp(t, "pick") == 0 &&
	    json_is_integer(json_object_get(j, "amount"))) {
		*a = (struct action){ T_PICK, (int32_t)json_integer_value(
		    json_object_get(j, "amount")) };
		return 0;
	}
	snprintf(cause, len, "not pass or pick");
	return -1;
}

/* {"type": "mine", "round", "pick"} or {"type": "round", "round",
 * "seat", "pick"}. */
static void
tiny_event_write(const void *vst, const struct event *e, struct jw *w)
{
	jw_obj(w);
	jw_kstr(w, "type", e->type == E_MINE ? "mine" : "round");
	jw_kint(w, "round", e->x);
	if (e->type != E_MINE)
		jw_kint(w, "seat", e->a[0]);
	jw_kint(w, "pick", e->type == E_MINE ? e->a[0] : e->a[1]);
	jw_end(w);
}

/*
 * A bot of the tiny game: "slow" sleeps 40 ms before each answer and
 * answers by index; "fast" answers at once, by value.  Both pick (seat +
 * round) % 10 and write what each request's events held to stderr.
 */
static int
bot(const char *mode)
{
	json_t *m, *a, *ev;
	char *line = NULL;
	size_t cap = 0, i;
	const char *type;
	int seat, round, slow;

	slow = strcmp(mode, "slow") == 0;
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (getline(&line, &cap, stdin) != -1) {
		if ((m = json_loads(line, 0, NULL)) == NULL)
			return 1;
		type = json_string_value(json_object_get(m, "type"));
		if (strcmp(type, "hello") == 0)
			printf("{\"type\":\"hello\",\"name\":\"%s\"}\n", mode);
		else if (strcmp(type, "request") == 0) {
			seat = (int)json_integer_value(json_object_get(m,
			    "seat"));
			round = (int)json_integer_value(json_object_get(
			    json_object_get(m, "view"), "round"));
			ev = json_object_get(m, "events");
			json_array_foreach(ev, i, a)
				fprintf(stderr, "event %s\n",
				    json_string_value(json_object_get(a,
				    "type")));
			if (slow) {
				nanosleep(&(struct timespec){ 0, 40000000 },
				    NULL);
				printf("{\"id\":%lld,\"index\":1,\"amount\":%d}\n",
				    (long long)json_integer_value(
				    json_object_get(m, "id")),
				    (seat + round) % 10);
			} else
				printf("{\"id\":%lld,\"action\":{\"type\":"
				    "\"pick\",\"amount\":%d},\"debug\":\"x\"}\n",
				    (long long)json_integer_value(
				    json_object_get(m, "id")),
				    (seat + round) % 10);
		} else if (strcmp(type, "bye") == 0) {
			json_decref(m);
			break;
		}
		json_decref(m);
	}
	free(line);
	return 0;
}

/* Returns the log's lines of one type as a JSON array. */
static json_t *
read_log(const char *path, const char *type)
{
	FILE *fp;
	json_t *all, *j;
	char *line = NULL;
	size_t cap = 0;

	all = json_array();
	if ((fp = fopen(path, "r")) == NULL)
		return all;
	while (getline(&line, &cap, fp) != -1) {
		if ((j = json_loads(line, 0, NULL)) == NULL)
			continue;
		if (type == NULL || strcmp(json_string_value(json_object_get(j,
		    "type")), type) == 0)
			json_array_append(all, j);
		json_decref(j);
	}
	free(line);
	fclose(fp);
	return all;
}

static void
test_split(void)
{
	char **av, why[128];
	int rc;

	rc = argv_split("  bin/x  -a 'b c' \"d \\\"e\\\" \\\\\" f\\ g ''",
	    &av, why, sizeof why);
	tap_ok(rc == 0 && strcmp(av[0], "bin/x") == 0 && strcmp(av[1], "-a") == 0 &&
	    strcmp(av[2], "b c") == 0 && strcmp(av[3], "d \"e\" \\") == 0 &&
	    strcmp(av[4], "f g") == 0 && strcmp(av[5], "") == 0 &&
	    av[6] == NULL, "argv_split: blanks, both quotes, escapes, ''");
	if (rc == 0)
		argv_free(av);
	tap_ok(argv_split("a 'b", &av, why, sizeof why) == -1 &&
	    strstr(why, "unterminated") != NULL, "argv_split: open quote");
	tap_ok(argv_split(" \t ", &av, why, sizeof why) == -1 &&
	    strcmp(why, "empty command") == 0, "argv_split: empty command");
}

/*
 * cpu_asks_together: horserace's bets ask every seat at once (a race of
 * three seats asks about five decisions: the share is taken over many),
 * its Calcutta auctions (most of a Calcutta game's decisions) one seat at
 * a time, like every other game.
 */
static void
test_together(void)
{
	static const struct {
		const char	*game, *opt;
		int		 together, players;
	} c[] = {
		{ "horserace", NULL, 1, 0 }, { "horserace", "races=1", 1, 0 },
		{ "horserace", "races=1", 1, 3 }, { "horserace", NULL, 1, 8 },
		{ "horserace", "calcutta=true", 0, 0 },
		{ "horserace", "calcutta=true", 0, 3 }, { "stocks", NULL, 0, 0 },
		{ "speculation", NULL, 0, 0 }, { "nyse", NULL, 0, 0 },
		{ "daifugo", NULL, 0, 0 },
	};
	const struct game *g;
	struct opts o;
	char why[256];
	size_t i;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		g = tap_game(c[i].game);
		opts_defaults(g, &o, c[i].players ? c[i].players :
		    g->default_players);
		if ((c[i].opt != NULL && opts_set(g, &o, c[i].opt, why,
		    sizeof why) == -1) || opts_finish(g, &o, why,
		    sizeof why) == -1)
			errx(1, "%s: %s", c[i].game, why);
		tap_ok(cpu_asks_together(g, &o) == c[i].together,
		    "cpu_asks_together: %s %s, %d players: %d", c[i].game,
		    c[i].opt != NULL ? c[i].opt : "(defaults)", o.players,
		    c[i].together);
	}
}

static void
test_encoders(void)
{
	static const char *docs[] = {
		"{\"a\":[1,-2,3000000000,true,false,null],\"b\":{\"c\":\"d\"}}",
		"{\"s\":\"quote\\\" back\\\\ nl\\n tab\\t \\u00e9 \\u20ac\"}",
		"[0.5,1e+300,-0.25,150.0,1e-7,0.1,[],{}]",
	};
	struct buf b = { NULL, 0, 0 };
	json_t *j;
	char *want;
	size_t i;

	for (i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		j = json_loads(docs[i], JSON_DECODE_ANY, NULL);
		want = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
		b.len = 0;
		buf_json(&b, j);
		tap_ok(j != NULL && strcmp(b.p, want) == 0,
		    "buf_json matches jansson: %s", b.p);
		free(want);
		json_decref(j);
	}
	b.len = 0;
	buf_jstr(&b, "a\xff\x01\xc3\xa9\xe2\x82", 7);
	tap_ok(strcmp(b.p, "\"a\\ufffd\\u0001\xc3\xa9\\ufffd\\ufffd\"") == 0,
	    "buf_jstr: bad UTF-8 becomes U+FFFD, controls escaped: %s", b.p);
	j = json_loadb(b.p, b.len, 0, NULL);
	tap_ok(j == NULL, "buf_jstr output is a JSON string (not an object)");
	json_decref(j);
	j = json_loads(b.p, JSON_DECODE_ANY, NULL);
	tap_ok(json_is_string(j), "buf_jstr output parses as a JSON string");
	json_decref(j);
	buf_free(&b);
}

static void
test_answers(void)
{
	struct tiny st;
	struct opts o;
	struct legal l[4];
	struct action a;
	json_t *j;
	char why[256];
	int n, k;

	opts_defaults(&tiny, &o, 2);
	tiny_init(&st, &o, NULL, NULL, NULL);
	n = tiny_legal(&st, 0, l, 4);
#define ANSWER(text) (j = json_loads(text, 0, NULL), \
	k = proto_action(&tiny, &st, 0, j, l, n, &a, why, sizeof why), \
	json_decref(j), k)
	tap_ok(ANSWER("{\"id\":1,\"index\":1,\"amount\":7}") == -1 &&
	    a.code == T_PICK && a.amount == 7, "answer by index with amount");
	tap_ok(ANSWER("{\"id\":1,\"action\":{\"type\":\"pick\",\"amount\":9}}") ==
	    -1 && a.amount == 9, "answer by value");
	tap_ok(ANSWER("{\"id\":1,\"index\":0,\"amount\":3}") == -1 &&
	    a.code == T_PASS && a.amount == 0,
	    "an amount on a fixed entry is ignored");
	tap_ok(ANSWER("{\"id\":1,\"index\":1}") == FAULT_ILLEGAL &&
	    strstr(why, "needs an \"amount\" from 0 to 9") != NULL,
	    "a ranged entry without its amount is illegal");
	tap_ok(ANSWER("{\"id\":1,\"index\":1,\"amount\":10}") == FAULT_ILLEGAL,
	    "an amount out of range is illegal");
	tap_ok(ANSWER("{\"id\":1,\"index\":2}") == FAULT_ILLEGAL &&
	    strcmp(why, "index 2 is not in 0..1") == 0,
	    "an index past the list is illegal");
	tap_ok(ANSWER("{\"id\":1,\"action\":{\"type\":\"pick\",\"amount\":12}}") ==
	    FAULT_ILLEGAL, "a value not in the list is illegal");
	tap_ok(ANSWER("{\"id\":1,\"action\":{\"type\":\"jump\"}}") == FAULT_ILLEGAL,
	    "a value that is no action is illegal");
	tap_ok(ANSWER("{\"id\":1,\"index\":\"1\"}") == FAULT_MALFORMED,
	    "an index that is not a number is malformed");
	tap_ok(ANSWER("{\"id\":1}") == FAULT_MALFORMED,
	    "an answer without index or action is malformed");
	tap_ok(ANSWER("{\"id\":1,\"index\":0,\"action\":{\"type\":\"pass\"}}") ==
	    FAULT_MALFORMED, "index and action together are malformed");
#undef ANSWER
}

/* A match of the tiny game between the two bots of cmds, seed 5,
 * logged to logp. */
static void
tiny_config(struct match_config *cf, char **cmds, const char *logp)
{
	match_config_init(cf);
	cf->game = &tiny;
	opts_defaults(&tiny, &cf->opts, 2);
	cf->nbots = 2;
	cf->commands = cmds;
	cf->seed = 5;
	cf->log_path = logp;
}

/* A match whose setup fails before its log is opened (a bot's command
 * line cannot be split) says why and leaves the caller's descriptors,
 * standard input included, open. */
static void
test_setup_fails(const char *self)
{
	struct match_config cf;
	struct match_result res;
	char cmd[PATH_MAX + 16], bad[] = "'unterminated", *cmds[2];
	char cause[256] = "";
	int rc;

	snprintf(cmd, sizeof cmd, "%s --bot fast", self);
	cmds[0] = cmd;
	cmds[1] = bad;
	tiny_config(&cf, cmds, "/nonexistent-dir/never.log");
	rc = match_run(&cf, &res, cause, sizeof cause);
	tap_ok(rc == -1 && strstr(cause, "bot 1") != NULL, "a bot command "
	    "that cannot be split fails the setup: %s", cause);
	tap_ok(fcntl(STDIN_FILENO, F_GETFD) != -1, "standard input is still "
	    "open after the failed setup");
}

/* Plays matches of the tiny game between a slow and a fast bot. */
static void
test_match(const char *self)
{
	struct match_config cf;
	struct match_result res;
	char cmd[2][PATH_MAX + 16], *cmds[2], logp[64], errp[80], cause[256];
	json_t *acts, *a, *sends, *r;
	size_t i;
	int rc, inorder, s, stale;
	FILE *fp;
	char line[256];

	snprintf(cmd[0], sizeof cmd[0], "%s --bot slow", self);
	snprintf(cmd[1], sizeof cmd[1], "%s --bot fast", self);
	cmds[0] = cmd[0];
	cmds[1] = cmd[1];
	snprintf(logp, sizeof logp, "/tmp/t_match.%d.log", (int)getpid());
	tiny_config(&cf, cmds, logp);
	cf.games = 2;
	/* Far above any delay of a loaded machine: no test of time here. */
	cf.time_per_move_ms = 600000;
	cf.time_hello_ms = 600000;
	rc = match_run(&cf, &res, cause, sizeof cause);
	tap_ok(rc == 0, "a match of the tiny game completes (%s)", rc ? cause :
	    "ok");
	tap_ok(res.games_played == 2 && res.scores[0] == 2 * (0 + 1 + 2) &&
	    res.scores[1] == 2 * (1 + 2 + 3) && res.places[1] == 1 &&
	    res.places[0] == 2, "the result sums both games' picks: %g %g",
	    res.scores[0], res.scores[1]);
	tap_ok(res.faults[0][FAULT_TIMEOUT] + res.faults[1][FAULT_TIMEOUT] == 0 &&
	    strcmp(res.names[0], "slow") == 0, "no faults; names from hello");
	acts = read_log(logp, "action");
	inorder = json_array_size(acts) == 2 * TINY_ROUNDS * 2;
	json_array_foreach(acts, i, a) {
		s = (int)json_integer_value(json_object_get(a, "seat"));
		if (s != (int)(i % 2) || json_integer_value(json_object_get(a,
		    "step")) != (json_int_t)(i % (2 * TINY_ROUNDS)))
			inorder = 0;
	}
	tap_ok(inorder, "the slow seat 0's answers are applied before the fast "
	    "seat 1's in every round (%zu actions)", json_array_size(acts));
	json_decref(acts);
	/*
	 * Seat 1 is told its own picks ("mine" events) and never seat 0's:
	 * three per game, each with seat 1's pick of that round.
	 */
	sends = read_log(logp, "send");
	stale = 0;
	s = 0;
	json_array_foreach(sends, i, a) {
		json_t *evs, *e;
		size_t k;
		int rd;

		if (json_integer_value(json_object_get(a, "bot")) != 1)
			continue;
		evs = json_object_get(json_object_get(a, "msg"), "events");
		json_array_foreach(evs, k, e) {
			if (strcmp(json_string_value(json_object_get(e,
			    "type")), "mine") != 0)
				continue;
			rd = (int)json_integer_value(json_object_get(e,
			    "round"));
			s++;
			if (json_integer_value(json_object_get(e, "pick")) !=
			    (1 + rd) % 10)
				stale++;
		}
	}
	tap_ok(s == 2 * TINY_ROUNDS && stale == 0, "bot 1 is told its own picks "
	    "(%d) and no one else's (%d wrong)", s, stale);
	json_decref(sends);
	r = read_log(logp, NULL);
	tap_ok(json_array_size(r) > 2 && strcmp(json_string_value(json_object_get(
	    json_array_get(r, json_array_size(r) - 1), "type")), "result") ==
	    0 && strcmp(json_string_value(json_object_get(json_array_get(r, 0),
	    "type")), "header") == 0, "the log runs from header to result");
	json_decref(r);
	/* The slow bot's stderr: the events of each request, marked. */
	snprintf(errp, sizeof errp, "%s.bot0.stderr", logp);
	s = 0;
	stale = 0;
	if ((fp = fopen(errp, "r")) != NULL) {
		while (fgets(line, sizeof line, fp) != NULL) {
			s += strncmp(line, "--- cardarena: game ", 20) == 0;
			stale += strcmp(line, "event mine\n") == 0;
		}
		fclose(fp);
	}
	/* Round 0's request has no events: nothing written, no marker. */
	tap_ok(s == 2 * (TINY_ROUNDS - 1) && stale == 2 * (TINY_ROUNDS - 1),
	    "stderr saved with a marker per turn that wrote (%d); seat 0 told "
	    "its own picks (%d)", s, stale);
	unlink(errp);
	snprintf(errp, sizeof errp, "%s.bot1.stderr", logp);
	unlink(errp);
	unlink(logp);

	/* A bot that cannot run: an error, nothing started. */
	cmds[1] = (char *)"/nonexistent/bot";
	rc = match_run(&cf, &res, cause, sizeof cause);
	tap_ok(rc == -1 && strstr(cause, "cannot execute '/nonexistent/bot'") !=
	    NULL, "an unrunnable bot is an error: %s", cause);
	unlink(logp);
}

int
main(int argc, char **argv)
{
	char self[PATH_MAX];
	ssize_t n;

	if (argc == 3 && strcmp(argv[1], "--bot") == 0)
		return bot(argv[2]);
	if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) == -1)
		err(1, "/proc/self/exe");
	self[n] = '\0';
	test_split();
	test_together();
	test_encoders();
	test_answers();
	test_match(self);
	test_setup_fails(self);
	return tap_done();
}
