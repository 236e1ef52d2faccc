/*
 * The match log writer; see log.h.  The format of each line is documented
 * in protocol.md ("The match log").  The file's blocks are reserved a MiB
 * ahead of what is written (reserve()).
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
	struct stat st;

	memset(l, 0, sizeof *l);
	l->fd = -1;
	if (path == NULL)
		return 0;
	/*
	 * 0600, even over an older file: no bot may read it (SECURITY.md);
	 * but a device or a FIFO (--log /dev/null) is not ours to change:
	 * as root, a chmod of /dev/null would break every other user's
	 */
	if ((l->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1 || fstat(l->fd, &st) == -1 ||
	    ((l->special = !S_ISREG(st.st_mode)) == 0 &&
	    fchmod(l->fd, 0600) == -1)) {
		snprintf(cause, len, "%s: %s", path, strerror(errno));
		if (l->fd != -1)
			close(l->fd);
		l->fd = -1;
		return -1;
	}
	l->noahead = l->special;
	return 0;
}

int
mlog_on(const struct mlog *l)
{
	return l->fd != -1 && !l->capped;
}

/* Copies a literal to d; the end. */
#define PUT(d, lit)	(memcpy((d), (lit), sizeof(lit) - 1), (d) + sizeof(lit) - 1)
/* A literal and its length, as arguments. */
#define LIT(lit)	(lit), sizeof(lit) - 1

/*
 * Starts a line of a message sent or received, {"type":KIND,"n":N,"t":T,
 * "bot":B then key, in room for n more bytes: its fixed parts are one
 * literal each, the numbers written in place.  Returns where to go on.
 */
static char *
line_start(struct mlog *l, const char *kind, size_t klen, int64_t t, int bot,
    const char *key, size_t keylen, size_t n)
{
	char *d;

	buf_reserve(&l->b, klen + keylen + 3 * 21 + 16 + n);
	d = l->b.p + l->b.len;
	memcpy(d, kind, klen);
	d = put_int(d + klen, l->lines++);
	d = PUT(d, ",\"t\":");
	d = put_int(d, t);
	d = PUT(d, ",\"bot\":");
	d = put_int(d, bot);
	memcpy(d, key, keylen);
	return d + keylen;
}

/* Ends a line at d, started by line_start. */
static void
line_end(struct mlog *l, char *d)
{
	d = PUT(d, "}\n");
	*d = '\0';
	l->b.len = (size_t)(d - l->b.p);
}

void
mlog_send(struct mlog *l, int64_t t, int bot, const struct msgnote *note,
    const char *msg, size_t len)
{
	struct buf *b;
	char *d;

	if (!mlog_on(l))
		return;
	if (len > 0 && msg[len - 1] == '\n')
		len--;
	if (!l->lean) {
		d = line_start(l, LIT("{\"type\":\"send\",\"n\":"), t, bot,
		    LIT(",\"msg\":"), len);
		memcpy(d, msg, len);
		line_end(l, d + len);
		return;
	}
	b = mlog_begin(l, "send");
	buf_kint(b, ",\"t\":", t);
	buf_kint(b, ",\"bot\":", bot);
	buf_str(b, ",\"kind\":\"");
	buf_str(b, note->kind);
	buf_ch(b, '"');
	if (note->id >= 0) {
		buf_kint(b, ",\"id\":", note->id);
	} else if (strcmp(note->kind, "error") == 0)
		buf_str(b, ",\"id\":null");
	if (strcmp(note->kind, "request") == 0) {
		buf_kint(b, ",\"time_left_ms\":", note->tl);
	}
	mlog_end(l);
}

