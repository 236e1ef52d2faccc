/*
 * tournament ladder synth (ladder_synth.h): a ladder's store filled with
 * synthetic bots and games, to measure the host (its fits, its site, its
 * memory) at sizes no machine would play in a day.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "alloc.h"
#include "base/journal.h"
#include "base/tfile.h"
#include "ladder/ladder_store.h"
#include "ladder/ladder_synth.h"
#include "rng.h"

int
ladder_synth(struct lstore *s, const char *dir, long nbots, long ngames,
    uint64_t seed, int append, const char *cmd, char *cause, size_t len)
{
	struct lversion *v = NULL;
	struct tour t;
	struct rng g;
	struct jgame jg;
	json_t *line;
	char name[64];
	double *str = NULL, key[MAX_PLAYERS];
	long gi, table = 0, vers[MAX_PLAYERS], gpt;
	uint64_t tseed;
	char *tlog;
	int n = 0, i, k, a, b, rc, ret = -1, seat[MAX_PLAYERS], at[MAX_PLAYERS];
	long lim;
	int width;

	if ((lstore_scalar(s, "SELECT count(*) FROM versions") > 0) !=
	    append) {
		snprintf(cause, len, append ? "%s: no bots to append games "
		    "between (synth makes them first)" : "%s: synth fills a "
		    "new ladder only (--append adds games to one)", dir);
		return -1;
	}
	if (ladder_tour(s, NULL, 0, &t, cause, len) == -1)
		return -1;
	k = t.seats;
	if (!append && nbots < k) {
		snprintf(cause, len, "%s: --bots %ld: a table of %d seats needs "
		    "as many bots", dir, nbots, k);
		goto fail;
	}
	gpt = tour_games_per_table(&t);
	/* synth0000 ..., as many digits as the last needs */
	for (width = 4, lim = 10000; lim < nbots; width++, lim *= 10)
		;
	for (i = 0; i < nbots && !append; i++) {
		snprintf(name, sizeof name, "synth%0*d", width < 10 ? width :
		    10, i);
		if (lstore_add_version(s, name, NULL, cmd != NULL ? cmd :
		    "true", NULL, NULL, cause, len) == -1)
			goto fail;
	}
	if (lstore_versions(s, &v, &n, cause, len) == -1)
		goto fail;
	if (n < k) {
		snprintf(cause, len, "%s: a table of %d seats needs as many "
		    "bots", dir, k);
		goto fail;
	}
	rng_seed(&g, seed);
	str = xcalloc((size_t)n, sizeof *str);
	for (i = 0; i < n; i++)
		str[i] = 800.0 * (double)(rng_next(&g) >> 11) * 0x1p-53;
	/* appended games: other tables than the first synth's, the same
	 * strengths */
	if (append)
		rng_seed(&g, seed_derive(seed, (uint64_t)lstore_scalar(s,
		    "SELECT count(*) FROM games")));
	/* a new store: many games a transaction, their pages held (the
	 * default cache spills a transaction's pages to the log as it
	 * goes), each game's savepoint journal in memory (in a file, it
	 * wrote 36 KB a game: 365 GB for 10,000,000 games); appended: each
	 * game its own, as the run commits it */
	if (!append && lstore_exec(s, "PRAGMA cache_size = -2097152; PRAGMA temp_store = MEMORY; BEGIN",
	    cause, len) == -1)
		goto fail;
	for (gi = 0; gi < ngames; gi++) {
		if (gi % gpt == 0) {
			for (a = 0; a < k; a++) {
again:
				at[a] = (int)(rng_next(&g) % (uint64_t)n);
				for (b = 0; b < a; b++)
					if (at[b] == at[a])
						goto again;
			}
			for (a = 0; a < k; a++)
				vers[a] = v[at[a]].id;
			if ((table = lstore_table(s, k, vers, 0, gpt, seed, 0,
			    &tseed, &tlog, cause, len)) == -1)
				goto fail;
		}
		memset(&jg, 0, sizeof jg);
		jg.table = table;
		jg.game = gi % gpt;
		jg.deal = t.duplicate ? jg.game / k : jg.game;
		jg.k = k;
		for (a = 0; a < k; a++) {
			i = at[a];
			jg.bots[a] = v[i].player;
			/* a Gumbel key per seat: places by strength */
			key[a] = str[i] / 173.7 - log(-log(((double)(
			    rng_next(&g) >> 11) + 0.5) * 0x1p-53));
		}
		for (a = 0; a < k; a++) {
			seat[a] = 1;
			for (b = 0; b < k; b++)
				if (key[b] > key[a])
					seat[a]++;
			jg.places[a] = seat[a];
			jg.scores[a] = k - seat[a];
		}
		line = jgame_json(&jg, NULL);
		rc = lstore_game(s, &jg, vers, line, cause, len);
		json_decref(line);
		if (rc == -1)
			goto fail;
		/* played out: a run of the ladder finds no table to
		 * abandon */
		if ((gi % gpt == gpt - 1 || gi == ngames - 1) &&
		    lstore_table_end(s, table, cause, len) == -1)
			goto fail;
		if (!append && gi % 100000 == 99999 && (lstore_exec(s,
		    "COMMIT; BEGIN", cause, len) == -1))
			goto fail;
	}
	if (!append && lstore_exec(s, "COMMIT", cause, len) == -1)
		goto fail;
	ret = 0;
fail:
	free(str);
	if (v != NULL)
		lversions_free(v, n);
	tour_free(&t);
	return ret;
}
