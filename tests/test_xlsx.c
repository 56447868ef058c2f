/*
 * test_xlsx.c - the XLSX renderer (render/xlsx.c), read back from the zip
 * with `unzip -p`: sheet names valid, unique and Summary first; frozen
 * bold header with units, autofilter, number formats; text that looks
 * like a formula stored as a string; the native charts and the ranges
 * they draw; tables split over sheets (on a lowered row limit, and in
 * constant_memory mode); standard output; errors reported, not crashed;
 * and bin/tprof-analyze -o report.xlsx end to end.
 *
 * Run from the repository root (make check does).
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "render/render.h"
#include "base/util.h"

/* A member of a zip, whole, or NULL if it is missing or empty. */
static char *member(const char *zip, const char *name)
{
	struct strbuf cmd = STRBUF_INIT, out = STRBUF_INIT;
	char buf[65536];
	size_t n;
	strbuf_addf(&cmd, "unzip -p '%s' '%s' 2>/dev/null", zip, name);
	FILE *fp = popen(cmd.buf, "r");
	cr_assert_not_null(fp);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(&out, buf, n);
	pclose(fp);
	strbuf_release(&cmd);
	return out.buf; /* NULL when nothing was read */
}

#define MAX_SHEETS 64

struct names {
	char *v[MAX_SHEETS];
	int n;
};

/* The sheet names of xl/workbook.xml, in order, XML entities undone. */
static struct names sheet_names(const char *zip)
{
	struct names s = { { 0 }, 0 };
	char *wb = member(zip, "xl/workbook.xml");
	cr_assert_not_null(wb, "%s has no xl/workbook.xml", zip);
	for (const char *p = wb; (p = strstr(p, "<sheet name=\"")) && s.n < MAX_SHEETS; s.n++) {
		p += strlen("<sheet name=\"");
		const char *e = strchr(p, '"');
		struct strbuf sb = STRBUF_INIT;
		static const char *const ent[][2] = { { "&amp;", "&" }, { "&apos;", "'" }, { "&quot;", "\"" },
						       { "&lt;", "<" }, { "&gt;", ">" } };
		while (p < e) {
			size_t k = 0;
			while (k < ARRAY_SIZE(ent) && strncmp(p, ent[k][0], strlen(ent[k][0])))
				k++;
			if (k < ARRAY_SIZE(ent)) {
				strbuf_addstr(&sb, ent[k][1]);
				p += strlen(ent[k][0]);
			} else {
				strbuf_addch(&sb, *p++);
			}
		}
		s.v[s.n] = sb.buf;
	}
	free(wb);
	return s;
}

static void names_free(struct names *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->v[i]);
}

/* The XML of the sheet with that name (sheetN.xml, N its position). */
static char *sheet_xml(const char *zip, const char *name)
{
	struct names s = sheet_names(zip);
	char path[64];
	int i = 0;
	while (i < s.n && strcmp(s.v[i], name))
		i++;
	cr_assert_lt(i, s.n, "no sheet '%s'", name);
	snprintf(path, sizeof(path), "xl/worksheets/sheet%d.xml", i + 1);
	names_free(&s);
	return member(zip, path);
}

/* The zero-based index of a shared string, or -1. */
static int shared_index(const char *zip, const char *text)
{
	char *sst = member(zip, "xl/sharedStrings.xml");
	int idx = -1, k = 0;
	for (const char *p = sst; p && (p = strstr(p, "<si>")); p += 4, k++) {
		const char *t = strstr(p, "<t");
		t = t ? strchr(t, '>') : NULL;
		if (t && !strncmp(t + 1, text, strlen(text)) && !strncmp(t + 1 + strlen(text), "</t>", 4)) {
			idx = k;
			break;
		}
	}
	free(sst);
	return idx;
}

