/*
 * Containing untrusted bots (SECURITY.md): the resource limits every bot
 * runs under, its scrubbed environment, a separate user id per bot when
 * the referee runs as root, the bubblewrap sandbox (by default where it
 * works), each bot's view of the files (its own directories, never
 * another bot's), a seccomp filter (seccomp.h), and the sweep that kills
 * what a stopped bot left behind (sweep.h; the referee is a child
 * subreaper, so a grandchild that left the bot's process group is still
 * found).  proc.c applies this to every process it spawns; the
 * configuration is process-wide, set once by the program's main.
 */
#ifndef CARDARENA_CONTAIN_H
#define CARDARENA_CONTAIN_H

#include <sys/types.h>

#include <stddef.h>

#include "sweep.h"		/* struct usage */

enum bot_user {
	BOT_USER_AUTO,		/* a uid per bot when root, else our own */
	BOT_USER_SAME		/* always the referee's own uid */
};

/*
 * A directory of one bot's own: shown to it under the sandbox, hidden from
 * the other bots of the match, sandboxed or isolated (SECURITY.md).
 */
struct own_dir {
	char	*path;		/* resolved (realpath) */
	int	 bot;		/* the bot's index: its -b, from 0 */
	int	 given;		/* --bot-dir; else its command names it */
};

struct contain {
	long		 cpu_s;		/* RLIMIT_CPU seconds; 0: none */
	long		 mem_mb;	/* RLIMIT_AS MiB; 0: none */
	long		 nproc;		/* processes and threads; 0: none */
	long		 fsize_mb;	/* RLIMIT_FSIZE MiB; 0: none */
	long		 nofile;	/* RLIMIT_NOFILE; 0: none */
	long		 scratch_mb;	/* each writable tmpfs, MiB; 0: none */
	enum bot_user	 user;
	int		 sandbox;	/* 1: every bot under bwrap; SANDBOX_ */
	char		**env;		/* extra KEY=VALUE, n_env of them */
	int		 n_env;
	char		**bind;		/* sandbox: directories shown (ro) */
	int		 n_bind;
	char		**hide;		/* directories and files hidden */
	int		 n_hide;
	struct own_dir	*own;		/* the bots' own directories */
	int		 n_own;
	const char	*log_dir;	/* hidden, unless it holds a bot's own */
	int		 no_sweep;	/* the caller finds stragglers itself */
	int		 no_isolate;	/* bench only: no namespaces (root) */
	int		 no_filter;	/* bench only: sockets allowed */
	int		 trusted;	/* memcheck: no filter, no namespaces */
	int		 cpu;		/* the one CPU of the referee and its
					 * bots (--cpu); -1: any */
};

#define SANDBOX_AUTO	2	/* struct contain's sandbox: where it works */
#define SANDBOX_CHECKED	3	/* on, the caller (a runner) checked it works */

/* The limits a bot's end can be put down to, as logs and results name them. */
enum { LIMIT_CPU, LIMIT_MEMORY, LIMIT_FSIZE, NLIMIT };
extern const char *const limit_names[NLIMIT];	/* "cpu", "memory", "fsize" */

/*
 * The limits as flags of the referee and botcheck (--limit-cpu S ...) and
 * keys of a tournament file's "limits" object, with their ranges (0: no
 * limit; a non-zero nofile is at least 8, room for the runtime's own).
 */
struct limit_flag {
	const char	*key;		/* "cpu_s" */
	const char	*flag;		/* "--limit-cpu" */
	long		 hi;
	size_t		 off;		/* of the long in struct contain */
	int		 limit;		/* the LIMIT_ a fault names, or -1 */
};
#define NLIMIT_FLAGS	6	/* limit_flags' entries */
/* The limits a program's flags set; ends with a NULL key. */
extern const struct limit_flag limit_flags[NLIMIT_FLAGS + 1];
/* Sets the limit of limit_flags[i] in c to v; -1 and a cause. */
int	 contain_set_limit(struct contain *, int, long long, char *, size_t);
/* The same from a flag's text (a whole number); -1 and a cause. */
int	 contain_set_limit_text(struct contain *, int, const char *, char *,
	    size_t);
