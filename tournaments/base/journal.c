/*
 * The results journal: one JSON object a line, each finished game written
 * whole in a single write(2) as soon as it is known, and fsynced in groups
 * (the runner commits every few games or milliseconds), so that a
 * tournament killed at any moment leaves every game written but the last
 * one, and that one at worst torn; only a crash of the machine itself can
 * take the games written since the last commit.  The first line is a
 * header saying which tournament wrote it; each other line is one game
 * (table, game, deal, bots by seat, seed, places, scores, faults, capped,
 * log).  Reading is streamed (memory bounded by the longest line); a game
 * line in the canonical form (the very bytes jgame_json's object dumps
 * to, which is every line a runner writes) is read by a scan without a
 * JSON tree, any other line by jansson, and both read a line alike; a
 * damaged last line is torn and dropped (and cut off the file when
 * repairing), a damaged line elsewhere is reported and skipped.
 * The done set says which games of each table are in the journal: a count
 * of the games done from the first one on, plus the few done out of order.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/journal.h"
#include "proto.h"

#define JREAD_BUF	(1 << 20)	/* bytes a journal is read in at once */

static int	 jgame_put(struct buf *, const struct jgame *, const json_t *);
static int	 put_line(int, char *, size_t, char *, size_t);
static int	 int_array(const json_t *, const char *, int, int *, char *,
		    size_t);
static int	 cs_faults(struct cscan *, long *);
static int	 whole(const json_t *, const char *, long *, char *, size_t);

/* Reads a non-negative whole number key; -1 and a cause. */
static int
whole(const json_t *j, const char *key, long *out, char *cause, size_t len)
{
	json_t *v = json_object_get(j, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > LONG_MAX) {
		snprintf(cause, len, "\"%s\": not a whole number", key);
		return -1;
	}
	*out = (long)json_integer_value(v);
	return 0;
}

/* Checks that a, the value of key, is an array of k; -1 and a cause. */
static int
array_of(const json_t *a, const char *key, int k, char *cause, size_t len)
{
	if (!json_is_array(a) || (int)json_array_size(a) != k) {
		snprintf(cause, len, "\"%s\": not an array of %d", key, k);
		return -1;
	}
	return 0;
}

/* Reads an array of k whole numbers >= 1; -1 and a cause. */
static int
int_array(const json_t *j, const char *key, int k, int *out, char *cause,
    size_t len)
{
	json_t *a = json_object_get(j, key), *v;
	int i;

	if (array_of(a, key, k, cause, len) == -1)
		return -1;
	for (i = 0; i < k; i++) {
		v = json_array_get(a, (size_t)i);
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > k) {
			snprintf(cause, len, "\"%s\"[%d]: not from 1 to %d",
			    key, i, k);
			return -1;
		}
		out[i] = (int)json_integer_value(v);
	}
	return 0;
}

