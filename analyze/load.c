/*
 * load.c - reads the inputs of tprof-analyze and tprof-plot into the
 * analysis model (see load.h): known documents, NDJSON records or raw
 * logs, each file a run.
 */
#include <string.h>
#include <unistd.h>

#include "parse/parse.h"
#include "base/base.h"
#include "load.h"

struct loader {
	struct an_model *model;
	struct an_load_stats *st;
};

static int feed_record(void *ctx, const struct tp_record *r)
{
	struct loader *c = ctx;
	an_feed(c->model, r);
	return 0;
}

static void on_warning(void *ctx, const char *file, uint64_t line, const char *msg)
{
	struct loader *c = ctx;
	c->st->warnings++;
	if (!c->st->quiet && c->st->warnings <= 20)
		fprintf(stderr, "%s: %s:%llu: warning: %s\n", c->st->tool, file, (unsigned long long)line, msg);
}

static int looks_like_ndjson(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t' || *s == '\xef' || *s == '\xbb' || *s == '\xbf'))
		s++, n--;
	return n > 8 && !memcmp(s, "{\"type\":", 8);
}

/* One complete NDJSON line: a record, or a warning. */
static void ndjson_line(struct loader *c, const char *name, uint64_t lineno, const char *p, size_t len,
			struct json_doc *doc, struct strbuf *msg)
{
	struct json_error je;
	struct tp_record r;
	while (len && (p[len - 1] == '\r' || p[len - 1] == ' '))
		len--;
	if (!len)
		return;
	strbuf_reset(msg);
	if (json_parse(p, len, doc, &je) < 0)
		on_warning(c, name, lineno, je.msg);
	else if (tp_record_from_json(doc->root, &r, msg) < 0)
		on_warning(c, name, lineno, msg->buf ? msg->buf : "not a record");
	else
		an_feed(c->model, &r);
}

/* Reads NDJSON records from an open input, line by line. */
/* A record of tprof-parse is a few hundred bytes (names up to 64 KiB); a
 * line far longer is not one,
 * and holding it whole would let one line take any amount of memory. */
#define NDJSON_MAX_LINE (16 * 1024 * 1024)

static int read_ndjson(struct loader *c, struct tp_input *in, const char *first, size_t first_n,
		       int first_flags, struct strbuf *err)
{
	struct json_doc doc = JSON_DOC_INIT;
	struct strbuf msg = STRBUF_INIT, line = STRBUF_INIT;
	const char *s = first;
	size_t n = first_n;
	uint64_t lineno = 1;
	int flags = first_flags, rc = 0, too_long = 0;
	for (;;) {
		if (flags & TP_LINE_START) {
			strbuf_reset(&line);
			too_long = 0;
		}
		if (!too_long && line.len + n > NDJSON_MAX_LINE) {
			too_long = 1;
			strbuf_reset(&line);
		}
		if (!too_long)
			strbuf_add(&line, s, n);
		if ((flags & TP_LINE_END) && too_long)
			on_warning(c, in->name, lineno++, "line longer than 16 MiB skipped: not a tprof record");
		else if (flags & TP_LINE_END)
			ndjson_line(c, in->name, lineno++, line.buf ? line.buf : "", line.len, &doc, &msg);
		int k = tp_input_next(in, &s, &n, &flags, err);
		if (k < 0)
			rc = -1;
		if (k <= 0)
			break;
	}
	json_free(&doc);
	strbuf_release(&msg);
	strbuf_release(&line);
	return rc;
}

/* Reads a raw log from an open input on this thread (pipes, standard input). */
static int read_raw_stream(struct loader *c, struct tp_input *in, const struct tp_rules *rules,
			   const char *first, size_t first_n, int first_flags, struct strbuf *err)
{
	struct tp_sink sink = { feed_record, on_warning, c };
	struct tp_parser *p = tp_parser_new(in->name, &sink, rules);
	const char *s = first;
	size_t n = first_n;
	int flags = first_flags, rc = 0;
	for (;;) {
		tp_parser_feed(p, s, n, flags);
		int k = tp_input_next(in, &s, &n, &flags, err);
		if (k < 0)
			rc = -1;
		if (k <= 0)
			break;
	}
	tp_parser_finish(p);
	tp_parser_free(p);
	return rc;
}

