/*
 * The match log writer; see log.h.  The format of each line is documented
 * in protocol.md ("The match log").
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"

int
mlog_open(struct mlog *l, const char *path, char *cause, size_t len)
{
	memset(l, 0, sizeof *l);
	l->fd = -1;
	if (path == NULL)
		return 0;
	/* 0600, even over an older file: no bot may read it (SECURITY.md) */
	if ((l->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1 || fchmod(l->fd, 0600) == -1) {
		snprintf(cause, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int
mlog_on(const struct mlog *l)
{
	return l->fd != -1;
}

struct buf *
mlog_begin(struct mlog *l, const char *type)
{
	buf_str(&l->b, "{\"type\":\"");
	buf_str(&l->b, type);
	buf_add(&l->b, "\"", 1);
	return &l->b;
}

void
mlog_end(struct mlog *l)
{
	buf_add(&l->b, "}\n", 2);
}

void
mlog_send(struct mlog *l, int64_t t, int bot, const char *msg, size_t len)
{
	struct buf *b;

	if (!mlog_on(l))
		return;
	if (len > 0 && msg[len - 1] == '\n')
		len--;
	b = mlog_begin(l, "send");
	buf_str(b, ",\"t\":");
	buf_int(b, t);
	buf_str(b, ",\"bot\":");
	buf_int(b, bot);
	buf_str(b, ",\"msg\":");
	buf_add(b, msg, len);
	mlog_end(l);
}

void
mlog_recv(struct mlog *l, int64_t t, int bot, const char *line, size_t len,
    int truncated)
{
	struct buf *b;

	if (!mlog_on(l))
		return;
	b = mlog_begin(l, "recv");
	buf_str(b, ",\"t\":");
	buf_int(b, t);
	buf_str(b, ",\"bot\":");
	buf_int(b, bot);
	buf_str(b, ",\"line\":");
	buf_jstr(b, line, len);
	if (truncated)
		buf_str(b, ",\"truncated\":true");
	mlog_end(l);
}

void
mlog_prepend(struct mlog *l, const char *line, size_t len)
{
	buf_reserve(&l->b, len);
	memmove(l->b.p + len, l->b.p, l->b.len + 1);
	memcpy(l->b.p, line, len);
	l->b.len += len;
}

int
mlog_flush(struct mlog *l)
{
	size_t off = 0;
	ssize_t n;

	if (l->fd == -1 || l->hold) {
		if (l->fd == -1)
			l->b.len = 0;
		return 0;
	}
	while (off < l->b.len) {
		n = write(l->fd, l->b.p + off, l->b.len - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(l->error, sizeof l->error, "log: %s",
			    n == 0 ? "short write" : strerror(errno));
			l->b.len = 0;
			return -1;
		}
		off += (size_t)n;
	}
	l->b.len = 0;
	return 0;
}

int
mlog_close(struct mlog *l)
{
	int rc;

	l->hold = 0;
	rc = mlog_flush(l);
	if (l->fd != -1 && close(l->fd) == -1 && rc == 0) {
		snprintf(l->error, sizeof l->error, "log: %s", strerror(errno));
		rc = -1;
	}
	l->fd = -1;
	buf_free(&l->b);
	return rc;
}