/* Whether the sheet XML's cell `ref` (e.g. "B2") contains `needle`. */
static int cell_has(const char *xml, const char *ref, const char *needle)
{
	char open[32];
	snprintf(open, sizeof(open), "<c r=\"%s\"", ref);
	const char *c = strstr(xml, open), *end = c ? strstr(c, "</c>") : NULL, *hit = c ? strstr(c, needle) : NULL;
	return hit && end && hit < end;
}

static int render_to(const struct report *rep, const char *path, size_t max_rows, struct strbuf *err)
{
	struct outfile of;
	struct render_ctx ctx = { 0 };
	ctx.tool = "test_xlsx";
	ctx.title = "xlsx test report";
	cr_assert_eq(outfile_open(&of, path, err), 0, "%s", err->buf);
	int rc = max_rows ? render_xlsx_split(rep, &ctx, &of, err, max_rows)
			  : render_find("xlsx")->render(rep, &ctx, &of, err);
	if (rc < 0)
		outfile_abort(&of);
	else
		cr_assert_eq(outfile_close(&of), 0);
	return rc;
}

#define LONG_TITLE "A title with []:*?/\\ that is much longer than thirty-one characters"
#define LONG_ID "weird[]:*?/\\ id, longer than thirty-one characters"

/* Gives a hand-built table the kind and column keys that tprof-analyze's schema gives it
 * (charts select by these, never by names). */
static struct rtable *keyed(struct rtable *t, enum an_table_kind kind, const int *keys)
{
	t->kind = kind;
	for (size_t c = 0; c < t->ncols; c++)
		t->cols[c].key = keys[c];
	return t;
}

static void build(struct report *r)
{
	report_init(r);
	struct rtable *t = report_table(r, "breakdown", "breakdown", "Where the time went",
					"run,stage,seconds:s,share:%,line");
	keyed(t, AT_BREAKDOWN, (const int[]){ AC_RUN, AC_STAGE, AC_SECONDS, AC_SHARE, AC_LINE });
	static const struct {
		const char *stage;
		double s, pct, line;
	} rows[] = { { "optimization", 2.51, 56.9, 277 },
		     { "=HYPERLINK(\"x\")", 1.0, 22.7, 12 },
		     { "data loading", 0.9, 20.4, 10 },
		     { "TOTAL", 4.41, 100, 280 } };
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		rt_key(t, (struct rkey){ i + 1 < ARRAY_SIZE(rows) ? AK_STAGE : AK_TOTAL, -1, 0, 0, -1 });
		rt_text(t, "a.log");
		rt_text(t, rows[i].stage);
		rt_num(t, rows[i].s, 2);
		rt_num(t, rows[i].pct, 1);
		rt_num(t, rows[i].line, 0);
	}
	t = report_table(r, "misc", LONG_ID, LONG_TITLE, "name,value");
	rt_text(t, "bad\x01text\xff");
	rt_num(t, 1.0 / 3, -1);
	for (int k = 0; k < 2; k++) {
		t = report_table(r, "misc", "dup", "Same id twice", "name");
		rt_text(t, k ? "second" : "first");
	}
	t = report_table(r, "ranks", "ranks", "Per-rank batch times", "run,rank,batches,median:s");
	keyed(t, AT_RANKS, (const int[]){ AC_RUN, AC_RANK, AC_NONE, AC_MEDIAN });
	for (int k = 0; k < 4; k++) {
		char rk[16];
		snprintf(rk, sizeof(rk), "%d", k);
		rt_text(t, "a.log");
		rt_text(t, rk);
		rt_num(t, 100, 0);
		rt_num(t, 0.5 + 0.01 * k, 3);
	}
	t = report_table(r, "data", "timeline", "Stage timeline", "run,stage");
	keyed(t, AT_TIMELINE, (const int[]){ AC_RUN, AC_STAGE });
	t->data_only = 1; /* chart data with no rows: no sheet */
	t = report_table(r, "data", "scaling-points", "Scaling points", "run,param,value,mean:ms");
	keyed(t, AT_SCALING_POINTS, (const int[]){ AC_RUN, AC_PARAM, AC_VALUE, AC_MEAN });
	t->data_only = 1;
	for (int k = 0; k < 6; k++) {
		rt_text(t, "a.log");
		rt_text(t, k < 3 ? "N" : "E");
		rt_num(t, 100 * (k % 3 + 1), -1);
		rt_num(t, 2.5 * (k + 1), -1);
	}
	report_finding(r, SEV_INFO, "breakdown", "unaccounted", "a.log", NULL, 0, NULL, "an info");
	report_finding(r, SEV_CRITICAL, "breakdown", "bottleneck", "a.log", "a.log", 277, "profile it",
		       "BOTTLENECK: 'optimization' is %.1f%%", 56.9);
	report_finding(r, SEV_WARNING, "ranks", "straggler", NULL, "b.log", 9, NULL, "=cmd|' /C calc'!A0");
}

