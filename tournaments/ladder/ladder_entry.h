/*
 * Entering a bot into the ladder, from the command line or an inbox
 * (ladder_entry.c).
 */
#ifndef LADDER_ENTRY_H
#define LADDER_ENTRY_H

#include <stddef.h>

#include <jansson.h>

struct lstore;

/* A bot to enter: its name, command, directory, owner and environment. */
struct lentry {
	const char	*name;
	const char	*command;
	const char	*dir;		/* the author's, or NULL */
	int		 dirfd;		/* it, open (when dir is not NULL) */
	const char	*owner;
	json_t		*env;		/* an object of strings, or NULL */
};

/* Opens e's directory, if it has one, as e->dirfd; -1 and a cause. */
int	 lentry_open(struct lentry *, char *, size_t);
/*
 * Enters bot e (a new bot, or a new version of it when update): copies,
 * checks with botcheck and records it; its version, or -1 and a cause
 * (botcheck's whole report when it refused the bot).
 */
int	 ladder_enter(struct lstore *, const struct lentry *, int, char *,
	    size_t);

#define LINBOX_QUIET	1	/* no line for a bot entered */
#define LINBOX_SKIPS	2	/* a line for an entry skipped */
/*
 * Enters every new subdirectory of inbox holding a bot.json (add, or
 * update for a bot entered before), leaving ladder.txt in it saying what
 * happened (flags: LINBOX_*); the number entered, or -1 if inbox cannot
 * be read.  It follows no symbolic link under inbox.
 */
int	 ladder_inbox(struct lstore *, const char *inbox, int flags);

#endif
