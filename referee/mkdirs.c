/*
 * Making a directory and its parents (mkdirs.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <string.h>

#include "mkdirs.h"

/* Makes path and the directories above it; see mkdirs.h. */
int
mkdirs(const char *path)
{
	char p[PATH_MAX], *s;

	if (strlcpy(p, path, sizeof p) >= sizeof p) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0755) == -1 && errno != EEXIST)
				return -1;
			*s = '/';
			continue;
		}
		return mkdir(p, 0755) == -1 && errno != EEXIST ? -1 : 0;
	}
}
