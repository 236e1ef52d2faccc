/*
 * CPU leases and slow starters (cpulease.c): what decides whether a
 * referee and its bots may keep one CPU to themselves, for the runner's
 * slots (tournaments/pool/pin.c) and for a referee run alone (its --cpu
 * auto, the default).  A lease on a CPU is held machine-wide, so that two
 * tournaments, a ladder and lone referees never pin to the same CPU.
 */
#ifndef CARDARENA_CPULEASE_H
#define CARDARENA_CPULEASE_H

struct game;
struct opts;

/* --cpu auto, the referee's default (contain's cpu -1 is none). */
#define CPU_AUTO	(-2)

/* Games a bot's lifetime from which slow starters are pinned too. */
#define PIN_SLOW_GAMES	100

/*
 * A lease on CPU cpu, held by the descriptor returned (close-on-exec:
 * no referee or bot inherits it; closing it, or dying, gives it back), or
 * -1 if another process holds it.
 */
int	 cpu_lease(int cpu);
/*
 * 1 if the bot command (run in dir, or NULL) starts an interpreter known
 * to start slowly (Python, Node, Java ...), by its program word or its
 * script's #! line: pinned on a short run, its start-ups would queue on
 * one CPU for longer than the wake-ups save.
 */
int	 cpu_slow_start(const char *command, const char *dir);
/*
 * The CPU a lone referee of n bots (commands cmds, directories dirs, NULL
 * for none) playing life games a bot's life takes by default (the one it
 * runs on if free, else the first free), its lease in *fd, or -1 (with
 * *fd -1) where pinning could hurt: a process that may use one CPU only,
 * a game that asks its bots together (together: cpu_asks_together()), a
 * slow starter on fewer than PIN_SLOW_GAMES games, every CPU leased.
 */
int	 cpu_auto(int n, const char *const *cmds, const char *const *dirs,
	    long life, int together, int *fd);
/*
 * 1 if the game g under the options o (finished) asks most of its
 * decisions of several seats at once (horserace's bets): bots asked
 * together think at the same time, and on one CPU they would take turns
 * while the others stand idle.  Found by random playouts from fixed seeds
 * (500 decisions at least, under half a millisecond), as the referee
 * asks: a round asks every seat the game lets decide.
 */
int	 cpu_asks_together(const struct game *g, const struct opts *o);

#endif
