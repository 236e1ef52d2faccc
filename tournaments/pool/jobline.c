/*
 * The job line: one job of work (games lo..hi-1 of one table, with its
 * tournament, the journal header and a fingerprint of it all) as one JSON
 * line.  `tournament plan` writes them, `tournament job` runs one,
 * `tournament merge` checks a job journal's header against its line, and
 * the ladder's spool (ladder_jobs.c) writes them for its workers: one
 * maker, one fingerprint, one check.  A line may carry the build it
 * expects (a 64-bit FNV-1a hash of the referee executable): a runner of
 * another build refuses it.
 */
#include <err.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/hash.h"
#include "base/paths.h"
#include "pool/jobline.h"

/* The fingerprint of a job line without its "fingerprint" key. */
char *
jobline_fingerprint(const json_t *line)
{
	json_t *c;
	char *s, *t;

	c = json_copy((json_t *)line);
	json_object_del(c, "fingerprint");
	/* the canonical text: keys sorted */
	if ((t = json_dumps(c, JSON_COMPACT | JSON_SORT_KEYS |
	    JSON_ENCODE_ANY)) == NULL)
		errx(1, "cannot encode a job line");
	if (asprintf(&s, "%016" PRIx64, fnv1a(FNV_BASIS, t,
	    strlen(t))) == -1)
		err(1, "asprintf");
	free(t);
	json_decref(c);
	return s;
}

/* Makes a job line; see jobline.h. */
json_t *
jobline_make(long idx, long njobs, long chunk, const char *file, long table,
    long lo, long hi, const json_t *tb, const json_t *header,
    const char *build)
{
	json_t *job;
	char *fp;

	job = json_pack("{s:I,s:I,s:I,s:s,s:I,s:[I,I],s:O,s:O}",
	    "job", (json_int_t)idx, "jobs", (json_int_t)njobs,
	    "chunk", (json_int_t)chunk, "file", file,
	    "table", (json_int_t)table, "games",
	    (json_int_t)lo, (json_int_t)hi, "tournament", tb,
	    "header", header);
	if (job == NULL)
		errx(1, "cannot make a job line");
	if (build != NULL)
		json_object_set_new(job, "build", json_string(build));
	fp = jobline_fingerprint(job);
	json_object_set_new(job, "fingerprint", json_string(fp));
	free(fp);
	return job;
}

/* Checks the shape and the fingerprint of a job line; see jobline.h. */
int
jobline_check(const json_t *j, char *cause, size_t len)
{
	json_t *gl, *h, *b;
	const char *fp;
	char *want;
	json_int_t lo, hi;

	if (!json_is_object(j)) {
		snprintf(cause, len, "not a JSON object");
		return -1;
	}
	gl = json_object_get(j, "games");
	h = json_object_get(j, "header");
	b = json_object_get(j, "build");
	if (!json_is_integer(json_object_get(j, "job")) ||
	    !json_is_integer(json_object_get(j, "jobs")) ||
	    !json_is_integer(json_object_get(j, "chunk")) ||
	    !json_is_integer(json_object_get(j, "table")) ||
	    !json_is_string(json_object_get(j, "file")) ||
	    !json_is_object(json_object_get(j, "tournament")) ||
	    !json_is_object(h) || !json_is_integer(json_object_get(h,
	    "games_per_table")) || !json_is_integer(json_object_get(h,
	    "tables")) || json_unpack((json_t *)gl, "[II]", &lo,
	    &hi) == -1 || (b != NULL && !json_is_string(b)) ||
	    (fp = json_string_value(json_object_get(j,
	    "fingerprint"))) == NULL) {
		snprintf(cause, len, "not a line of `tournament plan` (it "
		    "needs job, jobs, chunk, file, table, games, tournament, "
		    "header and fingerprint)");
		return -1;
	}
	want = jobline_fingerprint(j);
	if (strcmp(want, fp) != 0) {
		snprintf(cause, len, "its fingerprint does not match its "
		    "content (a damaged or edited line)");
		free(want);
		return -1;
	}
	free(want);
	if (json_integer_value(json_object_get(j, "job")) < 0 ||
	    json_integer_value(json_object_get(j, "job")) >=
	    json_integer_value(json_object_get(j, "jobs")) ||
	    json_integer_value(json_object_get(j, "table")) < 0 ||
	    json_integer_value(json_object_get(j, "table")) >=
	    json_integer_value(json_object_get(h, "tables")) ||
	    lo < 0 || lo >= hi ||
	    hi > json_integer_value(json_object_get(h, "games_per_table"))) {
		snprintf(cause, len, "its job, table or games are out of "
		    "range");
		return -1;
	}
	return 0;
}

/* The build of the referee; see jobline.h. */
const char *
jobline_build(const char *ref)
{
	static char text[17];
	char buf[65536], *path;
	uint64_t h = FNV_BASIS;
	ssize_t n;
	int fd;

	if (text[0] != '\0')
		return text;
	path = referee_path(ref);
	if (strchr(path, '/') == NULL || (fd = open(path, O_RDONLY |
	    O_CLOEXEC)) == -1) {
		free(path);
		snprintf(text, sizeof text, "unknown");
		return text;
	}
	free(path);
	while ((n = read(fd, buf, sizeof buf)) > 0)
		h = fnv1a(h, buf, (size_t)n);
	close(fd);
	snprintf(text, sizeof text, "%016" PRIx64, h);
	return text;
}

/* Checks a line's build; see jobline.h. */
int
jobline_check_build(const json_t *j, const char *ref, char *cause,
    size_t len)
{
	const char *want, *have;

	if ((want = json_string_value(json_object_get(j, "build"))) == NULL)
		return 0;
	have = jobline_build(ref);
	if (strcmp(want, have) == 0)
		return 0;
	snprintf(cause, len, "planned for build %s of the referee, this one "
	    "is build %s (install the ladder host's build on this worker)",
	    want, have);
	return -1;
}

/* The job line a job journal's header was made from; see jobline.h. */
json_t *
jobline_of_header(const json_t *plan, const json_t *header)
{
	json_t *l, *h;

	l = json_copy((json_t *)plan);
	h = json_copy((json_t *)header);
	json_object_del(h, "plan");
	json_object_set_new(l, "header", h);
	return l;
}
