/*
 * A tournament's HTML replays (replays.c): its match logs rendered by
 * bin/replay --html, found beside this program.
 */
#ifndef CARDARENA_BASE_REPLAYS_H
#define CARDARENA_BASE_REPLAYS_H

struct tour;
struct schedule;

/*
 * replays.c: renders with bin/replay --html (beside this program) every
 * match log in logdir that has no up-to-date page, naming the bots by
 * their tournament names; returns how many it rendered.
 */
int	 render_replays(const struct tour *, const struct schedule *,
	    const char *logdir);
/*
 * Renders match log log as LOG.html with bin/replay prog, the bots named
 * names (comma-separated, in the log's bot order); -1 if it failed.
 */
int	 render_one(const char *prog, const char *log, const char *names);
/* The replay step at which game of the match log path is dealt, or -1. */
long	 replay_game_step(const char *path, long game);

#endif
