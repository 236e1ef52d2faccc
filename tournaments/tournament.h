/*
 * The tournament runner of cardarena (bin/tournament): the tournament file,
 * the schedule of tables, the append-only results journal, the rating fit
 * and its reports, and the runner that drives one bin/referee per table.
 *
 * Ownership: every structure here owns what it points to and is released
 * by its _free function; names and strings handed in are copied.  Library
 * functions return -1 (or NULL) and write a cause; only main() exits.
 */
#ifndef CARDARENA_TOURNAMENT_H
#define CARDARENA_TOURNAMENT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "game.h"
#include "results.h"

#define MAX_BOTS	4096		/* bots in one tournament */
#define MAX_TABLES	1000000		/* tables in one schedule */
#define DEF_MAX_TABLES	1000		/* "auto": every subset up to this */
#define DEF_LOG_MAX	(64L << 20)	/* bytes per table log */
#define DEF_MAX_DECISIONS 100000	/* per game */
#define JOURNAL_NAME	"journal.jsonl"
#define JLINE_MAX	(1 << 20)	/* longest journal line we accept */


/* schedule.c */

enum sched_mode {
	SCHED_AUTO,	/* every subset if at most max_tables, else balanced */
	SCHED_ALL,	/* every k-subset of the bots, rounds times */
	SCHED_BALANCED	/* T tables, pairs and seats balanced */
};

struct schedule {
	int	 nbots;
	int	 seats;
	int	 ntables;
	int	 all;		/* made of every subset (else balanced) */
	int	*tab;		/* tab[t * seats + s]: bot at seat s of table t */
};

struct sched_stats {
	long	 pair_min, pair_max;	/* tables shared by a pair of bots */
	long	 app_min, app_max;	/* tables of a bot */
	long	 seat_spread;		/* max over bots of (most - least) */
};

/* The number of k-subsets of n things, or -1 if above limit. */
long	 binomial(int n, int k, long limit);
/*
 * Makes the schedule of nbots bots at tables of seats seats; count is the
 * rounds (SCHED_ALL) or the tables (SCHED_BALANCED, 0 for the default).
 * -1 and a cause when it cannot be made.
 */
int	 schedule_make(struct schedule *, int nbots, int seats,
	    enum sched_mode, long count, long max_tables, uint64_t seed,
	    char *, size_t);
/* The default number of tables of a balanced schedule. */
long	 schedule_default_tables(int nbots, int seats);
/* Measures the pair, appearance and seat balance of a schedule. */
void	 schedule_stats(const struct schedule *, int duplicate,
	    struct sched_stats *);
/* A 64-bit fingerprint of the schedule (for the journal header). */
uint64_t schedule_hash(const struct schedule *);
void	 schedule_free(struct schedule *);

/* tfile.c: the tournament file */

struct tbot {
	char	*name;
	char	*command;
	char	*dir;		/* working directory, or NULL */
	char   **env;		/* "KEY=VALUE" strings */
	int	 nenv;
};

/* "affinity": absent (pin.h decides), true, false. */
enum { AFFINITY_AUTO, AFFINITY_ON, AFFINITY_OFF };

struct tour {
	char		*path;
	const char	*plan;		/* a job's plan file (its seeds): hidden */
	char		*name;
	char		*game;
	char	       **optv;		/* game options as "KEY=VALUE" */
	int		 nopt;
	json_t		*options;	/* the resolved options (header) */
	int		 seats;
	struct tbot	*bots;
	int		 nbots;
	long		 deals;		/* deals per table */
	long		 deals_per_run;	/* deals a referee run plays; 0 auto */
#define CHUNK_SECONDS	3.0		/* play per referee run when auto */
	int		 duplicate;
	int		 logs;		/* keep a match log per table run */
	int		 affinity;	/* AFFINITY_*: slots on CPUs (pin.h) */
	int		 log_full;	/* every message's text in the logs */
	long long	 log_max;	/* bytes per log */
	long		 max_decisions;	/* per game; 0: no cap */
	int		 replays;	/* render them as HTML replays */
	long		 time_per_move;	/* ms, 0: the referee's default */
	long		 time_bank;	/* ms, 0: the referee's default */
	long		 time_hello;	/* ms, 0: the referee's default */
	char		*on_fault;	/* NULL: the referee's default */
	int		 jobs;
	char		*outdir;
	uint64_t	 seed;
	int		 seed_named;	/* the file names it (else fresh) */
	json_t		*gauntlet;	/* a gauntlet's settings, or NULL */
	char		*deal_book;	/* a file of deals played in order */
	char		 book_hash[48];	/* its deals' count and fingerprint */
	enum sched_mode	 mode;
	long		 count;		/* rounds or tables */
	long		 max_tables;
	char		*referee;	/* NULL: beside bin/tournament */
	char	       **refargs;	/* extra referee arguments */
	int		 nrefargs;
	int		 sandbox;	/* 1: "sandbox": true, 2: "auto" (default) */
	int		 sandbox_checked; /* 1: the runner checked it works */
	json_t		*file;		/* the file's JSON, as read */
};