/* Returns c's value of the limit of limit_flags[i]. */
long	 contain_limit_value(const struct contain *, int);
/*
 * Appends to buf (NUL-terminated, len bytes) the flags of c's limits that
 * differ from the defaults, each as " --limit-x N".
 */
void	 contain_limit_args(const struct contain *, char *, size_t);

/* The prepared exec of one bot: built before fork (no allocation after). */
struct jailed {
	char	**argv;		/* what to execvp */
	char	**envp;		/* its whole environment */
	uid_t	  uid;		/* (uid_t)-1: keep ours */
	int	  lim_nproc;	/* the RLIMIT_NPROC to set, 0: none */
	int	  isolate;	/* a private scratch and read-only files */
	char	**hide_dirs;	/* isolated: under an empty tmpfs */
	char	**hide_files;	/* isolated: under a file no bot may open */
	int	  nonet;	/* no sockets (seccomp) */
	int	  filter;	/* the seccomp filter (locks; sockets if nonet) */
	int	  stdin_fd;	/* where the exec takes the bot's stdin */
	int	  seccomp_fd;	/* sandbox: the filter bwrap installs, -1 */
	int	  no_filter;	/* that filter could not be passed: the
				   child refuses to exec (EMFILE) */
	int	  native;	/* sandboxed by our own launcher, argv
				   its words (nsbox.c), not bwrap's exec */
	int	  relayed;	/* under an init (bwrap's or ours): a bot
				   killed by signal N is its exit 128 + N */
	int	  ready[2];	/* sandbox not yet proven, or go: a pipe
				   whose end [1] the shell in it writes a
				   byte to */
	int	  go[2];	/* pinned: a pipe whose end [0] the shell
				   waits on before it execs the bot */
	char	  scratch_opts[96];	/* the scratch tmpfs's options */
};

/*
 * Under the sandbox bwrap gets the bot's stdin as this descriptor (its own
 * 0 is /dev/null) and a shell in the sandbox moves it to the bot's 0:
 * bwrap's own processes close every descriptor above 2, so the bot alone
 * holds its stdin, and closing it is seen at once.
 */
#define SANDBOX_STDIN	4
/*
 * ... and the program of the filter bwrap installs in the sandbox, just
 * before it execs the bot (bwrap itself needs the sockets it refuses).
 */
#define SANDBOX_SECCOMP	5
/*
 * ... and, while the default sandbox is not yet proven to work here, the
 * end of a pipe the shell in the sandbox writes one byte to before it
 * execs the bot: the sandbox was set up (contain_ready).
 */
#define SANDBOX_READY	6
/*
 * ... and, when we are pinned to a CPU, the end of a pipe the shell then
 * waits on for our word (contain_go): bwrap sets the sandbox up on any
 * CPU, and the bot runs on ours from its first instruction.
 */
#define SANDBOX_GO	7

#define BOT_UID_BASE	0x40000000u	/* per-bot uids when root */
#define BOT_SCRATCH	"/var/tmp"	/* an isolated bot's writable dir */
#define BOT_PATH	"/usr/local/bin:/usr/bin:/bin"

/* Fills the documented defaults (SECURITY.md). */
void	 contain_init(struct contain *);
/* Makes c the configuration of every later spawn (kept by pointer). */
void	 contain_set(const struct contain *);
/* Returns the configuration in force. */
const struct contain *contain_get(void);
/*
 * Makes the program a child subreaper and not dumpable (bots cannot open
 * its /proc entries or trace it).  Called once by main.
 */
void	 contain_self(void);
/*
 * As root with a uid per bot: starts a watchdog process that, once the
 * program is gone (even SIGKILLed), kills every process of every uid its
 * bots may have had.  Called once by bin/referee's main.
 */
void	 contain_watchdog(void);
/*
 * Checks that the sandbox can run (bwrap found and able to create its
 * namespaces as the bots' user); -1 and a cause if not.
 */
int	 contain_check(char *, size_t);
/*
 * As root: checks that bots can be isolated without the sandbox (mount,
 * IPC and PID namespaces of their own; SECURITY.md); -1 and a cause if not.
 */
int	 contain_isolation_check(char *, size_t);
/*
 * Pins this process, and so every process it starts, to one CPU; -1 and a
 * cause if it may not run there.
 */
