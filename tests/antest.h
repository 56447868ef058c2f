/*
 * antest.h - helpers of the analysis suites: a log parsed into the model,
 * the analyses run, and lookups of a report's tables, cells and findings.
 */
#ifndef TPROF_ANTEST_H
#define TPROF_ANTEST_H

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "analyze/analyses_int.h"
#include "testutil.h"

static inline int feed(void *ctx, const struct tp_record *r)
{
	an_feed(ctx, r);
	return 0;
}

/* Parses text as the log `file` into the model. */
static inline void load(struct an_model *m, const char *file, const char *text)
{
	struct tp_sink s = { feed, NULL, m };
	struct tp_parser *p = tp_parser_new(file, &s, NULL);
	tp_parse_buffer(p, text, strlen(text));
	tp_parser_finish(p);
	tp_parser_free(p);
}

static inline void analyze(struct an_model *m, struct an_opts *o, struct report *rep, int *gate)
{
	report_init(rep);
	int g = an_analyze(m, o, rep);
	if (gate)
		*gate = g;
}

/* The first table with this id whose title contains `title` (or any). */
static inline const struct rtable *table(const struct report *rep, const char *id, const char *title)
{
	for (size_t i = 0; i < rep->nsections; i++)
		for (size_t k = 0; k < rep->sections[i].ntables; k++) {
			const struct rtable *t = rep->sections[i].tables[k];
			if (!strcmp(t->id, id) && (!title || strstr(t->title, title)))
				return t;
		}
	return NULL;
}

static inline int col(const struct rtable *t, const char *name)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (!strcmp(t->cols[c].name, name))
			return (int)c;
	cr_assert_fail("no column %s in %s", name, t->id);
	return -1;
}

/* The number in column `want` of the row whose column `key` is text `val`. */
static inline double cell(const struct rtable *t, const char *key, const char *val, const char *want)
{
	int kc = col(t, key), wc = col(t, want);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct rcell *k = rt_cell(t, r, (size_t)kc);
		if (k->kind == RC_TEXT && !strcmp(k->s, val)) {
			const struct rcell *w = rt_cell(t, r, (size_t)wc);
			return w->kind == RC_NUM ? w->v : NAN;
		}
	}
	cr_assert_fail("no row %s=%s in %s", key, val, t->id);
	return NAN;
}

static inline const char *text_cell(const struct rtable *t, const char *key, const char *val, const char *want)
{
	int kc = col(t, key), wc = col(t, want);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct rcell *k = rt_cell(t, r, (size_t)kc);
		if (k->kind == RC_TEXT && !strcmp(k->s, val))
			return rt_cell(t, r, (size_t)wc)->s;
	}
	return NULL;
}

static inline const struct finding *finding(const struct report *rep, const char *kind, const char *needle)
{
	for (size_t i = 0; i < rep->nfindings; i++)
		if (!strcmp(rep->findings[i].kind, kind) &&
		    (!needle || strstr(rep->findings[i].message, needle)))
			return &rep->findings[i];
	return NULL;
}

#endif