/*
 * replays.c: renders with bin/replay --html (beside this program) every
 * match log in logdir that has no up-to-date page, naming the bots by
 * their tournament names; returns how many it rendered.
 */
struct schedule;
int	 render_replays(const struct tour *, const struct schedule *,
	    const char *logdir);
/*
 * Renders match log log as LOG.html with bin/replay prog, the bots named
 * names (comma-separated, in the log's bot order); -1 if it failed.
 */
int	 render_one(const char *prog, const char *log, const char *names);
/* The replay step at which game of the match log path is dealt, or -1. */
long	 replay_game_step(const char *path, long game);

/* advice.c: names the time limits to raise for bots that timed out. */
struct rating;
void	 limits_advice(FILE *, const struct tour *, const struct rating *);

/*
 * Reads and checks a round robin's tournament file (at least as many bots
 * as seats); -1 and a cause.
 */
int	 tour_load(struct tour *, const char *path, char *, size_t);
/* Reads a tournament file's JSON: a new reference, or NULL and a cause. */
json_t	*tour_read(const char *path, char *, size_t);
/* Checks a tournament file's JSON (path names it); -1 and a cause. */
int	 tour_parse(struct tour *, const json_t *, const char *path, char *,
	    size_t);
/* Games each table plays: deals, times the seats when duplicate. */
long	 tour_games_per_table(const struct tour *);
/*
 * Every key of a tournament file as t was read: the file's value or the
 * default the parser filled in, null where the referee decides or there
 * is none (tournament schedule --settings); a new reference.
 */
json_t	*tour_settings(const struct tour *);
/* The journal header of a tournament and its schedule: a new reference. */
json_t	*tour_header(const struct tour *, const struct schedule *);
void	 tour_free(struct tour *);
/* Appends a referee argument (and its value unless NULL) to refargs. */
void	 tour_refarg(struct tour *, const char *, const char *);

/* journal.c: the results journal */

/* One finished game as the journal holds it; strings are borrowed. */
struct jgame {
	long		 table;
	long		 game;
	long		 deal;		/* duplicate block within the table */
	int		 k;		/* seats */
	const char	*bots[MAX_PLAYERS];	/* by seat */
	int		 places[MAX_PLAYERS];	/* by seat */
	double		 scores[MAX_PLAYERS];	/* by seat */
	long		 faults[MAX_PLAYERS][NTFAULT];	/* by seat */
	int		 capped;
	const char	*log;
	const json_t	*line;		/* the line it was parsed from, or NULL */
	/* the line's bytes (no newline) when it is in the canonical form
	 * (json_dumps of jgame_json, strings of printable ASCII), else NULL;
	 * such a line is read by jgame_scan and has no json_t */
	const char	*text;
	size_t		 textlen;
};

struct jreader {
	/* Called with the header line (borrowed); -1 stops with cause. */
	int	(*header)(void *, const json_t *, char *, size_t);
	/* Called for every game line; -1 stops with cause. */
	int	(*game)(void *, const struct jgame *, char *, size_t);
	/* Called for a line skipped as damaged (not the torn last one). */
	void	(*warn)(void *, long lineno, const char *cause);
	void	*arg;
	int	 repair;	/* truncate a torn last line away */
	long	 lines;		/* out: game lines read */
	long	 torn;		/* out: 1 if a torn last line was dropped */
};

