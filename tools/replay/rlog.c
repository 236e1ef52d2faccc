/*
 * Reading a match log for bin/replay: the whole file into memory, one
 * record per line, each parsed once.  A log names its format version in
 * its header (the first line); a torn last line (a referee killed while
 * writing, or a copy cut short) is dropped and reported, anything else
 * that is not a JSON object with a "type" is damage and an error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

#define MSG_KEY	",\"msg\":"

static int	add_line(struct rlog *, char *, size_t, size_t, char *,
		    size_t);

/* Parses and appends line number lineno (1-based); -1 and a cause. */
static int
add_line(struct rlog *l, char *text, size_t len, size_t lineno, char *cause,
    size_t clen)
{
	struct rrec *r;
	json_error_t jerr;
	json_t *j, *b;

	j = json_loadb(text, len, 0, &jerr);
	if (j == NULL || !json_is_object(j) ||
	    !json_is_string(json_object_get(j, "type"))) {
		snprintf(cause, clen, "%s:%zu: damaged log: %s", l->path,
		    lineno, j == NULL ? jerr.text : "a line is not an object "
		    "with a \"type\"");
		json_decref(j);
		return -1;
	}
	if (l->n % 1024 == 0)
		l->r = xreallocarray(l->r, l->n + 1024, sizeof *l->r);
	r = &l->r[l->n++];
	r->text = text;
	r->len = len;
	r->j = j;
	r->type = json_string_value(json_object_get(j, "type"));
	r->msg = NULL;
	r->msglen = 0;
	b = json_object_get(j, "bot");
	r->bot = json_is_integer(b) && (strcmp(r->type, "send") == 0 ||
	    strcmp(r->type, "recv") == 0) ? (int)json_integer_value(b) : -1;
	return 0;
}

int
rlog_read(struct rlog *l, const char *path, char *cause, size_t clen)
{
	FILE *fp;
	char *data = NULL, *p, *nl, *end;
	size_t size = 0, cap = 0, got, lineno = 0;
	json_t *v;

	memset(l, 0, sizeof *l);
	l->path = xstrdup(path);
	if ((fp = fopen(path, "r")) == NULL) {
		snprintf(cause, clen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (cap - size < 65536) {
			cap = cap ? cap * 2 : 1 << 20;
			data = xreallocarray(data, cap, 1);
		}
		got = fread(data + size, 1, cap - size - 1, fp);
		size += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		snprintf(cause, clen, "%s: %s", path, strerror(errno));
		fclose(fp);
		free(data);
		return -1;
	}
	fclose(fp);
	data[size] = '\0';
	/* The lines point into data, which r[0].text owns. */
	for (p = data, end = data + size; p < end; p = nl + 1) {
		lineno++;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL) {
			l->torn = 1;
			snprintf(l->torn_why, sizeof l->torn_why, "%s:%zu: the "
			    "last line is torn (%zu bytes without an end of "
			    "line): dropped, the %zu complete lines are used",
			    path, lineno, (size_t)(end - p), lineno - 1);
			break;
		}
		*nl = '\0';
		if (add_line(l, p, (size_t)(nl - p), lineno, cause, clen) ==
		    -1) {
			if (l->n == 0)
				free(data);
			return -1;
		}
	}
	if (l->n == 0) {
		free(data);
		snprintf(cause, clen, "%s: %s", path, l->torn ?
		    "not a match log (its only line is torn)" : "empty log");
		return -1;
	}
	if (strcmp(l->r[0].type, "header") != 0) {
		snprintf(cause, clen, "%s: not a cardarena match log (its first "
		    "line is a \"%s\", not the header)", path, l->r[0].type);
		return -1;
	}
	l->header = l->r[0].j;
	v = json_object_get(l->header, "log_format");
	if (!json_is_integer(v)) {
		snprintf(cause, clen, "%s: the header names no log format "
		    "version (\"log_format\")", path);
		return -1;
	}
	if (json_integer_value(v) != REPLAY_LOG_FORMAT) {
		snprintf(cause, clen, "%s: log format version %" JSON_INTEGER_FORMAT
		    " is unknown (this replay reads version %d)", path,
		    json_integer_value(v), REPLAY_LOG_FORMAT);
		return -1;
	}
	return 0;
}

void
rlog_free(struct rlog *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		json_decref(l->r[i].j);
		free(l->r[i].msg);
	}
	if (l->n > 0)
		free(l->r[0].text);
	free(l->r);
	free(l->path);
	memset(l, 0, sizeof *l);
}

const char *
rlog_msg(const struct rrec *r, size_t *len)
{
	const char *p;

	if (r->msg != NULL) {
		*len = r->msglen;
		return r->msg;
	}
	if ((p = strstr(r->text, MSG_KEY)) == NULL || r->len < 2 ||
	    r->text[r->len - 1] != '}') {
		*len = 0;
		return "";
	}
	p += strlen(MSG_KEY);
	*len = (size_t)(r->text + r->len - 1 - p);
	return p;
}

int
rlog_is_log(const char *path)
{
	static const char head[] = "{\"type\":\"header\"";
	char buf[sizeof head];
	FILE *fp;
	size_t n;

	if ((fp = fopen(path, "r")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof head - 1, fp);
	fclose(fp);
	return n == sizeof head - 1 && memcmp(buf, head, n) == 0;
}

char *
rlog_headless(const char *path)
{
	FILE *fp;
	json_t *j;
	char *line = NULL, *why = NULL;
	const char *t, *d;
	size_t cap = 0;

	if ((fp = fopen(path, "r")) == NULL)
		return NULL;
	if (getline(&line, &cap, fp) != -1 && strncmp(line, "{\"type\":", 8) ==
	    0 && (j = json_loads(line, 0, NULL)) != NULL) {
		t = json_string_value(json_object_get(j, "type"));
		d = json_string_value(json_object_get(j, "detail"));
		if (t != NULL && (strcmp(t, "aborted") == 0 ||
		    strcmp(t, "error") == 0))
			why = xstrdup(d != NULL ? d : t);
		json_decref(j);
	}
	free(line);
	fclose(fp);
	return why;
}

const char *
rlog_msg_type(const struct rrec *r)
{
	const char *t;

	if (strcmp(r->type, "send") != 0)
		return "";
	if ((t = json_string_value(json_object_get(json_object_get(r->j,
	    "msg"), "type"))) == NULL && (t = json_string_value(
	    json_object_get(r->j, "kind"))) == NULL)
		return "";
	return t;
}

long
rlog_int(const json_t *j, const char *key, long def)
{
	const json_t *v = json_object_get(j, key);

	return json_is_integer(v) ? (long)json_integer_value(v) : def;
}
