/*
 * The lines a match writes, each composed from the facts it records: its
 * log's (protocol.md, "The match log") and its --results lines; see
 * matchlog.h.  The log's header and result go through jansson; its other
 * lines (an action and a fault are on the hot path) are composed as text.
 */
#include <string.h>

#include "matchlog.h"
#include "messages.h"

static const char *const source_names[] = { "none", "bot", "fault",
    "autoplay" };

static struct buf *begin_game_line(struct mlog *, const char *,
		    int64_t, int);

/* Starts a line of type at time t about game gi; returns its buffer. */
static struct buf *
begin_game_line(struct mlog *log, const char *type, int64_t t, int gi)
{
	struct buf *l;

	l = mlog_begin(log, type);
	buf_kint(l, ",\"t\":", t);
	buf_kint(l, ",\"game\":", gi);
	return l;
}

json_t *
mlog_header_json(const struct match_config *cf, const char *nonce,
    const json_t *o, const struct mbot *mb, int n)
{
	const struct mbot *b;
	json_t *j, *a, *bots;
	int i, k;

	bots = json_array();
	for (i = 0; i < n; i++) {
		b = &mb[i];
		a = json_array();
		for (k = 0; b->argv[k] != NULL; k++)
			json_array_append_new(a, json_string(b->argv[k]));
		json_array_append_new(bots, json_pack("{s:s,s:s,s:o}", "name",
		    b->name, "command", b->command, "argv", a));
	}
	j = json_pack("{s:s,s:s,s:i,s:i,s:s,s:O,s:I,s:i,s:b,s:o,s:O?,s:s,"
	    "s:I,s:I,s:I,s:o}", "type", "header", "cardarena",
	    CARDARENA_VERSION, "protocol", PROTOCOL_VERSION, "log_format",
	    LOG_FORMAT_VERSION, "game", cf->game->name, "options", o, "seed",
	    (json_int_t)cf->seed, "games", cf->games, "duplicate",
	    cf->duplicate, "game_list", json_null(), "setup",
	    cf->setup_json, "on_fault", policy_names[cf->policy],
	    "time_per_move_ms", (json_int_t)cf->time_per_move_ms,
	    "time_bank_ms", (json_int_t)cf->time_bank_ms, "time_hello_ms",
	    (json_int_t)cf->time_hello_ms, "bots", bots);
	json_object_set_new(j, "max_faults", json_integer(cf->max_faults));
	json_object_set_new(j, "nonce", json_string(nonce));
	json_object_set_new(j, "max_output", json_integer((json_int_t)
	    cf->max_output));
	/* Which options the user set: a replay must resolve them alike. */
	a = json_array();
	for (i = 0; cf->game->options[i].name != NULL; i++)
		if (cf->opts.given[i])
			json_array_append_new(a,
			    json_string(cf->game->options[i].name));
	json_object_set_new(j, "options_given", a);
	json_object_set_new(j, "replay", json_boolean(!cf->no_replay));
	if (cf->book_json != NULL)
		json_object_set(j, "deal_book", (json_t *)cf->book_json);
	if (cf->first_game > 0)
		json_object_set_new(j, "first_game",
		    json_integer(cf->first_game));
	json_object_set_new(j, "max_decisions", cf->max_decisions > 0 ?
	    json_integer(cf->max_decisions) : json_null());
	json_object_set_new(j, "log_level", json_string(cf->log_lean ?
	    "lean" : "full"));
	json_object_set_new(j, "log_max", cf->log_max > 0 ?
	    json_integer(cf->log_max) : json_null());
	if (cf->game_list != NULL) {
		a = json_array();
		for (i = 0; i < cf->ngame_list; i++)
			json_array_append_new(a,
			    json_integer(cf->game_list[i]));
		json_object_set_new(j, "game_list", a);
	}
	return j;
}

void
mlog_game_start(struct mlog *log, int64_t t, int gi, uint64_t seed,
    const int *seat_bot, int n, int reported, const struct game *g,
    const void *st)
{
	struct buf *l;
	int s;

	if (!mlog_on(log))
		return;
	l = begin_game_line(log, "game_start", t, gi);
	buf_kint(l, ",\"seed\":", (long long)seed);
	buf_str(l, ",\"seats\":[");
	for (s = 0; s < n; s++) {
		if (s)
			buf_add(l, ",", 1);
		buf_int(l, seat_bot[s]);
	}
	buf_str(l, "]");
	if (!reported)
		buf_str(l, ",\"replayed\":true");
	buf_str(l, ",\"deal\":");
	msg_view(l, g, st, SEAT_ALL);
	mlog_end(log);
}

void
mlog_action(struct mlog *log, int gi, long step, int seat,
    const struct mbot *b, enum policy policy, const struct game *g,
    const void *st, struct action a)
{
	struct buf *l;

	if (!mlog_on(log))
		return;
	l = mlog_begin(log, "action");
	buf_kint(l, ",\"game\":", gi);
	buf_kint(l, ",\"step\":", step);
	buf_kint(l, ",\"seat\":", seat);
	buf_kint(l, ",\"bot\":", b->index);
	buf_str(l, ",\"source\":\"");
	buf_str(l, source_names[b->source]);
	if (b->source != SRC_BOT) {
		buf_str(l, "\",\"policy\":\"");
		buf_str(l, policy_names[policy]);
	}
	buf_str(l, "\",\"action\":");
	msg_action(l, g, st, seat, a);
	mlog_end(log);
}