/* Returns 1 if s is UTF-8 without a NUL (a JSON string keeps it whole). */
static int
plain_text(const unsigned char *s, size_t n)
{
	size_t i, k, need;

	for (i = 0; i < n; i += k) {
		if (s[i] == 0)
			return 0;
		if (s[i] < 0x80) {
			k = 1;
			continue;
		}
		if (s[i] >= 0xc2 && s[i] <= 0xdf)
			need = 2;
		else if (s[i] >= 0xe0 && s[i] <= 0xef)
			need = 3;
		else if (s[i] >= 0xf0 && s[i] <= 0xf4)
			need = 4;
		else
			return 0;
		if (i + need > n)
			return 0;
		for (k = 1; k < need; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
		/* overlong forms, surrogates, past U+10FFFF */
		if ((s[i] == 0xe0 && s[i + 1] < 0xa0) ||
		    (s[i] == 0xed && s[i + 1] > 0x9f) ||
		    (s[i] == 0xf0 && s[i + 1] < 0x90) ||
		    (s[i] == 0xf4 && s[i + 1] > 0x8f))
			return 0;
	}
	return 1;
}

/* Appends n bytes as a base64 JSON string. */
static void
buf_base64(struct buf *b, const unsigned char *s, size_t n)
{
	static const char d[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char q[4];
	uint32_t v;
	size_t i;

	buf_ch(b, '"');
	for (i = 0; i < n; i += 3) {
		v = (uint32_t)s[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)s[i + 1] << 8;
		if (i + 2 < n)
			v |= s[i + 2];
		q[0] = d[v >> 18 & 63];
		q[1] = d[v >> 12 & 63];
		q[2] = i + 1 < n ? d[v >> 6 & 63] : '=';
		q[3] = i + 2 < n ? d[v & 63] : '=';
		buf_add(b, q, 4);
	}
	buf_ch(b, '"');
}

void
mlog_recv(struct mlog *l, int64_t t, int bot, const char *line, size_t len,
    int truncated)
{
	const unsigned char *u = (const unsigned char *)line;
	struct buf *b;
	size_t i, at = l->b.len;
	long n = l->lines;
	char *d;

	if (!mlog_on(l))
		return;
	/*
	 * Printable ASCII (an answer) is escaped as it is copied, as
	 * buf_jstr would; else the line is started again the long way.
	 */
	d = line_start(l, LIT("{\"type\":\"recv\",\"n\":"), t, bot,
	    LIT(",\"line\":\""), 2 * len + 32);
	for (i = 0; i < len && u[i] >= 0x20 && u[i] < 0x80; i++) {
		if (u[i] == '"' || u[i] == '\\')
			*d++ = '\\';
		*d++ = (char)u[i];
	}
	if (i == len) {
		*d++ = '"';
		if (truncated)
			d = PUT(d, ",\"truncated\":true");
		line_end(l, d);
		return;
	}
	l->b.len = at;
	l->b.p[at] = '\0';
	l->lines = n;
	b = mlog_begin(l, "recv");
	buf_kint(b, ",\"t\":", t);
	buf_kint(b, ",\"bot\":", bot);
	if (plain_text(u, len)) {
		buf_str(b, ",\"line\":");
		buf_jstr(b, line, len);
	} else {
		buf_str(b, ",\"line_base64\":");
		buf_base64(b, u, len);
	}
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

#define LOG_AHEAD	(1024 * 1024)	/* bytes reserved past the end at a time */

/*
 * Reserves the file's blocks for len more bytes, a MiB ahead, leaving its
 * size (all a reader sees) that of the lines written (FALLOC_FL_KEEP_SIZE):
 * a write into blocks found beforehand costs the kernel less (ext4: the
 * full log's writes, ~2.9 KB a decision, 2.35 -> 2.03 us).  A file that
 * cannot (a pipe, a device, a full disk) is written as without; what is
 * left past the end is given back at close (a killed referee leaves at most
 * a MiB reserved past its log's end, which a reader never sees).  Reserved
 * blocks are unwritten extents: the size on disk still grows only as the
 * lines reach it (ext4 updates it at writeback), so a crash of the machine
 * leaves what it did before, no zeros.
 */
static void
reserve(struct mlog *l, size_t len)
{
	long long want = l->written + (long long)len, to;

	if (l->noahead || want <= l->ahead)
		return;
	to = (want / LOG_AHEAD + 1) * LOG_AHEAD;
	if (l->max > 0 && to > l->max)
		to = l->max;
	if (to <= l->ahead || fallocate(l->fd, FALLOC_FL_KEEP_SIZE,
	    l->ahead, to - l->ahead) == -1)
		l->noahead = 1;
	else
		l->ahead = to;
}

/*
 * Writes len bytes of p whole; -1 (and l->error) on a write error.  What
 * went out counts in l->written, a failed write's part too (close trims
 * the file to it).
 */
static int
write_all(struct mlog *l, const char *p, size_t len)
{
	size_t off = 0;
	ssize_t n;

	reserve(l, len);
	while (off < len) {
		n = write(l->fd, p + off, len - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			l->error_no = n == 0 ? ENOSPC : errno;
			snprintf(l->error, sizeof l->error, "log: %s",
			    strerror(l->error_no));
			return -1;
		}
		off += (size_t)n;
		l->written += (long long)n;
	}
	return 0;
}

/*
 * Hits the cap: writes the whole lines that fit, then the log_capped line
 * (the cap keeps room for it); nothing is kept after.
 */
static int
mlog_cap(struct mlog *l)
{
	char mark[128], *nl;
	size_t keep = 0, room;
	int k;

	room = l->max - l->written > (long long)sizeof mark ?
	    (size_t)(l->max - l->written) - sizeof mark : 0;
	while (keep < l->b.len && (nl = memchr(l->b.p + keep, '\n',
	    l->b.len - keep)) != NULL && (size_t)(nl + 1 - l->b.p) <= room)
		keep = (size_t)(nl + 1 - l->b.p);
	l->capped = 1;
	k = snprintf(mark, sizeof mark, "{\"type\":\"log_capped\",\"max\":%lld,"
	    "\"bytes\":%lld}\n", l->max, l->written + (long long)keep);
	if (write_all(l, l->b.p, keep) == -1 ||
	    write_all(l, mark, (size_t)k) == -1) {
		l->b.len = 0;
		return -1;
	}
	l->b.len = 0;
	return 0;
}

int
mlog_pending(const struct mlog *l)
{
	return l->b.len > 0 && l->fd != -1 && !l->hold && !l->capped;
}

int
mlog_flush(struct mlog *l)
{
	int rc;

	if (l->fd == -1 || l->hold || l->capped) {
		if (l->fd == -1 || l->capped)
			l->b.len = 0;
		return 0;
	}
	if (l->max > 0 && l->written + (long long)l->b.len > l->max - 128)
		return mlog_cap(l);
	rc = write_all(l, l->b.p, l->b.len);
	l->b.len = 0;
	return rc;
}

int
mlog_close(struct mlog *l)
{
	int rc;

	l->hold = 0;
	rc = mlog_flush(l);
	/* the blocks reserved past the end back (on failure they stay) */
	if (l->fd != -1 && l->ahead > l->written)
		(void)ftruncate(l->fd, l->written);
	if (l->fd != -1 && close(l->fd) == -1 && rc == 0) {
		snprintf(l->error, sizeof l->error, "log: %s", strerror(errno));
		rc = -1;
	}
	l->fd = -1;
	buf_free(&l->b);
	return rc;
}
