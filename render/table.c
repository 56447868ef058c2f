/*
 * table.c - the terminal renderer: each section's tables with aligned
 * columns (units in the header, numbers right-aligned), a small bar for a
 * share column, then the section's findings, most severe first, with their
 * file:line and advice. The summary section comes first as a few lines
 * (the headline, each run at a glance, the findings with the most time at
 * stake), so that the first screen holds the answer. Everything fits the
 * terminal's width when it is known: long names end with an ellipsis at a
 * word boundary, findings wrap. Colour only when asked (a terminal without
 * NO_COLOR); text from logs never reaches the terminal with control bytes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
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

/*
 * Appends s without control bytes, cut to max display columns: a longer
 * text ends with an ellipsis, after its last whole word when that keeps
 * more than half of it (never in the middle of a word that fits).
 */
static void add_clean(struct strbuf *sb, const char *raw, size_t max)
{
	struct strbuf valid = STRBUF_INIT;
	strbuf_add_utf8(&valid, raw, strlen(raw));
	const char *s = valid.buf ? valid.buf : "";
	size_t w = 0, n = valid.len, start = sb->len, cut = 0, cut_w = 0;
	size_t full = display_width(s, n);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c & 0xc0) != 0x80) {
			if (full > max && w + 1 >= max) {
				if (cut && cut_w * 2 > max)
					sb->len = cut, sb->buf[cut] = '\0';
				strbuf_addstr(sb, "\xe2\x80\xa6"); /* … */
				break;
			}
			if (c == ' ' && sb->len > start)
				cut = sb->len, cut_w = w;
			w++;
		}
		strbuf_addch(sb, (c < 0x20 || c == 0x7f) ? '?' : (char)c);
	}
	strbuf_release(&valid);
}

/*
 * Appends text word-wrapped to width (0: one line), the lines after the
 * first indented by indent; col is the column the text starts at.
 */
static void add_wrapped(struct strbuf *sb, const char *raw, size_t col, size_t indent, size_t width)
{
	struct strbuf clean = STRBUF_INIT;
	add_clean(&clean, raw, (size_t)-1);
	const char *p = clean.buf ? clean.buf : "";
	if (!width) {
		strbuf_addstr(sb, p);
		strbuf_release(&clean);
		return;
	}
	size_t room = width > indent + 10 ? width - indent : 10;
	int first = 1;
	while (*p) {
		size_t wl = strcspn(p, " ");
		size_t ww = display_width(p, wl);
		if (!first && col + 1 + ww > width) {
			strbuf_addch(sb, '\n');
			for (size_t i = 0; i < indent; i++)
				strbuf_addch(sb, ' ');
			col = indent;
		} else if (!first) {
			strbuf_addch(sb, ' ');
			col++;
		}
		first = 0;
		struct strbuf word = STRBUF_INIT;
		strbuf_add(&word, p, wl);
		size_t before = sb->len;
		add_clean(sb, word.buf ? word.buf : "", room);
		col += display_width(sb->buf + before, sb->len - before);
		strbuf_release(&word);
		p += wl;
		while (*p == ' ')
			p++;
	}
	strbuf_release(&clean);
}

static void pad(struct strbuf *sb, size_t n)
{
	while (n--)
		strbuf_addch(sb, ' ');
}

static void cell_string(const struct rcell *c, struct strbuf *tmp, size_t max)
{
	strbuf_reset(tmp);
	if (c->kind == RC_TEXT) {
		add_clean(tmp, c->s, max);
	} else if (c->kind == RC_NUM) {
		/* for people, 4 significant digits are enough: whole numbers stay whole,
		 * 2404.13 reads 2404, a p-value 1.795e-53 reads 1.8e-53 */
		double a = fabs(c->v);
		if (c->prec < 0) {
			strbuf_addf(tmp, "%.3g", c->v);
		} else if (c->prec > 0 && a >= 1) {
			int intd = (int)floor(log10(a)) + 1, p = 4 - intd;
			strbuf_addf(tmp, "%.*f", p < 0 ? 0 : p > c->prec ? c->prec : p, c->v);
		} else {
			render_cell_text(c, tmp);
		}
	}
}

static void header_string(const struct rcol *col, struct strbuf *tmp, size_t max)
{
	struct strbuf h = STRBUF_INIT;
	strbuf_addstr(&h, col->name);
	if (col->unit[0])
		strbuf_addf(&h, " [%s]", col->unit);
	strbuf_reset(tmp);
	add_clean(tmp, h.buf, max);
	strbuf_release(&h);
}

