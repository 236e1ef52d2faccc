/*
 * libFuzzer target: the tournament file reader (tour_load) on any bytes;
 * a file it accepts is also scheduled's input, so its header is built.
 */
#include <jansson.h>

#include "base/tfile.h"
#include "fz.h"

static void	 load(const char *);

/* Loads the file at path, and schedules it if it is accepted. */
static void
load(const char *path)
{
	struct tour t;
	char cause[512];

	if (tour_load(&t, path, cause, sizeof cause) == 0)
		tour_games_per_table(&t);
	tour_free(&t);
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	return fz_file(d, n, load);
}