/*
 * Reads a journal line by line (memory bounded by the longest line),
 * calling the reader's callbacks; a damaged last line is torn and
 * dropped (and cut off the file with repair).  -1 and a cause.
 */
int	 journal_read(const char *path, struct jreader *, char *, size_t);
/* Parses one game line into g (pointing into j); -1 and a cause. */
int	 jgame_parse(const json_t *, struct jgame *, char *, size_t);
/*
 * Reads a game line of n bytes (no newline) in the canonical form into g
 * without a JSON tree, its strings copied into out (n bytes at least);
 * -1 if the line is not in that form (jgame_parse decides it then).  A
 * line it takes reads as jgame_parse reads it.
 */
int	 jgame_scan(const char *, size_t n, struct jgame *, char *out);
/* Encodes a game as a journal line object: a new reference. */
json_t	*jgame_json(const struct jgame *, const json_t *seed);
/*
 * The journal game of a referee run's results line, played at table with
 * seats seats (duplicate: its deal is the game over the seats) and its
 * log (or NULL): names[b] the name of the run's bot b.  The one
 * translation of a results line, tournament run's and the ladder's.
 */
void	 jgame_of_result(struct jgame *, long table, const struct resline *,
	    int seats, int duplicate, const char *const *names,
	    const char *log);
/* Opens a journal for appending (created if missing); -1 and a cause. */
int	 journal_open(const char *path, int *created, char *, size_t);
/* Appends one line (a newline is added) and fsyncs it; -1 and cause. */
int	 journal_append(int fd, const json_t *, char *, size_t);
/*
 * Appends one line (a newline is added) in a single write(2), without
 * fsync: the line survives the process being killed, and a crash of the
 * machine only once journal_sync has returned.  -1 and a cause.
 */
int	 journal_write(int fd, const json_t *, char *, size_t);
/* fsyncs the journal (the group commit); -1 and a cause. */
int	 journal_sync(int fd, char *, size_t);

/* The games already done per table: a prefix count plus stragglers. */
struct doneset {
	long	 ntables;
	long	 gpt;		/* games per table */
	long	*next;		/* games 0..next-1 are done */
	struct doneextra {
		long	*v;
		int	 n, cap;
	}	*extra;		/* done games above next, sorted */
};

void	 doneset_init(struct doneset *, long ntables, long gpt);
/* Marks a game done: 0 if new, 1 if it already was, -1 if out of range. */
int	 doneset_add(struct doneset *, long table, long game);
int	 doneset_has(const struct doneset *, long table, long game);
void	 doneset_free(struct doneset *);

/* rate.c: ratings */

struct rate_opts {
	int		 boot;		/* bootstrap replicates, 0 for none */
	double		 prior;		/* virtual drawn games per player */
	const char	*anchor;	/* a player's name, or NULL: pool mean */
	double		 anchor_elo;
	double		 mean;		/* pool mean (default 1500) */
	uint64_t	 seed;		/* of the bootstrap */
};

struct rplayer {
	char	*name;
	long	 games;
	double	 place_sum;
	long	 firsts;
	long	 faults[NTFAULT];
	double	 pscore, pweight;	/* weighted pairwise score, weight */
	/* filled by rate_fit */
	double	 elo;
	double	 pm;		/* half-width of the 95% interval */
	double	 lo, hi;	/* 2.5% and 97.5% bootstrap percentiles */
	int	 flag;		/* won or lost every pairing: prior-bound */
	int	 rank;		/* 1-based after rate_fit */
	double	 los_next;	/* likelihood of superiority over rank+1 */
};

/* A bootstrap block: its key and players a game. */
struct rblock {
	uint64_t	 key;
	int		 k;
};

/*
 * A pair's results in game order, a byte each: the block's step from the
 * pair's last result << 2 | who, who 0 (the lower index won), 1 (the
 * higher won) or 2 (a tie); a step of 64 or more is the byte 3, the step
 * in 7-bit groups (low first, 0x80 for more), then who.
 */
struct rpairlog {
	size_t		 len, cap;	/* bytes in s, room for */
	long		 last;		/* the block of the last result */
	unsigned char	 s[];
};

