/*
 * libFuzzer target: the tournament file reader (tour_load) on any bytes;
 * a file it accepts is also scheduled's input, so its header is built.
 */
#include <jansson.h>

#include "base/tfile.h"
#include "fz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct tour t;
	char path[64], cause[512];

	if (fz_file(d, n, path, sizeof path) == -1)
		return 0;
	if (tour_load(&t, path, cause, sizeof cause) == 0)
		tour_games_per_table(&t);
	tour_free(&t);
	return 0;
}
