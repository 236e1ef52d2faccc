/*
 * botcheck's reading of a match log (protocol.md, "The match log") from
 * one bot's side: its hello name, the time from each request sent to it
 * to its answer's line, its faults with their details, and the size of
 * the stderr the referee saved for it.  Everything a bot wrote is shown
 * through vis(3) only: a hostile bot cannot drive the checker's terminal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIBBSD_NETBSD_VIS	/* strnvisx only; says which strnvis */
#include <vis.h>

#include "botcheck.h"

#define SAMPLE_MAX	100	/* bytes of a bad line shown in a note */

struct scan {
	int		 bot;
	int64_t		 limit_us;
	int		 started;	/* a game_start was seen */
	int		 open;		/* a request awaits its answer */
	json_int_t	 open_id;
	int64_t		 sent_t;
	char		*last;		/* the bot's last line, made visible */
};

static void	scan_line(struct scan *, struct botstats *, const json_t *);
static void	scan_recv(struct scan *, struct botstats *, const json_t *,
		    int64_t);
static void	scan_fault(struct scan *, struct botstats *, const json_t *);
static void	add_note(struct botstats *, int, const char *);
static int	fault_kind(const char *);
static int	is_marker(const char *, size_t, size_t *);

char *
vis_text(const char *s, size_t len, size_t max)
{
	char *out;
	size_t n;

	n = len > max ? max : len;
	out = xmalloc(n * 4 + 4);
	strnvisx(out, n * 4 + 1, s, n, VIS_CSTYLE | VIS_TAB | VIS_NL |
	    VIS_OCTAL);
	if (n < len)
		strlcat(out, "...", n * 4 + 4);
	return out;
}

/* Returns the index of a fault name, or -1. */
static int
fault_kind(const char *name)
{
	int k;

	for (k = 0; name != NULL && k < NFAULT; k++)
		if (strcmp(fault_names[k], name) == 0)
			return k;
	return -1;
}

/* Keeps a note under kind k while there is room. */
static void
add_note(struct botstats *s, int k, const char *text)
{
	if (s->nnotes[k] < BC_NOTES)
		strlcpy(s->notes[k][s->nnotes[k]++], text, BC_NOTE_LEN);
}

/* Takes one recv line of the checked bot, logged at time t. */
static void
scan_recv(struct scan *sc, struct botstats *s, const json_t *j, int64_t t)
{
	const json_t *line, *id, *name;
	json_t *msg;
	char *v;
	int64_t dt;

	line = json_object_get(j, "line");
	if (!json_is_string(line))
		return;
	free(sc->last);
	sc->last = vis_text(json_string_value(line), json_string_length(line),
	    SAMPLE_MAX);
	msg = json_loadb(json_string_value(line), json_string_length(line), 0,
	    NULL);
	if (!json_is_object(msg)) {
		json_decref(msg);
		return;
	}
	name = json_object_get(msg, "name");
	if (!sc->started && s->name[0] == '\0' && json_is_string(name)) {
		v = vis_text(json_string_value(name), json_string_length(name),
		    MAX_NAME);
		strlcpy(s->name, v, sizeof s->name);
		free(v);
	}
	id = json_object_get(msg, "id");
	if (sc->open && json_is_integer(id) && json_integer_value(id) ==
	    sc->open_id) {
		dt = t - sc->sent_t;
		s->answered++;
		s->time_sum_us += dt;
		if (dt > s->time_max_us)
			s->time_max_us = dt;
		if (dt > sc->limit_us)
			s->slow++;
		sc->open = 0;
	}
	json_decref(msg);
}

/* Takes one fault line of the checked bot. */
static void
scan_fault(struct scan *sc, struct botstats *s, const json_t *j)
{
	const json_t *detail, *id;
	char note[BC_NOTE_LEN], where[64], *v;
	int i, k, slot;

	k = fault_kind(json_string_value(json_object_get(j, "fault")));
	if (k == -1)
		return;
	id = json_object_get(j, "id");
	if (!sc->started) {
		s->hello_faults++;
		if (k == FAULT_TIMEOUT)
			s->hello_timeouts++;
		slot = NOTE_HELLO;
		snprintf(where, sizeof where, "handshake");
	} else {
		s->faults[k]++;
		slot = k;
		if (json_is_integer(id))
			snprintf(where, sizeof where, "game %lld, request %lld",
			    (long long)json_integer_value(json_object_get(j,
			    "game")), (long long)json_integer_value(id));
		else
			snprintf(where, sizeof where, "game %lld",
			    (long long)json_integer_value(json_object_get(j,
			    "game")));
	}
	if (json_is_integer(id) && sc->open && json_integer_value(id) ==
	    sc->open_id)
		sc->open = 0;
	detail = json_object_get(j, "detail");
	/* "memory: the memory limit (...)": which limit */
	for (i = 0; k == FAULT_LIMIT && i < NLIMIT; i++)
		if (json_is_string(detail) && strncmp(json_string_value(detail),
		    limit_names[i], strlen(limit_names[i])) == 0 &&
		    json_string_value(detail)[strlen(limit_names[i])] == ':')
			s->limits[i]++;
	v = vis_text(json_string_value(detail) ? json_string_value(detail) :
	    "", json_string_length(detail), BC_NOTE_LEN / 4);
	if ((k == FAULT_MALFORMED || k == FAULT_ILLEGAL ||
	    k == FAULT_WRONG_ID) && sc->last != NULL)
		snprintf(note, sizeof note, "%s: %s: %s; the line: %s", where,
		    fault_names[k], v, sc->last);
	else
		snprintf(note, sizeof note, "%s: %s: %s", where, fault_names[k],
		    v);
	free(v);
	add_note(s, slot, note);
}

