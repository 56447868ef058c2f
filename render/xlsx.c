/*
 * xlsx.c - the report as an Excel workbook, written with libxlsxwriter:
 *
 *   Summary   the title, the findings in words (worst first, one row each,
 *             coloured by severity) and a table of contents linking to
 *             every other sheet with its table's title
 *   one sheet per report table: a bold, frozen header row whose cells say
 *             the unit ("seconds [s]"), an autofilter, number formats from
 *             the cells' precision, fitted column widths and, for the
 *             tables that have one, a native chart beside the data
 *
 * Sheet names come from the table id (short and stable; the title is on
 * the Summary), made valid for Excel: at most 31 characters, none of
 * []:*?/\, no apostrophe at either end, unique regardless of case. A table
 * longer than a sheet continues on "name (2)", ... with a note saying so.
 * Text from logs is always written as a string, never as a formula, and
 * made valid XML text (UTF-8, no control characters).
 *
 * libxlsxwriter writes a file by name: for a named output that is the
 * outfile's scratch name (committed by outfile_close); for standard output
 * it is a temporary file in $TMPDIR, copied and removed.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <xlsxwriter.h>

#include "analyze/analyze.h"
#include "render.h"

#define SHEET_ROWS (LXW_ROW_MAX - 1) /* data rows on a sheet: one is the header */
#define BIG_TABLE 10000              /* rows above which the workbook is streamed */
#define ZIP64_CELLS 20000000         /* cells above which the zip may pass 4 GB */
#define WIDTH_MAX 60                 /* column width cap, in characters */
#define WIDTH_SCAN 100000            /* rows looked at to fit a column */
#define STR_MAX 32767                /* Excel's limit on a cell's text */
#define CHART_POINTS 200             /* categories of a bar chart; more are unreadable */
#define SCATTER_POINTS 10000
#define SCATTER_SERIES 16
#define POINTS_CHARTS 24             /* traces charted from the AT_POINTS table */
#define POINTS_CHART_ROWS 16         /* rows between stacked charts */
#define NPREC 16                     /* "0" to "0.000000000000000" */
#define SUMMARY_COLS 6

/* One sheet of a table: a table longer than a sheet has several parts. */
struct part {
	const struct rtable *t;
	size_t first, n;  /* its rows of t */
	size_t no, count; /* part no (1-based) of count */
	char *name;
	lxw_worksheet *ws;
};

struct xlsx {
	lxw_workbook *wb;
	const struct report *rep;
	const struct render_ctx *ctx;
	size_t max_rows;
	struct part *parts;
	size_t nparts, alloc;
	lxw_format *head, *title, *note, *link, *sev[SEV_CRITICAL + 1], *num[NPREC];
	int failed;          /* the first error is in err; later writes are skipped */
	struct strbuf *err;
	struct strbuf text;  /* scratch: the cleaned text of one cell */
	lxw_chart *last_chart; /* the chart new_chart made last */
};

/* A native chart of one column against another, for tables of this kind (analyses.h ids). */
struct chart_spec {
	enum an_table_kind kind;
	enum an_col_key cat, val;
	const char *title;
	uint8_t type;
};

static const struct chart_spec chart_specs[] = {
	{ AT_BREAKDOWN, AC_STAGE, AC_SHARE, "Share of the total per stage", LXW_CHART_BAR },
	{ AT_RANKS, AC_RANK, AC_MEDIAN, "Median batch time per rank", LXW_CHART_COLUMN },
	{ AT_COMPARE, AC_ITEM, AC_RATIO, "Ratio to the baseline run", LXW_CHART_COLUMN },
	{ AT_WARMUP, AC_SERIES, AC_OVERHEAD_PCT, "Warmup overhead of the first sample", LXW_CHART_COLUMN },
};

/* Keeps the first libxlsxwriter error; the caller stops writing. */
static int check(struct xlsx *x, lxw_error e, const char *what)
{
	if (e == LXW_NO_ERROR)
		return 0;
	if (!x->failed)
		strbuf_addf(x->err, "xlsx: %s: %s", what, lxw_strerror(e));
	x->failed = 1;
	return -1;
}

/* Replaces, in place and byte for byte, what XML 1.0 cannot hold: control
 * characters (but tab and newline) and U+FFFE/U+FFFF; and the bytes of
 * `bad` (sheet names). sb must be valid UTF-8. */
static void fix_text(struct strbuf *sb, const char *bad)
{
	unsigned char *p = (unsigned char *)sb->buf;
	for (size_t i = 0; i < sb->len; i++) {
		if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\n') || (bad && p[i] && strchr(bad, p[i])))
			p[i] = '_';
		else if (p[i] == 0xEF && i + 2 < sb->len && p[i + 1] == 0xBF && p[i + 2] >= 0xBE)
			p[i + 2] = 0xBD; /* U+FFFE/F -> U+FFFD, same length */
	}
}