Test(xlsx, sheet_names_are_valid_unique_and_summary_first)
{
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	build(&rep);
	cr_assert_eq(render_to(&rep, "/tmp/tprof-xlsx-names.xlsx", 0, &err), 0, "%s", err.buf);
	struct names s = sheet_names("/tmp/tprof-xlsx-names.xlsx");
	cr_assert_eq(s.n, 7);
	cr_assert_str_eq(s.v[0], "Summary");
	cr_assert_str_eq(s.v[1], "breakdown");
	cr_assert_str_eq(s.v[3], "dup");
	cr_assert_str_eq(s.v[4], "dup (2)");
	cr_assert_str_eq(s.v[5], "ranks");
	cr_assert_str_eq(s.v[6], "scaling-points"); /* data-only tables are kept only with rows */
	for (int i = 0; i < s.n; i++) {
		size_t chars = 0;
		for (const char *p = s.v[i]; *p; p++)
			chars += ((unsigned char)*p & 0xC0) != 0x80;
		cr_assert_leq(chars, 31, "'%s' is too long", s.v[i]);
		cr_assert_null(strpbrk(s.v[i], "[]:*?/\\"), "'%s' has a forbidden character", s.v[i]);
		cr_assert_neq(s.v[i][0], '\'');
		for (int k = 0; k < i; k++)
			cr_assert(strcasecmp(s.v[i], s.v[k]), "'%s' twice", s.v[i]);
	}
	cr_assert(!strncmp(s.v[2], "weird", 5), "%s", s.v[2]);
	names_free(&s);
	/* the long title itself is kept, on the Summary's table of contents */
	cr_assert_geq(shared_index("/tmp/tprof-xlsx-names.xlsx", LONG_TITLE), 0);
	report_free(&rep);
	strbuf_release(&err);
}

Test(xlsx, odd_names_are_made_valid)
{
	const char *zip = "/tmp/tprof-xlsx-odd.xlsx";
	static const char *const ids[][2] = {
		{ "", "" },                  /* nothing to go by */
		{ "'History'", "History (2)" }, /* apostrophes at the ends; a reserved name */
		{ "summary", "summary (2)" },   /* the Summary, whatever the case */
		{ "\xF0\x9F\x98\x80" "234567890123456789012345678901", "" }, /* a character outside the BMP counts twice */
	};
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	report_init(&rep);
	for (size_t i = 0; i < ARRAY_SIZE(ids); i++)
		rt_text(report_table(&rep, "s", ids[i][0], "", "a"), "x");
	cr_assert_eq(render_to(&rep, zip, 0, &err), 0, "%s", err.buf);
	struct names s = sheet_names(zip);
	cr_assert_eq(s.n, 5);
	cr_assert_str_eq(s.v[1], "Sheet");
	cr_assert_str_eq(s.v[2], "History (2)");
	cr_assert_str_eq(s.v[3], "summary (2)");
	cr_assert_str_eq(s.v[4], "\xF0\x9F\x98\x80" "23456789012345678901234567890");
	names_free(&s);
	report_free(&rep);
	strbuf_release(&err);
}

