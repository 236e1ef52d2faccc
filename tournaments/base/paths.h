/*
 * Where the tournament's programs and directories are (paths.c): a leaf
 * of tournaments/, calling nothing of the tournament's.
 */
#ifndef PATHS_H
#define PATHS_H

#include "mkdirs.h"	/* mkdirs(), which the tournament's users of this take */

/*
 * The program name installed beside this one (bin/NAME), else name alone,
 * to be found in PATH; caller frees.
 */
char	*beside_self(const char *name);
/*
 * The referee program: given (may be NULL), else $CARDARENA_REFEREE, else
 * the one beside this program, else "referee" from PATH; caller frees.
 */
char	*referee_path(const char *);
/*
 * As root, unless the referee arguments args (n) sandbox the bots or keep
 * them as the referee's user: warns once, naming remedy, if the bots cannot
 * be isolated (their referees say it only in their stderr files).
 */
void	 isolation_warn(char *const *, int, const char *);

#endif
