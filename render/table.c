/*
 * table.c - the terminal renderer: each section's tables with aligned
 * columns (units in the header, numbers right-aligned), a small bar for a
 * share column, then the section's findings, most severe first, with their
 * file:line and advice. Colour only when asked (a terminal without
 * NO_COLOR); text from logs never reaches the terminal with control bytes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

#define MAX_COL 48
#define BAR_WIDTH 20

/* Display width of UTF-8 text (code points; good enough for names). */
static size_t display_width(const char *s, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/* Appends s without control bytes, cut to max display columns. */
static void add_clean(struct strbuf *sb, const char *raw, size_t max)
{
	struct strbuf valid = STRBUF_INIT;
	strbuf_add_utf8(&valid, raw, strlen(raw));
	const char *s = valid.buf ? valid.buf : "";
	size_t w = 0, n = valid.len;
	size_t full = display_width(s, n);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c & 0xc0) != 0x80) {
			if (full > max && w + 1 >= max) {
				strbuf_addstr(sb, "\xe2\x80\xa6"); /* … */
				break;
			}
			w++;
		}
		strbuf_addch(sb, (c < 0x20 || c == 0x7f) ? '?' : (char)c);
	}
	strbuf_release(&valid);
}

static void pad(struct strbuf *sb, size_t n)
{
	while (n--)
		strbuf_addch(sb, ' ');
}

static void cell_string(const struct rcell *c, struct strbuf *tmp)
{
	strbuf_reset(tmp);
	if (c->kind == RC_TEXT) {
		add_clean(tmp, c->s, MAX_COL);
	} else if (c->kind == RC_NUM) {
		render_cell_text(c, tmp);
	}
}

static void header_string(const struct rcol *col, struct strbuf *tmp)
{
	strbuf_reset(tmp);
	strbuf_addstr(tmp, col->name);
	if (col->unit[0])
		strbuf_addf(tmp, " [%s]", col->unit);
}

static const char *sev_color(enum severity s)
{
	static const char *const c[] = { "\x1b[2m", "\x1b[36m", "\x1b[33m", "\x1b[1;31m" };
	return c[s];
}

/* A "run" column with one value for every row says nothing per row: the
 * title carries it instead. */
static int single_run(const struct rtable *t, size_t c)
{
	if (strcmp(t->cols[c].name, "run") || t->nrows == 0)
		return 0;
	const struct rcell *first = rt_cell(t, 0, c);
	if (first->kind != RC_TEXT)
		return 0;
	for (size_t r = 1; r < t->nrows; r++) {
		const struct rcell *x = rt_cell(t, r, c);
		if (x->kind != RC_TEXT || strcmp(x->s, first->s))
			return 0;
	}
	return 1;
}