Test(xlsx, table_sheet_has_frozen_units_header_filter_and_formats)
{
	const char *zip = "/tmp/tprof-xlsx-sheet.xlsx";
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	build(&rep);
	cr_assert_eq(render_to(&rep, zip, 0, &err), 0, "%s", err.buf);
	char *x = sheet_xml(zip, "breakdown");
	cr_assert_not_null(x);
	cr_assert(strstr(x, "<pane ySplit=\"1\" topLeftCell=\"A2\" activePane=\"bottomLeft\" state=\"frozen\"/>"), "%s", x);
	cr_assert(strstr(x, "<autoFilter ref=\"A1:E5\"/>"), "%s", x);
	/* widths fit the content: "=HYPERLINK(\"x\")" is 15 characters, plus a margin */
	cr_assert(strstr(x, "<col min=\"2\" max=\"2\" width=\"17.7109375\" customWidth=\"1\"/>"), "%s", x);
	/* the header says the units */
	cr_assert_geq(shared_index(zip, "seconds [s]"), 0);
	cr_assert_geq(shared_index(zip, "share [%]"), 0);
	cr_assert_geq(shared_index(zip, "stage"), 0);
	/* a name that looks like a formula is a shared string, never a formula */
	int h = shared_index(zip, "=HYPERLINK(\"x\")");
	cr_assert_geq(h, 0);
	char cell[64];
	snprintf(cell, sizeof(cell), "<c r=\"B3\" t=\"s\"><v>%d</v></c>", h);
	cr_assert(strstr(x, cell), "%s", x);
	cr_assert_null(strstr(x, "<f>"));
	free(x);
	/* the finding with a formula-like message, too */
	x = sheet_xml(zip, "Summary");
	cr_assert_null(strstr(x, "<f>"));
	cr_assert_geq(shared_index(zip, "=cmd|' /C calc'!A0"), 0);
	free(x);
	/* numbers: the table's precision; integers without decimals */
	char *st = member(zip, "xl/styles.xml");
	cr_assert(strstr(st, "formatCode=\"0.00\""), "%s", st);
	cr_assert(strstr(st, "formatCode=\"0.0\""));
	cr_assert(strstr(st, "formatCode=\"0\""));
	free(st);
	report_free(&rep);
	strbuf_release(&err);
}

Test(xlsx, summary_lists_findings_worst_first_with_colours_and_links)
{
	const char *zip = "/tmp/tprof-xlsx-summary.xlsx";
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	build(&rep);
	cr_assert_eq(render_to(&rep, zip, 0, &err), 0, "%s", err.buf);
	int crit = shared_index(zip, "critical"), warn = shared_index(zip, "warning"), info = shared_index(zip, "info");
	cr_assert(crit >= 0 && warn >= 0 && info >= 0);
	cr_assert(crit < warn && warn < info, "worst first: %d %d %d", crit, warn, info);
	cr_assert_geq(shared_index(zip, "a.log:277"), 0);
	cr_assert_geq(shared_index(zip, "profile it"), 0);
	cr_assert_geq(shared_index(zip, "xlsx test report"), 0);
	char *st = member(zip, "xl/styles.xml");
	cr_assert(strstr(st, "FFFFC7CE"), "critical fill"); /* Excel's "bad" red */
	cr_assert(strstr(st, "FFFFEB9C"), "warning fill");
	free(st);
	char *x = sheet_xml(zip, "Summary");
	cr_assert(strstr(x, "location=\"'dup (2)'!A1\""), "%s", x);
	free(x);
	report_free(&rep);
	strbuf_release(&err);
}