/* Parses one game line; see tournament.h. */
int
jgame_parse(const json_t *j, struct jgame *g, char *cause, size_t len)
{
	json_t *a, *v, *f;
	int i, k, n;

	memset(g, 0, sizeof *g);
	if (!json_is_object(j)) {
		snprintf(cause, len, "not a JSON object");
		return -1;
	}
	if (whole(j, "table", &g->table, cause, len) == -1 ||
	    whole(j, "game", &g->game, cause, len) == -1)
		return -1;
	g->deal = g->game;
	if (json_object_get(j, "deal") != NULL &&
	    whole(j, "deal", &g->deal, cause, len) == -1)
		return -1;
	a = json_object_get(j, "bots");
	if (!json_is_array(a) || json_array_size(a) < 1 ||
	    json_array_size(a) > MAX_PLAYERS) {
		snprintf(cause, len, "\"bots\": not an array of 1 to %d names",
		    MAX_PLAYERS);
		return -1;
	}
	g->k = k = (int)json_array_size(a);
	for (i = 0; i < k; i++) {
		if ((g->bots[i] = json_string_value(json_array_get(a,
		    (size_t)i))) == NULL) {
			snprintf(cause, len, "\"bots\"[%d]: not a name", i);
			return -1;
		}
	}
	if (int_array(j, "places", k, g->places, cause, len) == -1)
		return -1;
	if ((a = json_object_get(j, "scores")) != NULL) {
		if (array_of(a, "scores", k, cause, len) == -1)
			return -1;
		for (i = 0; i < k; i++) {
			v = json_array_get(a, (size_t)i);
			if (!json_is_number(v)) {
				snprintf(cause, len, "\"scores\"[%d]: not a "
				    "number", i);
				return -1;
			}
			g->scores[i] = json_number_value(v);
		}
	}
	if ((a = json_object_get(j, "faults")) != NULL) {
		if (array_of(a, "faults", k, cause, len) == -1)
			return -1;
		for (i = 0; i < k; i++) {
			f = json_array_get(a, (size_t)i);
			for (n = 0; n < NTFAULT; n++) {
				v = json_object_get(f, tfault_names[n]);
				if (json_is_integer(v) &&
				    json_integer_value(v) > 0)
					g->faults[i][n] =
					    (long)json_integer_value(v);
			}
		}
	}
	g->capped = json_is_true(json_object_get(j, "capped"));
	g->log = json_string_value(json_object_get(j, "log"));
	g->line = j;
	return 0;
}

/* Encodes a game as a journal line: a new reference. */
json_t *
jgame_json(const struct jgame *g, const json_t *seed)
{
	json_t *j, *bots, *places, *scores, *faults, *f;
	int i, n;

	bots = json_array();
	places = json_array();
	scores = json_array();
	faults = json_array();
	for (i = 0; i < g->k; i++) {
		json_array_append_new(bots, json_string(g->bots[i]));
		json_array_append_new(places, json_integer(g->places[i]));
		/* whole scores as integers, as the referee writes them (a
		 * cast of a score past the integers' range was undefined) */
		json_array_append_new(scores, score_json(g->scores[i]));
		f = json_object();
		for (n = 0; n < NTFAULT; n++)
			if (n < NTFAULT_MAIN || g->faults[i][n] > 0)
				json_object_set_new(f, tfault_names[n],
				    json_integer(g->faults[i][n]));
		json_array_append_new(faults, f);
	}
	j = json_pack("{s:I,s:I,s:I,s:O,s:o,s:o,s:o,s:o,s:b}",
	    "table", (json_int_t)g->table, "game", (json_int_t)g->game,
	    "deal", (json_int_t)g->deal, "seed", seed != NULL ? seed :
	    json_null(), "bots", bots, "places", places, "scores", scores,
	    "faults", faults, "capped", g->capped);
	if (g->log != NULL)
		json_object_set_new(j, "log", json_string(g->log));
	return j;
}

/* 1 if s is written in JSON as its own bytes; see journal.h. */
int
json_plain(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s < 0x20 || *s > 0x7e || *s == '"' || *s == '\\')
			return 0;
	return 1;
}

/*
 * Appends to b the bytes json_dumps(jgame_json(g, seed), JSON_COMPACT)
 * gives, without the tree, when its strings are plain, its scores whole
 * and seed an integer or none; -1 (b as it was) otherwise.
 */
