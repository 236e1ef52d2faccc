/*
 * Making a directory and the directories above it: the one owner, for the
 * sandbox's mount points (nsbox.c, in a child of the referee, so it
 * allocates nothing) and the runners' output, log and spool directories
 * (tournaments/).
 */
#ifndef CARDARENA_MKDIRS_H
#define CARDARENA_MKDIRS_H

/* Makes path and its parents (mode 0755 less the umask); one there
 * already does.  0, or -1 with errno (ENAMETOOLONG past PATH_MAX). */
int	 mkdirs(const char *path);

#endif
