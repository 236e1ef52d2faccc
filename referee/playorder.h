/*
 * What each game of a match is dealt from, and the order a match plays
 * its games in (the bots' lifetimes); match.c plays by it, replay and
 * the tournament runner read it.
 */
#ifndef CARDARENA_PLAYORDER_H
#define CARDARENA_PLAYORDER_H

#include <stdint.h>

#include <jansson.h>

#include "game.h"

/*
 * The order a match plays its games in.  Bot processes live for one
 * "lifetime": the whole match, or with --duplicate one seat rotation (the
 * games g with the same g % P), so no process sees a deal twice.  The
 * lifetimes are played one after the other, each from its first game; with
 * a game list, each lifetime holding a listed game is played from its
 * first game up to its last listed one, and only the listed games are
 * reported (the others replay what the bots saw before them, so a game is
 * the same game whatever the list).  With a first game F (--first-game,
 * a runner's chunk of deals), the lifetimes begin at F: game F + l for
 * lifetime l, so a chunk resumed is replayed from its own start.
 * Without replaying (--no-replay, for a runner whose lists are what its
 * bots live for, as the tournament's deal runs), only the listed games are
 * played, each lifetime's in increasing order, with new processes at the
 * first of each.
 */
struct playorder {
	int		 games, players, duplicate;
	int		 first;			/* the lifetimes' start */
	int		 nlife;			/* lifetimes */
	int		 count[MAX_PLAYERS];	/* games played per lifetime */
	long		 total;			/* games played in all */
	unsigned char	*listed;		/* bitmap, or NULL: all */
	int		*seq;			/* no replay: the games */
};

/*
 * Makes the order of a match (list: the game list or NULL; replay: play
 * the games before a listed one in its lifetime; first: the lifetimes'
 * start, a multiple of the players with duplicate).
 */
void	 playorder_init(struct playorder *, int, int, int, const int *, int,
	    int, int);
/*
 * The game at position k (0 <= k < total); *reported is 1 if it is
 * reported, *fresh 1 if it starts its lifetime (its bots are new).
 */
int	 playorder_game(const struct playorder *, long, int *, int *);
/* Frees the order. */
void	 playorder_free(struct playorder *);

#define DEAL_BOOK_MAX	1000000		/* deals in a book */
#define DEAL_BOOK_LINE	(1024 * 1024)	/* bytes of a line of a book */

/*
 * Reads a deal book file: one set-up document (JSON) per line, blank
 * lines and lines from a # skipped; a new array, or NULL and a cause
 * naming the file and line (a line over DEAL_BOOK_LINE bytes or with a
 * NUL byte, or a deal past DEAL_BOOK_MAX, is refused as soon as read).
 */
json_t	*deal_book_read(const char *, char *, size_t);
/*
 * Reads a deal book, a JSON array of set-up documents, into a block of n
 * set-ups of game g (freed with free); NULL and a cause naming the deal
 * that is bad.
 */
void	*deal_book_parse(const struct game *, const struct opts *,
	    const json_t *, int *, char *, size_t);
/*
 * The set-up game gi of a match is dealt from: with a book of nbook
 * deals, its deal's (gi, or gi / players with duplicate) modulo nbook,
 * else setup (NULL: at random).
 */
const void *deal_setup(const struct game *, const void *setup,
	    const void *book, int nbook, int gi, int players, int duplicate);
/* The seed game g of a match is dealt from (63 bits; see protocol.md). */
uint64_t match_deal_seed(uint64_t, int, int, int);
/* The bot at seat of game g (duplicate rotates the seats). */
int	 match_seat_bot(int, int, int, int);

#endif