static int
jgame_put(struct buf *b, const struct jgame *g, const json_t *seed)
{
	int i, n;

	if (seed != NULL && !json_is_integer(seed))
		return -1;
	if (g->log != NULL && !json_plain(g->log))
		return -1;
	for (i = 0; i < g->k; i++)
		if (!json_plain(g->bots[i]) || g->scores[i] != floor(g->scores[i]) ||
		    fabs(g->scores[i]) >= 9e15)
			return -1;
	buf_kint(b, "{\"table\":", g->table);
	buf_kint(b, ",\"game\":", g->game);
	buf_kint(b, ",\"deal\":", g->deal);
	if (seed != NULL)
		buf_kint(b, ",\"seed\":", (long long)json_integer_value(seed));
	else
		buf_str(b, ",\"seed\":null");
	buf_str(b, ",\"bots\":[");
	for (i = 0; i < g->k; i++) {
		buf_str(b, i > 0 ? ",\"" : "\"");
		buf_str(b, g->bots[i]);
		buf_ch(b, '"');
	}
	buf_str(b, "],\"places\":[");
	for (i = 0; i < g->k; i++) {
		if (i > 0)
			buf_ch(b, ',');
		buf_int(b, g->places[i]);
	}
	buf_str(b, "],\"scores\":[");
	for (i = 0; i < g->k; i++) {
		if (i > 0)
			buf_ch(b, ',');
		buf_int(b, (long long)g->scores[i]);
	}
	buf_str(b, "],\"faults\":[");
	for (i = 0; i < g->k; i++) {
		buf_str(b, i > 0 ? ",{" : "{");
		for (n = 0; n < NTFAULT; n++)
			if (n < NTFAULT_MAIN || g->faults[i][n] > 0) {
				buf_str(b, n > 0 ? ",\"" : "\"");
				buf_str(b, tfault_names[n]);
				buf_str(b, "\":");
				buf_int(b, g->faults[i][n]);
			}
		buf_ch(b, '}');
	}
	buf_str(b, g->capped ? "],\"capped\":true" : "],\"capped\":false");
	if (g->log != NULL) {
		buf_str(b, ",\"log\":\"");
		buf_str(b, g->log);
		buf_ch(b, '"');
	}
	buf_ch(b, '}');
	return 0;
}

/* The journal line of a game, as json_dumps writes jgame_json's object. */
char *
jgame_text(const struct jgame *g, const json_t *seed, size_t *len)
{
	struct buf b;
	json_t *j;
	char *s;

	memset(&b, 0, sizeof b);
	if (jgame_put(&b, g, seed) == 0) {
		*len = b.len;
		return b.p;
	}
	j = jgame_json(g, seed);
	s = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (s == NULL)
		return NULL;
	*len = strlen(s);
	return s;
}

/* A referee run's results line as a journal game; see tournament.h. */
void
jgame_of_result(struct jgame *g, long table, const struct resline *res,
    int seats, int duplicate, const char *const *names, const char *log)
{
	int s, b;

	memset(g, 0, sizeof *g);
	g->table = table;
	g->game = res->game;
	g->deal = duplicate ? res->game / seats : res->game;
	g->k = seats;
	g->capped = res->capped;
	g->log = log;
	for (s = 0; s < seats; s++) {
		b = res->seats[s];
		g->bots[s] = names[b];
		g->places[s] = res->places[b];
		g->scores[s] = res->scores[b];
		resline_tfaults(res, b, g->faults[s]);
	}
}


/*
 * Takes a seat's faults as jgame_json writes them: the main kinds always,
 * the others only when above 0, in tfault_names' order.
 */
static int
cs_faults(struct cscan *c, long *f)
{
	size_t len;
	long long v;
	int n;

	/* most seats have none (the general path below reads it alike) */
	if (CS_LIT(c, "{\"timeout\":0,\"crash\":0,\"illegal\":0,"
	    "\"limit\":0}") == 0) {
		memset(f, 0, NTFAULT * sizeof *f);
		return 0;
	}
	for (n = 0; n < NTFAULT; n++) {
		f[n] = 0;
		len = strlen(tfault_names[n]);
		if ((size_t)(c->end - c->p) < len + 4 ||
		    c->p[0] != (n == 0 ? '{' : ',') || c->p[1] != '"' ||
		    memcmp(c->p + 2, tfault_names[n], len) != 0 ||
		    c->p[len + 2] != '"' || c->p[len + 3] != ':') {
			if (n < NTFAULT_MAIN)
				return -1;
			continue;
		}
		c->p += len + 4;
		if (cs_num(c, 0, LONG_MAX, &v) == -1 ||
		    (n >= NTFAULT_MAIN && v == 0))
			return -1;
		f[n] = (long)v;
	}
	return CS_LIT(c, "}");
}

