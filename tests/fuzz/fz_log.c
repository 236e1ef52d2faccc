/*
 * libFuzzer target: bin/replay's match-log reader (rlog_read) and the
 * verifier that re-runs what it read (replay_run), on any bytes.
 */
#include <limits.h>
#include <string.h>

#include "fz.h"
#include "replay.h"

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct rlog l;
	struct replay rp;
	char path[64], cause[512];

	if (fz_file(d, n, path, sizeof path) == -1)
		return 0;
	memset(&l, 0, sizeof l);
	if (rlog_read(&l, path, cause, sizeof cause) == -1) {
		rlog_free(&l);		/* the reader's contract */
		return 0;
	}
	memset(&rp, 0, sizeof rp);
	replay_run(&rp, &l, cause, sizeof cause);
	replay_free(&rp);
	rlog_free(&l);
	return 0;
}