static size_t utf8_seq(unsigned char c)
{
	return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

/* Cuts sb to at most max UTF-16 units (Excel's measure of a sheet name;
 * characters outside the BMP count twice), at a character boundary. */
static void cut_units(struct strbuf *sb, size_t max)
{
	size_t i = 0, units = 0;
	if (!sb->buf)
		return;
	while (i < sb->len) {
		size_t k = utf8_seq((unsigned char)sb->buf[i]);
		if (units + (k == 4 ? 2 : 1) > max)
			break;
		units += k == 4 ? 2 : 1;
		i += k;
	}
	sb->len = i;
	sb->buf[i] = '\0';
}

/* s as cell text: valid UTF-8, XML-safe, at most STR_MAX bytes (so at
 * most STR_MAX characters) cut at a character boundary. */
static const char *clean(struct xlsx *x, const char *s)
{
	struct strbuf *sb = &x->text;
	strbuf_reset(sb);
	strbuf_add_utf8(sb, s, strlen(s));
	fix_text(sb, NULL);
	if (sb->len > STR_MAX) {
		size_t n = STR_MAX;
		while (n && ((unsigned char)sb->buf[n] & 0xC0) == 0x80)
			n--;
		sb->len = n;
		sb->buf[n] = '\0';
	}
	return sb->buf ? sb->buf : "";
}

static void strip_apostrophes(struct strbuf *sb)
{
	size_t lead = 0;
	if (!sb->buf)
		return;
	while (lead < sb->len && sb->buf[lead] == '\'')
		lead++;
	memmove(sb->buf, sb->buf + lead, sb->len - lead + 1);
	sb->len -= lead;
	while (sb->len && sb->buf[sb->len - 1] == '\'')
		sb->buf[--sb->len] = '\0';
}

/* The valid sheet name nearest to s, before it is made unique. */
static void sheet_base(const char *s, struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_add_utf8(out, s, strlen(s));
	fix_text(out, "[]:*?/\\");
	strip_apostrophes(out);
	cut_units(out, LXW_SHEETNAME_MAX);
	strip_apostrophes(out); /* the cut may end on one */
	if (!out->len)
		strbuf_addstr(out, "Sheet");
}

/* Excel compares sheet names without case; "History" is reserved. */
static int name_used(const struct xlsx *x, const char *name)
{
	if (!strcasecmp(name, "Summary") || !strcasecmp(name, "History"))
		return 1;
	for (size_t i = 0; i < x->nparts; i++)
		if (!strcasecmp(x->parts[i].name, name))
			return 1;
	return 0;
}

/* base, or the first free one of base " (from)", " (from+1)", ..., with
 * base cut so that the whole still fits. */
static char *unique_name(const struct xlsx *x, const char *base, size_t from)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t k = from;; k++) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, base);
		if (k > 1) {
			char suffix[32];
			int n = snprintf(suffix, sizeof(suffix), " (%zu)", k);
			cut_units(&sb, LXW_SHEETNAME_MAX - (size_t)n);
			strbuf_addstr(&sb, suffix);
		}
		if (!name_used(x, sb.buf))
			return sb.buf;
	}
}

/* Names every sheet before any is written, so that notes and links can
 * name the sheets that come later. */
static void plan(struct xlsx *x)
{
	struct strbuf base = STRBUF_INIT;
	for (size_t i = 0; i < x->rep->nsections; i++) {
		const struct rsection *s = &x->rep->sections[i];
		for (size_t k = 0; k < s->ntables; k++) {
			const struct rtable *t = s->tables[k];
			if (t->data_only && !t->nrows)
				continue; /* chart data with nothing to chart */
			size_t count = t->nrows ? (t->nrows + x->max_rows - 1) / x->max_rows : 1;
			sheet_base(t->id[0] ? t->id : t->title, &base);
			for (size_t p = 0; p < count; p++) {
				ALLOC_GROW(x->parts, x->nparts + 1, x->alloc);
				struct part *pt = &x->parts[x->nparts];
				memset(pt, 0, sizeof(*pt));
				pt->t = t;
				pt->first = p * x->max_rows;
				pt->n = p + 1 < count ? x->max_rows : t->nrows - pt->first;
				pt->no = p + 1;
				pt->count = count;
				pt->name = unique_name(x, base.buf, p + 1);
				x->nparts++;
			}
		}
	}
	strbuf_release(&base);
}

/* A workbook format; NULL (after recording the error) if out of memory. */
static lxw_format *new_format(struct xlsx *x, int bold, lxw_color_t fg, lxw_color_t bg)
{
	lxw_format *f = workbook_add_format(x->wb);
	if (!f) {
		check(x, LXW_ERROR_MEMORY_MALLOC_FAILED, "formats");
		return NULL;
	}
	if (bold)
		format_set_bold(f);
	if (fg)
		format_set_font_color(f, fg);
	if (bg) {
		format_set_pattern(f, LXW_PATTERN_SOLID);
		format_set_bg_color(f, bg);
	}
	return f;
}

static int make_formats(struct xlsx *x)
{
	/* info: plain; notice: light blue; warning and critical: Excel's own
	 * "neutral" yellow and "bad" red */
	static const lxw_color_t bg[] = { 0, 0xDDEBF7, 0xFFEB9C, 0xFFC7CE };
	static const lxw_color_t fg[] = { 0, 0x1F4E78, 0x9C5700, 0x9C0006 };
	if (!(x->head = new_format(x, 1, 0, 0)) || !(x->title = new_format(x, 1, 0, 0)) ||
	    !(x->note = new_format(x, 0, 0x595959, 0)) || !(x->link = new_format(x, 0, LXW_COLOR_BLUE, 0)))
		return -1;
	format_set_bottom(x->head, LXW_BORDER_THIN);
	format_set_font_size(x->title, 14);
	format_set_italic(x->note);
	format_set_underline(x->link, LXW_UNDERLINE_SINGLE);
	for (int s = SEV_INFO; s <= SEV_CRITICAL; s++)
		if (!(x->sev[s] = new_format(x, s == SEV_CRITICAL, fg[s], bg[s])))
			return -1;
	char code[NPREC + 2] = "0.";
	for (int p = 0; p < NPREC; p++) {
		if (!(x->num[p] = new_format(x, 0, 0, 0)))
			return -1;
		if (p)
			code[p + 1] = '0', code[p + 2] = '\0';
		format_set_num_format(x->num[p], p ? code : "0");
	}
	return 0;
}

/* Integers without decimals; others with the cell's precision, or
 * Excel's General (NULL) when the report asked for the shortest form. */
static lxw_format *num_format(const struct xlsx *x, const struct rcell *c)
{
	if (c->prec >= 0)
		return x->num[c->prec < NPREC ? c->prec : NPREC - 1];
	if (c->v == floor(c->v) && fabs(c->v) < 1e15)
		return x->num[0];
	return NULL;
}

static int put_text(struct xlsx *x, lxw_worksheet *ws, size_t row, size_t col, const char *s,
		    lxw_format *f)
{
	/* write_string, never write(): "=..." from a log stays text */
	return check(x, worksheet_write_string(ws, (lxw_row_t)row, (lxw_col_t)col, clean(x, s), f),
		     "writing a text cell");
}