/*
 * Reads a game line (n bytes, no newline) that is in the canonical form,
 * its strings copied to out (n bytes at least); -1 if it is not in that
 * form (jgame_parse then decides).  What it reads is what jgame_parse
 * reads of the same line.
 */
int
jgame_scan(const char *text, size_t n, struct jgame *g, char *out)
{
	struct cscan c = { text, text + n, out };
	long long v;
	int i, k;

	memset(g, 0, sizeof *g);
	if (CS_LIT(&c, "{\"table\":") == -1 ||
	    cs_num(&c, 0, LONG_MAX, &v) == -1)
		return -1;
	g->table = (long)v;
	if (CS_LIT(&c, ",\"game\":") == -1 ||
	    cs_num(&c, 0, LONG_MAX, &v) == -1)
		return -1;
	g->game = (long)v;
	if (CS_LIT(&c, ",\"deal\":") == -1 ||
	    cs_num(&c, 0, LONG_MAX, &v) == -1)
		return -1;
	g->deal = (long)v;
	if (CS_LIT(&c, ",\"seed\":") == -1 || (CS_LIT(&c, "null") == -1 &&
	    cs_num(&c, 1, LLONG_MAX, &v) == -1) ||
	    CS_LIT(&c, ",\"bots\":[") == -1)
		return -1;
	for (k = 0; k < MAX_PLAYERS; ) {
		if (cs_str(&c, &g->bots[k++]) == -1)
			return -1;
		if (CS_LIT(&c, ",") == -1)
			break;
	}
	g->k = k;
	if (CS_LIT(&c, "],\"places\":[") == -1)
		return -1;
	for (i = 0; i < k; i++) {
		if ((i > 0 && CS_LIT(&c, ",") == -1) ||
		    cs_num(&c, 0, (unsigned long long)k, &v) == -1 || v < 1)
			return -1;
		g->places[i] = (int)v;
	}
	if (CS_LIT(&c, "],\"scores\":[") == -1)
		return -1;
	for (i = 0; i < k; i++) {
		if ((i > 0 && CS_LIT(&c, ",") == -1) ||
		    cs_num(&c, 1, SCORE_MAX, &v) == -1)
			return -1;
		g->scores[i] = (double)v;
	}
	if (CS_LIT(&c, "],\"faults\":[") == -1)
		return -1;
	for (i = 0; i < k; i++)
		if ((i > 0 && CS_LIT(&c, ",") == -1) ||
		    cs_faults(&c, g->faults[i]) == -1)
			return -1;
	if (CS_LIT(&c, "],\"capped\":") == -1)
		return -1;
	if (CS_LIT(&c, "true") == 0)
		g->capped = 1;
	else if (CS_LIT(&c, "false") == -1)
		return -1;
	if (CS_LIT(&c, ",\"log\":") == 0 && cs_str(&c, &g->log) == -1)
		return -1;
	if (CS_LIT(&c, "}") == -1 || c.p != c.end)
		return -1;
	g->text = text;
	g->textlen = n;
	return 0;
}

