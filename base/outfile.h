/*
 * outfile.h - where a tool's output goes: standard output, or a named file
 * that appears only when everything was written, so that a failed or
 * interrupted run never leaves a half-written file over a good one.
 *
 * A named output is written into an anonymous file in the target's
 * directory (O_TMPFILE) and linked into place by outfile_close: a run
 * killed at any moment, even by SIGKILL, leaves nothing behind. Where the
 * file system has no anonymous files, a visible temporary "FILE.tmp.XXXXXX"
 * is used and renamed instead (then only a killed run can leave it).
 *
 * A path that names a device, FIFO or socket (/dev/null, /dev/stdout, a
 * shell's >(...)) is opened and written in place, never replaced; a
 * symbolic link to a file stays a link, and the file it points to is
 * replaced.
 *
 * Every write is checked; the first error is kept. A closed pipe (EPIPE)
 * is remembered as such, so a tool piped into `head` can end quietly.
 */
#ifndef TPROF_OUTFILE_H
#define TPROF_OUTFILE_H

#include <stddef.h>

#include "util.h"

struct outfile {
	int fd;
	char *path;     /* the file to replace (links resolved); NULL for
			   standard output and for in-place outputs */
	char *tmp;      /* the visible temporary name, NULL if anonymous */
	int err;        /* first errno, 0 if none */
	int in_place;   /* fd is a device or FIFO opened by name */
};

/* path NULL or "-" is standard output. Returns 0 or -1 with err set. */
int outfile_open(struct outfile *of, const char *path, struct strbuf *err);
/* Returns 0, or -1 after a failure (of->err holds errno). */
int outfile_write(struct outfile *of, const void *buf, size_t n);
/*
 * A name by which a library that writes files by name (libxlsxwriter) can
 * open the unfinished file, written into sb; 0, or -1 for standard output
 * and in-place outputs.
 */
int outfile_scratch_name(const struct outfile *of, struct strbuf *sb);
/* Commits (link or rename) or, if anything failed, discards the file;
 * closes an in-place output. Returns 0 or the errno of the first failure.
 * Standard output is left open. */
int outfile_close(struct outfile *of);
/* Discards the file without committing; does nothing after a close. */
void outfile_abort(struct outfile *of);

#endif
