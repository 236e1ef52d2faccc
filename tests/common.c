/*
 * Helpers shared by the test drivers; see common.h.  Linked into every
 * test program (the Makefile's TEST_LIB).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

int
opts_from_json(const struct game *g, struct opts *o, const json_t *j,
    char *cause, size_t len)
{
	const char *key;
	json_t *v, *e;
	size_t i;
	char buf[512], val[400];
	int n;

	if (j == NULL)
		return 0;
	if (json_is_array(j)) {
		json_array_foreach(j, i, v) {
			if (!json_is_string(v)) {
				snprintf(cause, len, "options: not a string");
				return -1;
			}
			if (opts_set(g, o, json_string_value(v), cause, len) == -1)
				return -1;
		}
		return 0;
	}
	if (!json_is_object(j)) {
		snprintf(cause, len, "options: not an object or array");
		return -1;
	}
	json_object_foreach((json_t *)j, key, v) {
		if (json_is_string(v))
			snprintf(val, sizeof val, "%s", json_string_value(v));
		else if (json_is_true(v))
			snprintf(val, sizeof val, "on");
		else if (json_is_false(v))
			snprintf(val, sizeof val, "off");
		else if (json_is_integer(v))
			snprintf(val, sizeof val, "%lld",
			    (long long)json_integer_value(v));
		else if (json_is_array(v)) {
			val[0] = '\0';
			json_array_foreach(v, i, e) {
				n = (int)strlen(val);
				if (json_is_integer(e))
					snprintf(val + n, sizeof val - (size_t)n,
					    "%s%lld", i ? "," : "",
					    (long long)json_integer_value(e));
				else if (json_is_string(e))
					snprintf(val + n, sizeof val - (size_t)n,
					    "%s%s", i ? "," : "",
					    json_string_value(e));
			}
		} else {
			snprintf(cause, len, "options: bad value for %s", key);
			return -1;
		}
		snprintf(buf, sizeof buf, "%s=%s", key, val);
		if (opts_set(g, o, buf, cause, len) == -1)
			return -1;
	}
	return 0;
}

json_t *
json_path(json_t *j, const char *path)
{
	char *copy, *p, *tok, *end;
	const char *sep = path[0] == '/' ? "/" : ".";
	long idx;

	copy = xstrdup(path);
	for (p = copy; j != NULL && (tok = strsep(&p, sep)) != NULL; ) {
		if (*tok == '\0')
			continue;
		if (json_is_array(j)) {
			idx = strtol(tok, &end, 10);
			if (*end != '\0')
				j = NULL;
			else {
				if (idx < 0)
					idx += (long)json_array_size(j);
				j = json_array_get(j, (size_t)idx);
			}
		} else if (json_is_object(j))
			j = json_object_get(j, tok);
		else
			j = NULL;
	}
	free(copy);
	return j;
}

char *
json_canon(const json_t *j)
{
	char *s;

	s = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
	if (s == NULL)
		s = xstrdup("(unencodable)");
	return s;
}

static int	tap_n, tap_failed;

void
tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
