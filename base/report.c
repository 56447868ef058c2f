/*
 * report.c - building and freeing the format-neutral report (report.h).
 */
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void report_init(struct report *r)
{
	memset(r, 0, sizeof(*r));
}

static void table_free(struct rtable *t)
{
	for (size_t i = 0; i < t->ncols; i++) {
		free(t->cols[i].name);
		free(t->cols[i].unit);
	}
	for (size_t i = 0; i < t->nrows * t->ncols + t->cur; i++)
		free(t->cells[i].s);
	free(t->cols);
	free(t->cells);
	free(t->keys);
	free(t->id);
	free(t->title);
	free(t);
}

void report_free(struct report *r)
{
	for (size_t i = 0; i < r->nsections; i++) {
		struct rsection *s = &r->sections[i];
		for (size_t k = 0; k < s->ntables; k++)
			table_free(s->tables[k]);
		free(s->tables);
		free(s->id);
		free(s->title);
	}
	for (size_t i = 0; i < r->nfindings; i++) {
		struct finding *f = &r->findings[i];
		free(f->section);
		free(f->kind);
		free(f->run);
		free(f->message);
		free(f->advice);
		free(f->file);
	}
	free(r->sections);
	free(r->findings);
	free(r->headline);
	memset(r, 0, sizeof(*r));
}

struct rsection *report_section(struct report *r, const char *id, const char *title)
{
	for (size_t i = 0; i < r->nsections; i++)
		if (!strcmp(r->sections[i].id, id))
			return &r->sections[i];
	ALLOC_GROW(r->sections, r->nsections + 1, r->salloc);
	struct rsection *s = &r->sections[r->nsections++];
	memset(s, 0, sizeof(*s));
	s->id = xstrdup(id);
	s->title = xstrdup(title ? title : id);
	return s;
}

struct rtable *report_table(struct report *r, const char *section, const char *id,
			    const char *title, const char *cols)
{
	struct rsection *s = report_section(r, section, NULL);
	struct rtable *t = xcalloc(1, sizeof(*t));
	t->id = xstrdup(id);
	t->title = xstrdup(title);
	t->bar_col = -1;
	const char *p = cols;
	while (*p) {
		const char *c = strchr(p, ',');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		const char *colon = memchr(p, ':', n);
		t->cols = xrealloc(t->cols, (t->ncols + 1) * sizeof(*t->cols));
		struct rcol *col = &t->cols[t->ncols++];
		col->name = xmemdup(p, colon ? (size_t)(colon - p) : n);
		col->unit = colon ? xmemdup(colon + 1, n - (size_t)(colon - p) - 1) : xstrdup("");
		p += n + (c ? 1 : 0);
	}
	s->tables = xrealloc(s->tables, (s->ntables + 1) * sizeof(*s->tables));
	s->tables[s->ntables++] = t;
	return t;
}

struct rtable *report_table_spec(struct report *r, const char *section, const char *id, int kind,
				 const char *title, const struct rcol_spec *cols, size_t ncols)
{
	struct rtable *t = report_table(r, section, id, title, "");
	t->kind = kind;
	t->cols = xcalloc(ncols ? ncols : 1, sizeof(*t->cols));
	for (size_t i = 0; i < ncols; i++) {
		t->cols[i].name = xstrdup(cols[i].name);
		t->cols[i].unit = xstrdup(cols[i].unit ? cols[i].unit : "");
		t->cols[i].key = cols[i].key;
	}
	t->ncols = ncols;
	return t;
}

const struct rtable *report_find(const struct report *r, int kind, size_t nth)
{
	for (size_t i = 0; i < r->nsections; i++)
		for (size_t k = 0; k < r->sections[i].ntables; k++) {
			const struct rtable *t = r->sections[i].tables[k];
			if (t->kind == kind && nth-- == 0)
				return t;
		}
	return NULL;
}

int rt_col(const struct rtable *t, int key)
{
	for (size_t c = 0; key && c < t->ncols; c++)
		if (t->cols[c].key == key)
			return (int)c;
	return -1;
}

void rt_key(struct rtable *t, struct rkey k)
{
	size_t row = t->nrows, had = t->kalloc;
	ALLOC_GROW(t->keys, row + 1, t->kalloc);
	for (size_t i = had; i < t->kalloc; i++)
		t->keys[i] = RKEY_NONE;
	t->keys[row] = k;
}

struct rkey rt_row_key(const struct rtable *t, size_t row)
{
	return row < t->kalloc ? t->keys[row] : RKEY_NONE;
}

static struct rcell *next_cell(struct rtable *t)
{
	size_t i = t->nrows * t->ncols + t->cur;
	ALLOC_GROW(t->cells, i + 1, t->alloc);
	struct rcell *c = &t->cells[i];
	memset(c, 0, sizeof(*c));
	if (++t->cur == t->ncols) {
		t->cur = 0;
		t->nrows++;
	}
	return c;
}

void rt_textn(struct rtable *t, const char *s, size_t n)
{
	struct rcell *c = next_cell(t);
	c->kind = RC_TEXT;
	c->s = xmemdup(s, n);
}

void rt_text(struct rtable *t, const char *s)
{
	if (!s) {
		rt_empty(t);
		return;
	}
	rt_textn(t, s, strlen(s));
}

void rt_num(struct rtable *t, double v, int prec)
{
	struct rcell *c = next_cell(t);
	if (!isfinite(v))
		return;
	c->kind = RC_NUM;
	c->v = v;
	c->prec = prec;
}

void rt_empty(struct rtable *t)
{
	next_cell(t);
}

const struct rcell *rt_cell(const struct rtable *t, size_t row, size_t col)
{
	return &t->cells[row * t->ncols + col];
}

void report_finding(struct report *r, enum severity sev, const char *section, const char *kind,
		    const char *run, const char *file, uint64_t line, const char *advice,
		    const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(r->findings, r->nfindings + 1, r->falloc);
	struct finding *f = &r->findings[r->nfindings++];
	f->sev = sev;
	f->section = xstrdup(section);
	f->kind = xstrdup(kind);
	f->run = run ? xstrdup(run) : NULL;
	f->message = sb.buf ? sb.buf : xstrdup("");
	f->advice = advice ? xstrdup(advice) : NULL;
	f->file = file ? xstrdup(file) : NULL;
	f->line = line;
	f->at_stake = NAN;
	f->merged = 0;
	f->key = RKEY_NONE;
}

void report_fkey(struct report *r, struct rkey key)
{
	if (r->nfindings)
		r->findings[r->nfindings - 1].key = key;
}

void report_stake(struct report *r, double seconds)
{
	if (r->nfindings)
		r->findings[r->nfindings - 1].at_stake = seconds;
}

const char *severity_name(enum severity s)
{
	static const char *const names[] = { "info", "notice", "warning", "critical" };
	return names[s];
}