static void table_out(const struct rtable *t, const struct render_ctx *ctx, struct strbuf *sb)
{
	struct strbuf tmp = STRBUF_INIT;
	size_t *w = xcalloc(t->ncols, sizeof(*w));
	int *numeric = xcalloc(t->ncols, sizeof(*numeric));
	int *hide = xcalloc(t->ncols, sizeof(*hide));
	for (size_t c = 0; c < t->ncols; c++)
		hide[c] = single_run(t, c);
	for (size_t c = 0; c < t->ncols; c++) {
		header_string(&t->cols[c], &tmp);
		w[c] = display_width(tmp.buf, tmp.len);
		for (size_t r = 0; r < t->nrows; r++) {
			const struct rcell *cell = rt_cell(t, r, c);
			cell_string(cell, &tmp);
			size_t dw = tmp.len ? display_width(tmp.buf, tmp.len) : 0;
			if (dw > w[c])
				w[c] = dw;
			numeric[c] |= cell->kind == RC_NUM;
		}
	}
	if (ctx->color)
		strbuf_addstr(sb, "\x1b[1m");
	add_clean(sb, t->title, 200);
	for (size_t c = 0; c < t->ncols; c++)
		if (hide[c] && !strstr(t->title, rt_cell(t, 0, c)->s)) {
			strbuf_addstr(sb, " (");
			add_clean(sb, rt_cell(t, 0, c)->s, 80);
			strbuf_addch(sb, ')');
		}
	if (ctx->color)
		strbuf_addstr(sb, "\x1b[0m");
	strbuf_addch(sb, '\n');
	for (size_t c = 0; c < t->ncols; c++) {
		if (hide[c])
			continue;
		header_string(&t->cols[c], &tmp);
		size_t dw = display_width(tmp.buf, tmp.len);
		strbuf_addstr(sb, c ? "  " : "  ");
		if (numeric[c])
			pad(sb, w[c] - dw);
		strbuf_add(sb, tmp.buf, tmp.len);
		if (!numeric[c] && c + 1 < t->ncols)
			pad(sb, w[c] - dw);
	}
	strbuf_addch(sb, '\n');
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			if (hide[c])
				continue;
			const struct rcell *cell = rt_cell(t, r, c);
			cell_string(cell, &tmp);
			size_t dw = tmp.len ? display_width(tmp.buf, tmp.len) : 0;
			strbuf_addstr(sb, "  ");
			if (numeric[c])
				pad(sb, w[c] - dw);
			if (tmp.len)
				strbuf_add(sb, tmp.buf, tmp.len);
			if (!numeric[c] && c + 1 < t->ncols)
				pad(sb, w[c] - dw);
		}
		if (t->bar_col >= 0 && !strcmp(t->cols[t->bar_col].unit, "%")) {
			const struct rcell *cell = rt_cell(t, r, (size_t)t->bar_col);
			if (cell->kind == RC_NUM && cell->v > 0) {
				double frac = cell->v / 100;
				int full = (int)floor((frac > 1 ? 1 : frac) * BAR_WIDTH * 2 + 0.5);
				strbuf_addstr(sb, "  ");
				for (int i = 0; i < full / 2; i++)
					strbuf_addstr(sb, "\xe2\x96\x88"); /* █ */
				if (full % 2)
					strbuf_addstr(sb, "\xe2\x96\x8c"); /* ▌ */
			}
		}
		strbuf_addch(sb, '\n');
	}
	strbuf_addch(sb, '\n');
	free(w);
	free(numeric);
	free(hide);
	strbuf_release(&tmp);
}

static void finding_out(const struct finding *f, const struct render_ctx *ctx, struct strbuf *sb)
{
	strbuf_addstr(sb, "  ");
	if (ctx->color)
		strbuf_addstr(sb, sev_color(f->sev));
	strbuf_addf(sb, "%-8s", severity_name(f->sev));
	if (ctx->color)
		strbuf_addstr(sb, "\x1b[0m");
	strbuf_addch(sb, ' ');
	if (f->run) {
		add_clean(sb, f->run, 40);
		strbuf_addstr(sb, ": ");
	}
	add_clean(sb, f->message, 1000);
	if (f->file && f->line) {
		strbuf_addstr(sb, " (");
		add_clean(sb, f->file, 200);
		strbuf_addf(sb, ":%llu)", (unsigned long long)f->line);
	}
	strbuf_addch(sb, '\n');
	if (f->advice) {
		strbuf_addstr(sb, "           advice: ");
		add_clean(sb, f->advice, 1000);
		strbuf_addch(sb, '\n');
	}
}

int render_table(const struct report *rep, const struct render_ctx *ctx, struct outfile *of,
		 struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	for (size_t i = 0; i < rep->nsections && rc == 0; i++) {
		const struct rsection *s = &rep->sections[i];
		size_t nf = 0, nt = 0;
		for (size_t k = 0; k < rep->nfindings; k++)
			nf += !strcmp(rep->findings[k].section, s->id);
		for (size_t k = 0; k < s->ntables; k++)
			nt += !s->tables[k]->data_only;
		if (!nt && !nf)
			continue;
		if (ctx->color)
			strbuf_addstr(&sb, "\x1b[1;4m");
		strbuf_addf(&sb, "== %s ==", s->title);
		if (ctx->color)
			strbuf_addstr(&sb, "\x1b[0m");
		strbuf_addstr(&sb, "\n\n");
		for (size_t k = 0; k < s->ntables; k++)
			if (!s->tables[k]->data_only)
				table_out(s->tables[k], ctx, &sb);
		for (int sev = SEV_CRITICAL; sev >= SEV_INFO; sev--)
			for (size_t k = 0; k < rep->nfindings; k++) {
				const struct finding *f = &rep->findings[k];
				if ((int)f->sev == sev && !strcmp(f->section, s->id))
					finding_out(f, ctx, &sb);
			}
		if (nf)
			strbuf_addch(&sb, '\n');
		rc = render_flush(of, &sb, err);
	}
	strbuf_release(&sb);
	return rc;
}