static int put_cell(struct xlsx *x, lxw_worksheet *ws, size_t row, size_t col, const struct rcell *c)
{
	if (c->kind == RC_TEXT)
		return put_text(x, ws, row, col, c->s, NULL);
	if (c->kind != RC_NUM)
		return 0;
	if (!isfinite(c->v)) /* the XML has no spelling for them */
		return put_text(x, ws, row, col, isnan(c->v) ? "nan" : c->v > 0 ? "inf" : "-inf", NULL);
	return check(x, worksheet_write_number(ws, (lxw_row_t)row, (lxw_col_t)col, c->v, num_format(x, c)),
		     "writing a number");
}

static size_t utf8_chars(const char *s)
{
	size_t n = 0;
	for (; *s && n <= WIDTH_MAX; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* How many characters a cell shows, as formatted by num_format. */
static size_t shown_len(const struct rcell *c)
{
	char buf[48];
	int n;
	if (c->kind == RC_TEXT)
		return utf8_chars(c->s);
	if (c->kind != RC_NUM)
		return 0;
	if (!isfinite(c->v))
		return 4;
	if (c->prec >= 0)
		n = snprintf(buf, sizeof(buf), "%.*f", c->prec < NPREC ? c->prec : NPREC - 1, c->v);
	else if (c->v == floor(c->v) && fabs(c->v) < 1e15)
		n = snprintf(buf, sizeof(buf), "%.0f", c->v);
	else
		n = snprintf(buf, sizeof(buf), "%.10g", c->v); /* General shows about 11 characters */
	return n > 0 ? (size_t)n : 0;
}

static void header_text(const struct rcol *col, struct strbuf *sb)
{
	strbuf_reset(sb);
	strbuf_addstr(sb, col->name);
	if (col->unit[0])
		strbuf_addf(sb, " [%s]", col->unit);
}

static double fit(size_t chars)
{
	return (double)(chars + 2 < WIDTH_MAX ? chars + 2 : WIDTH_MAX);
}

/* Widths from the header and the first WIDTH_SCAN rows: enough to fit a
 * column, and a million-row table is not formatted twice. */
static int fit_columns(struct xlsx *x, const struct part *p, struct strbuf *sb)
{
	const struct rtable *t = p->t;
	size_t scan = p->n < WIDTH_SCAN ? p->n : WIDTH_SCAN;
	for (size_t c = 0; c < t->ncols; c++) {
		header_text(&t->cols[c], sb);
		size_t w = utf8_chars(sb->buf) + 2; /* room for the autofilter button */
		for (size_t r = 0; r < scan && w < WIDTH_MAX; r++) {
			size_t n = shown_len(rt_cell(t, p->first + r, c));
			if (n > w)
				w = n;
		}
		if (check(x, worksheet_set_column(p->ws, (lxw_col_t)c, (lxw_col_t)c, fit(w), NULL),
			  "setting a column width"))
			return -1;
	}
	return 0;
}

/* On a table split over sheets, beside the header of each part. */
static int split_note(struct xlsx *x, const struct part *p)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "Rows %zu to %zu of %zu: the table is longer than an Excel sheet", p->first + 1,
		    p->first + p->n, p->t->nrows);
	if (p->no > 1)
		strbuf_addf(&sb, "; continued from sheet '%s'", p[-1].name);
	if (p->no < p->count)
		strbuf_addf(&sb, "; continued on sheet '%s'", p[1].name);
	int rc = put_text(x, p->ws, 0, p->t->ncols + 1, sb.buf, x->note);
	strbuf_release(&sb);
	return rc;
}

static int write_header(struct xlsx *x, const struct part *p)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = fit_columns(x, p, &sb);
	for (size_t c = 0; !rc && c < p->t->ncols; c++) {
		header_text(&p->t->cols[c], &sb);
		rc = put_text(x, p->ws, 0, c, sb.buf, x->head);
	}
	strbuf_release(&sb);
	if (!rc && p->count > 1)
		rc = split_note(x, p);
	return rc;
}

/* Rows strictly in order: in constant_memory mode a row is final once a
 * later one is started. */
static int write_part(struct xlsx *x, const struct part *p)
{
	const struct rtable *t = p->t;
	if (write_header(x, p) < 0)
		return -1;
	for (size_t r = 0; r < p->n; r++)
		for (size_t c = 0; c < t->ncols; c++)
			if (put_cell(x, p->ws, r + 1, c, rt_cell(t, p->first + r, c)) < 0)
				return -1;
	worksheet_freeze_panes(p->ws, 1, 0);
	if (t->ncols)
		return check(x, worksheet_autofilter(p->ws, 0, 0, (lxw_row_t)p->n, (lxw_col_t)(t->ncols - 1)),
			     "setting the autofilter");
	return 0;
}

/* ---- Summary ---- */

struct summary {
	struct xlsx *x;
	lxw_worksheet *ws;
	size_t row;
	size_t width[SUMMARY_COLS];
};

/* A Summary cell; widths follow what is written (title rows aside). */
static int sum_text(struct summary *s, size_t col, const char *text, lxw_format *f)
{
	size_t n = utf8_chars(text);
	if (f != s->x->title && n > s->width[col])
		s->width[col] = n;
	return put_text(s->x, s->ws, s->row, col, text, f);
}

static int sum_header(struct summary *s, const char *const *names, size_t n)
{
	for (size_t c = 0; c < n; c++)
		if (sum_text(s, c, names[c], s->x->head) < 0)
			return -1;
	s->row++;
	return 0;
}

