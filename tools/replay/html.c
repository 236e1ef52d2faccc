/*
 * The HTML viewer of bin/replay: one self-contained page per match (no
 * network, no external files).  The page itself (markup, style, script) is
 * tools/replay/viewer.html, embedded into the program at build time; this
 * file only puts the replay document into it, as JSON with every "<"
 * written \u003c, so that nothing in it ("</script>", "<!--") can end or
 * change the script element it sits in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

/*
 * The page, embedded by the assembler (.incbin resolves the path from the
 * directory make runs in, the top of the tree), NUL-terminated.
 */
__asm__(
	"	.section .rodata\n"
	"	.global cardarena_viewer_page\n"
	"	.type cardarena_viewer_page, @object\n"
	"cardarena_viewer_page:\n"
	"	.incbin \"tools/replay/viewer.html\"\n"
	"	.byte 0\n"
	"	.size cardarena_viewer_page, . - cardarena_viewer_page\n"
	"	.previous\n");
extern const char cardarena_viewer_page[];

#define DATA_MARK	"/*@REPLAY_DATA@*/"

static int	 put_data(FILE *, const char *);
static json_t	*fault_doc(const json_t *);
static json_t	*u64_json(uint64_t);
static json_t	*messages_doc(const struct replay *);
static void	 view_delta(json_t *, const json_t *, const json_t *);

/* Writes JSON text with every '<' escaped; -1 on a write error. */
static int
put_data(FILE *fp, const char *s)
{
	size_t n;

	while (*s != '\0') {
		n = strcspn(s, "<");
		if (fwrite(s, 1, n, fp) != n)
			return -1;
		s += n;
		if (*s == '<') {
			if (fputs("\\u003c", fp) == EOF)
				return -1;
			s++;
		}
	}
	return 0;
}

/* Writes the page with doc in it to fp; -1 and a cause on failure. */
int
html_write(FILE *fp, const json_t *doc, char *cause, size_t len)
{
	const char *page = cardarena_viewer_page, *mark;
	char *data;
	int rc;

	if ((mark = strstr(page, DATA_MARK)) == NULL) {
		snprintf(cause, len, "the embedded viewer page has no data "
		    "mark");
		return -1;
	}
	data = json_dumps(doc, JSON_COMPACT | JSON_ENSURE_ASCII);
	if (data == NULL) {
		snprintf(cause, len, "cannot encode the replay document");
		return -1;
	}
	rc = fwrite(page, 1, (size_t)(mark - page), fp) ==
	    (size_t)(mark - page) && put_data(fp, data) == 0 &&
	    fputs(mark + strlen(DATA_MARK), fp) != EOF ? 0 : -1;
	free(data);
	if (rc == -1)
		snprintf(cause, len, "write error");
	return rc;
}

/* A fault line of the log as the viewer shows it. */
static json_t *
fault_doc(const json_t *x)
{
	return json_pack("{s:O,s:O,s:O,s:O,s:O}", "seat", json_object_get(x,
	    "seat"), "bot", json_object_get(x, "bot"), "kind",
	    json_object_get(x, "fault"), "message", json_object_get(x,
	    "detail"), "id", json_object_get(x, "id"));
}

/* The numbers JavaScript cannot hold exactly (seeds) go as strings. */
static json_t *
u64_json(uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
	return json_string(buf);
}

/*
 * The messages each bot received, with the frame they were sent in and
 * the bot's answer to each request: [bot][{"line","rec","frame","answer"}].
 */
static json_t *
messages_doc(const struct replay *rp)
{
	const struct rlog *l = rp->log;
	json_t *all, *m, *last[MAX_PLAYERS], *aj;
	const char *line;
	size_t i, k = 0;
	int b;

	all = json_array();
	for (b = 0; b < rp->players; b++) {
		json_array_append_new(all, json_array());
		last[b] = NULL;
	}
	for (i = 1; i < l->n; i++) {
		b = l->r[i].bot;
		if (b < 0 || b >= rp->players)
			continue;
		while (k + 1 < rp->nf && i >= replay_seen_end(rp, k))
			k++;
		if (strcmp(l->r[i].type, "send") == 0) {
			m = json_pack("{s:O,s:I,s:I}", "line", json_object_get(
			    l->r[i].j, "msg"), "rec", (json_int_t)i, "frame",
			    (json_int_t)k);
			json_array_append_new(json_array_get(all, (size_t)b), m);
			last[b] = strcmp(rlog_msg_type(&l->r[i]), "request") ==
			    0 ? m : NULL;
		} else if (strcmp(l->r[i].type, "recv") == 0 &&
		    last[b] != NULL) {
			line = json_string_value(json_object_get(l->r[i].j,
			    "line"));
			if (line == NULL)
				continue;
			if ((aj = json_loads(line, 0, NULL)) == NULL ||
			    !json_is_object(aj)) {
				json_decref(aj);
				aj = json_pack("{s:s}", "raw", line);
			} else if (!json_equal(json_object_get(aj, "id"),
			    json_object_get(json_object_get(last[b], "line"),
			    "id"))) {
				json_decref(aj);
				continue;
			}
			json_object_set_new(last[b], "answer", aj);
			last[b] = NULL;
		}
	}
	return all;
}

