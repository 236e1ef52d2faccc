/*
 * The usage of bin/tournament, every command's: what --help and -h print
 * for the program and for each of its commands (tournament.c, dist.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/usage.h"

/* Prints the usage of every command and exits with status. */
void
tournament_usage(FILE *fp, int status)
{
	fprintf(fp,
"usage: tournament run [-j N] [-q] [--progress | --no-progress] [--replays]\n"
"                      FILE\n"
"       tournament rate [-f FORMAT] [-o FILE] [-t TITLE]\n"
"                       [--anchor NAME=ELO] [--prior N] [--boot N]\n"
"                       [--seed N] JOURNAL...\n"
"       tournament schedule [-v | --settings] FILE\n"
"       tournament gauntlet -g GAME -c 'CANDIDATE' -p 'POOL BOT' [-p ...]\n"
"                           [options: tournament gauntlet --help]\n"
"       tournament plan [--chunk N] [--only LIST] FILE\n"
"       tournament job [--out DIR] [-v] < LINE\n"
"       tournament job [--out DIR] [-v] --from PLAN --index I\n"
"       tournament merge [-q] OUT DIR...\n"
"       tournament status OUT DIR...\n"
"       tournament ladder init|add|update|retire|inbox|run|status|export|\n"
"                         site|serve|synth DIR ... (tournament ladder --help)\n"
"\n"
"run       plays the tournament FILE describes (a round robin of tables,\n"
"          one bin/referee each), appending every finished game to\n"
"          OUTPUT/journal.jsonl; run again to resume after a stop or a\n"
"          crash.  Prints the table at the end and writes OUTPUT/results\n"
"          .txt .csv .json .md and .html.\n"
"  -j N              tables played at once (default: the file's\n"
"                    \"concurrency\")\n"
"  -q                no progress and no table; only warnings\n"
"  --progress        a live status line even when stderr is not a\n"
"                    terminal; --no-progress: plain log lines\n"
"  --replays         render every match log as an HTML replay (as the\n"
"                    file's \"replays\": true)\n"
"rate      fits Bradley-Terry ratings (Elo scale) on journals\n"
"  -f FORMAT         text (default), csv, json, md or html\n"
"  -o FILE           write there instead of stdout\n"
"  -t TITLE          the report's title\n"
"  --anchor NAME=ELO fix a player's rating (default: the pool averages\n"
"                    1500)\n"
"  --prior N         virtual drawn games per player (default 2)\n"
"  --boot N          bootstrap replicates for the 95%% intervals\n"
"                    (default 200; 0: none)\n"
"  --seed N          the bootstrap's seed (default 1)\n"
"schedule  prints the tables of FILE and how balanced they are\n"
"  -v                every table, bots in seat order\n"
"  --settings        instead, every key of FILE as it is read, its\n"
"                    default where FILE leaves it out (null: the\n"
"                    referee's, or none), as JSON\n"
"gauntlet  plays a candidate against a pool on duplicate deals until an\n"
"          SPRT decides whether it gains at least elo1 or at most elo0\n"
"plan      writes the tournament's work as jobs, one JSON line each, in\n"
"          the order a local run plays them (README: \"Across machines\")\n"
"  --chunk N         at most N games per job (whole deals)\n"
"  --only LIST       only these jobs, e.g. 3,7-9\n"
"job       runs one job line into DIR/job-NNNNNN.jsonl and DIR/logs/;\n"
"          again to resume it; exit status 0 when all its games are in\n"
"  --out DIR         the directory (default .)\n"
"  --from PLAN --index I   line I (from 0) of a plan file\n"
"  -v                progress and the referee's warnings\n"
"merge     gathers the jobs' journals into OUT/journal.jsonl (checked\n"
"          against their plan lines, duplicates dropped) and writes the\n"
"          reports; lists missing and failed jobs and how to rerun them\n"
"status    counts the jobs and games done, running, failed and missing\n"
"ladder    a ladder that plays for ever while bots enter, are updated and\n"
"          retire, with a standing table and a static site (README:\n"
"          \"Running a ladder\")\n"
"\n"
"tournament --version prints the version.\n"
"\n"
"Exit status: 0 on success; 1 when the tournament or a journal cannot be\n"
"used; 2 for a bad command line or tournament file; 130 when run was\n"
"stopped by Ctrl-C or SIGTERM (run the file again to resume).\n");
	exit(status);
}
