/*
 * follow.c - reads a log that is still being written (tail -F style) and
 * survives the two ways logs are rotated:
 *
 *   rename and recreate  the path now names a new file (another inode): the
 *                        old file is read to its end first, then the new one
 *                        from its start;
 *   copytruncate         the file shrank below what was read: it is read
 *                        again from its start.
 *
 * Only complete lines are parsed while following (a writer may be in the
 * middle of one); the last partial line is parsed when following stops.
 * Line numbers restart at 1 in a new or truncated file, so file:line
 * always points into the file as it is.
 */
#include "follow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define READ_SIZE (256 * 1024)

static int open_log(struct tp_follow *f, struct strbuf *err)
{
	f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		if (errno == ENOENT)
			return 0; /* between rename and recreate: try again later */
		strbuf_addf(err, "%s: cannot open: %s", f->path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(f->fd, &st) != 0 || S_ISDIR(st.st_mode)) {
		strbuf_addf(err, "%s: %s", f->path, S_ISDIR(st.st_mode) ? "is a directory" : strerror(errno));
		close(f->fd);
		f->fd = -1;
		return -1;
	}
	f->ino = st.st_ino;
	f->dev = st.st_dev;
	f->off = 0;
	return 1;
}

int tp_follow_open(struct tp_follow *f, const char *path, struct strbuf *err)
{
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->fd = -1;
	f->buf = xmalloc(READ_SIZE);
	int rc = open_log(f, err);
	if (rc == 0)
		strbuf_addf(err, "%s: cannot open: %s", path, strerror(ENOENT));
	return rc > 0 ? 0 : -1;
}

/* Hands every complete line of the pending bytes to on_line. */
static size_t emit_lines(struct tp_follow *f, const struct tp_follow_cb *cb)
{
	size_t n = 0, start = 0;
	while (start < f->partial.len) {
		char *nl = memchr(f->partial.buf + start, '\n', f->partial.len - start);
		if (!nl)
			break;
		size_t len = (size_t)(nl - (f->partial.buf + start));
		cb->on_line(cb->ctx, f->partial.buf + start, len);
		start += len + 1;
		n++;
	}
	if (start) {
		memmove(f->partial.buf, f->partial.buf + start, f->partial.len - start);
		f->partial.len -= start;
		f->partial.buf[f->partial.len] = '\0';
	}
	/* a line that never ends must not grow without bound */
	if (f->partial.len > 4 * 1024 * 1024) {
		cb->on_line(cb->ctx, f->partial.buf, f->partial.len);
		strbuf_reset(&f->partial);
		n++;
	}
	return n;
}

/* Reads what the current file has now; returns bytes read or -1. */
static long drain(struct tp_follow *f, struct strbuf *err)
{
	long total = 0;
	for (;;) {
		ssize_t r = read(f->fd, f->buf, READ_SIZE);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			strbuf_addf(err, "%s: read error: %s", f->path, strerror(errno));
			return -1;
		}
		if (r == 0)
			return total;
		strbuf_add(&f->partial, f->buf, (size_t)r);
		f->off += r;
		total += r;
		if (total >= 16 * READ_SIZE)
			return total; /* let the caller parse and report */
	}
}

static void restart(struct tp_follow *f, const struct tp_follow_cb *cb, const char *why)
{
	if (f->partial.len) {
		/* the old file ended without a final newline: that line is complete */
		cb->on_line(cb->ctx, f->partial.buf, f->partial.len);
		strbuf_reset(&f->partial);
	}
	if (cb->on_restart)
		cb->on_restart(cb->ctx, why);
}

long tp_follow_poll(struct tp_follow *f, const struct tp_follow_cb *cb, struct strbuf *err)
{
	long lines = 0;
	if (f->fd < 0) {
		int rc = open_log(f, err);
		if (rc <= 0)
			return rc;
		restart(f, cb, "the log was recreated");
	}
	struct stat st;
	if (fstat(f->fd, &st) == 0 && st.st_size < f->off) {
		/* copytruncate: what we read is gone; read the new content */
		lseek(f->fd, 0, SEEK_SET);
		f->off = 0;
		restart(f, cb, "the log was truncated");
	}
	long r = drain(f, err);
	if (r < 0)
		return -1;
	lines += (long)emit_lines(f, cb);
	if (r > 0)
		return lines;
	/* nothing new here: has the path been given to a new file? */
	struct stat now;
	if (stat(f->path, &now) != 0 || now.st_ino != f->ino || now.st_dev != f->dev) {
		r = drain(f, err); /* what was written before the rename */
		if (r < 0)
			return -1;
		lines += (long)emit_lines(f, cb);
		close(f->fd);
		f->fd = -1;
		int rc = open_log(f, err);
		if (rc < 0)
			return -1;
		if (rc > 0)
			restart(f, cb, "the log was rotated");
	}
	return lines;
}

void tp_follow_finish(struct tp_follow *f, const struct tp_follow_cb *cb)
{
	emit_lines(f, cb);
	if (f->partial.len)
		cb->on_line(cb->ctx, f->partial.buf, f->partial.len);
	strbuf_reset(&f->partial);
}

void tp_follow_close(struct tp_follow *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	free(f->buf);
	f->buf = NULL;
	strbuf_release(&f->partial);
}

void tp_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL); /* a signal cuts it short: that is wanted */
}