static size_t visible_width(const size_t *w, const int *hide, size_t ncols, size_t extra)
{
	size_t total = extra;
	for (size_t c = 0; c < ncols; c++)
		total += hide[c] ? 0 : 2 + w[c];
	return total;
}

/* Narrows the widest column above its floor until the table fits; 0 when
 * nothing is left to narrow. */
static int narrow_widest(size_t *w, const size_t *floors, const int *hide, size_t ncols, size_t width,
			 size_t extra)
{
	size_t total = visible_width(w, hide, ncols, extra), widest = ncols;
	if (total <= width)
		return 0;
	for (size_t c = 0; c < ncols; c++)
		if (!hide[c] && w[c] > floors[c] && (widest == ncols || w[c] > w[widest]))
			widest = c;
	if (widest == ncols)
		return 0;
	size_t over = total - width, room = w[widest] - floors[widest];
	w[widest] -= over < room ? over : room;
	return 1;
}

/*
 * Fits the table to width, in the order that loses least: text columns
 * narrowed (the first, the row's name, kept readable), then headers wider
 * than their numbers, then the rightmost columns left out (hide 2: the
 * caller says which), and last the names down to 8.
 */
static void fit_widths(size_t *w, const size_t *cells, const int *numeric, int *hide, size_t ncols,
		       size_t width, size_t extra)
{
	if (!width)
		return;
	size_t *floors = xcalloc(ncols, sizeof(*floors));
	size_t key = ncols;
	for (size_t c = 0; c < ncols && key == ncols; c++)
		if (!hide[c] && !numeric[c])
			key = c;
	for (size_t c = 0; c < ncols; c++) {
		size_t want = c == key ? 28 : 10;
		floors[c] = numeric[c] ? w[c] : cells[c] < want ? (cells[c] > 4 ? cells[c] : 4) : want;
	}
	while (narrow_widest(w, floors, hide, ncols, width, extra))
		;
	for (size_t c = 0; c < ncols; c++)
		floors[c] = numeric[c] ? (cells[c] > 4 ? cells[c] : 4) : floors[c];
	while (narrow_widest(w, floors, hide, ncols, width, extra))
		;
	for (size_t c = ncols; c-- > 0 && visible_width(w, hide, ncols, extra) > width;) {
		size_t shown = 0;
		for (size_t k = 0; k < ncols; k++)
			shown += !hide[k];
		if (shown <= 2)
			break;
		if (!hide[c] && c != key)
			hide[c] = 2;
	}
	for (size_t c = 0; c < ncols; c++)
		floors[c] = numeric[c] ? floors[c] : (cells[c] < 8 ? floors[c] : 8);
	while (narrow_widest(w, floors, hide, ncols, width, extra))
		;
	free(floors);
}

/* The columns the width left out, named under the table: the data is in
 * every other format. */