Test(xlsx, text_is_made_valid_xml)
{
	const char *zip = "/tmp/tprof-xlsx-text.xlsx";
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	build(&rep);
	struct rtable *t = report_table(&rep, "misc", "long", "A long cell", "text");
	char *big = xmalloc(40001);
	memset(big, 'x', 40000);
	big[40000] = '\0';
	rt_text(t, big);
	free(big);
	cr_assert_eq(render_to(&rep, zip, 0, &err), 0, "%s", err.buf);
	char *sst = member(zip, "xl/sharedStrings.xml");
	cr_assert(strstr(sst, "bad_text\xEF\xBF\xBD"), "control byte and invalid UTF-8 replaced");
	for (const unsigned char *p = (const unsigned char *)sst; *p; p++)
		cr_assert(*p >= 0x20 || *p == '\t' || *p == '\n' || *p == '\r', "control byte %#x", *p);
	/* cut to Excel's 32767 characters rather than refused */
	const char *x = strstr(sst, "<t>xxxx");
	cr_assert_not_null(x);
	cr_assert_eq(strspn(x + 3, "x"), 32767);
	free(sst);
	char *sheet = sheet_xml(zip, "long");
	cr_assert(strstr(sheet, "<col min=\"1\" max=\"1\" width=\"60.7109375\""), "width capped at 60: %s", sheet);
	free(sheet);
	report_free(&rep);
	strbuf_release(&err);
}

Test(xlsx, charts_draw_the_right_ranges)
{
	const char *zip = "/tmp/tprof-xlsx-charts.xlsx";
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	build(&rep);
	cr_assert_eq(render_to(&rep, zip, 0, &err), 0, "%s", err.buf);
	/* breakdown: horizontal bars of share by stage, without the TOTAL row */
	char *c = member(zip, "xl/charts/chart1.xml");
	cr_assert_not_null(c);
	cr_assert(strstr(c, "<c:barChart><c:barDir val=\"bar\"/>"), "%s", c);
	cr_assert(strstr(c, "<c:f>breakdown!$B$2:$B$4</c:f>"), "%s", c);
	cr_assert(strstr(c, "<c:f>breakdown!$D$2:$D$4</c:f>"), "%s", c);
	free(c);
	/* ranks: vertical columns of the median */
	c = member(zip, "xl/charts/chart2.xml");
	cr_assert_not_null(c);
	cr_assert(strstr(c, "<c:barDir val=\"col\"/>"), "%s", c);
	cr_assert(strstr(c, "<c:f>ranks!$B$2:$B$5</c:f>"), "%s", c);
	cr_assert(strstr(c, "<c:f>ranks!$D$2:$D$5</c:f>"), "%s", c);
	free(c);
	/* scaling points: one series per param, on log axes */
	c = member(zip, "xl/charts/chart3.xml");
	cr_assert_not_null(c);
	cr_assert(strstr(c, "<c:scatterChart>"), "%s", c);
	cr_assert(strstr(c, "<c:logBase val=\"10\"/>"), "%s", c);
	cr_assert(strstr(c, "<c:f>'scaling-points'!$C$2:$C$4</c:f>"), "%s", c); /* x: value, param N */
	cr_assert(strstr(c, "<c:f>'scaling-points'!$D$5:$D$7</c:f>"), "%s", c); /* y: mean, param E */
	free(c);
	cr_assert_null(member(zip, "xl/charts/chart4.xml"));
	report_free(&rep);
	strbuf_release(&err);
}

Test(xlsx, points_are_charted_per_series)
{
	const char *zip = "/tmp/tprof-xlsx-points.xlsx";
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	report_init(&rep);
	struct rtable *t = report_table(&rep, "data", "points", "Series points", "run,series,unit,index,value,line");
	keyed(t, AT_POINTS, (const int[]){ AC_RUN, AC_SERIES, AC_UNIT, AC_INDEX, AC_VALUE, AC_LINE });
	t->data_only = 1;
	for (int k = 0; k < 6; k++) {
		rt_text(t, "a.log");
		rt_text(t, k < 3 ? "batch time" : "loss");
		rt_text(t, k < 3 ? "s" : "");
		rt_num(t, k % 3, 0);
		rt_num(t, 0.5 + k, -1);
		rt_num(t, 10 + k, 0);
	}
	cr_assert_eq(render_to(&rep, zip, 0, &err), 0, "%s", err.buf);
	char *c = member(zip, "xl/charts/chart1.xml");
	cr_assert(c && strstr(c, "<c:scatterChart>") && strstr(c, "<a:t>batch time</a:t>"), "%s", c);
	cr_assert(strstr(c, "<c:f>points!$D$2:$D$4</c:f>") && strstr(c, "<c:f>points!$E$2:$E$4</c:f>"), "%s", c);
	cr_assert(strstr(c, "<a:t>value [s]</a:t>"), "%s", c);
	free(c);
	c = member(zip, "xl/charts/chart2.xml");
	cr_assert(c && strstr(c, "<a:t>loss</a:t>") && strstr(c, "<c:f>points!$E$5:$E$7</c:f>"), "%s", c);
	free(c);
	report_free(&rep);
	strbuf_release(&err);
}

