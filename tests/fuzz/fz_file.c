/*
 * The memory file behind the path-taking fuzz targets (see fz.h): a memfd
 * rewritten for every input, named through /proc/self/fd.
 */
#include <sys/mman.h>

#include <stdio.h>
#include <unistd.h>

#include "fz.h"

int
fz_file(const uint8_t *data, size_t n, void (*load)(const char *))
{
	static int fd = -1;
	char path[64];
	size_t off;
	ssize_t k;

	if (fd == -1 && (fd = memfd_create("fz", 0)) == -1)
		return 0;
	if (ftruncate(fd, 0) == -1 || lseek(fd, 0, SEEK_SET) == -1)
		return 0;
	for (off = 0; off < n; off += (size_t)k)
		if ((k = write(fd, data + off, n - off)) <= 0)
			return 0;
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	load(path);
	return 0;
}