static void cut_note(const struct rtable *t, const int *hide, size_t width, struct strbuf *sb)
{
	struct strbuf l = STRBUF_INIT;
	size_t n = 0;
	for (size_t c = 0; c < t->ncols; c++)
		if (hide[c] == 2)
			strbuf_addf(&l, "%s%s", n++ ? ", " : "", t->cols[c].name);
	if (n) {
		struct strbuf m = STRBUF_INIT;
		strbuf_addf(&m, "(%zu column%s left out at %zu columns: %s; wider: COLUMNS=N or --format md)", n,
			    n == 1 ? "" : "s", width, l.buf);
		strbuf_addstr(sb, "  ");
		add_wrapped(sb, m.buf, 2, 3, width);
		strbuf_addch(sb, '\n');
		strbuf_release(&m);
	}
	strbuf_release(&l);
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
	size_t *cells = xcalloc(t->ncols, sizeof(*cells));
	for (size_t c = 0; c < t->ncols; c++)
		hide[c] = single_run(t, c);
	for (size_t c = 0; c < t->ncols; c++) {
		header_string(&t->cols[c], &tmp, MAX_COL);
		w[c] = display_width(tmp.buf, tmp.len);
		for (size_t r = 0; r < t->nrows; r++) {
			const struct rcell *cell = rt_cell(t, r, c);
			cell_string(cell, &tmp, MAX_COL);
			size_t dw = tmp.len ? display_width(tmp.buf, tmp.len) : 0;
			if (dw > w[c])
				w[c] = dw;
			if (dw > cells[c])
				cells[c] = dw;
			numeric[c] |= cell->kind == RC_NUM;
		}
	}
	int bar = t->bar_col >= 0 && !strcmp(t->cols[t->bar_col].unit, "%");
	fit_widths(w, cells, numeric, hide, t->ncols, (size_t)ctx->width, bar ? 2 + BAR_WIDTH : 0);
	size_t last = 0; /* the last column shown ends the line: no padding after it */
	for (size_t c = 0; c < t->ncols; c++)
		last = hide[c] ? last : c;
	if (ctx->color)
		strbuf_addstr(sb, "\x1b[1m");
	struct strbuf title = STRBUF_INIT;
	strbuf_addstr(&title, t->title);
	for (size_t c = 0; c < t->ncols; c++)
		if (hide[c] == 1 && !strstr(t->title, rt_cell(t, 0, c)->s))
			strbuf_addf(&title, " (%.200s)", rt_cell(t, 0, c)->s);
	add_wrapped(sb, title.buf, 0, 2, (size_t)ctx->width);
	strbuf_release(&title);
	if (ctx->color)
		strbuf_addstr(sb, "\x1b[0m");
	strbuf_addch(sb, '\n');
	for (size_t c = 0; c < t->ncols; c++) {
		if (hide[c])
			continue;
		header_string(&t->cols[c], &tmp, w[c]);
		size_t dw = display_width(tmp.buf, tmp.len);
		strbuf_addstr(sb, c ? "  " : "  ");
		if (numeric[c])
			pad(sb, w[c] - dw);
		strbuf_add(sb, tmp.buf, tmp.len);
		if (!numeric[c] && (c < last || bar))
			pad(sb, w[c] - dw);
	}
	strbuf_addch(sb, '\n');
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			if (hide[c])
				continue;
			const struct rcell *cell = rt_cell(t, r, c);
			cell_string(cell, &tmp, w[c]);
			size_t dw = tmp.len ? display_width(tmp.buf, tmp.len) : 0;
			strbuf_addstr(sb, "  ");
			if (numeric[c])
				pad(sb, w[c] - dw);
			if (tmp.len)
				strbuf_add(sb, tmp.buf, tmp.len);
			if (!numeric[c] && (c < last || bar))
				pad(sb, w[c] - dw);
		}
		if (bar) {
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
	cut_note(t, hide, (size_t)ctx->width, sb);
	strbuf_addch(sb, '\n');
	free(w);
	free(numeric);
	free(hide);
	free(cells);
	strbuf_release(&tmp);
}

/* A finding: severity, message (its run first when the report has several), file:line once, advice. */
static void finding_out(const struct finding *f, const struct render_ctx *ctx, int several_runs, struct strbuf *sb)
{
	size_t width = (size_t)ctx->width;
	struct strbuf text = STRBUF_INIT;
	strbuf_addstr(sb, "  ");
	if (ctx->color)
		strbuf_addstr(sb, sev_color(f->sev));
	strbuf_addf(sb, "%-8s", severity_name(f->sev));
	if (ctx->color)
		strbuf_addstr(sb, "\x1b[0m");
	strbuf_addch(sb, ' ');
	if (f->run && several_runs)
		strbuf_addf(&text, "%s: ", f->run);
	strbuf_addstr(&text, f->message);
	if (f->file && f->line)
		strbuf_addf(&text, " (%s:%llu)", f->file, (unsigned long long)f->line);
	add_wrapped(sb, text.buf, 11, 11, width);
	strbuf_addch(sb, '\n');
	if (f->advice) {
		strbuf_addstr(sb, "           advice: ");
		add_wrapped(sb, f->advice, 19, 19, width);
		strbuf_addch(sb, '\n');
	}
	strbuf_release(&text);
}

/* One run at a glance, in a sentence. */
static void run_line(const struct rtable *t, size_t r, int several_runs, size_t width, struct strbuf *sb)
{
	struct strbuf l = STRBUF_INIT;
	if (render_run_sentence(t, r, several_runs, &l)) {
		strbuf_addstr(sb, "  ");
		add_wrapped(sb, l.buf, 2, 4, width);
		strbuf_addch(sb, '\n');
	}
	strbuf_release(&l);
}