static int read_document(struct loader *c, const char *path, int *handled)
{
	struct strbuf buf = STRBUF_INIT;
	int kind = tp_doc_load(path, &buf);
	*handled = 0;
	int rc = 0;
	if (kind) {
		struct tp_sink sink = { feed_record, on_warning, c };
		struct strbuf err = STRBUF_INIT;
		*handled = 1;
		if (tp_doc_parse(kind, buf.buf, buf.len, path, &sink, &err) < 0) {
			tp_error(c->st->tool, "%s", err.buf);
			rc = -1;
		}
		strbuf_release(&err);
	}
	strbuf_release(&buf);
	return rc;
}

/* A regular raw log: the driver splits it across threads. */
static int read_threaded(struct loader *c, const char *path, int threads, const struct tp_rules *rules,
			 struct strbuf *err)
{
	struct tp_run_opts o = { .threads = threads, .fmt = -1, .rules = rules };
	struct tp_progress pg = { path, 0, 0 };
	if (isatty(2) && !c->st->quiet) {
		o.progress = tp_progress_bar; /* long runs show where they are */
		o.progress_ctx = &pg;
	}
	o.sink.emit = feed_record;
	o.sink.warn = on_warning;
	o.sink.ctx = c;
	struct tp_stats st = { 0 };
	int rc = tp_run_file(path, NULL, &o, &st, err);
	tp_progress_clear(&pg);
	return rc;
}

/* Returns 0, or -1 after printing why the input could not be read. */
static int read_input(struct loader *c, const char *path, int threads, const struct tp_rules *rules)
{
	struct strbuf err = STRBUF_INIT;
	struct tp_input in;
	int handled;
	if (read_document(c, path, &handled) < 0)
		return -1;
	if (handled)
		return 0;
	if (tp_input_open(&in, path, &err) < 0) {
		tp_error(c->st->tool, "%s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	const char *s;
	size_t n;
	int flags, rc = tp_input_next(&in, &s, &n, &flags, &err);
	int ndjson = rc > 0 && looks_like_ndjson(s, n);
	/* a log is a run even if it holds no record, so that --label and
	 * --param, given in the order of the files, name the right runs */
	if (!ndjson)
		an_model_run(c->model, in.name);
	if (ndjson) {
		rc = read_ndjson(c, &in, s, n, flags, &err);
	} else if (rc > 0 && in.is_regular && threads > 1 && strcmp(path, "-")) {
		/* reopened by name: standard input (a file redirected to it) has been read from already */
		tp_input_close(&in);
		rc = read_threaded(c, path, threads, rules, &err);
		if (rc < 0)
			tp_error(c->st->tool, "%s", err.buf);
		strbuf_release(&err);
		return rc < 0 ? -1 : 0;
	} else if (rc > 0) {
		rc = read_raw_stream(c, &in, rules, s, n, flags, &err);
	}
	if (rc < 0)
		tp_error(c->st->tool, "%s", err.buf);
	tp_input_close(&in);
	strbuf_release(&err);
	return rc < 0 ? -1 : 0;
}

int an_load_inputs(struct an_model *m, char **paths, int n, int threads, const struct tp_rules *rules,
		   struct an_load_stats *st)
{
	struct loader c = { m, st };
	if (!st->tool)
		st->tool = "tprof";
	for (int i = 0; i < (n ? n : 1); i++)
		if (read_input(&c, n ? paths[i] : "-", threads, rules) < 0)
			st->failed = 1;
	if (!st->quiet && st->warnings > 20)
		fprintf(stderr, "%s: %lu more parse warnings not shown\n", st->tool, st->warnings - 20);
	return st->failed ? -1 : 0;
}
