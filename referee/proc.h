/*
 * Bot processes: splitting a -b command into argv, spawning it without a
 * shell in its own process group with close-on-exec pipes, noticing its
 * exit without reaping it (so its group id stays reserved until the group
 * is killed), killing the whole group and reaping.
 *
 * Every spawned group is kept in a small registry until reaped, so that
 * proc_killall() (async-signal-safe) can kill them all from a signal
 * handler or an atexit hook: no bot or grandchild outlives the referee.
 */
#ifndef CARDARENA_PROC_H
#define CARDARENA_PROC_H

#include <sys/types.h>

#include <signal.h>

#include <stddef.h>

struct proc {
	pid_t	pid;		/* also the process group id */
	int	in;		/* write end of the bot's stdin (non-blocking) */
	int	out;		/* read end of the bot's stdout (non-blocking) */
	int	err;		/* read end of the bot's stderr (non-blocking) */
	int	pidfd;		/* readable once the bot exits; -1 if none */
	int	exited;		/* the leader has exited (not yet reaped) */
	int	code;		/* exit status, or the signal if signalled */
	int	signalled;
	int	reaped;
	uid_t	uid;		/* the bot's own uid, or (uid_t)-1 */
	int	relayed;	/* its end relayed by an init (contain.h) */
	long	cpu_ms;		/* CPU time used, once reaped */
	long	maxrss_kb;	/* peak resident size, once reaped */
	int	status;		/* proc_start to proc_started: the exec's news */
	int	ready;		/* ... and the sandbox's (contain_ready), -1 */
	int	go;		/* its shell's gate (contain_go), -1 */
	const char *argv0;	/* the command, for proc_started's cause */
	char *const *argv;	/* the caller's, to start it again */
	int	bot;		/* its index, or -1 */
};

/*
 * Splits a command line into a new NULL-terminated argv: blanks separate
 * words, '...' quotes literally, "..." quotes with \" and \\ escapes, and
 * a backslash outside quotes takes the next character literally.  No
 * expansion of any kind.  -1 and a cause on an empty command or an open
 * quote.
 */
int	 argv_split(const char *, char ***, char *, size_t);
/*
 * Returns a new copy of w quoted so that both sh(1) and argv_split read
 * it back as the one word w (a plain word is left as it is).
 */
char	*argv_quote(const char *);
/* Frees an argv from argv_split. */
void	 argv_free(char **);

/*
 * Starts argv[0] (searched in the bot's PATH) with fresh pipes as its
 * stdin, stdout and stderr, in a new process group, contained as
 * contain.h says; -1 and a cause if it cannot be executed (the child's
 * exec error is reported back, not guessed).
 */
int	 proc_spawn(struct proc *, char *const *, char *, size_t);
/*
 * proc_spawn in two halves, so that a table's bots are started at once:
 * proc_start forks (the child goes on to exec) and returns at once;
 * proc_started then waits for that exec's outcome (-1 and a cause if it
 * failed, the child reaped), and under the default sandbox not yet proven
 * to work here for the sandbox's set-up: where it cannot run, the bot is
 * started again outside it (contain_ready).  Every proc_start needs its
 * proc_started; argv must live until then.  bot is the bot's index in the match (its own
 * directories, contain.h), -1 for none (proc_spawn's).
 */
int	 proc_start(struct proc *, char *const *, int, char *, size_t);
int	 proc_started(struct proc *, char *, size_t);
/*
 * Returns 1 if cmd can be executed, searched in path (a colon list) as
 * execvp would (checked before a sandbox, whose exec of bwrap cannot
 * tell, and by a tournament before it starts).
 */
int	 proc_findable(const char *, const char *);
/* Returns 1 once the leader has exited (leaving it unreaped), else 0. */
int	 proc_exited(struct proc *);
/* Sends sig to the whole process group (a no-op once reaped). */
void	 proc_signal(struct proc *, int);
/*
 * Kills the whole group with SIGKILL, then reaps the leader with a
 * wait4(WNOHANG) loop, kills what the bot left elsewhere (contain_sweep),
 * and closes our pipe ends.
 */
void	 proc_reap(struct proc *);
/* Closes our end of the bot's stdin (its end of input). */
void	 proc_close_in(struct proc *);
/* Describes how the leader ended: "exited with status 3", "killed by...". */
void	 proc_describe(const struct proc *, char *, size_t);
/*
 * The tree's one spawner of helper programs (referees, replays): starts
 * argv[0] (searched in PATH) in a process group of its own that dies with
 * us, default signal dispositions, fds 0, 1, 2 from in, out, errfd (-1:
 * /dev/null, or our own stderr for errfd), nothing else open, and env
 * ("KEY=VALUE", or NULL) added to its environment.  Its pid, or -1 and
 * errno (a failed exec shows as exit status 127 with a message on its
 * stderr).
 */
pid_t	 proc_helper(char *const *argv, int in, int out, int errfd,
	    const char *env);
/* SIGKILLs every group not yet reaped; async-signal-safe. */
void	 proc_killall(void);
/*
 * Installs the handlers that keep bots from outliving the program: the stop
 * signals (SIGINT, SIGTERM, SIGHUP, and extra unless 0) store their number
 * in *flag, without SA_RESTART so poll(2) returns; a crash signal kills
 * every bot group, then dies of it; SIGPIPE is ignored; proc_killall runs
 * at exit.  Run in the foreground of a terminal, a bot that exits gives
 * the terminal back (if it took it, as bin/human does) and one killed by
 * SIGINT (a person's Ctrl-C at bin/human) stores SIGINT in *flag.  -1 if
 * atexit(3) refuses.
 */
int	 proc_guard(volatile sig_atomic_t *flag, int extra);
/*
 * Catches the signals that ask a program to stop (SIGINT, SIGTERM,
 * SIGHUP) with handler, without SA_RESTART: a wait they come in returns.
 */
void	 proc_catch(void (*handler)(int));

#endif
