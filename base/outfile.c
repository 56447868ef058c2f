/*
 * outfile.c - checked, atomic output files (see outfile.h).
 *
 * The anonymous file must be linked under a fresh name and then renamed
 * over the target: linkat cannot replace an existing file. The visible
 * name lives for two system calls.
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TMP_SUFFIX_LEN 11 /* ".tmp.XXXXXX" and ".tmp.%06x" */

/* The directory part of path ("." if none), into sb. */
static void dir_of(const char *path, struct strbuf *sb)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		strbuf_addstr(sb, ".");
	else if (slash == path)
		strbuf_addstr(sb, "/");
	else
		strbuf_add(sb, path, (size_t)(slash - path));
}

static void proc_fd_name(int fd, struct strbuf *sb)
{
	strbuf_addf(sb, "/proc/self/fd/%d", fd);
}

/*
 * An anonymous file in path's directory, or -1 where that cannot work: no
 * O_TMPFILE in the kernel or file system, or no /proc to link it through
 * (checked now, so that the commit does not fail for a reason known at
 * the start). Errors that a visible temporary file would meet too
 * (no directory, no permission) are left for it to report.
 */
static int open_anonymous(const char *path)
{
#ifdef O_TMPFILE
	const char *slash = strrchr(path, '/');
	/* a name too long for its ".tmp.XXXXXX" must fail now, not after the work */
	if (strlen(slash ? slash + 1 : path) + TMP_SUFFIX_LEN > NAME_MAX)
		return -1;
	struct strbuf dir = STRBUF_INIT, proc = STRBUF_INIT;
	dir_of(path, &dir);
	int fd = open(dir.buf, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	strbuf_release(&dir);
	if (fd < 0)
		return -1;
	proc_fd_name(fd, &proc);
	if (access(proc.buf, F_OK) != 0) {
		close(fd);
		fd = -1;
	}
	strbuf_release(&proc);
	return fd;
#else
	(void)path;
	return -1;
#endif
}

static int open_visible(struct outfile *of, const char *path, const char *shown, struct strbuf *err)
{
	struct strbuf t = STRBUF_INIT;
	strbuf_addf(&t, "%s.tmp.XXXXXX", path);
	of->fd = mkstemp(t.buf);
	if (of->fd < 0) {
		strbuf_addf(err, "%s: cannot create: %s", shown, strerror(errno));
		strbuf_release(&t);
		return -1;
	}
	of->tmp = t.buf;
	/* mkstemp makes 0600; a report is an ordinary file */
	mode_t um = umask(0);
	umask(um);
	(void)!fchmod(of->fd, 0666 & ~um); /* not fatal: the file is still written */
	return 0;
}

/*
 * A device, FIFO or socket (/dev/null, /dev/stdout, a shell's >(...)) is
 * written in place: replacing it with a file would be wrong, and as root
 * it would turn /dev/null into a regular file.
 */
static int open_in_place(struct outfile *of, const char *path, struct strbuf *err)
{
	of->fd = open(path, O_WRONLY | O_CLOEXEC);
	if (of->fd < 0) {
		strbuf_addf(err, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	of->in_place = 1;
	return 0;
}

int outfile_open(struct outfile *of, const char *path, struct strbuf *err)
{
	struct stat st;
	memset(of, 0, sizeof(*of));
	if (!path || !strcmp(path, "-")) {
		of->fd = 1;
		return 0;
	}
	if (!*path) {
		strbuf_addf(err, "'': cannot create: %s", strerror(ENOENT));
		return -1;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			strbuf_addf(err, "%s: cannot create: %s", path, strerror(EISDIR));
			return -1;
		}
		return open_in_place(of, path, err);
	}
	/* a symbolic link stays one: the file it points to is replaced */
	char *real = realpath(path, NULL);
	const char *target = real ? real : path;
	of->fd = open_anonymous(target);
	if (of->fd < 0 && open_visible(of, target, path, err) < 0) {
		free(real);
		return -1;
	}
	of->path = real ? real : xstrdup(path);
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

int outfile_scratch_name(const struct outfile *of, struct strbuf *sb)
{
	if (!of->path)
		return -1; /* standard output or written in place */
	if (of->tmp)
		strbuf_addstr(sb, of->tmp);
	else
		proc_fd_name(of->fd, sb);
	return 0;
}

/* Links the anonymous file under a fresh name beside the target; 0 or errno. */
static int link_anonymous(struct outfile *of)
{
	struct strbuf proc = STRBUF_INIT, name = STRBUF_INIT;
	unsigned seed = (unsigned)getpid() ^ (unsigned)time(NULL) ^ (unsigned)of->fd << 16;
	int e = EEXIST;
	proc_fd_name(of->fd, &proc);
	for (int tries = 0; tries < 100 && e == EEXIST; tries++) {
		seed = seed * 1103515245u + 12345u;
		strbuf_reset(&name);
		strbuf_addf(&name, "%s.tmp.%06x", of->path, (seed >> 8) & 0xffffff);
		e = linkat(AT_FDCWD, proc.buf, AT_FDCWD, name.buf, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
	}
	strbuf_release(&proc);
	if (e == 0)
		of->tmp = name.buf; /* the buffer changes hands */
	else
		strbuf_release(&name);
	return e;
}

static void release(struct outfile *of)
{
	free(of->tmp);
	free(of->path);
	of->tmp = of->path = NULL;
	of->fd = -1;
}

/* Closes a device or FIFO written in place; 0 or errno. */
static int close_in_place(struct outfile *of)
{
	if (close(of->fd) != 0 && !of->err)
		of->err = errno;
	of->in_place = 0;
	of->fd = -1;
	return of->err;
}

void outfile_abort(struct outfile *of)
{
	if (of->in_place)
		close_in_place(of);
	if (!of->path)
		return;
	close(of->fd);
	if (of->tmp)
		unlink(of->tmp);
	release(of);
}

int outfile_close(struct outfile *of)
{
	if (of->in_place)
		return close_in_place(of);
	if (!of->path)
		return of->err; /* standard output: every write was checked */
	if (!of->err && !of->tmp)
		of->err = link_anonymous(of);
	if (close(of->fd) != 0 && !of->err)
		of->err = errno;
	if (!of->err && rename(of->tmp, of->path) != 0)
		of->err = errno;
	if (of->err && of->tmp)
		unlink(of->tmp);
	int e = of->err;
	release(of);
	return e;
}