/* Takes one parsed log line. */
static void
scan_line(struct scan *sc, struct botstats *s, const json_t *j)
{
	const char *type;
	const json_t *msg, *detail;
	int64_t t;
	char *v;
	int bot;

	type = json_string_value(json_object_get(j, "type"));
	if (type == NULL)
		return;
	bot = json_is_integer(json_object_get(j, "bot")) ?
	    (int)json_integer_value(json_object_get(j, "bot")) : -1;
	t = json_integer_value(json_object_get(j, "t"));
	if (strcmp(type, "game_start") == 0)
		sc->started = 1;
	else if (strcmp(type, "game_end") == 0)
		s->games++;
	else if (strcmp(type, "send") == 0 && bot == sc->bot) {
		msg = json_object_get(j, "msg");
		if (json_is_string(json_object_get(msg, "type")) &&
		    strcmp(json_string_value(json_object_get(msg, "type")),
		    "request") == 0) {
			s->requests++;
			sc->open = 1;
			sc->open_id = json_integer_value(json_object_get(msg,
			    "id"));
			sc->sent_t = t;
		}
	} else if (strcmp(type, "recv") == 0 && bot == sc->bot)
		scan_recv(sc, s, j, t);
	else if (strcmp(type, "fault") == 0 && bot == sc->bot)
		scan_fault(sc, s, j);
	else if (strcmp(type, "result") == 0)
		s->matches++;
	else if (strcmp(type, "aborted") == 0 || strcmp(type, "error") == 0) {
		s->aborted++;
		detail = json_object_get(j, "detail");
		v = vis_text(json_string_value(detail) ?
		    json_string_value(detail) : "", json_string_length(detail),
		    BC_NOTE_LEN / 4);
		strlcpy(s->error, v, sizeof s->error);
		free(v);
	}
}

int
logscan(const char *path, int bot, long time_per_move_ms,
    struct botstats *s, char *cause, size_t len)
{
	struct scan sc;
	json_error_t jerr;
	json_t *j;
	FILE *fp;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	memset(s, 0, sizeof *s);
	memset(&sc, 0, sizeof sc);
	sc.bot = bot;
	sc.limit_us = (int64_t)time_per_move_ms * 1000;
	if ((fp = fopen(path, "r")) == NULL) {
		snprintf(cause, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((n = getline(&line, &cap, fp)) != -1) {
		if ((j = json_loadb(line, (size_t)n, 0, &jerr)) == NULL)
			continue;	/* a torn last line */
		scan_line(&sc, s, j);
		json_decref(j);
	}
	free(line);
	free(sc.last);
	if (ferror(fp)) {
		snprintf(cause, len, "%s: %s", path, strerror(errno));
		fclose(fp);
		return -1;
	}
	fclose(fp);
	return 0;
}

/*
 * Says whether line[0..len) (no newline) is a marker the referee wrote
 * into a stderr file; sets *dropped from a "bytes dropped" one.
 */
static int
is_marker(const char *line, size_t len, size_t *dropped)
{
	char buf[160];
	unsigned long long a, b;
	int end = -1;

	if (len >= sizeof buf || len < 20 ||
	    strncmp(line, "--- cardarena: ", 15) != 0)
		return 0;
	memcpy(buf, line, len);
	buf[len] = '\0';
	if (sscanf(buf, "--- cardarena: game %llu, request %llu ---%n", &a, &b,
	    &end) == 2 && end == (int)len)
		return 1;
	end = -1;
	if (sscanf(buf, "--- cardarena: %llu more bytes dropped (the cap is "
	    "%llu) ---%n", &a, &b, &end) == 2 && end == (int)len) {
		*dropped += (size_t)a;
		return 1;
	}
	return 0;
}

size_t
stderr_size(const char *path)
{
	FILE *fp;
	char *line = NULL;
	size_t cap = 0, total = 0, dropped = 0, len;
	ssize_t n;

	if ((fp = fopen(path, "r")) == NULL)
		return 0;
	while ((n = getline(&line, &cap, fp)) != -1) {
		len = (size_t)n;
		if (len > 0 && line[len - 1] == '\n')
			len--;
		if (!is_marker(line, len, &dropped))
			total += (size_t)n;
	}
	free(line);
	fclose(fp);
	return total + dropped;
}

void
stats_add(struct botstats *sum, const struct botstats *a)
{
	int k, i;

	sum->matches += a->matches;
	sum->aborted += a->aborted;
	sum->games += a->games;
	sum->requests += a->requests;
	sum->answered += a->answered;
	sum->slow += a->slow;
	sum->time_sum_us += a->time_sum_us;
	if (a->time_max_us > sum->time_max_us)
		sum->time_max_us = a->time_max_us;
	sum->hello_faults += a->hello_faults;
	sum->hello_timeouts += a->hello_timeouts;
	for (k = 0; k < NFAULT; k++)
		sum->faults[k] += a->faults[k];
	for (k = 0; k < NLIMIT; k++)
		sum->limits[k] += a->limits[k];
	sum->stderr_bytes += a->stderr_bytes;
	sum->stderr_over += a->stderr_over;
	sum->leftovers += a->leftovers;
	if (sum->name[0] == '\0')
		strlcpy(sum->name, a->name, sizeof sum->name);
	for (k = 0; k < NNOTE; k++)
		for (i = 0; i < a->nnotes[k]; i++)
			add_note(sum, k, a->notes[k][i]);
	if (sum->error[0] == '\0')
		strlcpy(sum->error, a->error, sizeof sum->error);
	if (sum->unstarted[0] == '\0')
		strlcpy(sum->unstarted, a->unstarted, sizeof sum->unstarted);
}