/* One finding: every cell in the severity's colour, so the row reads as one. */
static int sum_finding(struct summary *s, const struct finding *f)
{
	lxw_format *fmt = s->x->sev[f->sev];
	struct strbuf where = STRBUF_INIT;
	if (f->file)
		strbuf_addstr(&where, f->file);
	if (f->file && f->line)
		strbuf_addf(&where, ":%llu", (unsigned long long)f->line);
	const char *cells[SUMMARY_COLS] = { severity_name(f->sev), f->run ? f->run : "", f->kind, f->message,
					    where.buf ? where.buf : "", f->advice ? f->advice : "" };
	int rc = 0;
	for (size_t c = 0; !rc && c < SUMMARY_COLS; c++)
		rc = cells[c][0] ? sum_text(s, c, cells[c], fmt)
				 : check(s->x, worksheet_write_blank(s->ws, (lxw_row_t)s->row, (lxw_col_t)c, fmt),
					 "writing a blank cell");
	strbuf_release(&where);
	s->row++;
	return rc;
}

/* Worst first; within a severity, the report's order. */
static int sum_findings(struct summary *s)
{
	static const char *const head[] = { "severity", "run", "kind", "message", "file:line", "advice" };
	const struct report *rep = s->x->rep;
	if (!rep->nfindings) {
		s->row++;
		return sum_text(s, 0, "No findings.", NULL);
	}
	if (sum_header(s, head, ARRAY_SIZE(head)) < 0)
		return -1;
	/* the findings and the table of contents must fit one sheet */
	size_t room = SHEET_ROWS - s->x->nparts - 8, shown = 0;
	for (int sev = SEV_CRITICAL; sev >= SEV_INFO; sev--)
		for (size_t i = 0; i < rep->nfindings; i++)
			if (rep->findings[i].sev == (enum severity)sev && !rep->findings[i].merged && shown++ < room &&
			    sum_finding(s, &rep->findings[i]) < 0)
				return -1;
	if (shown > room) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%zu more findings are not shown: see the JSON report", shown - room);
		int rc = sum_text(s, 0, sb.buf, s->x->note);
		strbuf_release(&sb);
		s->row++;
		return rc;
	}
	return 0;
}

/* A link to the sheet, showing its name. */
static int sum_link(struct summary *s, const char *name)
{
	struct strbuf url = STRBUF_INIT;
	strbuf_addstr(&url, "internal:'");
	for (const char *p = name; *p; p++) /* a quote in a quoted name is doubled */
		strbuf_add(&url, p, *p == '\'' ? 2 : 1);
	strbuf_addstr(&url, "'!A1");
	if (utf8_chars(name) > s->width[0])
		s->width[0] = utf8_chars(name);
	int rc = check(s->x, worksheet_write_url_opt(s->ws, (lxw_row_t)s->row, 0, url.buf, s->x->link, name, NULL),
		       "writing a link");
	strbuf_release(&url);
	return rc;
}

static int sum_contents(struct summary *s)
{
	static const char *const head[] = { "sheet", "title", "rows", "of table" };
	if (!s->x->nparts)
		return 0;
	s->row++;
	if (sum_text(s, 0, "Tables", s->x->title) < 0)
		return -1;
	s->row++;
	if (sum_header(s, head, ARRAY_SIZE(head)) < 0)
		return -1;
	for (size_t i = 0; i < s->x->nparts; i++, s->row++) {
		const struct part *p = &s->x->parts[i];
		struct rcell rows = { RC_NUM, (double)p->n, 0, NULL }, total = { RC_NUM, (double)p->t->nrows, 0, NULL };
		if (sum_link(s, p->name) < 0 || sum_text(s, 1, p->t->title, NULL) < 0 ||
		    put_cell(s->x, s->ws, s->row, 2, &rows) < 0 || put_cell(s->x, s->ws, s->row, 3, &total) < 0)
			return -1;
	}
	return 0;
}

/* The answer first: the headline, then the findings with the most time at stake. */
static int sum_answer(struct summary *s)
{
	const struct report *rep = s->x->rep;
	for (const char *p = rep->headline; p && *p;) {
		size_t n = strcspn(p, "\n");
		struct strbuf line = STRBUF_INIT;
		strbuf_add(&line, p, n);
		int rc = put_text(s->x, s->ws, s->row++, 0, line.buf, s->x->title);
		strbuf_release(&line);
		if (rc < 0)
			return -1;
		p += n + (p[n] == '\n');
	}
	const struct rtable *t = report_find(rep, AT_SUMMARY_TOP, 0);
	if (!t || !t->nrows)
		return 0;
	if (put_text(s->x, s->ws, s->row++, 0, "Top findings by time at stake (seconds a fix could save)", s->x->head) < 0)
		return -1;
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	for (size_t r = 0; r < t->nrows && !rc; r++) {
		const struct rcell *st = rt_cell(t, r, (size_t)rt_col(t, AC_AT_STAKE));
		const struct rcell *msg = rt_cell(t, r, (size_t)rt_col(t, AC_MESSAGE));
		const struct rcell *adv = rt_cell(t, r, (size_t)rt_col(t, AC_ADVICE));
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%zu. ", r + 1);
		if (st->kind == RC_NUM)
			strbuf_addf(&sb, "%.3g s at stake: ", st->v);
		strbuf_addstr(&sb, msg->kind == RC_TEXT ? msg->s : "");
		if (adv->kind == RC_TEXT)
			strbuf_addf(&sb, " (advice: %s)", adv->s);
		rc = put_text(s->x, s->ws, s->row++, 0, sb.buf, NULL);
	}
	strbuf_release(&sb);
	s->row++;
	return rc;
}

static int write_summary(struct xlsx *x, lxw_worksheet *ws)
{
	struct summary s = { x, ws, 0, { 0 } };
	const char *tool = x->ctx && x->ctx->tool ? x->ctx->tool : "tprof";
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s %s: %zu findings, %zu tables", tool, TPROF_VERSION, x->rep->nfindings, x->nparts);
	int rc = sum_text(&s, 0, x->ctx && x->ctx->title ? x->ctx->title : "tprof report", x->title);
	s.row++;
	if (!rc)
		rc = put_text(x, ws, s.row++, 0, sb.buf, x->note);
	strbuf_release(&sb);
	s.row++;
	if (rc || sum_answer(&s) < 0 || sum_findings(&s) < 0 || sum_contents(&s) < 0)
		return -1;
	for (size_t c = 0; c < SUMMARY_COLS; c++)
		if (check(x, worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c, fit(s.width[c] ? s.width[c] : 6), NULL),
			  "setting a column width"))
			return -1;
	return 0;
}