struct rating {
	struct rate_opts opts;
	int		 n, cap;
	struct rplayer	*p;
	double		*w;	/* w[i * cap + j]: weighted wins of i over j */
	long		*met;	/* met[i * cap + j]: games i and j shared */
	/* the bootstrap's record, replayed one replicate at a time by
	 * rate_fit (memory in games, about a byte a pair's result, not
	 * boot * n * n): the blocks, a new one where the key or the
	 * players a game change, and every pair's results in game order,
	 * pl[lo * cap + hi] (lo < hi; NULL until they meet) */
	struct rblock	*blk;
	long		 nblock, bkcap;
	struct rpairlog	**pl;
	int		*hash;	/* open addressing: player index or -1 */
	int		 hcap;
	long		 games;
	uint64_t	 lastkey;	/* the last game's block */
	int		 havekey;
	int		*order;	/* players by rank after rate_fit */
	double		*belo;	/* boot * n bootstrap ratings */
	int		 nboot;	/* the finite ones, first in belo */
	int		 fitted;
	/* warm starts (set warm): the last fit's log-strengths */
	int		 warm;
	int		 nlam;	/* players in them */
	double		*lam;	/* nlam */
	double		*blam;	/* boot * nlam */
};

void	 rate_init(struct rating *, const struct rate_opts *);
/* The index of a player, added if new. */
int	 rate_player(struct rating *, const char *);
/* The index of a player, or -1 if it has none. */
int	 rate_find(const struct rating *, const char *);
/*
 * Adds one finished game of k players (indices from rate_player) in the
 * bootstrap block blockkey (all games of one duplicate deal).
 */
void	 rate_add(struct rating *, uint64_t blockkey, int k,
	    const int *players, const int *places,
	    const long (*faults)[NTFAULT]);
/* The block key of (journal, table, deal). */
uint64_t rate_blockkey(uint64_t journal, long table, long deal);
/*
 * Fits the ratings (and the bootstrap intervals when boot > 0), ranks
 * the players; -1 and a cause (an unknown anchor, no prior when one is
 * needed).  With warm set, every fit starts from the last fit's result
 * (the ladder refitting as games come), else from scratch.
 */
int	 rate_fit(struct rating *, char *, size_t);
/*
 * The Bradley-Terry fit of n players on the weighted win matrix w (row
 * stride stride) with the given prior: natural-log strengths into
 * lambda (also the starting point when warm).  Returns the iterations.
 */
int	 bt_fit(int n, const double *w, int stride, double prior,
	    double *lambda, int warm);
void	 rate_free(struct rating *);

/* report.c */

enum report_fmt {
	FMT_TEXT,
	FMT_CSV,
	FMT_JSON,
	FMT_MD,
	FMT_HTML
};

/* Recent games kept for the HTML report (a bounded ring). */
#define RECENT_MAX	200
struct recent {
	struct recent_game {
		long	 table, game;
		int	 k;
		char	*bots[MAX_PLAYERS];
		int	 places[MAX_PLAYERS];
		char	*log;		/* the link, from the report's place */
		char	*path;		/* the file, from where we run */
		const char *why;	/* no log linked: why (static) */
	}	 g[RECENT_MAX];
	int	 n, head;
};

struct report {
	const struct rating	*r;
	const char		*title;
	const struct recent	*recent;	/* or NULL */
	int			 color;		/* text: terminal colours */
	int			 top;		/* text: only the first rows; 0 all */
	const char		*nav;		/* html: links atop the page */
};

int	 report_fmt(const char *, enum report_fmt *);
/* Writes s with HTML's special characters escaped. */
void	 html_esc(FILE *, const char *);
/* A round step for the ticks of an axis spanning span: 4 to 10 ticks. */
double	 axis_step(double span);
/* Writes the report in a format; -1 and a cause on a write error. */
int	 report_write(FILE *, const struct report *, enum report_fmt,
	    char *, size_t);
/* Keeps a game; log is its link, path where its log is from here. */
void	 recent_add(struct recent *, const struct jgame *, const char *log,
	    const char *path);
void	 recent_free(struct recent *);

