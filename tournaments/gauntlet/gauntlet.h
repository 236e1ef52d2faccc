/*
 * The gauntlet (gauntlet.c): one candidate against a pool of bots, tables
 * of duplicate deals played until the SPRT (sprt.h) decides.
 */
#ifndef CARDARENA_GAUNTLET_GAUNTLET_H
#define CARDARENA_GAUNTLET_GAUNTLET_H

/* `tournament gauntlet ARGS` (argv[0] "gauntlet"); the exit status. */
int	 cmd_gauntlet(int, char **);

#endif