/* ---- Charts ---- */

/* The column with that key (analyses.h), or -1. */
static int col_index(const struct rtable *t, enum an_col_key key)
{
	return rt_col(t, (int)key);
}

/* Rows charted: those before a TOTAL row (the whole would dwarf its
 * parts), at most CHART_POINTS. */
static size_t chart_rows(const struct part *p)
{
	size_t n = p->n < CHART_POINTS ? p->n : CHART_POINTS;
	for (size_t r = 0; r < n; r++)
		if (rt_row_key(p->t, p->first + r).series == AK_TOTAL)
			return r;
	return n;
}

/* A chart with its title and no legend; NULL after recording an error. */
static lxw_chart *new_chart(struct xlsx *x, uint8_t type, const char *title)
{
	lxw_chart *ch = workbook_add_chart(x->wb, type);
	if (!ch) {
		check(x, LXW_ERROR_MEMORY_MALLOC_FAILED, "adding a chart");
		return NULL;
	}
	x->last_chart = ch;
	chart_title_set_name(ch, title);
	chart_legend_set_position(ch, LXW_CHART_LEGEND_NONE);
	return ch;
}

static lxw_chart_series *add_series(struct xlsx *x, lxw_chart *ch, const char *sheet, size_t r0, size_t r1,
				    size_t cat, size_t val)
{
	lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
	if (!se) {
		check(x, LXW_ERROR_MEMORY_MALLOC_FAILED, "adding a chart series");
		return NULL;
	}
	chart_series_set_categories(se, sheet, (lxw_row_t)r0, (lxw_col_t)cat, (lxw_row_t)r1, (lxw_col_t)cat);
	chart_series_set_values(se, sheet, (lxw_row_t)r0, (lxw_col_t)val, (lxw_row_t)r1, (lxw_col_t)val);
	return se;
}

/* Beside the table, from `row` down (row 1: below the header and the split note). */
static int place_chart(struct xlsx *x, const struct part *p, size_t row, lxw_chart *ch, double y_scale)
{
	lxw_chart_options o = { 0 };
	o.x_scale = 1.5;
	o.y_scale = y_scale < 1 ? 1 : y_scale > 12 ? 12 : y_scale;
	return check(x, worksheet_insert_chart_opt(p->ws, (lxw_row_t)row, (lxw_col_t)(p->t->ncols + 1), ch, &o),
		     "inserting a chart");
}

static int spec_chart(struct xlsx *x, const struct part *p, const struct chart_spec *sp)
{
	int cat = col_index(p->t, sp->cat), val = col_index(p->t, sp->val);
	size_t n = cat < 0 || val < 0 ? 0 : chart_rows(p);
	if (!n)
		return 0;
	struct strbuf sb = STRBUF_INIT;
	header_text(&p->t->cols[val], &sb);
	lxw_chart *ch = new_chart(x, sp->type, sp->title);
	lxw_chart_series *se = ch ? add_series(x, ch, p->name, 1, n, (size_t)cat, (size_t)val) : NULL;
	if (se) {
		/* libxlsxwriter swaps the axes of a bar chart: x_axis is its
		 * (horizontal) value axis, y_axis its category axis */
		lxw_chart_axis *cat_axis = sp->type == LXW_CHART_BAR ? ch->y_axis : ch->x_axis;
		lxw_chart_axis *val_axis = sp->type == LXW_CHART_BAR ? ch->x_axis : ch->y_axis;
		chart_series_set_name(se, sb.buf);
		chart_axis_set_name(val_axis, sb.buf);
		chart_axis_set_name(cat_axis, p->t->cols[cat].name);
		if (sp->type == LXW_CHART_BAR) {
			/* the first row on top, as in the table; the values stay below */
			chart_axis_set_reverse(cat_axis);
			chart_axis_set_crossing_max(cat_axis);
		}
	}
	strbuf_release(&sb);
	if (!se)
		return -1;
	return place_chart(x, p, 1, ch, sp->type == LXW_CHART_BAR ? (double)n / 12 : 1.2);
}

static const struct part *first_part(const struct xlsx *x, enum an_table_kind kind)
{
	for (size_t i = 0; i < x->nparts; i++)
		if (x->parts[i].t->kind == (int)kind)
			return &x->parts[i];
	return NULL;
}

static int same_text(const struct rcell *a, const struct rcell *b)
{
	if (a->kind != RC_TEXT || b->kind != RC_TEXT)
		return a->kind == b->kind;
	return !strcmp(a->s, b->s);
}

/* The end of the rows from r (below n) equal to row r in the key columns
 * (-1: absent): one chart series per such run of rows. */
static size_t group_end(const struct part *p, size_t r, size_t n, const int key[2])
{
	size_t e = r + 1;
	for (; e < n; e++)
		for (int k = 0; k < 2; k++)
			if (key[k] >= 0 && !same_text(rt_cell(p->t, r, (size_t)key[k]), rt_cell(p->t, e, (size_t)key[k])))
				return e;
	return e;
}

/* Whether the first n rows hold more than one value of the column. */
static int several(const struct part *p, int col, size_t n)
{
	for (size_t r = 1; col >= 0 && r < n; r++)
		if (!same_text(rt_cell(p->t, 0, (size_t)col), rt_cell(p->t, r, (size_t)col)))
			return 1;
	return 0;
}

/* "param", or "param (run)" when the table holds several runs. */
static void group_name(const struct part *p, size_t r, int name, int run, struct strbuf *sb)
{
	const struct rcell *a = rt_cell(p->t, r, (size_t)name), *b = run >= 0 ? rt_cell(p->t, r, (size_t)run) : NULL;
	strbuf_reset(sb);
	strbuf_addstr(sb, a->kind == RC_TEXT ? a->s : "");
	if (b && b->kind == RC_TEXT)
		strbuf_addf(sb, " (%s)", b->s);
}

