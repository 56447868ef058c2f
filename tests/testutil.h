/*
 * testutil.h - helpers shared by the Criterion suites: a sink that keeps
 * every record (with owned copies of its borrowed strings) and every
 * warning, and lookups over what it kept.
 *
 * Everything is static inline so that a suite that uses only part of it
 * compiles cleanly under -Werror.
 */
#ifndef TPROF_TESTUTIL_H
#define TPROF_TESTUTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/lines/parser.h"
#include "parse/record.h"
#include "base/util.h"

/* A record whose strings point into the owned copies beside it. */
struct collected {
	struct tp_record rec;
	char *file, *name, *text, *ts, *parent;
};

struct collector {
	struct collected *v;
	size_t n, alloc;
	char **warnings; /* "line: message" */
	size_t nwarn, warn_alloc;
	size_t stop_after; /* if non-zero, ask to stop after this many records */
};

static inline char *tu_dup(const char *s, size_t n)
{
	return s ? xmemdup(s, n) : NULL;
}

static inline int collect_emit(void *ctx, const struct tp_record *r)
{
	struct collector *c = ctx;
	struct collected *k;

	ALLOC_GROW(c->v, c->n + 1, c->alloc);
	k = &c->v[c->n++];
	k->rec = *r;
	k->file = xstrdup(r->file);
	k->name = tu_dup(r->name, r->name_len);
	k->text = tu_dup(r->text, r->text_len);
	k->ts = r->ts ? xstrdup(r->ts) : NULL;
	k->parent = tu_dup(r->parent, r->parent_len);
	k->rec.parent = k->parent;
	k->rec.origin = NULL; /* borrowed, gone after the callback */
	k->rec.file = k->file;
	k->rec.name = k->name;
	k->rec.text = k->text;
	k->rec.ts = k->ts;
	return c->stop_after && c->n >= c->stop_after;
}

static inline void collect_warn(void *ctx, const char *file, uint64_t line, const char *msg)
{
	struct collector *c = ctx;
	struct strbuf sb = STRBUF_INIT;

	(void)file;
	strbuf_addf(&sb, "%llu: %s", (unsigned long long)line, msg);
	ALLOC_GROW(c->warnings, c->nwarn + 1, c->warn_alloc);
	c->warnings[c->nwarn++] = sb.buf;
}

static inline struct tp_sink collect_sink(struct collector *c)
{
	struct tp_sink s = { collect_emit, collect_warn, c };
	return s;
}

static inline void collector_free(struct collector *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].file);
		free(c->v[i].name);
		free(c->v[i].text);
		free(c->v[i].ts);
		free(c->v[i].parent);
	}
	for (size_t i = 0; i < c->nwarn; i++)
		free(c->warnings[i]);
	free(c->v);
	free(c->warnings);
	memset(c, 0, sizeof(*c));
}

/* The first record of that type and name (name NULL: any), or NULL. */
static inline const struct tp_record *collected_find(const struct collector *c,
						     enum tp_type type, const char *name)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct tp_record *r = &c->v[i].rec;
		if (r->type == type && (!name || (r->name && strcmp(r->name, name) == 0)))
			return r;
	}
	return NULL;
}

/* How many records of that type were collected. */
static inline size_t collected_count(const struct collector *c, enum tp_type type)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n; i++)
		n += c->v[i].rec.type == type;
	return n;
}

/* ---- running the tools from a test ---- */

#include <stdarg.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* Appends the whole file to sb (sb ends up non-NULL); -1 if unreadable. */
static inline int tu_slurp(const char *path, struct strbuf *sb)
{
	FILE *fp = fopen(path, "rb");
	char buf[65536];
	size_t n;
	int rc = -1;
	if (fp) {
		while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
			strbuf_add(sb, buf, n);
		fclose(fp);
		rc = 0;
	}
	if (!sb->buf)
		strbuf_addstr(sb, "");
	return rc;
}

struct tu_result {
	int status; /* exit status, or 128 + signal */
	struct strbuf out, err;
};

/*
 * Runs a shell command with $B set to the directory of the tools under
 * test ($TPROF_BIN, default bin; absolute) and $R to the repository root;
 * captures stdout, stderr and the exit status. The command goes in braces
 * so that its own redirections are not overridden.
 */
static inline struct tu_result tu_run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline struct tu_result tu_run(const char *fmt, ...)
{
	struct tu_result r = { 0, STRBUF_INIT, STRBUF_INIT };
	struct strbuf cmd = STRBUF_INIT;
	char outp[] = "/tmp/tprof-test-out-XXXXXX", errp[] = "/tmp/tprof-test-err-XXXXXX";
	int fo = mkstemp(outp), fe = mkstemp(errp);
	va_list ap;
	strbuf_addstr(&cmd, "B=$(cd \"${TPROF_BIN:-bin}\" && pwd); R=$(pwd); { ");
	va_start(ap, fmt);
	strbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	strbuf_addf(&cmd, "\n} >%s 2>%s", outp, errp);
	int st = system(cmd.buf);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	tu_slurp(outp, &r.out);
	tu_slurp(errp, &r.err);
	close(fo);
	close(fe);
	unlink(outp);
	unlink(errp);
	strbuf_release(&cmd);
	return r;
}

static inline void tu_result_free(struct tu_result *r)
{
	strbuf_release(&r->out);
	strbuf_release(&r->err);
}

/*
 * A fresh directory /tmp/tprof-TAG-XXXXXX for one test (the suites run in
 * parallel), or NULL if it cannot be made; tu_rmtree removes and frees it.
 */
static inline char *tu_tmpdir(const char *tag)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "/tmp/tprof-%s-XXXXXX", tag);
	if (!mkdtemp(sb.buf))
		strbuf_release(&sb);
	return sb.buf;
}

static inline void tu_rmtree(char *dir)
{
	struct tu_result r = tu_run("rm -rf '%s'", dir);
	tu_result_free(&r);
	free(dir);
}

#endif