/* rows table: n rows of (name, i) */
static struct rtable *rows_table(struct report *rep, const char *id, size_t n)
{
	struct rtable *t = report_table(rep, "big", id, "Many rows", "name,i");
	for (size_t i = 0; i < n; i++) {
		rt_text(t, i == 0 ? "=1+1" : "row");
		rt_num(t, (double)i, 0);
	}
	return t;
}

Test(xlsx, long_table_is_split_over_sheets_with_a_note)
{
	const char *zip = "/tmp/tprof-xlsx-split.xlsx";
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	report_init(&rep);
	rows_table(&rep, "big", 25);
	cr_assert_eq(render_to(&rep, zip, 10, &err), 0, "%s", err.buf);
	struct names s = sheet_names(zip);
	cr_assert_eq(s.n, 4);
	cr_assert_str_eq(s.v[1], "big");
	cr_assert_str_eq(s.v[2], "big (2)");
	cr_assert_str_eq(s.v[3], "big (3)");
	names_free(&s);
	char *x = sheet_xml(zip, "big (3)");
	cr_assert(strstr(x, "<autoFilter ref=\"A1:B6\"/>"), "%s", x);
	cr_assert(cell_has(x, "B2", "<v>20</v>"), "the first row of the third part: %s", x);
	cr_assert(strstr(x, "<v>24</v>"), "the last row is there");
	cr_assert(strstr(x, "state=\"frozen\""));
	free(x);
	cr_assert_geq(shared_index(zip, "Rows 21 to 25 of 25: the table is longer than an Excel sheet; "
				       "continued from sheet 'big (2)'"), 0);
	cr_assert_geq(shared_index(zip, "Rows 1 to 10 of 25: the table is longer than an Excel sheet; "
				       "continued on sheet 'big (2)'"), 0);
	report_free(&rep);
	strbuf_release(&err);
}

/* Over 10,000 rows the workbook is streamed (constant_memory): rows in
 * order, strings inline. */
Test(xlsx, big_table_streams_and_splits)
{
	const char *zip = "/tmp/tprof-xlsx-stream.xlsx";
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	report_init(&rep);
	rows_table(&rep, "big", 12000);
	cr_assert_eq(render_to(&rep, zip, 5000, &err), 0, "%s", err.buf);
	struct names s = sheet_names(zip);
	cr_assert_eq(s.n, 4);
	cr_assert_str_eq(s.v[3], "big (3)");
	names_free(&s);
	char *x = sheet_xml(zip, "big");
	cr_assert(strstr(x, "<c r=\"A2\" t=\"inlineStr\"><is><t>=1+1</t></is></c>"), "%.2000s", x);
	cr_assert_null(strstr(x, "<f>"));
	cr_assert(strstr(x, "state=\"frozen\""));
	cr_assert(strstr(x, "<autoFilter ref=\"A1:B5001\"/>"));
	free(x);
	x = sheet_xml(zip, "big (3)");
	cr_assert(strstr(x, "<row r=\"2001\""), "rows 10001 to 12000");
	cr_assert(strstr(x, "<v>11999</v>"));
	free(x);
	report_free(&rep);
	strbuf_release(&err);
}