/* Log axes only where every point can be drawn on one. */
static int all_positive(const struct part *p, size_t col, size_t n)
{
	for (size_t r = 0; r < n; r++) {
		const struct rcell *c = rt_cell(p->t, r, col);
		if (c->kind != RC_NUM || !(c->v > 0))
			return 0;
	}
	return 1;
}

/* The column of the mean time, in ms. */
static int mean_ms_col(const struct rtable *t)
{
	int c = col_index(t, AC_MEAN);
	return c >= 0 && !strcmp(t->cols[c].unit, "ms") ? c : -1;
}

/* One series per (run, param): the points of one sweep. */
static int scaling_series(struct xlsx *x, lxw_chart *ch, const struct part *pts, int xc, int yc, size_t n)
{
	const int key[2] = { col_index(pts->t, AC_RUN), col_index(pts->t, AC_PARAM) };
	int run = several(pts, key[0], n) ? key[0] : -1;
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	for (size_t r = 0, count = 0; !rc && r < n && count < SCATTER_SERIES; count++) {
		size_t e = group_end(pts, r, n, key);
		lxw_chart_series *se = add_series(x, ch, pts->name, r + 1, e, (size_t)xc, (size_t)yc);
		if (se) {
			group_name(pts, r, key[1], run, &sb);
			chart_series_set_name(se, clean(x, sb.buf));
		}
		rc = se ? 0 : -1;
		r = e;
	}
	strbuf_release(&sb);
	return rc;
}

/* The time against the size on log axes, from the points of the sweeps
 * in AT_SCALING_POINTS (the exponents of AT_SCALING alone cannot be drawn),
 * shown beside the AT_SCALING table, else beside the points. */
/* The rows [*r0, *r1) of pts in fit group g (the first run of them); 0 if fewer than 2. */
static int group_rows(const struct part *pts, int g, size_t n, size_t *r0, size_t *r1)
{
	size_t r = 0;
	while (r < n && rt_row_key(pts->t, pts->first + r).group != g)
		r++;
	*r0 = r;
	while (r < n && rt_row_key(pts->t, pts->first + r).group == g)
		r++;
	*r1 = r;
	return *r1 - *r0 >= 2;
}

/* One fit: its points as markers and the analysis' line between the cells of its ends. */
static int fit_chart(struct xlsx *x, const struct part *fits, size_t fr, const struct part *pts, size_t r0,
		     size_t r1, int several, size_t slot)
{
	const struct rtable *f = fits->t;
	const struct rcell *param = rt_cell(f, fits->first + fr, (size_t)col_index(f, AC_PARAM));
	const struct rcell *run = rt_cell(f, fits->first + fr, (size_t)col_index(f, AC_RUN));
	const struct rcell *b = rt_cell(f, fits->first + fr, (size_t)col_index(f, AC_EXPONENT));
	const char *pn = param->kind == RC_TEXT ? param->s : "size";
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "Time against %s", pn);
	if (several && run->kind == RC_TEXT)
		strbuf_addf(&sb, " (%s)", run->s);
	lxw_chart *ch = new_chart(x, LXW_CHART_SCATTER_STRAIGHT, clean(x, sb.buf));
	lxw_chart_series *se = ch ? add_series(x, ch, pts->name, r0 + 1, r1, (size_t)col_index(pts->t, AC_VALUE),
					       (size_t)mean_ms_col(pts->t))
				 : NULL;
	lxw_chart_series *line = ch ? chart_add_series(ch, NULL, NULL) : NULL;
	if (!se || !line) {
		strbuf_release(&sb);
		return check(x, LXW_ERROR_MEMORY_MALLOC_FAILED, "adding a chart series");
	}
	lxw_chart_line none = { .none = LXW_TRUE };
	chart_series_set_line(se, &none);
	chart_series_set_marker_type(se, LXW_CHART_MARKER_CIRCLE);
	chart_series_set_name(se, "measured");
	lxw_row_t row = (lxw_row_t)(fr + 1);
	chart_series_set_categories(line, fits->name, row, (lxw_col_t)col_index(f, AC_X_LOW), row,
				    (lxw_col_t)col_index(f, AC_X_HIGH));
	chart_series_set_values(line, fits->name, row, (lxw_col_t)col_index(f, AC_Y_LOW), row,
				(lxw_col_t)col_index(f, AC_Y_HIGH));
	strbuf_reset(&sb);
	strbuf_addf(&sb, "fit: time ~ %s^%.2f", pn, b->kind == RC_NUM ? b->v : NAN);
	chart_series_set_name(line, clean(x, sb.buf));
	chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
	chart_axis_set_name(ch->x_axis, clean(x, pn));
	chart_axis_set_name(ch->y_axis, "mean [ms]");
	chart_axis_set_log_base(ch->x_axis, 10);
	chart_axis_set_log_base(ch->y_axis, 10);
	strbuf_release(&sb);
	return place_chart(x, fits, 1 + slot * POINTS_CHART_ROWS, ch, 1);
}

/* A chart per fit of the analysis (at most 4), each with its own axes and its line. */
static int fit_charts(struct xlsx *x, const struct part *fits, const struct part *pts)
{
	const struct rtable *f = fits->t;
	if (col_index(f, AC_X_LOW) < 0 || col_index(f, AC_Y_HIGH) < 0 || col_index(pts->t, AC_VALUE) < 0 ||
	    mean_ms_col(pts->t) < 0)
		return 0;
	int several = 0;
	for (size_t r = 1; r < fits->n; r++)
		several |= rt_row_key(f, fits->first + r).run != rt_row_key(f, fits->first).run;
	size_t n = pts->n < SCATTER_POINTS ? pts->n : SCATTER_POINTS;
	for (size_t r = 0, slot = 0; r < fits->n && slot < 4; r++) {
		size_t r0, r1;
		if (!group_rows(pts, rt_row_key(f, fits->first + r).group, n, &r0, &r1))
			continue;
		if (fit_chart(x, fits, r, pts, r0, r1, several, slot++) < 0)
			return -1;
	}
	return 0;
}