/*
 * Puts into frame fj the all-seeing view cur as its change from prev: the
 * top-level keys that differ ("delta") and those gone ("removed"); the page
 * rebuilds the whole view (most of a view stays the same from step to step).
 */
static void
view_delta(json_t *fj, const json_t *prev, const json_t *cur)
{
	json_t *delta, *removed, *x;
	const char *k;

	if (!json_is_object(prev) || !json_is_object(cur)) {
		json_object_set(fj, "all", (json_t *)cur);
		return;
	}
	delta = json_object();
	removed = json_array();
	json_object_foreach((json_t *)cur, k, x)
		if (!json_equal(x, json_object_get(prev, k)))
			json_object_set(delta, k, x);
	json_object_foreach((json_t *)prev, k, x)
		if (json_object_get(cur, k) == NULL)
			json_array_append_new(removed, json_string(k));
	json_object_set_new(fj, "delta", delta);
	if (json_array_size(removed) > 0)
		json_object_set_new(fj, "removed", removed);
	else
		json_decref(removed);
}

json_t *
html_document(const struct replay *rp)
{
	const json_t *h = rp->log->header, *x, *e;
	json_t *doc, *gms, *frames, *fj, *seen, *bots, *msgs, *faults;
	size_t k, i, at[MAX_PLAYERS], n;
	int s, b;
	char warn[1400];

	bots = json_array();
	json_array_foreach(json_object_get(h, "bots"), i, x)
		json_array_append_new(bots, json_pack("{s:O,s:O}", "name",
		    json_object_get(x, "name"), "command", json_object_get(x,
		    "command")));
	gms = json_array();
	for (k = 0; k < rp->ngames; k++) {
		e = rp->games[k].end;
		fj = json_pack("{s:I,s:i,s:o,s:[]}", "index", (json_int_t)k,
		    "game", rp->games[k].gi, "seed", u64_json(rp->games[k].seed),
		    "seats");
		for (s = 0; s < rp->players; s++)
			json_array_append_new(json_object_get(fj, "seats"),
			    json_integer(rp->games[k].seats[s]));
		json_object_set_new(fj, "result", e == NULL ? json_null() :
		    json_pack("{s:O,s:O,s:O}", "places", json_object_get(e,
		    "places"), "scores", json_object_get(e, "scores"), "capped",
		    json_object_get(e, "capped")));
		json_array_append_new(gms, fj);
	}
	msgs = messages_doc(rp);
	frames = json_array();
	memset(at, 0, sizeof at);
	for (k = 0; k < rp->nf; k++) {
		const struct frame *f = &rp->f[k];

		seen = json_array();
		for (s = 0; s < rp->players; s++) {
			b = rp->games[f->game].seats[s];
			n = json_array_size(json_array_get(msgs, (size_t)b));
			while (at[b] < n && json_integer_value(json_object_get(
			    json_array_get(json_array_get(msgs, (size_t)b),
			    at[b]), "rec")) < (json_int_t)replay_seen_end(rp, k))
				at[b]++;
			json_array_append_new(seen, json_integer(
			    (json_int_t)at[b] - 1));
		}
		faults = json_array();
		json_array_foreach(f->faults, i, x)
			json_array_append_new(faults, fault_doc(x));
		fj = json_pack("{s:i,s:I,s:I,s:s,s:O,s:O,s:o,s:o,s:O}",
		    "g", f->game, "k", (json_int_t)k, "step", (json_int_t)f->step,
		    "label", f->label ? f->label : "", "events", f->events,
		    "debug", f->debug, "seen", seen, "faults", faults, "action",
		    f->action ? f->action : json_null());
		if (k > 0 && rp->f[k - 1].game == f->game)
			view_delta(fj, rp->f[k - 1].all, f->all);
		else
			json_object_set(fj, "all", f->all);
		if (f->seat >= 0) {
			json_object_set_new(fj, "actor", json_integer(f->seat));
			json_object_set_new(fj, "source", json_string(f->source));
		}
		json_array_append_new(frames, fj);
	}
	doc = json_pack("{s:s,s:s,s:s,s:i,s:o,s:O,s:o,s:o,s:o,s:o}", "format",
	    "cardarena-replay/1", "game", rp->g->name, "title", rp->g->title,
	    "players", rp->players, "seed", u64_json(rp->seed), "options",
	    json_object_get(h, "options"), "bots", bots, "games", gms,
	    "frames", frames, "msgs", msgs);
	warn[0] = '\0';
	if (rp->log->torn)
		snprintf(warn, sizeof warn, "%s", rp->log->torn_why);
	if (rp->diverged)
		snprintf(warn + strlen(warn), sizeof warn - strlen(warn),
		    "%sthe log does not verify: %s", warn[0] ? "; " : "",
		    rp->why);
	else if (rp->stopped[0] != '\0')
		snprintf(warn + strlen(warn), sizeof warn - strlen(warn),
		    "%sthe match was stopped before its end (%s)",
		    warn[0] ? "; " : "", rp->stopped);
	if (warn[0] != '\0')
		json_object_set_new(doc, "warning", json_string(warn));
	return doc;
}