/* load.c */

/* Where a journal's logs are, for a report written elsewhere. */
struct logbase {
	char	*dir;		/* the journal's directory */
	char	*absdir;	/* its absolute path, or NULL */
	int	 samedir;	/* the report is written there too */
};

/* The logs of a journal in dir, for a report in linkdir (NULL: "."). */
void	 logbase_init(struct logbase *, const char *dir, const char *linkdir);
void	 logbase_free(struct logbase *);
/* Keeps a game among the recent ones, its log linked as rate_load does. */
void	 logbase_recent(const struct logbase *, struct recent *,
	    const struct jgame *);

/*
 * Reads journals into a new rating pool (each game once per journal) and
 * a new ring of recent games, their log links made for a report written
 * in the directory linkdir.  -1 and a cause.
 */
int	 rate_load(struct rating *, const struct rate_opts *,
	    char *const *paths, int npaths, struct recent **,
	    const char *linkdir, char *, size_t);
/* Journals rated, ready for their reports. */
struct rated {
	struct rating	 r;
	struct recent	*rc;
	struct report	 rp;	/* its rating and recent games, a title */
};

/*
 * Rates journals (rate_load, rate_fit) for reports titled title, their
 * log links made for linkdir: 0, or 1 when they hold no game, or -1, with
 * a cause; after 0, rated_close frees it.  The one rating-and-reports
 * step of tournament rate and of a run's results files.
 */
int	 rated_open(struct rated *, const struct rate_opts *,
	    char *const *paths, int npaths, const char *linkdir,
	    const char *title, char *, size_t);
void	 rated_close(struct rated *);
/*
 * The name a bot of a journal whose header is h is rated under: the
 * original's when the header's "copies" names it a copy (a gauntlet's
 * copies of one pool bot are one program, one entry), else its own.
 */
const char *rated_name(const json_t *h, const char *name);

/* run.c */

/*
 * One job of a plan (dist.c): games lo .. hi-1 of one table, whose bots
 * are the tournament's bots in seat order.
 */
struct jobspec {
	long		 index;
	long		 table;		/* in the whole tournament */
	long		 lo, hi;
	json_t		*header;	/* the job journal's header */
	const char	*journal;	/* its path */
	const char	*logbase;	/* "logs/t00003", from the output */
};

/*
 * What a caller that is not the schedule (the gauntlet) adds to a run:
 * its own tables, a stop rule, a progress line.
 */
struct jgame;
struct run_hooks {
	const struct schedule *sched;	/* the tables; NULL: the file's */
	/* Adds the caller's keys to the journal header. */
	void	(*header)(void *, json_t *);
	/* Each game journalled or resumed: 1 when the aim is reached. */
	int	(*game)(void *, const struct jgame *);
	/* Appends to the progress line; returns the bytes written. */
	size_t	(*status)(void *, char *, size_t);
	void	*arg;
	int	 no_reports;	/* the caller writes the reports */
	const char *isolate;	/* what isolates the bots, for a warning */
};

struct run_opts {
	int	 jobs;		/* 0: the file's */
	int	 quiet;
	int	 progress;	/* -1 auto (a terminal), 0 plain, 1 live */
	int	 replays;	/* render HTML replays (or the file's) */
	const char *argv0;
	const struct jobspec *job;	/* NULL: the whole tournament */
	const struct run_hooks *hooks;	/* NULL: none */
};

/* Runs (or resumes) a tournament or one job; the exit status for main. */
int	 tour_run(struct tour *, const struct run_opts *);
/*
 * Rates a journal and writes every report format into outdir (and the
 * table on stdout unless quiet); names the limits of tournament t (if
 * not NULL) that bots which timed out need; -1 if a report could not be
 * written.
 */
int	 tour_reports(const char *outdir, const char *journal,
	    const char *title, int quiet, const struct tour *t);

/* usage.c: prints the usage of every command; exits with status. */
void	 tournament_usage(FILE *, int) __attribute__((noreturn));

/* dist.c: plans, jobs, merging */

int	 cmd_plan(int, char **);
int	 cmd_job(int, char **);
int	 cmd_merge(int, char **);
int	 cmd_status(int, char **);

#endif
