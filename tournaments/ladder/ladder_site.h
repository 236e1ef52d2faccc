/*
 * The ladder's static site (ladder_site.c): the standings, the tables in
 * play, the ratings over time and a page per bot, published at once
 * under DIR/site after every refit.
 */
#ifndef CARDARENA_LADDER_SITE_H
#define CARDARENA_LADDER_SITE_H

#include <stddef.h>

struct lrating;
struct lstore;

/*
 * Writes the site for the fitted rating into DIR/site atomically (a new
 * directory, then a symlink renamed over the old); live 1 as a running
 * ladder shows it (its tables in play), 0 at rest, -1 as the run lock
 * says; -1 and a cause.
 */
int	 ladder_site(struct lstore *, const struct lrating *, int, char *,
	    size_t);

#endif
