/*
 * Entering a bot into the ladder: its directory copied into the ladder
 * (DIR/bots/NAME/vN: nothing followed out of it, within the ladder's
 * limits), its command made absolute, bin/botcheck run on the copy with
 * the ladder's game and limits (a bot that fails is refused with the
 * report), then its version entered in the store; and the inbox, whose
 * new entries are entered the same way, nothing in it followed.  Used by
 * the command line (ladder.c) and by a running ladder (ladder_run.c).
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "alloc.h"
#include "base/paths.h"
#include "base/tfile.h"
#include "cli.h"
#include "ladder/ladder_entry.h"
#include "ladder/ladder_store.h"
#include "proc.h"

/* A bot's copy under way: what it holds so far and what it may. */
struct walk {
	const struct llimits	*lim;
	long long		 bytes;
	long			 files;
	char			*cause;
	size_t			 len;
};

static int	 name_ok(const char *);
static int	 run_prog(char *const *, char **, size_t *);
static int	 link_inside(const char *, int);
static int	 copy_file(int, int, const char *, const struct stat *,
		    const char *, struct walk *);
static int	 copy_tree(int, int, const char *, int, struct walk *);
static int	 copy_dir(int, const char *, const char *,
		    const struct llimits *, char *, size_t);
static char	*abs_command(const char *);
static int	 check_bot(struct lstore *, const struct lentry *,
		    const char *, const char *, char *, size_t);
static int	 read_desc(int, json_t **, struct lentry *, char *, size_t);
static int	 inbox_entry(struct lstore *, const char *, int, const char *,
		    int);