static int scaling_chart(struct xlsx *x)
{
	const struct part *pts = first_part(x, AT_SCALING_POINTS), *host = first_part(x, AT_SCALING);
	const struct part *fits = first_part(x, AT_SCALING_FITS);
	if (!pts || col_index(pts->t, AC_PARAM) < 0)
		return 0;
	if (fits && fits->n)
		return fit_charts(x, fits, pts);
	int xc = col_index(pts->t, AC_VALUE), yc = mean_ms_col(pts->t);
	size_t n = pts->n < SCATTER_POINTS ? pts->n : SCATTER_POINTS;
	if (xc < 0 || yc < 0 || !n)
		return 0;
	lxw_chart *ch = new_chart(x, LXW_CHART_SCATTER, "Scaling: time against size");
	if (!ch || scaling_series(x, ch, pts, xc, yc, n) < 0)
		return -1;
	chart_legend_set_position(ch, LXW_CHART_LEGEND_RIGHT);
	chart_axis_set_name(ch->x_axis, "value");
	chart_axis_set_name(ch->y_axis, "mean [ms]");
	if (all_positive(pts, (size_t)xc, n))
		chart_axis_set_log_base(ch->x_axis, 10);
	if (all_positive(pts, (size_t)yc, n))
		chart_axis_set_log_base(ch->y_axis, 10);
	return place_chart(x, host ? host : pts, 1, ch, 1.5);
}

/* One chart of the series: its value against the sample index. */
static int points_chart(struct xlsx *x, const struct part *p, size_t r, size_t e, int run, size_t slot,
			const char *title)
{
	const int xc = col_index(p->t, AC_INDEX), yc = col_index(p->t, AC_VALUE), uc = col_index(p->t, AC_UNIT);
	struct strbuf sb = STRBUF_INIT;
	group_name(p, r, col_index(p->t, AC_SERIES), run, &sb);
	lxw_chart *ch = new_chart(x, LXW_CHART_SCATTER_STRAIGHT, clean(x, title ? title : sb.buf));
	lxw_chart_series *se = ch ? add_series(x, ch, p->name, r + 1, e, (size_t)xc, (size_t)yc) : NULL;
	if (se && title) /* several ranks on this chart: each series names its rank */
		chart_series_set_name(se, clean(x, sb.buf));
	if (se) {
		const struct rcell *u = uc >= 0 ? rt_cell(p->t, r, (size_t)uc) : NULL;
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "value");
		if (u && u->kind == RC_TEXT && u->s[0])
			strbuf_addf(&sb, " [%s]", u->s);
		chart_axis_set_name(ch->x_axis, "sample index");
		chart_axis_set_name(ch->y_axis, clean(x, sb.buf));
	}
	strbuf_release(&sb);
	return se ? place_chart(x, p, 1 + slot * POINTS_CHART_ROWS, ch, 1) : -1;
}

/* A second rank's trace of the same kind: one more series on that chart. */
static int overlay_rank(struct xlsx *x, const struct part *p, lxw_chart *ch, size_t r, size_t e, int run)
{
	const int xc = col_index(p->t, AC_INDEX), yc = col_index(p->t, AC_VALUE);
	struct strbuf sb = STRBUF_INIT;
	lxw_chart_series *se = add_series(x, ch, p->name, r + 1, e, (size_t)xc, (size_t)yc);
	group_name(p, r, col_index(p->t, AC_SERIES), run, &sb);
	if (se)
		chart_series_set_name(se, clean(x, sb.buf));
	chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
	strbuf_release(&sb);
	return se ? 0 : -1;
}

/* Whether a later group of rows [e, n) is another rank of the same kind of series in the same run. */
static int more_ranks(const struct part *p, size_t e, size_t n, struct rkey k)
{
	for (size_t r = e; k.rank >= 0 && r < n; r++) {
		struct rkey o = rt_row_key(p->t, p->first + r);
		if (o.series == k.series && o.run == k.run && o.rank >= 0 && o.rank != k.rank)
			return 1;
	}
	return 0;
}

/*
 * The per-sample traces of AT_POINTS, one chart per (run, series), stacked;
 * the ranks of one kind of series share a chart, one line each.
 */
static int points_charts(struct xlsx *x)
{
	const struct part *p = first_part(x, AT_POINTS);
	if (!p || col_index(p->t, AC_INDEX) < 0 || col_index(p->t, AC_VALUE) < 0 || col_index(p->t, AC_SERIES) < 0)
		return 0;
	const int key[2] = { col_index(p->t, AC_RUN), col_index(p->t, AC_SERIES) };
	size_t n = p->n < SCATTER_POINTS ? p->n : SCATTER_POINTS;
	int run = several(p, key[0], n) ? key[0] : -1;
	struct {
		struct rkey k;
		lxw_chart *ch;
	} made[POINTS_CHARTS];
	size_t nmade = 0;
	for (size_t r = 0; r < n;) {
		size_t e = group_end(p, r, n, key), c = nmade;
		struct rkey k = rt_row_key(p->t, p->first + r);
		for (size_t i = 0; k.rank >= 0 && i < nmade; i++)
			if (made[i].k.rank >= 0 && made[i].k.series == k.series && made[i].k.run == k.run)
				c = i;
		if (c < nmade) {
			if (overlay_rank(x, p, made[c].ch, r, e, run) < 0)
				return -1;
		} else if (nmade < POINTS_CHARTS) {
			/* a chart that ranks will share is titled by their kind (libxlsxwriter keeps every title set) */
			const char *title = more_ranks(p, e, n, k) ? an_series_name(k.series) : NULL;
			if (points_chart(x, p, r, e, run, nmade, title) < 0)
				return -1;
			made[nmade].k = k, made[nmade].ch = x->last_chart;
			nmade++;
		}
		r = e;
	}
	return 0;
}

