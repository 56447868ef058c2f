/*
 * load.c - reads the inputs of tprof-analyze and tprof-plot into the
 * analysis model (see load.h) through parse's one input reader: known
 * documents, NDJSON records or raw logs, each file a run.
 */
#include <unistd.h>

#include "base/base.h"
#include "load.h"
#include "analyses_int.h"
#include "parse/parse.h"

struct loader {
	struct an_model *model;
	struct an_load_stats *st;
	struct tp_scanner *scan; /* the candidate search; NULL: plain path */
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
	struct an_run *run = an_model_find(c->model, file);
	if (run) /* the runs block and the summary say how much could not be read */
		run->warnings++;
	if (!c->st->quiet && c->st->warnings <= 20)
		fprintf(stderr, "%s: %s:%llu: warning: %s\n", c->st->tool, file, (unsigned long long)line, msg);
}

/* A log is a run even if it holds no record, so that --label and --param,
 * given in the order of the files, name the right runs; the runs of NDJSON
 * and documents come from their records' files. */
static void on_begin(void *ctx, const char *name, enum tp_input_kind kind)
{
	struct loader *c = ctx;
	if (kind == TP_IN_LOG)
		an_model_run(c->model, name);
}

/* Returns 0, or -1 after printing why the input could not be read. */
static int read_input(struct loader *c, const char *path, int threads, const struct tp_rules *rules)
{
	struct strbuf err = STRBUF_INIT;
	struct tp_run_opts o = { .threads = threads, .fmt = -1, .rules = rules, .scanner = c->scan };
	struct tp_read_cb cb = { on_begin, c };
	struct tp_progress pg = { path, 0, 0 };
	struct tp_stats st = { 0 };
	if (isatty(2) && !c->st->quiet) {
		o.progress = tp_progress_bar; /* long runs show where they are */
		o.progress_ctx = &pg;
	}
	o.sink.emit = feed_record;
	o.sink.warn = on_warning;
	o.sink.ctx = c;
	int rc = tp_read_input(path, &o, &cb, &st, &err);
	tp_progress_clear(&pg);
	if (rc < 0)
		tp_error(c->st->tool, "%s", err.len ? err.buf : path);
	strbuf_release(&err);
	return rc < 0 ? -1 : 0;
}

int an_load_inputs(struct an_model *m, char **paths, int n, int threads, const struct tp_rules *rules,
		   struct an_load_stats *st)
{
	struct loader c = { m, st, NULL };
	if (!st->tool)
		st->tool = "tprof";
	/* compiled once for all files, if one is large enough to use it */
	c.scan = tp_inputs_want_scanner(paths, n, 0) ? tp_scanner_for_run(rules) : NULL;
	for (int i = 0; i < (n ? n : 1); i++)
		if (read_input(&c, n ? paths[i] : "-", threads, rules) < 0)
			st->failed = 1;
	tp_scanner_free(c.scan);
	if (!st->quiet && st->warnings > 20)
		fprintf(stderr, "%s: %lu more parse warnings not shown\n", st->tool, st->warnings - 20);
	return st->failed ? -1 : 0;
}