void
mlog_fault(struct mlog *log, int64_t t, int gi, const struct mbot *b,
    enum fault kind, int64_t id, const char *detail)
{
	struct buf *l;

	if (!mlog_on(log))
		return;
	l = begin_game_line(log, "fault", t, gi);
	buf_kint(l, ",\"bot\":", b->index);
	buf_kint(l, ",\"seat\":", b->seat);
	buf_str(l, ",\"fault\":\"");
	buf_str(l, fault_names[kind]);
	buf_str(l, "\",\"id\":");
	if (id >= 0)
		buf_int(l, id);
	else
		buf_str(l, "null");
	buf_str(l, ",\"detail\":");
	buf_jstr(l, detail, strlen(detail));
	mlog_end(log);
}

void
mlog_game_end(struct mlog *log, int64_t t, int gi, long steps,
    const struct outcome *oc, const struct mbot *bots, int n)
{
	struct buf *l;
	json_t *a;
	int s, i;

	if (!mlog_on(log))
		return;
	l = begin_game_line(log, "game_end", t, gi);
	buf_kint(l, ",\"steps\":", steps);
	buf_str(l, ",\"capped\":");
	buf_str(l, oc->capped ? "true" : "false");
	if (oc->cut)
		buf_str(l, ",\"max_decisions\":true");
	buf_str(l, ",\"places\":");
	buf_add(l, "[", 1);
	for (s = 0; s < n; s++) {
		if (s)
			buf_add(l, ",", 1);
		buf_int(l, oc->places[s]);
	}
	buf_str(l, "],\"scores\":");
	a = json_array();
	for (s = 0; s < n; s++)
		json_array_append_new(a, score_json(oc->scores[s]));
	buf_json(l, a);
	json_decref(a);
	buf_str(l, ",\"faults\":[");
	for (i = 0; i < n; i++) {
		if (i)
			buf_add(l, ",", 1);
		buf_int(l, bots[i].game.faults);
	}
	buf_str(l, "],\"final\":");
	buf_add(l, oc->fin.p, oc->fin.len);
	mlog_end(log);
}

void
mlog_ended(struct mlog *log, const char *type, int64_t t, const char *detail)
{
	struct buf *l;

	if (!mlog_on(log))
		return;
	l = mlog_begin(log, type);
	buf_kint(l, ",\"t\":", t);
	buf_str(l, ",\"detail\":");
	buf_jstr(l, detail, strlen(detail));
	mlog_end(log);
}

json_t *
match_result_json(const struct match_result *res)
{
	json_t *j, *names, *places, *scores, *faults, *kinds, *k;
	long total;
	int i, f;

	names = json_array();
	places = json_array();
	scores = json_array();
	faults = json_array();
	kinds = json_array();
	for (i = 0; i < res->nbots; i++) {
		json_array_append_new(names, json_string(res->names[i]));
		json_array_append_new(places, json_integer(res->places[i]));
		json_array_append_new(scores, score_json(res->scores[i]));
		k = json_object();
		for (f = 0, total = 0; f < NFAULT; f++) {
			json_object_set_new(k, fault_names[f],
			    json_integer(res->faults[i][f]));
			total += res->faults[i][f];
		}
		json_array_append_new(faults, json_integer(total));
		json_array_append_new(kinds, k);
	}
	j = json_pack("{s:s,s:i,s:o,s:o,s:o,s:o,s:o}", "type", "result",
	    "games", res->games_played, "names", names, "places", places,
	    "scores", scores, "faults", faults, "fault_kinds", kinds);
	return j;
}

void
mlog_result(struct mlog *log, int64_t t, const struct match_result *res)
{
	json_t *j;

	if (!mlog_on(log))
		return;
	j = match_result_json(res);
	json_object_set_new(j, "t", json_integer(t));
	json_object_set_new(j, "n", json_integer(log->lines++));
	buf_json(&log->b, j);
	buf_add(&log->b, "\n", 1);
	json_decref(j);
}

void
results_line(struct resline *r, int gi, uint64_t seed, const int *seat_bot,
    const struct outcome *oc, const struct mbot *bots, int n,
    const char *log_path)
{
	int s, i;

	memset(r, 0, sizeof *r);
	r->game = gi;
	r->seed = (int64_t)seed;
	r->n = n;
	for (s = 0; s < n; s++) {
		r->seats[s] = seat_bot[s];
		r->places[seat_bot[s]] = oc->places[s];
		r->scores[seat_bot[s]] = oc->scores[s];
	}
	for (i = 0; i < n; i++) {
		memcpy(r->kinds[i], bots[i].game.kinds, sizeof r->kinds[i]);
		r->hello[i] = bots[i].game.hello;
		memcpy(r->limits[i], bots[i].game.limits, sizeof r->limits[i]);
		r->retired[i] = bots[i].capped;
	}
	r->capped = oc->capped;
	if (log_path != NULL)
		strlcpy(r->log, log_path, sizeof r->log);
}