int	 contain_pin(int cpu, char *, size_t);
/*
 * Pins to c's cpu if it names one; decides c's sandbox (SANDBOX_AUTO: on
 * where bwrap works here, else off) and says once, on stderr, when bots
 * will be neither sandboxed nor isolated, and what a bot can then do; -1
 * and a cause when c asks for the sandbox (1) and it cannot run, or for a
 * CPU it may not use.  Called once by a program's main.  SANDBOX_AUTO
 * with bwrap installed is on, unproven: the first bots' own starts tell
 * (contain_ready), where a check of its own would cost one more bwrap.
 */
int	 contain_start(struct contain *, char *, size_t);
/*
 * Reads a bot's ready pipe (jailed's ready[0], closed here): 0 when the
 * bot may go on as started; 1 when it must be started again, outside the
 * sandbox, which cannot run here (its start wrote nothing, nor did any of
 * the other bots' still unread ready pipes, others, and the check,
 * contain_check, failed: the fallback of contain_start, with its warning,
 * is made once).  A bot runs only after its byte is written, so none can
 * have made the check fail.  The check's sweep spares the children keep
 * names (the bots started already).
 */
int	 contain_ready(int, const int *, int, int (*)(pid_t));
/*
 * A sandboxed bot started by pid (bwrap) whose shell waits on go (jailed's
 * go[1], closed here) at the gate: pins pid and every process under it to
 * our CPU, then lets the shell exec the bot.
 */
void	 contain_go(pid_t, int);
/*
 * Forks a bot's process: for an isolated bot into a PID namespace of its
 * own, where it is the first process (contain_child makes it the bot's
 * init); otherwise fork(2).
 */
pid_t	 contain_fork(const struct jailed *);
/*
 * Prepares the exec of argv for the next bot, bot (its index, -1 for none:
 * it has no own directories); free with contain_free.
 */
void	 contain_prepare(struct jailed *, char *const *, int);
/*
 * Makes dir one of bot's own directories (--bot-dir); -1 and a cause if it
 * is not a directory.
 */
int	 contain_bot_dir(struct contain *, int, const char *, char *, size_t);
/*
 * Makes the directories bot's command argv names its own (its program's,
 * its script's, a directory it names): hidden from the other bots.
 */
void	 contain_bot_argv(struct contain *, int, char *const *);
/*
 * Checks that no --bot-dir lies inside a hidden path (hidden wins); -1 and
 * a cause if one does.
 */
int	 contain_own_check(const struct contain *, char *, size_t);
/* Frees what contain_bot_dir and contain_bot_argv added. */
void	 contain_clear(struct contain *);
/* Frees what contain_prepare allocated. */
void	 contain_free(struct jailed *);
/*
 * In the child, after contain_child: execs the bot as jl says, under our
 * own sandbox's launcher or not (status: the descriptor an exec closes to
 * say the child started, -1 none); returns -1 (errno set) if it cannot.
 */
int	 contain_exec(const struct jailed *, int status);
/*
 * In the child between fork and exec: limits, no core, user id, filter;
 * for an isolated bot the namespaces, and a fork: the process forked by
 * contain_fork stays as the init of the bot's PID namespace (it never
 * returns) and the bot, its child, returns.  -1 (errno set) if any of it
 * fails.
 */
int	 contain_child(const struct jailed *);

/*
 * Kills every process a stopped bot (run as uid) may have left, and every
 * child of ours that no live bot leads (keep(pid) says which to spare),
 * reaping them.
 */
void	 contain_sweep(uid_t, int (*)(pid_t));
/*
 * contain_sweep, adding to u what the processes it reaps used (bwrap's
 * init, which reaped the bot, comes to us when bwrap exits).
 */
void	 contain_sweep_usage(uid_t, int (*)(pid_t), struct usage *);
/*
 * Names the limit a bot that ended this way ran into (one of limit_names),
 * or NULL: from its end (signalled, code), its CPU time in ms
 * and its peak resident size in KiB.
 */
const char *contain_limit(int, int, long, long);
/* Describes the limit named by contain_limit, e.g. "2 s of CPU time". */
void	 contain_limit_describe(const char *, char *, size_t);

#endif