static int add_charts(struct xlsx *x)
{
	for (size_t i = 0; i < x->nparts; i++) {
		const struct part *p = &x->parts[i];
		for (size_t k = 0; p->no == 1 && k < ARRAY_SIZE(chart_specs); k++)
			if (p->t->kind == (int)chart_specs[k].kind && spec_chart(x, p, &chart_specs[k]) < 0)
				return -1;
	}
	return scaling_chart(x) < 0 ? -1 : points_charts(x);
}

/* ---- The workbook ---- */

static lxw_worksheet *add_sheet(struct xlsx *x, const char *name)
{
	lxw_worksheet *ws = workbook_add_worksheet(x->wb, name);
	if (ws) {
		/* printed: landscape, every column on the page's width */
		worksheet_set_landscape(ws);
		worksheet_fit_to_pages(ws, 1, 0);
	}
	if (!ws) {
		/* the reason, as libxlsxwriter sees it; else it ran out of memory */
		lxw_error e = workbook_validate_sheet_name(x->wb, name);
		strbuf_addf(x->err, "xlsx: cannot add sheet '%s': %s", name,
			    lxw_strerror(e ? e : LXW_ERROR_MEMORY_MALLOC_FAILED));
		x->failed = 1;
	}
	return ws;
}

/* Every sheet in order, then the charts (which may refer to later sheets). */
static int fill(struct xlsx *x)
{
	lxw_worksheet *summary;
	if (make_formats(x) < 0 || !(summary = add_sheet(x, "Summary")) || write_summary(x, summary) < 0)
		return -1;
	for (size_t i = 0; i < x->nparts; i++)
		if (!(x->parts[i].ws = add_sheet(x, x->parts[i].name)) || write_part(x, &x->parts[i]) < 0)
			return -1;
	return add_charts(x);
}

/* Options: streamed (constant_memory) when a table is big, so that a
 * million rows do not live twice in memory; zip64 when it may pass 4 GB. */
static lxw_workbook_options options(const struct report *rep)
{
	lxw_workbook_options o = { 0 };
	size_t cells = 0;
	for (size_t i = 0; i < rep->nsections; i++)
		for (size_t k = 0; k < rep->sections[i].ntables; k++) {
			const struct rtable *t = rep->sections[i].tables[k];
			o.constant_memory |= t->nrows > BIG_TABLE;
			cells += t->nrows * t->ncols;
		}
	o.use_zip64 = cells > ZIP64_CELLS;
	const char *tmp = getenv("TMPDIR");
	o.tmpdir = tmp && *tmp ? (char *)tmp : NULL; /* libxlsxwriter's temporary files */
	return o;
}

/* Columns: the table, a gap and the split note must fit a sheet. */
static int too_wide(const struct report *rep, struct strbuf *err)
{
	for (size_t i = 0; i < rep->nsections; i++)
		for (size_t k = 0; k < rep->sections[i].ntables; k++) {
			const struct rtable *t = rep->sections[i].tables[k];
			if (t->ncols + 2 > LXW_COL_MAX) {
				strbuf_addf(err, "xlsx: table %s has %zu columns, more than a sheet holds", t->id,
					    t->ncols);
				return 1;
			}
		}
	return 0;
}

/* For standard output: a file for libxlsxwriter to write, in $TMPDIR. */
static char *temp_path(struct strbuf *err)
{
	const char *dir = getenv("TMPDIR");
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s/tprof-xlsx.XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(sb.buf);
	if (fd < 0) {
		strbuf_addf(err, "xlsx: cannot create a temporary file %s: %s", sb.buf, strerror(errno));
		strbuf_release(&sb);
		return NULL;
	}
	close(fd);
	return sb.buf;
}

static int copy_out(const char *path, struct outfile *of, struct strbuf *err)
{
	char buf[65536];
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		strbuf_addf(err, "xlsx: cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	int rc = 0;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0) {
				strbuf_addf(err, "xlsx: cannot read %s: %s", path, strerror(errno));
				rc = -1;
			}
			break;
		}
		if (outfile_write(of, buf, (size_t)n) < 0) {
			if (of->err != EPIPE) /* a closed pipe ends quietly */
				strbuf_addstr(err, strerror(of->err));
			rc = -1;
			break;
		}
	}
	close(fd);
	return rc;
}

int render_xlsx_split(const struct report *rep, const struct render_ctx *ctx, struct outfile *of,
		      struct strbuf *err, size_t max_rows)
{
	if (too_wide(rep, err))
		return -1;
	struct strbuf scratch = STRBUF_INIT;
	char *tmp = NULL;
	const char *path = outfile_scratch_name(of, &scratch) == 0 ? scratch.buf : (tmp = temp_path(err));
	if (!path)
		return -1;
	struct xlsx x = { 0 };
	x.rep = rep;
	x.ctx = ctx;
	x.err = err;
	x.max_rows = max_rows && max_rows < SHEET_ROWS ? max_rows : SHEET_ROWS;
	plan(&x);
	lxw_workbook_options o = options(rep);
	x.wb = workbook_new_opt(path, &o);
	if (!x.wb) {
		strbuf_addstr(err, "xlsx: cannot start the workbook (out of memory, or no temporary file)");
		x.failed = 1;
	} else {
		fill(&x);
		/* closing frees the workbook even after an error; the file is then discarded */
		check(&x, workbook_close(x.wb), "writing the workbook");
	}
	if (!x.failed && tmp && copy_out(tmp, of, err) < 0)
		x.failed = 1;
	if (tmp)
		unlink(tmp);
	free(tmp);
	strbuf_release(&scratch);
	for (size_t i = 0; i < x.nparts; i++)
		free(x.parts[i].name);
	free(x.parts);
	strbuf_release(&x.text);
	return x.failed ? -1 : 0;
}

int render_xlsx(const struct report *rep, const struct render_ctx *ctx, struct outfile *of, struct strbuf *err)
{
	return render_xlsx_split(rep, ctx, of, err, 0);
}