/* A bot name: 1 to LNAME_MAX letters, digits, '_' and '-'. */
static int
name_ok(const char *s)
{
	size_t i;

	if (s[0] == '\0' || strlen(s) > LNAME_MAX || s[0] == '-')
		return 0;
	for (i = 0; s[i] != '\0'; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return 0;
	return 1;
}

/*
 * Runs argv (no shell), its stdout and stderr into a new string *out
 * when out is not NULL; returns its exit status, or -1.
 */
static int
run_prog(char *const *argv, char **out, size_t *outlen)
{
	FILE *tmp = NULL;
	pid_t pid;
	int status;
	long n;

	if (out != NULL && (tmp = tmpfile()) == NULL)
		return -1;
	/* the tree's one spawner; its output into tmp when asked */
	pid = proc_helper(argv, -1, tmp != NULL ? fileno(tmp) : -1,
	    tmp != NULL ? fileno(tmp) : -1, NULL);
	if (pid == -1) {
		if (tmp != NULL)
			fclose(tmp);
		return -1;
	}
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR)
			return -1;
	if (tmp != NULL) {
		n = ftell(tmp);
		*out = xcalloc((size_t)(n > 0 ? n : 0) + 1, 1);
		rewind(tmp);
		*outlen = fread(*out, 1, (size_t)(n > 0 ? n : 0), tmp);
		fclose(tmp);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * 1 if a symbolic link at depth depth of a bot's directory, to target,
 * stays inside it: relative, its ".." all leading and no more of them
 * than its depth (a ".." after a name could climb out of a link to a
 * directory above it).
 */
static int
link_inside(const char *target, int depth)
{
	const char *p = target;
	size_t n;
	int names = 0;

	if (target[0] == '/' || target[0] == '\0')
		return 0;
	while (*p != '\0') {
		n = strcspn(p, "/");
		if (n == 2 && strncmp(p, "..", 2) == 0) {
			if (names > 0 || --depth < 0)
				return 0;
		} else if (n > 0 && !(n == 1 && p[0] == '.'))
			names++;
		p += n;
		p += *p == '/';
	}
	return 1;
}

/*
 * Copies regular file name of sfd (sb its lstat, counted already) into
 * dfd, no more than its size then; -1 and a cause in w.
 */
static int
copy_file(int sfd, int dfd, const char *name, const struct stat *sb,
    const char *path, struct walk *w)
{
	struct stat fb;
	char buf[65536];
	off_t left = sb->st_size;
	ssize_t n = 0;
	int in, out = -1, rc = -1;

	in = openat(sfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (in == -1 || fstat(in, &fb) == -1 || fb.st_ino != sb->st_ino ||
	    fb.st_dev != sb->st_dev) {
		snprintf(w->cause, w->len, "%s: %s", path, in == -1 ?
		    strerror(errno) : "changed while copied");
		goto out;
	}
	out = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, (sb->st_mode & 0755) | 0644);
	if (out == -1) {
		snprintf(w->cause, w->len, "%s: %s", path, strerror(errno));
		goto out;
	}
	while (left > 0 && (n = read(in, buf, (size_t)(left < (off_t)sizeof
	    buf ? left : (off_t)sizeof buf))) > 0) {
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
		left -= n;
	}
	if (n == -1)
		snprintf(w->cause, w->len, "%s: %s", path, strerror(errno));
	else if (left > 0 || read(in, buf, 1) != 0)
		snprintf(w->cause, w->len, "%s: changed while copied", path);
	else
		rc = 0;
out:
	if (out != -1 && close(out) == -1 && rc == 0) {
		snprintf(w->cause, w->len, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (in != -1)
		close(in);
	return rc;
}

/*
 * Copies directory sfd into dfd (both open; rel its path in the bot's
 * directory, depth its depth) within w's limits: directories, regular
 * files of one link, and symbolic links that stay inside (link_inside);
 * anything else refuses the bot.  -1 and a cause in w.
 */
static int
copy_tree(int sfd, int dfd, const char *rel, int depth, struct walk *w)
{
	DIR *d;
	struct dirent *de;
	struct stat sb;
	char *path, target[PATH_MAX];
	ssize_t n;
	int fd, sub, dsub, rc = 0;

	if ((fd = dup(sfd)) == -1 || (d = fdopendir(fd)) == NULL) {
		snprintf(w->cause, w->len, "%s: %s", rel, strerror(errno));
		if (fd != -1)
			close(fd);
		return -1;
	}
	while (rc == 0 && (errno = 0, de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") ==
		    0)
			continue;
		if (asprintf(&path, "%s%s%s", rel, rel[0] != '\0' ? "/" : "",
		    de->d_name) == -1)
			abort();
		rc = -1;
		if (fstatat(sfd, de->d_name, &sb, AT_SYMLINK_NOFOLLOW) == -1)
			snprintf(w->cause, w->len, "%s: %s", path,
			    strerror(errno));
		else if (++w->files > w->lim->files)
			snprintf(w->cause, w->len, "more than %ld files (the "
			    "ladder's bot_max_files)", w->lim->files);
		else if (S_ISREG(sb.st_mode) && (w->bytes += sb.st_size) >
		    w->lim->bytes)
			snprintf(w->cause, w->len, "more than %lld bytes (the "
			    "ladder's bot_max_bytes)", w->lim->bytes);
		else if (S_ISREG(sb.st_mode) && sb.st_nlink > 1)
			snprintf(w->cause, w->len, "%s: a hard link (copy the "
			    "file itself into the bot's directory)", path);
		else if (S_ISREG(sb.st_mode))
			rc = copy_file(sfd, dfd, de->d_name, &sb, path, w);
		else if (S_ISLNK(sb.st_mode)) {
			n = readlinkat(sfd, de->d_name, target, sizeof target -
			    1);
			target[n > 0 ? n : 0] = '\0';
			if (n <= 0 || !link_inside(target, depth))
				snprintf(w->cause, w->len, "%s: a symbolic link "
				    "to %s, outside the bot's directory", path,
				    target);
			else if (symlinkat(target, dfd, de->d_name) == -1)
				snprintf(w->cause, w->len, "%s: %s", path,
				    strerror(errno));
			else
				rc = 0;
		} else if (!S_ISDIR(sb.st_mode))
			snprintf(w->cause, w->len, "%s: not a file, a directory "
			    "or a symbolic link", path);
		else if (depth >= 64)
			snprintf(w->cause, w->len, "%s: deeper than 64 "
			    "directories", path);
		else if ((sub = openat(sfd, de->d_name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC)) == -1 || mkdirat(dfd, de->d_name,
		    0755) == -1 || (dsub = openat(dfd, de->d_name, O_RDONLY |
		    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) == -1) {
			snprintf(w->cause, w->len, "%s: %s", path,
			    strerror(errno));
			if (sub != -1)
				close(sub);
		} else {
			rc = copy_tree(sub, dsub, path, depth + 1, w);
			close(sub);
			close(dsub);
		}
		free(path);
	}
	if (rc == 0 && errno != 0) {
		snprintf(w->cause, w->len, "%s: %s", rel, strerror(errno));
		rc = -1;
	}
	closedir(d);
	return rc;
}

/*
 * Copies the directory open as from (named name, for messages) into to
 * (made anew) within the ladder's limits; -1 and a cause.
 */
static int
copy_dir(int from, const char *name, const char *to,
    const struct llimits *lim, char *cause, size_t len)
{
	struct walk w;
	char reason[1024];
	int dfd, rc;

	if (mkdirs(to) == -1 || (dfd = open(to, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC)) == -1) {
		snprintf(cause, len, "%s: %s", to, strerror(errno));
		return -1;
	}
	memset(&w, 0, sizeof w);
	w.lim = lim;
	w.cause = reason;
	w.len = sizeof reason;
	rc = copy_tree(from, dfd, "", 0, &w);
	close(dfd);
	if (rc == -1)
		snprintf(cause, len, "%s: %s", name, reason);
	/* the bots may run as users of their own: let them read it */
	chmod(to, 0755);
	return rc;
}

/*
 * The command with every word that is a relative path naming something
 * here (its program, a script it runs) made absolute: a bot without a
 * directory runs wherever the ladder runs.  A new string.
 */
static char *
abs_command(const char *cmd)
{
	char *word, *real, *out = xstrdup(""), *x;
	const char *p = cmd;
	size_t n;

	while (*p != '\0') {
		n = strcspn(p, " \t");
		word = strndup(p, n);
		if (word == NULL)
			abort();
		real = NULL;
		if (word[0] != '/' && strchr(word, '/') != NULL &&
		    strpbrk(word, "'\"\\$`") == NULL)
			real = realpath(word, NULL);
		n += strspn(p + n, " \t");
		if (asprintf(&x, "%s%s%.*s", out, real != NULL ? real : word,
		    (int)(n - strlen(word)), p + strlen(word)) == -1)
			abort();
		free(out);
		out = x;
		free(word);
		free(real);
		p += n;
	}
	return out;
}

/*
 * Runs bin/botcheck on a bot about to be entered (copy its copy or NULL,
 * cmd its command) with the ladder's game and time limits; -1 and a
 * cause (its report when it failed).
 */
static int
check_bot(struct lstore *s, const struct lentry *e, const char *copy,
    const char *cmd, char *cause, size_t len)
{
	struct tour t;
	const char *key;
	json_t *val;
	char *check, **argv, **envs, *out = NULL, num[3][32];
	size_t olen = 0, ne;
	int ac = 0, status;

	if (ladder_tour(s, NULL, 0, &t, cause, len) == -1) {
		tour_free(&t);
		return -1;
	}
	ne = e->env != NULL ? json_object_size(e->env) : 0;
	argv = xcalloc(32 + 2 * ne, sizeof *argv);
	envs = xcalloc(ne + 1, sizeof *envs);
	check = beside_self("botcheck");
	argv[ac++] = check;
	argv[ac++] = (char *)"-g";
	argv[ac++] = t.game;
	if (t.time_per_move > 0) {
		snprintf(num[0], sizeof num[0], "%ld", t.time_per_move);
		argv[ac++] = (char *)"--time-per-move";
		argv[ac++] = num[0];
	}
	if (t.time_hello > 0) {
		snprintf(num[1], sizeof num[1], "%ld", t.time_hello);
		argv[ac++] = (char *)"--time-hello";
		argv[ac++] = num[1];
	}
	if (t.time_bank > 0) {
		snprintf(num[2], sizeof num[2], "%ld", t.time_bank);
		argv[ac++] = (char *)"--time-bank";
		argv[ac++] = num[2];
	}
	if (copy != NULL) {
		argv[ac++] = (char *)"--dir";
		argv[ac++] = (char *)copy;
	}
	ne = 0;
	if (e->env != NULL)
		json_object_foreach(e->env, key, val) {
			if (asprintf(&envs[ne], "%s=%s", key,
			    json_string_value(val)) == -1)
				abort();
			argv[ac++] = (char *)"--env";
			argv[ac++] = envs[ne++];
		}
	argv[ac++] = (char *)"--";
	argv[ac++] = (char *)cmd;
	argv[ac] = NULL;
	status = run_prog(argv, &out, &olen);
	/* the strings made here, apart from argv (which holds constants) */
	while (ne > 0)
		free(envs[--ne]);
	free(envs);
	free(argv);
	free(check);
	tour_free(&t);
	if (status != 0)
		snprintf(cause, len, "%s failed bin/botcheck and is not "
		    "entered:\n%s", e->name, out != NULL ? out : "");
	free(out);
	return status == 0 ? 0 : -1;
}

/*
 * Enters a bot (update: a new version of one entered before): copies its
 * directory, runs botcheck on the copy, records it.  -1 and a cause (the
 * botcheck report when it failed).
 */
int
ladder_enter(struct lstore *s, const struct lentry *e, int update, char *cause,
    size_t len)
{
	struct lversion *v;
	struct llimits lim;
	const char *key;
	json_t *val;
	char *copy = NULL, *cmd, *rel = NULL;
	int n, i, active = 0, ver, rc = -1;

	if (!name_ok(e->name)) {
		snprintf(cause, len, "%s: a bot's name is 1 to %d letters, "
		    "digits, '_' and '-' (not first)", e->name, LNAME_MAX);
		return -1;
	}
	if (e->env != NULL && !json_is_object(e->env)) {
		snprintf(cause, len, "\"env\": an object of strings");
		return -1;
	}
	if (e->env != NULL)
		json_object_foreach(e->env, key, val)
			if (!json_is_string(val) || key[0] == '\0' ||
			    strchr(key, '=') != NULL) {
				snprintf(cause, len, "\"env\": an object of "
				    "strings, keys without '='");
				return -1;
			}
	if (lstore_limits(s, &lim, cause, len) == -1)
		return -1;
	if (lstore_versions(s, &v, &n, cause, len) == -1)
		return -1;
	for (i = 0; i < n; i++)
		if (strcmp(v[i].bot_name, e->name) == 0 && v[i].active)
			active = 1;
	cmd = NULL;
	for (i = n - 1; i >= 0 && e->command == NULL; i--)
		if (strcmp(v[i].bot_name, e->name) == 0) {
			cmd = xstrdup(v[i].command);
			break;
		}
	lversions_free(v, n);
	if (!update && active) {
		snprintf(cause, len, "%s is in the ladder already (a new "
		    "version: tournament ladder update)", e->name);
		free(cmd);
		return -1;
	}
	if (update && lstore_next_version(s, e->name) == 1) {
		snprintf(cause, len, "no bot called %s (enter it with "
		    "tournament ladder add)", e->name);
		free(cmd);
		return -1;
	}
	if (e->command == NULL && cmd == NULL) {
		snprintf(cause, len, "%s: give its command (-c)", e->name);
		return -1;
	}
	if (update && e->command == NULL && e->dir == NULL) {
		snprintf(cause, len, "%s: a new version needs a new command "
		    "(-c) or directory (--dir)", e->name);
		free(cmd);
		return -1;
	}
	if (e->command != NULL) {
		free(cmd);
		cmd = e->dir != NULL ? xstrdup(e->command) :
		    abs_command(e->command);
	}
	ver = lstore_next_version(s, e->name);
	if (e->dir != NULL) {
		/* the store keeps it relative to the ladder (it may move) */
		if (asprintf(&rel, "bots/%s/v%d", e->name, ver) == -1 ||
		    asprintf(&copy, "%s/%s", s->dir, rel) == -1)
			abort();
		if (copy_dir(e->dirfd, e->dir, copy, &lim, cause, len) == -1)
			goto out;
		free(cmd);
		cmd = xstrdup(e->command != NULL ? e->command : "");
		if (e->command == NULL) {
			/* the last version's command, in the new copy */
			lstore_versions(s, &v, &n, cause, len);
			for (i = n - 1; i >= 0; i--)
				if (strcmp(v[i].bot_name, e->name) == 0) {
					free(cmd);
					cmd = xstrdup(v[i].command);
					break;
				}
			lversions_free(v, n);
		}
	}
	if (check_bot(s, e, copy, cmd, cause, len) == -1)
		goto out;
	if ((ver = lstore_add_version(s, e->name, e->owner, cmd, rel, e->env,
	    cause, len)) == -1)
		goto out;
	rc = ver;
out:
	if (rc == -1 && copy != NULL) {
		char *rmv[4] = { (char *)"rm", (char *)"-rf", copy, NULL };

		run_prog(rmv, NULL, NULL);
	}
	free(copy);
	free(rel);
	free(cmd);
	return rc;
}

/* Opens e's directory, if it has one, as e->dirfd; -1 and a cause. */
int
lentry_open(struct lentry *e, char *cause, size_t len)
{
	e->dirfd = -1;
	if (e->dir != NULL && (e->dirfd = open(e->dir, O_RDONLY |
	    O_DIRECTORY | O_CLOEXEC)) == -1) {
		snprintf(cause, len, "--dir %s: not a directory (%s)", e->dir,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Reads the description of inbox entry sub (open) into e (its strings in
 * *j, the caller's); 0 when there is none (not an entry), 1 when read,
 * -1 and a cause that says nothing of the file's content.
 */
static int
read_desc(int sub, json_t **j, struct lentry *e, char *cause, size_t len)
{
	struct stat sb;
	json_error_t je;
	char *text, *near;
	ssize_t n;
	int fd;

	*j = NULL;
	fd = openat(sub, LDESC_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC);
	if (fd == -1 && errno == ENOENT)
		return 0;
	if (fd == -1 || fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    sb.st_nlink != 1) {
		snprintf(cause, len, "%s: not a regular file of its own",
		    LDESC_NAME);
		if (fd != -1)
			close(fd);
		return -1;
	}
	if (sb.st_size > LDESC_MAX) {
		snprintf(cause, len, "%s: over %d bytes", LDESC_NAME,
		    LDESC_MAX);
		close(fd);
		return -1;
	}
	text = xmalloc(LDESC_MAX + 1);
	n = read(fd, text, LDESC_MAX + 1);
	close(fd);
	if (n < 0 || n > LDESC_MAX) {
		snprintf(cause, len, "%s: %s", LDESC_NAME, n < 0 ?
		    strerror(errno) : "grew while read");
		free(text);
		return -1;
	}
	*j = json_loadb(text, (size_t)n, JSON_REJECT_DUPLICATES, &je);
	free(text);
	if (*j == NULL) {
		/* jansson quotes the text near the error: not that */
		if ((near = strstr(je.text, " near ")) != NULL)
			*near = '\0';
		snprintf(cause, len, "%s: line %d: %s", LDESC_NAME, je.line,
		    je.text);
		return -1;
	}
	memset(e, 0, sizeof *e);
	e->name = json_string_value(json_object_get(*j, "name"));
	e->command = json_string_value(json_object_get(*j, "command"));
	e->owner = json_string_value(json_object_get(*j, "owner"));
	e->env = json_object_get(*j, "env");
	if (e->name == NULL || e->command == NULL ||
	    (json_object_get(*j, "owner") != NULL && e->owner == NULL)) {
		snprintf(cause, len, "%s: needs \"name\" and \"command\" "
		    "strings (and \"owner\" a string)", LDESC_NAME);
		return -1;
	}
	return 1;
}

/*
 * Enters inbox entry name (a directory of inbox, open as ifd) if it is
 * new, and writes its ladder.txt; 1 if entered, 0 if not an entry or
 * seen before, -1 if refused.  Nothing there is followed: the entry,
 * its bot.json and ladder.txt are opened under ifd without symlinks.
 */
static int
inbox_entry(struct lstore *s, const char *inbox, int ifd, const char *name,
    int flags)
{
	struct stat sb;
	struct lentry e;
	json_t *j = NULL;
	char *sub, cause[65536];
	int fd, mark, ver = -1, rc;

	if ((fd = openat(ifd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		return 0;
	if (asprintf(&sub, "%s/%s", inbox, name) == -1)
		abort();
	if (fstatat(fd, "ladder.txt", &sb, AT_SYMLINK_NOFOLLOW) == 0) {
		if (!S_ISREG(sb.st_mode) && (flags & LINBOX_SKIPS))
			warnx("%s: ladder.txt is not a regular file; skipped",
			    sub);
		rc = 0;
		goto out;
	}
	if ((rc = read_desc(fd, &j, &e, cause, sizeof cause)) == 0)
		goto out;
	if (rc == 1) {
		e.dir = sub;
		e.dirfd = fd;
		ver = ladder_enter(s, &e, lstore_next_version(s, e.name) > 1, cause,
		    sizeof cause);
	}
	/* made anew, never through a link planted in its place */
	if ((mark = openat(fd, "ladder.txt", O_WRONLY | O_CREAT | O_EXCL |
	    O_NOFOLLOW | O_CLOEXEC, 0644)) == -1)
		warn("%s/ladder.txt", sub);
	else {
		if (ver == -1)
			dprintf(mark, "refused: %s\n", cause);
		else
			dprintf(mark, "entered as %s.v%d\n", e.name, ver);
		close(mark);
	}
	if (ver == -1) {
		warnx("%s: refused: %s", sub, cause);
		rc = -1;
	} else {
		rc = 1;
		if (!(flags & LINBOX_QUIET))
			printf("%s: entered as %s.v%d\n", sub, e.name, ver);
	}
out:
	json_decref(j);
	close(fd);
	free(sub);
	return rc;
}

/* Enters the new bots of an inbox; see ladder_entry.h. */
int
ladder_inbox(struct lstore *s, const char *inbox, int flags)
{
	DIR *d;
	struct dirent *de;
	int ifd, n = 0;

	if ((ifd = open(inbox, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    (d = fdopendir(dup(ifd))) == NULL) {
		warn("%s", inbox);
		if (ifd != -1)
			close(ifd);
		return -1;
	}
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.' && inbox_entry(s, inbox, ifd,
		    de->d_name, flags) == 1)
			n++;
	closedir(d);
	close(ifd);
	return n;
}

