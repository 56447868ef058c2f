/*
 * golden.h - helpers for the golden-log suites (tests/test_golden*.c): read
 * a checked-in log of tests/data/golden/ into records and into the analysis
 * model, and look up the report's tables, cells and findings.
 *
 * Everything is static inline, like testutil.h, so a suite may use part of it.
 */
#ifndef TPROF_GOLDEN_H
#define TPROF_GOLDEN_H

#include <criterion/criterion.h>
#include <math.h>

#include "analyze/analyses_int.h"
#include "parse/input/docinput.h"
#include "antest.h" /* table, col, cell, finding */
#include "testutil.h"

#define GOLDEN_DIR "tests/data/golden/"

/* The text of a golden file (the suites run from the repository root). */
static inline char *golden_text(const char *name, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	char path[512];
	snprintf(path, sizeof(path), GOLDEN_DIR "%s", name);
	cr_assert_eq(tu_slurp(path, &sb), 0, "cannot read %s", path);
	*len = sb.len;
	return sb.buf;
}

/* Parses text (a log) into c, as the file `file`. */
static inline void golden_parse_text(const char *file, const char *text, size_t n, struct collector *c)
{
	struct tp_sink s = collect_sink(c);
	struct tp_parser *p = tp_parser_new(file, &s, NULL);
	tp_parse_buffer(p, text, n);
	tp_parser_finish(p);
	tp_parser_free(p);
}

/* Parses the golden log `name` (a log, not a document) into c. */
static inline void golden_records(const char *name, struct collector *c)
{
	size_t n;
	char *text = golden_text(name, &n);
	golden_parse_text(name, text, n, c);
	free(text);
}

/* Parses the golden document `name` (a CSV or JSON export) into c. */
static inline void golden_doc(const char *name, struct collector *c)
{
	size_t n;
	char *text = golden_text(name, &n);
	struct tp_sink s = collect_sink(c);
	struct strbuf err = STRBUF_INIT;
	int kind = tp_doc_detect(text, n);
	cr_assert(kind > 0, "%s is not detected as a document", name);
	cr_assert_eq(tp_doc_parse(kind, text, n, name, &s, &err), 0, "%s: %s", name, err.buf ? err.buf : "");
	strbuf_release(&err);
	free(text);
}

static inline int golden_feed(void *ctx, const struct tp_record *r)
{
	an_feed(ctx, r);
	return 0;
}

/* Parses the golden log `name` into the model m, as tprof-analyze does. */
static inline void golden_model(const char *name, struct an_model *m)
{
	size_t n;
	char *text = golden_text(name, &n);
	struct tp_sink s = { golden_feed, NULL, m };
	struct tp_parser *p = tp_parser_new(name, &s, NULL);
	tp_parse_buffer(p, text, n);
	tp_parser_finish(p);
	tp_parser_free(p);
	free(text);
}

/* Runs every analysis on m into rep (report_free it). */
static inline void golden_analyze(const struct an_model *m, struct report *rep)
{
	struct an_opts o;
	an_opts_default(&o);
	report_init(rep);
	an_analyze(m, &o, rep);
}

/* The n-th record (0-based) of a type, or NULL. */
static inline const struct tp_record *golden_nth(const struct collector *c, enum tp_type type, size_t n)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].rec.type == type && n-- == 0)
			return &c->v[i].rec;
	return NULL;
}

/* Asserts slot of r holds v (to the printed precision of the log). */
#define GOLDEN_NUM(r, slot, v)                                                                       \
	do {                                                                                         \
		cr_assert(tp_has((r), (slot)), "%s: slot %d missing", (r)->name ? (r)->name : "", (slot)); \
		cr_assert_float_eq((r)->num[(slot)], (v), 1e-9, "%s slot %d: %.17g != %.17g",           \
				   (r)->name ? (r)->name : "", (slot), (r)->num[(slot)], (double)(v));  \
	} while (0)

/* The n-th (0-based) row whose column key is the text val, or -1. */
static inline long golden_row(const struct rtable *t, const char *key, const char *val, int n)
{
	int kc = col(t, key);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct rcell *k = rt_cell(t, r, (size_t)kc);
		if (k->kind == RC_TEXT && !strcmp(k->s, val) && n-- == 0)
			return (long)r;
	}
	return -1;
}

#endif