/* The real limit: 1,100,000 rows become 1,048,575 + 51,425. */
Test(xlsx, over_a_million_rows, .timeout = 120)
{
	const char *zip = "/tmp/tprof-xlsx-million.xlsx";
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	report_init(&rep);
	struct rtable *t = report_table(&rep, "big", "big", "Many rows", "i");
	for (size_t i = 0; i < 1100000; i++)
		rt_num(t, (double)i, 0);
	cr_assert_eq(render_to(&rep, zip, 0, &err), 0, "%s", err.buf);
	struct names s = sheet_names(zip);
	cr_assert_eq(s.n, 3);
	cr_assert_str_eq(s.v[2], "big (2)");
	names_free(&s);
	char *x = sheet_xml(zip, "big (2)");
	cr_assert(strstr(x, "<autoFilter ref=\"A1:A51426\"/>"));
	cr_assert(strstr(x, "<v>1048575</v>"), "the first row of the second part");
	cr_assert(strstr(x, "<v>1099999</v>"));
	cr_assert(strstr(x, "<t>Rows 1048576 to 1100000 of 1100000: the table is longer than an Excel sheet; "
			    "continued from sheet 'big'</t>"));
	free(x);
	unlink(zip);
	report_free(&rep);
	strbuf_release(&err);
}

Test(xlsx, standard_output_gets_the_whole_zip)
{
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	build(&rep);
	const char *path = "/tmp/tprof-xlsx-stdout.xlsx";
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	cr_assert_geq(fd, 0);
	struct outfile of = { .fd = fd }; /* as outfile_open makes standard output */
	struct render_ctx ctx = { 0 };
	cr_assert_eq(render_xlsx(&rep, &ctx, &of, &err), 0, "%s", err.buf);
	close(fd);
	cr_assert_eq(system("unzip -tq /tmp/tprof-xlsx-stdout.xlsx >/dev/null"), 0);
	struct names s = sheet_names(path);
	cr_assert_str_eq(s.v[0], "Summary");
	names_free(&s);
	report_free(&rep);
	strbuf_release(&err);
}

Test(xlsx, errors_are_reported_not_crashed)
{
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	build(&rep);
	struct render_ctx ctx = { 0 };
	/* libxlsxwriter cannot create the file */
	char path[] = "/nonexistent-dir/x.xlsx";
	struct outfile of = { .fd = -1, .path = path, .tmp = path }; /* a visible temporary that cannot be made */
	cr_assert_eq(render_xlsx(&rep, &ctx, &of, &err), -1);
	cr_assert(strstr(err.buf, "xlsx: writing the workbook: "), "%s", err.buf);
	/* no temporary file for standard output */
	strbuf_reset(&err);
	setenv("TMPDIR", "/nonexistent-dir", 1);
	struct outfile out = { .fd = 1 };
	cr_assert_eq(render_xlsx(&rep, &ctx, &out, &err), -1);
	cr_assert(strstr(err.buf, "cannot create a temporary file"), "%s", err.buf);
	unsetenv("TMPDIR");
	/* a closed pipe ends quietly */
	int p[2];
	cr_assert_eq(pipe(p), 0);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	strbuf_reset(&err);
	struct outfile pipe_out = { .fd = p[1] };
	cr_assert_eq(render_xlsx(&rep, &ctx, &pipe_out, &err), -1);
	cr_assert_eq(err.len, 0, "%s", err.buf);
	close(p[1]);
	report_free(&rep);
	strbuf_release(&err);
}

Test(xlsx, found_by_name_and_extension)
{
	cr_assert_not_null(render_find("xlsx"));
	cr_assert_eq(render_for_path("out/report.XLSX"), render_find("xlsx"));
	struct strbuf sb = STRBUF_INIT;
	render_names(&sb);
	cr_assert(strstr(sb.buf, "xlsx"));
	strbuf_release(&sb);
}

