/*
 * util.h - small helpers every tprof tool links: checked allocation,
 * a growable byte buffer (strbuf, after git's) and the exit codes that all
 * tools share.
 *
 * Contract: x*alloc never return NULL; on exhaustion they print one line
 * and exit with TP_EXIT_NOMEM. strbuf functions keep buf NUL-terminated.
 */
#ifndef TPROF_UTIL_H
#define TPROF_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes, the same for every tool (documented in tprof(1)). */
enum {
	TP_EXIT_OK = 0,
	TP_EXIT_WARN = 1,     /* --strict and warnings, or a gate such as --fail-on-regression */
	TP_EXIT_INPUT = 2,    /* usage error, unreadable or corrupt input */
	TP_EXIT_OUTPUT = 3,   /* output could not be written (full disk, closed file) */
	TP_EXIT_NOMEM = 4,    /* out of memory */
	TP_EXIT_INTERNAL = 5  /* a dependency failed (e.g. gnuplot, CUDA) */
};

#define TPROF_VERSION "0.1.0"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xmemdup(const void *p, size_t n); /* NUL-terminated copy */

/* Grow-by-doubling helper: ensures *alloc >= need, reallocating *p. */
#define ALLOC_GROW(p, need, alloc)                                           \
	do {                                                                 \
		if ((need) > (alloc)) {                                      \
			size_t ag_n_ = (alloc) ? (alloc) : 16;               \
			while (ag_n_ < (need))                               \
				ag_n_ *= 2;                                  \
			(p) = xrealloc((p), ag_n_ * sizeof(*(p)));           \
			(alloc) = ag_n_;                                     \
		}                                                            \
	} while (0)

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};
#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *p, size_t n);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_reset(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);

/*
 * Append a double in the shortest decimal form that reads back to the same
 * value for numbers that came from decimal text (up to 9 decimals), else %.17g.
 * Non-finite values are written as "null" (JSON has no NaN).
 */
void strbuf_add_num(struct strbuf *sb, double v);
/* The same into dst (at least 32 bytes); returns the length, no NUL. */
size_t tp_fmt_num(char *dst, double v);

/* Appends s with invalid UTF-8 and NUL bytes replaced by U+FFFD. */
void strbuf_add_utf8(struct strbuf *sb, const char *s, size_t n);

/* Appends s as a JSON string body (no quotes); invalid UTF-8 becomes U+FFFD. */
void strbuf_add_json_str(struct strbuf *sb, const char *s, size_t n);

/* Prints "tool: message" to stderr. */
void tp_error(const char *tool, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* NO_COLOR is set to a non-empty value (https://no-color.org). */
int tp_no_color(void);

/* Number of online CPUs, at least 1. */
int tp_ncpus(void);

#endif
