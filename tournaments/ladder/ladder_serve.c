/*
 * tournament ladder serve: the ladder's published site over HTTP with
 * libmicrohttpd, read-only, on 127.0.0.1 only.  GET and HEAD of a file
 * under DIR/site (the current generation, "/" its index.html) or of a
 * table's log or replay under DIR/logs (tNNNNNN.jsonl and .jsonl.html,
 * and a job's copied there, tNNNNNN.bBBBBBB.NAME.jsonl and .html, which
 * the site links as ../logs/...) once the store says the table has
 * ended; nothing else: no directory listing, no stderr file, no log of a
 * table in play (it holds every hidden card), no path with a "." segment
 * or a control character (a %00 is refused, not cut), no symlink out of
 * the site.  Any local user may connect: each client (address) has at
 * most SERVE_PER_IP connections, all of them SERVE_CONNS, and an idle one
 * is closed after a few seconds (LSERVE_IDLE by default), so idle
 * connections of one client cannot keep the others out.  libmicrohttpd
 * is loaded here (dlopen), not linked: every other command of
 * bin/tournament starts without it and the TLS libraries it pulls in.
 */
#include <sys/stat.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <ctype.h>
#include <dlfcn.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <microhttpd.h>
#include <sqlite3.h>

#include "ladder/ladder_run.h"
#include "ladder/ladder_serve.h"
#include "ladder/ladder_store.h"

#define SERVE_PER_IP	16	/* connections of one client */
#define SERVE_CONNS	512	/* connections in all */
#define SERVE_THREADS	2
#ifndef MHD_SONAME
#define MHD_SONAME	""		/* the Makefile reads it */
#endif

/* The functions of libmicrohttpd the server calls, once loaded. */
static struct {
	__typeof__(&MHD_start_daemon)		 start_daemon;
	__typeof__(&MHD_stop_daemon)		 stop_daemon;
	__typeof__(&MHD_get_daemon_info)	 get_daemon_info;
	__typeof__(&MHD_create_response_from_buffer) from_buffer;
	__typeof__(&MHD_create_response_from_fd) from_fd;
	__typeof__(&MHD_add_response_header)	 add_header;
	__typeof__(&MHD_queue_response)		 queue_response;
	__typeof__(&MHD_destroy_response)	 destroy_response;
} mhd;

struct server {
	char		*site;		/* DIR/site */
	int		 logs;		/* DIR/logs, open */
	struct lstore	*s;
	pthread_mutex_t	 lock;		/* of s */
};

static enum MHD_Result answer(void *, struct MHD_Connection *, const char *,
		    const char *, const char *, const char *, size_t *,
		    void **);
static enum MHD_Result plain(struct MHD_Connection *, unsigned,
		    const char *);
static const char *mime(const char *);
static int	 inside(const char *, const char *);
static size_t	 unescape(void *, struct MHD_Connection *, char *);
static int	 open_log(struct server *, const char *);
static int	 open_site(struct server *, const char *);
static int	 mhd_load(char *, size_t);

/* The content type of a file name. */
static const char *
mime(const char *path)
{
	static const struct { const char *ext, *type; } t[] = {
		{ ".html", "text/html; charset=utf-8" },
		{ ".txt", "text/plain; charset=utf-8" },
		{ ".jsonl", "text/plain; charset=utf-8" },
		{ ".json", "application/json" },
		{ ".svg", "image/svg+xml" },
		{ ".png", "image/png" },
		{ ".css", "text/css" },
		{ NULL, NULL }
	};
	size_t n = strlen(path), e;
	int i;

	for (i = 0; t[i].ext != NULL; i++) {
		e = strlen(t[i].ext);
		if (n > e && strcmp(path + n - e, t[i].ext) == 0)
			return t[i].type;
	}
	return "application/octet-stream";
}

/* 1 if the resolved path is root or below it. */
static int
inside(const char *path, const char *root)
{
	size_t n = strlen(root);

	return strncmp(path, root, n) == 0 && (path[n] == '/' ||
	    path[n] == '\0');
}

/* A short text answer with status. */
static enum MHD_Result
plain(struct MHD_Connection *c, unsigned status, const char *text)
{
	struct MHD_Response *r;
	enum MHD_Result rc;

	r = mhd.from_buffer(strlen(text), (void *)text,
	    MHD_RESPMEM_PERSISTENT);
	mhd.add_header(r, "Content-Type", "text/plain");
	rc = mhd.queue_response(c, status, r);
	mhd.destroy_response(r);
	return rc;
}