Test(xlsx, tprof_analyze_writes_a_workbook)
{
	const char *zip = "/tmp/tprof-xlsx-e2e.xlsx";
	unlink(zip);
	int st = system("bin/tprof-analyze -o /tmp/tprof-xlsx-e2e.xlsx samples/pde-physical.log");
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
	struct names s = sheet_names(zip);
	cr_assert_str_eq(s.v[0], "Summary");
	int has = 0;
	for (int i = 0; i < s.n; i++)
		has |= !strcmp(s.v[i], "breakdown");
	cr_assert(has, "no breakdown sheet");
	names_free(&s);
	char *c = member(zip, "xl/charts/chart1.xml");
	cr_assert(c && strstr(c, "<c:barChart>") && strstr(c, "<c:f>breakdown!$D$2:$D$"), "%s", c ? c : "(none)");
	free(c);
	cr_assert_geq(shared_index(zip, "BOTTLENECK: 'optimization' is 56.9% of 'PERFORMANCE SUMMARY'"), 0);
	/* by --format, to standard output */
	st = system("bin/tprof-analyze -f xlsx samples/pde-physical.log > /tmp/tprof-xlsx-e2e-stdout.xlsx && "
		    "unzip -tq /tmp/tprof-xlsx-e2e-stdout.xlsx >/dev/null");
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
}

/* The workbook of the DDP sample: the answer on the first sheet, ranks
 * overlaid on one chart per kind of series, pages fit to the width. */
Test(xlsx, summary_first_ranks_overlaid_and_print_setup)
{
	const char *zip = "/tmp/tprof-xlsx-ddp.xlsx";
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "bin/tprof-analyze -q -o %s samples/ddp-4rank.log", zip);
	cr_assert_eq(system(cmd), 0);
	char *s = member(zip, "xl/sharedStrings.xml"), *sheet = member(zip, "xl/worksheets/sheet1.xml");
	cr_assert(s && strstr(s, "Top findings by time at stake"), "the answer on the Summary sheet");
	cr_assert(strstr(s, "1. 1.67 s at stake: rank 3 is a straggler"), "the largest time at stake first");
	cr_assert(sheet && strstr(sheet, "orientation=\"landscape\"") && strstr(sheet, "fitToHeight=\"0\""), "%s",
		  sheet);
	int batch_chart = 0;
	for (int i = 1; i <= 12; i++) {
		char name[64];
		snprintf(name, sizeof(name), "xl/charts/chart%d.xml", i);
		char *c = member(zip, name);
		if (!c)
			break;
		if (strstr(c, "<a:t>batch time</a:t>")) {
			int ser = 0;
			for (const char *p = c; (p = strstr(p, "<c:ser>")); p++)
				ser++;
			cr_assert_eq(ser, 4, "the four ranks on one chart");
			batch_chart++;
		}
		free(c);
	}
	cr_assert_eq(batch_chart, 1);
	free(s);
	free(sheet);
	unlink(zip);
}

/* Each scaling sweep its own chart, on its own log axes, with the fitted line of the analysis. */
Test(xlsx, each_sweep_its_own_chart_with_its_fit_line)
{
	const char *zip = "/tmp/tprof-xlsx-sweeps.xlsx";
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "bin/tprof-analyze -q -o %s samples/graph-transformer-profile.log", zip);
	cr_assert_eq(system(cmd), 0);
	char *n = member(zip, "xl/charts/chart1.xml"), *l = member(zip, "xl/charts/chart2.xml");
	cr_assert(n && strstr(n, "<a:t>Time against N</a:t>") && strstr(n, "<c:logBase val=\"10\"/>"), "%s", n);
	cr_assert(strstr(n, "<c:f>'scaling-points'!$C$2:$C$6</c:f>"), "the five N points: %s", n);
	cr_assert(strstr(n, "<c:f>'scaling-fits'!$K$2:$L$2</c:f>") && strstr(n, "<c:f>'scaling-fits'!$M$2:$N$2</c:f>"),
		  "the line's ends from the analysis: %s", n);
	cr_assert(l && strstr(l, "<a:t>Time against L</a:t>") && strstr(l, "'scaling-points'!$C$7:$C$12"), "%s", l);
	free(n);
	free(l);
	unlink(zip);
}