/* One of the findings with the most time at stake. */
static void top_line(const struct rtable *t, size_t r, int several_runs, size_t width, struct strbuf *sb)
{
	struct strbuf l = STRBUF_INIT;
	const char *advice = render_top_sentence(t, r, several_runs, &l);
	strbuf_addf(sb, "  %zu. ", r + 1);
	add_wrapped(sb, l.buf, 5, 5, width);
	strbuf_addch(sb, '\n');
	if (advice) {
		strbuf_addstr(sb, "     advice: ");
		add_wrapped(sb, advice, 13, 13, width);
		strbuf_addch(sb, '\n');
	}
	strbuf_release(&l);
}

/* The summary section: headline, runs, top findings, as lines. */
static void summary_out(const struct report *rep, const struct rsection *s, const struct render_ctx *ctx,
			int several_runs, struct strbuf *sb)
{
	size_t width = (size_t)ctx->width;
	if (rep->headline) {
		const char *p = rep->headline;
		while (*p) {
			size_t n = strcspn(p, "\n");
			struct strbuf line = STRBUF_INIT;
			strbuf_add(&line, p, n);
			if (ctx->color)
				strbuf_addstr(sb, "\x1b[1m");
			strbuf_addstr(sb, "  ");
			add_wrapped(sb, line.buf, 2, 4, width);
			if (ctx->color)
				strbuf_addstr(sb, "\x1b[0m");
			strbuf_addch(sb, '\n');
			strbuf_release(&line);
			p += n + (p[n] == '\n');
		}
	}
	for (size_t k = 0; k < s->ntables; k++) {
		const struct rtable *t = s->tables[k];
		if (t->kind == AT_SUMMARY_TOP && t->nrows)
			strbuf_addstr(sb, "Top findings by time at stake (seconds a fix could save over the run):\n");
		for (size_t r = 0; r < t->nrows; r++) {
			if (t->kind == AT_SUMMARY_RUNS)
				run_line(t, r, several_runs, width, sb);
			else if (t->kind == AT_SUMMARY_TOP)
				top_line(t, r, several_runs, width, sb);
		}
	}
	strbuf_addch(sb, '\n');
}

/* Whether the findings speak of more than one run. */
static int several_runs(const struct report *rep)
{
	const char *first = NULL;
	for (size_t k = 0; k < rep->nfindings; k++) {
		const char *r = rep->findings[k].run;
		if (!r)
			continue;
		if (first && strcmp(first, r))
			return 1;
		first = r;
	}
	const struct rtable *t = report_find(rep, AT_SUMMARY_RUNS, 0);
	return t && t->nrows > 1;
}

render_fn render_table;
int render_table(const struct report *rep, const struct render_ctx *ctx, struct outfile *of,
		 struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0, many = several_runs(rep);
	for (size_t i = 0; i < rep->nsections && rc == 0; i++) {
		const struct rsection *s = &rep->sections[i];
		size_t nf = 0, nt = 0;
		for (size_t k = 0; k < rep->nfindings; k++)
			nf += !rep->findings[k].merged && !strcmp(rep->findings[k].section, s->id);
		for (size_t k = 0; k < s->ntables; k++)
			nt += !s->tables[k]->data_only;
		if (!nt && !nf && !(s->kind == AS_SUMMARY && rep->headline))
			continue;
		if (ctx->color)
			strbuf_addstr(&sb, "\x1b[1;4m");
		strbuf_addf(&sb, "== %s ==", s->title);
		if (ctx->color)
			strbuf_addstr(&sb, "\x1b[0m");
		strbuf_addstr(&sb, "\n");
		if (s->kind == AS_SUMMARY) {
			summary_out(rep, s, ctx, many, &sb);
			rc = render_flush(of, &sb, err);
			continue;
		}
		strbuf_addch(&sb, '\n');
		for (size_t k = 0; k < s->ntables; k++)
			if (!s->tables[k]->data_only)
				table_out(s->tables[k], ctx, &sb);
		for (int sev = SEV_CRITICAL; sev >= SEV_INFO; sev--)
			for (size_t k = 0; k < rep->nfindings; k++) {
				const struct finding *f = &rep->findings[k];
				if ((int)f->sev == sev && !f->merged && !strcmp(f->section, s->id))
					finding_out(f, ctx, many, &sb);
			}
		if (nf)
			strbuf_addch(&sb, '\n');
		rc = render_flush(of, &sb, err);
	}
	strbuf_release(&sb);
	return rc;
}
