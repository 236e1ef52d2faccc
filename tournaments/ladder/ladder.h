/*
 * The ladder (tournament ladder ...): a competition that never stops.  Bots
 * enter, are updated and retire while tables are played one after another
 * on the pool; every game goes into one SQLite file per ladder (the store),
 * the ratings are refitted every few games with rate.c, and a static site
 * of standings is written after each refit.  The manual,
 * docs/man/cardarena-tournament-ladder.1, documents the store's schema.
 *
 * One header per part: ladder_store.h (the store), ladder_entry.h (a bot
 * entered, the inbox), ladder_pair.h (who sits at a table), ladder_rate.h
 * (the ratings, the export), ladder_site.h (the site), ladder_serve.h
 * (the site over HTTP), ladder_run.h (the ladder played, its replays);
 * this one the command line's (ladder.c): cmd_ladder, for tournament.c.
 */
#ifndef CARDARENA_LADDER_H
#define CARDARENA_LADDER_H

/* Runs `tournament ladder` with its arguments; the exit status. */
int	 cmd_ladder(int, char **);

#endif