/*
 * Decodes the %HH of a URI in place, as libmicrohttpd's own unescaper
 * does, but a %00 becomes a control character that answer refuses (a
 * NUL would end the path early: "/index.html%00.txt" read as
 * "/index.html").
 */
static size_t
unescape(void *arg, struct MHD_Connection *c, char *s)
{
	char *w = s, hex[3] = { 0, 0, 0 };
	const char *r = s;
	long v;

	(void)arg;
	(void)c;
	while (*r != '\0') {
		if (r[0] == '%' && isxdigit((unsigned char)r[1]) &&
		    isxdigit((unsigned char)r[2])) {
			hex[0] = r[1];
			hex[1] = r[2];
			v = strtol(hex, NULL, 16);
			*w++ = v == 0 ? '\x01' : (char)v;
			r += 3;
		} else
			*w++ = *r++;
	}
	*w = '\0';
	return (size_t)(w - s);
}

/*
 * Opens a published log or replay, name under DIR/logs: a table's
 * tNNNNNN.jsonl or tNNNNNN.jsonl.html, or a job's copied there
 * (tNNNNNN.bBBBBBB.NAME.jsonl and .html: ladder_jobs.c), whose table has
 * ended; -1 if not.
 */
static int
open_log(struct server *sv, const char *name)
{
	sqlite3_stmt *st;
	char cause[256], *end;
	size_t n;
	long table;
	int ended = 0;

	if (name[0] != 't' || !isdigit((unsigned char)name[1]))
		return -1;
	table = strtol(name + 1, &end, 10);
	/* a job's: .bBBBBBB. and a name of its worker's (no '/', no '..') */
	n = strlen(end);
	if (n > 11 && strncmp(end, ".b", 2) == 0 &&
	    isdigit((unsigned char)end[2]) && strstr(end, "..") == NULL &&
	    strchr(end, '/') == NULL)
		end += n - (strcmp(end + n - 11, ".jsonl.html") == 0 ? 11 : 6);
	if (strcmp(end, ".jsonl") != 0 && strcmp(end, ".jsonl.html") != 0)
		return -1;
	pthread_mutex_lock(&sv->lock);
	if ((st = lstore_prep(sv->s, "SELECT ended IS NOT NULL FROM tables "
	    "WHERE id = ?", cause, sizeof cause)) != NULL) {
		sqlite3_bind_int64(st, 1, table);
		if (sqlite3_step(st) == SQLITE_ROW)
			ended = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	/* a replay not rendered yet is rendered when first asked for */
	if (ended && strcmp(end, ".jsonl.html") == 0 &&
	    ladder_replay(sv->s, table, cause, sizeof cause) == -1)
		warnx("%s", cause);
	pthread_mutex_unlock(&sv->lock);
	if (!ended)
		return -1;
	return openat(sv->logs, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC);
}

/* Opens a file of the site's current generation, rest its path; or -1. */
static int
open_site(struct server *sv, const char *rest)
{
	char *path, *real, *root;
	int fd = -1;

	if (asprintf(&path, "%s/%s%s", sv->site, rest, rest[0] == '\0' ||
	    rest[strlen(rest) - 1] == '/' ? "index.html" : "") == -1)
		abort();
	real = realpath(path, NULL);
	/* the site is a symlink to its current generation: resolve it too */
	root = realpath(sv->site, NULL);
	if (real != NULL && root != NULL && inside(real, root))
		fd = open(real, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	free(path);
	free(real);
	free(root);
	return fd;
}

/* Answers one request (see the top). */
static enum MHD_Result
answer(void *arg, struct MHD_Connection *c, const char *url,
    const char *method, const char *version, const char *upload,
    size_t *upsize, void **state)
{
	struct server *sv = arg;
	struct MHD_Response *r;
	struct stat sb;
	const char *p;
	enum MHD_Result rc;
	int fd;

	(void)version;
	(void)upload;
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return plain(c, MHD_HTTP_METHOD_NOT_ALLOWED, "read-only\n");
	if (*upsize != 0)
		return MHD_NO;
	*state = NULL;
	for (p = url; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return plain(c, MHD_HTTP_BAD_REQUEST, "bad path\n");
	/* the replay pages name no icon: no error for the browser's guess */
	if (strcmp(url, "/favicon.ico") == 0)
		return plain(c, MHD_HTTP_NO_CONTENT, "");
	if (url[0] != '/' || strstr(url, "/.") != NULL)
		return plain(c, MHD_HTTP_NOT_FOUND, "not found\n");
	if (strncmp(url, "/logs/", 6) == 0)
		fd = strchr(url + 6, '/') == NULL ? open_log(sv, url + 6) : -1;
	else
		fd = open_site(sv, url + 1);
	if (fd == -1 || fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode)) {
		if (fd != -1)
			close(fd);
		return plain(c, MHD_HTTP_NOT_FOUND, "not found\n");
	}
	r = mhd.from_fd((uint64_t)sb.st_size, fd);
	mhd.add_header(r, "Content-Type", mime(url[strlen(url) -
	    1] == '/' ? "index.html" : url));
	mhd.add_header(r, "X-Content-Type-Options", "nosniff");
	mhd.add_header(r, "Cache-Control", "no-cache");
	rc = mhd.queue_response(c, MHD_HTTP_OK, r);
	mhd.destroy_response(r);
	return rc;
}

/*
 * Loads libmicrohttpd (its soname, else its development link) and the
 * functions the server calls; -1 and a cause.
 */
static int
mhd_load(char *cause, size_t len)
{
	static const struct {
		const char	*name;
		size_t		 off;
	} fn[] = {
		{ "MHD_start_daemon", offsetof(__typeof__(mhd), start_daemon) },
		{ "MHD_stop_daemon", offsetof(__typeof__(mhd), stop_daemon) },
		{ "MHD_get_daemon_info",
		    offsetof(__typeof__(mhd), get_daemon_info) },
		{ "MHD_create_response_from_buffer",
		    offsetof(__typeof__(mhd), from_buffer) },
		{ "MHD_create_response_from_fd",
		    offsetof(__typeof__(mhd), from_fd) },
		{ "MHD_add_response_header",
		    offsetof(__typeof__(mhd), add_header) },
		{ "MHD_queue_response",
		    offsetof(__typeof__(mhd), queue_response) },
		{ "MHD_destroy_response",
		    offsetof(__typeof__(mhd), destroy_response) },
	};
	void *h = NULL, *f;
	size_t i;

	if (MHD_SONAME[0] != '\0')
		h = dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL)
		h = dlopen("libmicrohttpd.so", RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		snprintf(cause, len, "cannot load libmicrohttpd (%s): apt-get "
		    "install libmicrohttpd12", dlerror());
		return -1;
	}
	for (i = 0; i < sizeof fn / sizeof fn[0]; i++) {
		if ((f = dlsym(h, fn[i].name)) == NULL) {
			snprintf(cause, len, "libmicrohttpd: no %s",
			    fn[i].name);
			return -1;
		}
		memcpy((char *)&mhd + fn[i].off, &f, sizeof f);
	}
	return 0;
}

/* Serves the site; see ladder_serve.h. */
int
ladder_serve(struct lstore *s, int port, int idle, char *cause, size_t len)
{
	struct server sv;
	struct MHD_Daemon *d;
	struct sockaddr_in sin;
	const union MHD_DaemonInfo *info;
	sigset_t set;
	char *logs;
	int sig;

	if (mhd.start_daemon == NULL && mhd_load(cause, len) == -1)
		return -1;
	memset(&sv, 0, sizeof sv);
	sv.s = s;
	pthread_mutex_init(&sv.lock, NULL);
	if (asprintf(&sv.site, "%s/site", s->dir) == -1 ||
	    asprintf(&logs, "%s/logs", s->dir) == -1)
		abort();
	/* no logs yet: none served */
	sv.logs = open(logs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(logs);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	/* blocked before the server's threads start, so they inherit it */
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* epoll: no select() limit on descriptors; a pool of threads */
	d = mhd.start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD |
	    MHD_USE_ERROR_LOG, (uint16_t)port, NULL, NULL, answer, &sv,
	    MHD_OPTION_SOCK_ADDR, &sin,
	    MHD_OPTION_THREAD_POOL_SIZE, (unsigned)SERVE_THREADS,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_CONNS,
	    MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)SERVE_PER_IP,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)idle,
	    MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
	    MHD_OPTION_END);
	if (d == NULL) {
		snprintf(cause, len, "cannot serve on 127.0.0.1:%d (in use?)",
		    port);
		free(sv.site);
		if (sv.logs != -1)
			close(sv.logs);
		return -1;
	}
	info = mhd.get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	printf("serving %s on http://127.0.0.1:%u/\n", s->dir,
	    info != NULL ? (unsigned)info->port : (unsigned)port);
	fflush(stdout);
	while (sigwait(&set, &sig) != 0)
		;
	mhd.stop_daemon(d);
	free(sv.site);
	if (sv.logs != -1)
		close(sv.logs);
	pthread_mutex_destroy(&sv.lock);
	return 0;
}
