/*
 * outfile.h - where a tool's output goes: standard output, or a named file
 * written through a temporary file in the same directory and renamed into
 * place only when everything was written, so that a failed or interrupted
 * run never leaves a half-written file over a good one.
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
	char *path;     /* final name, NULL for standard output */
	char *tmp;      /* temporary name while writing */
	int err;        /* first errno, 0 if none */
};

/* path NULL or "-" is standard output. Returns 0 or -1 with err set. */
int outfile_open(struct outfile *of, const char *path, struct strbuf *err);
/* Returns 0, or -1 after a failure (of->err holds errno). */
int outfile_write(struct outfile *of, const void *buf, size_t n);
/* Commits (rename) or, if anything failed, removes the temporary file.
 * Returns 0 or the errno of the first failure. */
int outfile_close(struct outfile *of);
/* Removes the temporary file without committing. */
void outfile_abort(struct outfile *of);

#endif
