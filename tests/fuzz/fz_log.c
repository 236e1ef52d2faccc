/*
 * libFuzzer target: bin/replay's match-log reader (rlog_read) and the
 * verifier that re-runs what it read (replay_run), on any bytes.
 */
#include <limits.h>
#include <string.h>

#include "fz.h"
#include "replay.h"

static void	 load(const char *);

/* Reads the log at path and, if it is read, re-runs it. */
static void
load(const char *path)
{
	struct rlog l;
	struct replay rp;
	char cause[512];

	memset(&l, 0, sizeof l);
	if (rlog_read(&l, path, cause, sizeof cause) == -1) {
		rlog_free(&l);		/* the reader's contract */
		return;
	}
	memset(&rp, 0, sizeof rp);
	replay_run(&rp, &l, cause, sizeof cause);
	replay_free(&rp);
	rlog_free(&l);
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	return fz_file(d, n, load);
}