/* Reads a journal; see tournament.h. */
int
journal_read(const char *path, struct jreader *r, char *cause, size_t len)
{
	FILE *fp;
	char *line = NULL, *strs = NULL, *iobuf, why[256], bad[256];
	size_t cap = 0, scap = 0;
	ssize_t n;
	off_t good = 0, pos = 0;
	long lineno = 0, badline = 0;
	json_t *j;
	json_error_t je;
	struct jgame g;
	int rc = -1, first = 1, canon;

	r->lines = r->torn = 0;
	r->upto = r->from;
	r->upto_line = r->from_line;
	if ((fp = fopen(path, "r")) == NULL) {
		snprintf(cause, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (r->from > 0) {
		if (fseeko(fp, r->from, SEEK_SET) == -1) {
			snprintf(cause, len, "%s: %s", path, strerror(errno));
			fclose(fp);
			return -1;
		}
		good = pos = r->from;
		lineno = r->from_line;
		first = 0;	/* the header was read before */
	}
	/* read in big blocks, not stdio's 4 KB a read(2) (glibc sizes no
	 * buffer it is not given) */
	iobuf = xmalloc(JREAD_BUF);
	if (setvbuf(fp, iobuf, _IOFBF, JREAD_BUF) != 0) {
		snprintf(cause, len, "%s: cannot buffer", path);
		fclose(fp);
		free(iobuf);
		return -1;
	}
	while ((n = getline(&line, &cap, fp)) != -1) {
		lineno++;
		pos += n;
		if (badline != 0 && r->warn != NULL)
			r->warn(r->arg, badline, bad);
		badline = 0;
		if (line[n - 1] != '\n') {
			/* no newline: the write was cut; torn */
			r->torn = 1;
			break;
		}
		j = NULL;
		canon = 0;
		if (scap < cap) {
			/* room for the strings of the longest line yet */
			strs = xreallocarray(strs, cap, 1);
			scap = cap;
		}
		if (n > JLINE_MAX)
			snprintf(je.text, sizeof je.text, "longer than %d bytes",
			    JLINE_MAX);
		else if (jgame_scan(line, (size_t)n - 1, &g, strs) == 0)
			canon = 1;	/* a game line, read without a tree */
		else
			j = json_loadb(line, (size_t)n, 0, &je);
		if (j == NULL && !canon) {
			badline = lineno;
			snprintf(bad, sizeof bad, "%s", je.text);
			continue;
		}
		if (!canon && first && json_object_get(j, "journal") != NULL) {
			if (r->header != NULL && r->header(r->arg, j, why,
			    sizeof why) == -1) {
				snprintf(cause, len, "%s: %s", path, why);
				json_decref(j);
				goto out;
			}
		} else if (!canon && jgame_parse(j, &g, why, sizeof why) == -1) {
			badline = lineno;
			snprintf(bad, sizeof bad, "%s", why);
		} else {
			r->lines++;
			if (r->game != NULL && r->game(r->arg, &g, why,
			    sizeof why) == -1) {
				snprintf(cause, len, "%s:%ld: %s", path,
				    lineno, why);
				json_decref(j);
				goto out;
			}
		}
		first = 0;
		json_decref(j);
		if (badline == 0) {
			good = pos;
			r->upto = pos;
			r->upto_line = lineno;
		}
	}
	if (ferror(fp)) {
		snprintf(cause, len, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (badline != 0)
		r->torn = 1;	/* a damaged last line: torn too */
	if (r->torn && r->repair && truncate(path, good) == -1) {
		snprintf(cause, len, "%s: cannot cut the torn last line: %s",
		    path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(line);
	free(strs);
	fclose(fp);
	free(iobuf);
	return rc;
}

/* Makes a new journal's directory entry durable; see journal.h. */
int
journal_sync_dir(const char *path, char *cause, size_t len)
{
	char *copy;
	int fd, rc;

	copy = xstrdup(path);
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd == -1 || fsync(fd) == -1) {
		snprintf(cause, len, "journal: its directory's fsync: %s",
		    strerror(errno));
		rc = -1;
	} else
		rc = 0;
	if (fd != -1)
		close(fd);
	return rc;
}

/* Opens a journal for appending; see journal.h. */
int
journal_open(const char *path, int *created, char *cause, size_t len)
{
	int fd;

	*created = 0;
	/* it holds every game's seed: no other user reads it */
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600);
	if (fd != -1) {
		*created = 1;
		return fd;
	}
	if (errno == EEXIST)
		fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd == -1)
		snprintf(cause, len, "%s: %s", path, strerror(errno));
	return fd;
}

/* Makes every line written so far durable; see journal.h. */
int
journal_sync(int fd, char *cause, size_t len)
{
	if (fsync(fd) == -1) {
		snprintf(cause, len, "journal: fsync: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* One commit of the journal (and its new directory); -1 and a cause. */
static int
jsync_once(int fd, const char *path, int dir, char *cause, size_t len)
{
	if (journal_sync(fd, cause, len) == -1)
		return -1;
	return dir ? journal_sync_dir(path, cause, len) : 0;
}

/* The committing thread: a commit each time it is kicked. */
static void *
jsync_main(void *arg)
{
	struct jsync *js = arg;
	char cause[sizeof js->cause];
	int dir, rc;

	pthread_mutex_lock(&js->mu);
	for (;;) {
		while (!js->want && !js->quit)
			pthread_cond_wait(&js->cv, &js->mu);
		if (!js->want)
			break;
		js->want = 0;
		dir = js->dir;
		pthread_mutex_unlock(&js->mu);
		rc = jsync_once(js->fd, js->path, dir, cause, sizeof cause);
		pthread_mutex_lock(&js->mu);
		if (rc == 0 && dir)
			js->dir = 0;
		if (rc == -1 && js->cause[0] == '\0')
			strlcpy(js->cause, cause, sizeof js->cause);
		js->busy = 0;
		pthread_cond_broadcast(&js->cv);
	}
	pthread_mutex_unlock(&js->mu);
	return NULL;
}

/* Starts the commits, by a thread if one starts; see journal.h. */
void
jsync_start(struct jsync *js, int fd, const char *path, int dir)
{
	sigset_t all, old;

	memset(js, 0, sizeof *js);
	js->fd = fd;
	js->path = xstrdup(path);
	js->dir = dir;
	pthread_mutex_init(&js->mu, NULL);
	pthread_cond_init(&js->cv, NULL);
	/* signals are the caller's thread's to take */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	js->thread = pthread_create(&js->th, NULL, jsync_main, js) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Starts a commit unless one runs; see journal.h. */
int
jsync_kick(struct jsync *js)
{
	char cause[sizeof js->cause];

	if (!js->thread) {
		if (jsync_once(js->fd, js->path, js->dir, cause,
		    sizeof cause) == -1) {
			if (js->cause[0] == '\0')
				strlcpy(js->cause, cause, sizeof js->cause);
		} else
			js->dir = 0;
		return 1;
	}
	pthread_mutex_lock(&js->mu);
	if (js->busy) {
		pthread_mutex_unlock(&js->mu);
		return 0;
	}
	js->busy = js->want = 1;
	pthread_cond_broadcast(&js->cv);
	pthread_mutex_unlock(&js->mu);
	return 1;
}

/* Whether a commit failed; see journal.h. */
int
jsync_failed(struct jsync *js, char *cause, size_t len)
{
	int rc = 0;

	if (js->thread)
		pthread_mutex_lock(&js->mu);
	if (js->cause[0] != '\0') {
		strlcpy(cause, js->cause, len);
		rc = -1;
	}
	if (js->thread)
		pthread_mutex_unlock(&js->mu);
	return rc;
}

/* Commits every line here and now; see journal.h. */
int
jsync_flush(struct jsync *js, char *cause, size_t len)
{
	if (js->thread) {
		pthread_mutex_lock(&js->mu);
		while (js->busy)
			pthread_cond_wait(&js->cv, &js->mu);
		pthread_mutex_unlock(&js->mu);
	}
	if (jsync_failed(js, cause, len) == -1)
		return -1;
	if (jsync_once(js->fd, js->path, js->dir, cause, len) == -1)
		return -1;
	js->dir = 0;
	return 0;
}

/* Ends the committing thread; see journal.h. */
void
jsync_stop(struct jsync *js)
{
	if (js->thread) {
		pthread_mutex_lock(&js->mu);
		js->quit = 1;
		pthread_cond_broadcast(&js->cv);
		pthread_mutex_unlock(&js->mu);
		pthread_join(js->th, NULL);
		pthread_mutex_destroy(&js->mu);
		pthread_cond_destroy(&js->cv);
		js->thread = 0;
	}
	free(js->path);
	js->path = NULL;
}

/* Appends one line in a single write, not synced; see tournament.h. */
int
journal_write(int fd, const json_t *j, char *cause, size_t len)
{
	char *s;

	if ((s = json_dumps(j, JSON_COMPACT)) == NULL) {
		snprintf(cause, len, "cannot encode a journal line");
		return -1;
	}
	return put_line(fd, s, strlen(s), cause, len);
}

/* Appends a game's line in a single write, not synced; see journal.h. */
int
jgame_write(int fd, const struct jgame *g, const json_t *seed, char *cause,
    size_t len)
{
	char *s;
	size_t n;

	if ((s = jgame_text(g, seed, &n)) == NULL) {
		snprintf(cause, len, "cannot encode a journal line");
		return -1;
	}
	return put_line(fd, s, n, cause, len);
}

/* Writes the n bytes of s (from malloc) and a newline at once; frees s. */
static int
put_line(int fd, char *s, size_t n, char *cause, size_t len)
{
	size_t off = 0;
	ssize_t w;

	s = xreallocarray(s, n + 2, 1);
	s[n++] = '\n';
	s[n] = '\0';
	while (off < n) {
		if ((w = write(fd, s + off, n - off)) == -1) {
			if (errno == EINTR)
				continue;
			snprintf(cause, len, "journal: %s", strerror(errno));
			free(s);
			return -1;
		}
		off += (size_t)w;
	}
	free(s);
	return 0;
}

/* Starts an empty done set of ntables tables of gpt games. */
void
doneset_init(struct doneset *d, long ntables, long gpt)
{
	d->ntables = ntables;
	d->gpt = gpt;
	d->next = xcalloc((size_t)ntables, sizeof *d->next);
	d->extra = xcalloc((size_t)ntables, sizeof *d->extra);
}

/* Returns where game is, or would go, in e's sorted games. */
static int
extra_find(const struct doneextra *e, long game)
{
	int lo = 0, hi = e->n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (e->v[mid] < game)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Marks a game done: 0 if new, 1 if it already was, -1 if out of range. */
int
doneset_add(struct doneset *d, long table, long game)
{
	struct doneextra *e;
	int lo;

	if (table < 0 || table >= d->ntables || game < 0 || game >= d->gpt)
		return -1;
	if (game < d->next[table])
		return 1;
	e = &d->extra[table];
	if (game == d->next[table]) {
		d->next[table]++;
		/* absorb the stragglers that now continue the prefix */
		lo = 0;
		while (lo < e->n && e->v[lo] == d->next[table]) {
			d->next[table]++;
			lo++;
		}
		if (lo > 0) {
			memmove(e->v, e->v + lo, (size_t)(e->n - lo) *
			    sizeof *e->v);
			e->n -= lo;
		}
		return 0;
	}
	lo = extra_find(e, game);
	if (lo < e->n && e->v[lo] == game)
		return 1;
	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 8;
		e->v = xreallocarray(e->v, (size_t)e->cap, sizeof *e->v);
	}
	memmove(e->v + lo + 1, e->v + lo, (size_t)(e->n - lo) * sizeof *e->v);
	e->v[lo] = game;
	e->n++;
	return 0;
}

/* Returns 1 if the game is done. */
int
doneset_has(const struct doneset *d, long table, long game)
{
	const struct doneextra *e;
	int lo;

	if (table < 0 || table >= d->ntables)
		return 0;
	if (game < d->next[table])
		return 1;
	e = &d->extra[table];
	lo = extra_find(e, game);
	return lo < e->n && e->v[lo] == game;
}

/* Frees a done set. */
void
doneset_free(struct doneset *d)
{
	long t;

	for (t = 0; t < d->ntables; t++)
		free(d->extra[t].v);
	free(d->extra);
	free(d->next);
	d->extra = NULL;
	d->next = NULL;
}
