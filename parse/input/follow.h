/*
 * follow.h - following a growing log (--follow), through truncation
 * (copytruncate) and rotation (rename and recreate).
 *
 * Contract: every complete line of the file, and of each file that later
 * takes its name, reaches on_line exactly once and in order; on_restart is
 * called before the first line of a new or truncated file (its line
 * numbers start again at 1). tp_follow_poll never blocks; the caller sleeps
 * between polls and stops when it likes, then calls tp_follow_finish to
 * get the last line even if it has no newline.
 */
#ifndef TPROF_FOLLOW_H
#define TPROF_FOLLOW_H

#include <stdint.h>
#include <sys/types.h>

#include "base/base.h"

struct tp_follow {
	const char *path;
	int fd;
	ino_t ino;
	dev_t dev;
	off_t off;
	char *buf;
	struct strbuf partial; /* bytes after the last complete line */
};

struct tp_follow_cb {
	void (*on_line)(void *ctx, const char *line, size_t n);
	void (*on_restart)(void *ctx, const char *why);
	void *ctx;
};

/* Returns 0, or -1 with err set (missing, unreadable, a directory). */
int tp_follow_open(struct tp_follow *f, const char *path, struct strbuf *err);
/* Reads what is new; returns the number of lines handed out, or -1. */
long tp_follow_poll(struct tp_follow *f, const struct tp_follow_cb *cb, struct strbuf *err);
void tp_follow_finish(struct tp_follow *f, const struct tp_follow_cb *cb);
void tp_follow_close(struct tp_follow *f);

void tp_sleep_ms(int ms);

#endif
