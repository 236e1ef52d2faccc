/*
 * tournament ladder serve (ladder_serve.c): the ladder's published site
 * and the logs of its ended tables over HTTP, read-only, on 127.0.0.1.
 */
#ifndef CARDARENA_LADDER_SERVE_H
#define CARDARENA_LADDER_SERVE_H

#include <stddef.h>

#define LSERVE_IDLE	10	/* seconds an idle connection is kept */

struct lstore;

/*
 * Serves the ladder's published site (and the logs of tables ended)
 * read-only on 127.0.0.1:port until a signal, closing a connection idle
 * for idle seconds; -1 and a cause.
 */
int	 ladder_serve(struct lstore *, int port, int idle, char *, size_t);

#endif
