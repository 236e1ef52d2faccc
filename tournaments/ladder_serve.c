/*
 * tournament ladder serve: the ladder's site over HTTP with libmicrohttpd,
 * read-only, on 127.0.0.1 only.  GET and HEAD of a file under DIR/site (the
 * current generation, "/" its index.html) or under DIR/logs (the match logs
 * and their replays, which the site links as ../logs/...); nothing else:
 * no directory listings, no path with a "." segment or a NUL, no symlink
 * out of those two trees (the path is resolved and must stay inside).
 */
#include <sys/stat.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <microhttpd.h>

#include "ladder.h"

struct server {
	char	*site;		/* DIR/site */
	char	*logs;		/* DIR/logs */
};

static enum MHD_Result answer(void *, struct MHD_Connection *, const char *,
		    const char *, const char *, const char *, size_t *,
		    void **);
static enum MHD_Result plain(struct MHD_Connection *, unsigned,
		    const char *);
static const char *mime(const char *);
static int	 inside(const char *, const char *);

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

	r = MHD_create_response_from_buffer(strlen(text), (void *)text,
	    MHD_RESPMEM_PERSISTENT);
	MHD_add_response_header(r, "Content-Type", "text/plain");
	rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
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
	char *path, *real, *root;
	const char *rest;
	enum MHD_Result rc;
	int fd;

	(void)version;
	(void)upload;
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return plain(c, MHD_HTTP_METHOD_NOT_ALLOWED, "read-only\n");
	if (*upsize != 0)
		return MHD_NO;
	*state = NULL;
	/* the replay pages name no icon: no error for the browser's guess */
	if (strcmp(url, "/favicon.ico") == 0)
		return plain(c, MHD_HTTP_NO_CONTENT, "");
	if (url[0] != '/' || strstr(url, "/.") != NULL)
		return plain(c, MHD_HTTP_NOT_FOUND, "not found\n");
	if (strncmp(url, "/logs/", 6) == 0) {
		root = sv->logs;
		rest = url + 6;
	} else {
		root = sv->site;
		rest = url + 1;
	}
	if (asprintf(&path, "%s/%s%s", root, rest, rest[0] == '\0' ||
	    rest[strlen(rest) - 1] == '/' ? "index.html" : "") == -1)
		abort();
	real = realpath(path, NULL);
	free(path);
	/* the site is a symlink to its current generation: resolve it too */
	path = realpath(root, NULL);
	if (real == NULL || path == NULL || !inside(real, path) ||
	    (fd = open(real, O_RDONLY | O_CLOEXEC)) == -1) {
		free(real);
		free(path);
		return plain(c, MHD_HTTP_NOT_FOUND, "not found\n");
	}
	free(path);
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode)) {
		close(fd);
		free(real);
		return plain(c, MHD_HTTP_NOT_FOUND, "not found\n");
	}
	r = MHD_create_response_from_fd((uint64_t)sb.st_size, fd);
	MHD_add_response_header(r, "Content-Type", mime(real));
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "Cache-Control", "no-cache");
	rc = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	free(real);
	return rc;
}

/* Serves the site; see ladder.h. */
int
ladder_serve(const char *dir, int port, char *cause, size_t len)
{
	struct server sv;
	struct MHD_Daemon *d;
	struct sockaddr_in sin;
	const union MHD_DaemonInfo *info;
	sigset_t set;
	int sig;

	if (asprintf(&sv.site, "%s/site", dir) == -1 ||
	    asprintf(&sv.logs, "%s/logs", dir) == -1)
		abort();
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
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
	    MHD_USE_ERROR_LOG, (uint16_t)port, NULL, NULL, answer, &sv,
	    MHD_OPTION_SOCK_ADDR, &sin, MHD_OPTION_CONNECTION_TIMEOUT,
	    (unsigned)30, MHD_OPTION_END);
	if (d == NULL) {
		snprintf(cause, len, "cannot serve on 127.0.0.1:%d (in use?)",
		    port);
		free(sv.site);
		free(sv.logs);
		return -1;
	}
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	printf("serving %s on http://127.0.0.1:%u/\n", dir,
	    info != NULL ? (unsigned)info->port : (unsigned)port);
	fflush(stdout);
	while (sigwait(&set, &sig) != 0)
		;
	MHD_stop_daemon(d);
	free(sv.site);
	free(sv.logs);
	return 0;
}
