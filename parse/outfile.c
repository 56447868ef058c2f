/*
 * outfile.c - checked, atomic output files (see outfile.h).
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int outfile_open(struct outfile *of, const char *path, struct strbuf *err)
{
	memset(of, 0, sizeof(*of));
	if (!path || !strcmp(path, "-")) {
		of->fd = 1;
		return 0;
	}
	of->path = xstrdup(path);
	struct strbuf t = STRBUF_INIT;
	strbuf_addf(&t, "%s.tmp.XXXXXX", path);
	of->tmp = t.buf;
	of->fd = mkstemp(of->tmp);
	if (of->fd < 0) {
		strbuf_addf(err, "%s: cannot create: %s", path, strerror(errno));
		free(of->tmp);
		free(of->path);
		of->tmp = of->path = NULL;
		return -1;
	}
	/* mkstemp makes 0600; a report is an ordinary file */
	mode_t um = umask(0);
	umask(um);
	(void)!fchmod(of->fd, 0666 & ~um); /* not fatal: the file is still written */
	return 0;
}

int outfile_write(struct outfile *of, const void *buf, size_t n)
{
	const char *p = buf;
	if (of->err)
		return -1;
	while (n) {
		ssize_t w = write(of->fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			of->err = errno;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

void outfile_abort(struct outfile *of)
{
	if (of->tmp) {
		close(of->fd);
		unlink(of->tmp);
	}
	free(of->tmp);
	free(of->path);
	of->tmp = of->path = NULL;
}

int outfile_close(struct outfile *of)
{
	if (!of->tmp)
		return of->err; /* standard output: every write was checked */
	if (!of->err && close(of->fd) != 0)
		of->err = errno;
	else if (of->err)
		close(of->fd);
	if (!of->err && rename(of->tmp, of->path) != 0)
		of->err = errno;
	if (of->err)
		unlink(of->tmp);
	free(of->tmp);
	free(of->path);
	of->tmp = of->path = NULL;
	return of->err;
}
