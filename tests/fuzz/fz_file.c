/*
 * The memory file behind the path-taking fuzz targets (see fz.h): a memfd
 * rewritten for every input, named through /proc/self/fd.
 */
#include <sys/mman.h>

#include <stdio.h>
#include <unistd.h>

#include "fz.h"

int
fz_file(const uint8_t *data, size_t n, char *path, size_t len)
{
	static int fd = -1;
	size_t off;
	ssize_t k;

	if (fd == -1 && (fd = memfd_create("fz", 0)) == -1)
		return -1;
	if (ftruncate(fd, 0) == -1 || lseek(fd, 0, SEEK_SET) == -1)
		return -1;
	for (off = 0; off < n; off += (size_t)k)
		if ((k = write(fd, data + off, n - off)) <= 0)
			return -1;
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return 0;
}
