/*
 * html.c - the report as one self-contained HTML file: inline CSS, a
 * contents list, each section's tables (numbers right-aligned, units in
 * the headers; data-only tables left out) and findings (severity, file:line,
 * advice), and the charts of gnuplot.h drawn as inline SVG next to the
 * section they belong to. No JavaScript at all: a Content-Security-Policy
 * forbids scripts, and a chart is embedded only if it holds no script, no
 * event attribute and no foreign object. Every text from a log is escaped
 * (& < > " '); gnuplot escapes the text it draws into SVG itself. Without
 * gnuplot the report is still written, with a note where the charts
 * would be.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyze/analyze.h"
#include "gnuplot.h"
#include "render.h"

/* Where each chart goes: the first of its sections (analysis' kinds) that the report has. */
static const struct {
	enum gp_chart chart;
	enum an_section_kind sections[2];
} placement[] = {
	{ GP_STAGES, { AS_BREAKDOWN, AS_NONE } },   { GP_TIMELINE, { AS_BREAKDOWN, AS_NONE } },
	{ GP_BATCHES, { AS_WARMUP, AS_VARIANCE } }, { GP_MEMORY, { AS_VARIANCE, AS_WARMUP } },
	{ GP_GPM, { AS_BOTTLENECKS, AS_VARIANCE } }, { GP_SCALING, { AS_SCALING, AS_NONE } },
	{ GP_COMPARE, { AS_COMPARE, AS_NONE } },
	{ GP_TREND, { AS_TREND, AS_NONE } },
};

struct charts {
	struct strbuf svg[GP_NCHARTS];
	int placed[GP_NCHARTS]; /* already written into a section */
	struct strbuf note;     /* why charts are missing, or empty */
};

static const char css[] =
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d2329;"
	"margin:0 auto;max-width:1180px;padding:1rem 1.5rem 3rem;background:#fff}\n"
	"h1{font-size:1.6rem;margin:.5rem 0 .2rem}h2{font-size:1.25rem;border-bottom:2px solid #dde3ea;"
	"padding-bottom:.2rem;margin-top:2.2rem}\n"
	".meta{color:#5a6672;margin:0 0 1rem}nav ul{display:flex;flex-wrap:wrap;gap:.3rem 1rem;"
	"padding:0;list-style:none}\n"
	"a{color:#1f5fa8}.tw{overflow-x:auto;margin:.8rem 0 1.2rem}\n"
	"table{border-collapse:collapse;font-size:.9rem}caption{text-align:left;font-weight:600;"
	"padding:.3rem 0}\n"
	"th,td{padding:.25rem .6rem;border-bottom:1px solid #e6eaee;text-align:left;vertical-align:top}\n"
	"th{background:#f3f5f7;font-weight:600;white-space:nowrap}.unit{color:#66727e;font-weight:400}\n"
	".num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"tbody tr:nth-child(even){background:#fafbfc}\n"
	"ul.findings{list-style:none;padding:0}.f{border-left:5px solid #9aa5b1;background:#f6f8fa;"
	"margin:.5rem 0;padding:.45rem .8rem;border-radius:3px}\n"
	".f .sev{font-weight:700;text-transform:uppercase;font-size:.75rem;letter-spacing:.04em;"
	"margin-right:.4rem}\n"
	".sev-critical{border-color:#c62828;background:#fdecea}.sev-critical .sev{color:#c62828}\n"
	".sev-warning{border-color:#e69100;background:#fff6e5}.sev-warning .sev{color:#a86400}\n"
	".sev-notice{border-color:#1f6fbf;background:#eef5fc}.sev-notice .sev{color:#1f5fa8}\n"
	".sev-info .sev{color:#56606b}.kind{color:#56606b;font-size:.85rem}"
	".loc{font-family:ui-monospace,monospace;font-size:.85rem;color:#56606b}\n"
	".advice{margin:.25rem 0 0;font-size:.9rem}.advice:before{content:'Advice: ';font-weight:600}\n"
	"figure.chart{margin:1rem 0;border:1px solid #e6eaee;padding:.5rem}"
	"figure.chart svg{max-width:100%;height:auto;display:block}\n"
	"figcaption{font-size:.85rem;color:#56606b}.note{background:#fff6e5;border:1px solid #e6c27a;"
	"padding:.5rem .8rem}\n"
	"footer{margin-top:3rem;color:#7a8590;font-size:.8rem}\n"
	".headline{font-size:1.1rem;background:#eef5fc;border-left:5px solid #1f6fbf;padding:.5rem .8rem}\n"
	/* a phone: charts scale to the width (their viewBox keeps the whole
	 * chart), wide tables scroll sideways, the page does not */
	"@media (max-width:600px){body{padding:.5rem .6rem 2rem}figure.chart{padding:.3rem}"
	"figure.chart svg{width:100%;max-width:100%;height:auto}h1{font-size:1.3rem}"
	".tablewrap,table{display:block;overflow-x:auto;max-width:100%}}\n"
	"@media print{nav{display:none}figure.chart,table{break-inside:avoid}}\n";

/* Text as HTML: & < > " ' escaped, invalid UTF-8 and control bytes replaced. */
static void h_esc(struct strbuf *sb, const char *s)
{
	struct strbuf u = STRBUF_INIT;
	strbuf_add_utf8(&u, s ? s : "", s ? strlen(s) : 0);
	for (size_t i = 0; i < u.len; i++) {
		unsigned char c = (unsigned char)u.buf[i];
		if (c == '&')
			strbuf_addstr(sb, "&amp;");
		else if (c == '<')
			strbuf_addstr(sb, "&lt;");
		else if (c == '>')
			strbuf_addstr(sb, "&gt;");
		else if (c == '"')
			strbuf_addstr(sb, "&quot;");
		else if (c == '\'')
			strbuf_addstr(sb, "&#39;");
		else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			strbuf_addch(sb, ' ');
		else
			strbuf_addch(sb, (char)c);
	}
	strbuf_release(&u);
}

/* A section id as an anchor: letters, digits and '-' only. */
static void h_anchor(struct strbuf *sb, const char *id)
{
	strbuf_addstr(sb, "s-");
	for (; *id; id++)
		strbuf_addch(sb, isalnum((unsigned char)*id) ? *id : '-');
}

/* ---- charts ---- */

static const char *ci_find(const char *hay, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= n; i++)
		if (!strncasecmp(hay + i, needle, k))
			return hay + i;
	return NULL;
}

/* Whether an attribute name starting with "on" (an event handler) appears in a tag. */
static int has_event_attr(const char *s, size_t n)
{
	for (size_t i = 1; i + 3 < n; i++)
		if (isspace((unsigned char)s[i - 1]) && tolower((unsigned char)s[i]) == 'o' &&
		    tolower((unsigned char)s[i + 1]) == 'n') {
			size_t k = i + 2;
			while (k < n && isalpha((unsigned char)s[k]))
				k++;
			if (k > i + 2 && k < n && s[k] == '=')
				return 1;
		}
	return 0;
}

static int svg_is_inert(const char *s, size_t n)
{
	return !ci_find(s, n, "<script") && !ci_find(s, n, "javascript:") && !ci_find(s, n, "<foreignobject") &&
	       !ci_find(s, n, "<iframe") && !ci_find(s, n, "<!entity") && !has_event_attr(s, n);
}

/*
 * gnuplot's SVG without the XML prolog, its ids prefixed with the chart's
 * name (several charts in one page share gnuplot's ids otherwise).
 */
static int svg_embed(const struct strbuf *in, const char *prefix, struct strbuf *out)
{
	const char *s = in->buf, *end = in->buf + in->len, *svg = ci_find(s, in->len, "<svg");
	if (!svg || !ci_find(s, in->len, "</svg>") || !svg_is_inert(s, in->len))
		return -1;
	static const char *const refs[] = { "id='", "id=\"", "href='#", "href=\"#", "url(#" };
	static const char gp_title[] = "<title>Gnuplot</title>";
	for (const char *p = svg; p < end;) {
		size_t k = 0;
		if (!strncmp(p, gp_title, sizeof(gp_title) - 1)) { /* not a tooltip of the whole chart */
			p += sizeof(gp_title) - 1;
			continue;
		}
		while (k < ARRAY_SIZE(refs) && strncmp(p, refs[k], strlen(refs[k])))
			k++;
		if (k < ARRAY_SIZE(refs)) {
			strbuf_addstr(out, refs[k]);
			strbuf_addf(out, "%s-", prefix);
			p += strlen(refs[k]);
		} else {
			strbuf_addch(out, *p++);
		}
	}
	return 0;
}

/* Draws every chart the report has data for; notes why charts are missing. */
static void charts_draw(const struct report *rep, const struct render_ctx *ctx, struct charts *ch)
{
	struct gp_opts o;
	struct strbuf svg = STRBUF_INIT, err = STRBUF_INIT;
	gp_opts_default(&o);
	o.term = GP_SVG;
	o.width = 960;
	o.height = 480;
	o.gnuplot = ctx->gnuplot;
	for (int c = 0; c < GP_NCHARTS; c++) {
		if (!gp_has_data(rep, (enum gp_chart)c, &o))
			continue;
		strbuf_reset(&svg);
		strbuf_reset(&err);
		o.height = gp_suggested_height(rep, (enum gp_chart)c, 480);
		enum gp_status st = gp_plot_buf(rep, (enum gp_chart)c, &o, &svg, &err);
		if (st == GP_NOGNUPLOT) {
			strbuf_reset(&ch->note);
			strbuf_addf(&ch->note, "Charts are not included: gnuplot could not be started ('%s'); "
					       "install it with 'apt-get install gnuplot-nox' to get them.",
				    o.gnuplot ? o.gnuplot : "gnuplot");
			break;
		}
		char prefix[32];
		snprintf(prefix, sizeof(prefix), "tp-%s", gp_chart_name((enum gp_chart)c));
		if (st != GP_OK)
			strbuf_addf(&ch->note, "The %s chart could not be drawn: %s. ", gp_chart_name((enum gp_chart)c),
				    err.buf);
		else if (svg_embed(&svg, prefix, &ch->svg[c]) < 0)
			strbuf_addf(&ch->note, "The %s chart was left out: its SVG was not plain drawing. ",
				    gp_chart_name((enum gp_chart)c));
	}
	strbuf_release(&svg);
	strbuf_release(&err);
}

static void chart_html(struct strbuf *sb, struct charts *ch, enum gp_chart c)
{
	if (ch->placed[c] || !ch->svg[c].len)
		return;
	ch->placed[c] = 1;
	strbuf_addf(sb, "<figure class=\"chart\" id=\"chart-%s\">\n", gp_chart_name(c));
	strbuf_add(sb, ch->svg[c].buf, ch->svg[c].len);
	strbuf_addf(sb, "\n<figcaption>Chart <b>%s</b>: %s.</figcaption></figure>\n", gp_chart_name(c),
		    gp_chart_what(c));
}

static int has_section(const struct report *rep, enum an_section_kind kind)
{
	for (size_t i = 0; i < rep->nsections; i++)
		if (rep->sections[i].kind == (int)kind)
			return 1;
	return 0;
}

/* The charts that belong to section s (the first of their sections the report has). */
static int section_charts(const struct report *rep, const struct rsection *s, struct charts *ch,
			  struct strbuf *sb)
{
	int n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(placement); i++) {
		enum an_section_kind home = AS_NONE;
		for (int k = 0; k < 2 && home == AS_NONE; k++)
			if (placement[i].sections[k] != AS_NONE && has_section(rep, placement[i].sections[k]))
				home = placement[i].sections[k];
		if (home != AS_NONE && (int)home == s->kind && ch->svg[placement[i].chart].len &&
		    !ch->placed[placement[i].chart]) {
			if (sb)
				chart_html(sb, ch, placement[i].chart);
			n++;
		}
	}
	return n;
}

/* ---- tables and findings ---- */

/* The run column when every row has the same run (it goes to the caption), or -1. */
static int one_run_col(const struct rtable *t)
{
	int c = rt_col(t, AC_RUN);
	if (c < 0 || !t->nrows || rt_cell(t, 0, (size_t)c)->kind != RC_TEXT)
		return -1;
	for (size_t r = 1; r < t->nrows; r++) {
		const struct rcell *x = rt_cell(t, r, (size_t)c);
		if (x->kind != RC_TEXT || strcmp(x->s, rt_cell(t, 0, (size_t)c)->s))
			return -1;
	}
	return c;
}

static void table_html(struct strbuf *sb, const struct rtable *t)
{
	struct strbuf tmp = STRBUF_INIT;
	int *num = xcalloc(t->ncols ? t->ncols : 1, sizeof(*num));
	int hide = one_run_col(t);
	for (size_t c = 0; c < t->ncols; c++)
		for (size_t r = 0; r < t->nrows && !num[c]; r++)
			num[c] = rt_cell(t, r, c)->kind == RC_NUM;
	strbuf_addstr(sb, "<div class=\"tw\"><table>\n<caption>");
	h_esc(sb, t->title);
	if (hide >= 0 && !strstr(t->title, rt_cell(t, 0, (size_t)hide)->s)) {
		strbuf_addstr(sb, " (");
		h_esc(sb, rt_cell(t, 0, (size_t)hide)->s);
		strbuf_addch(sb, ')');
	}
	strbuf_addstr(sb, "</caption>\n<thead><tr>");
	for (size_t c = 0; c < t->ncols; c++) {
		if ((int)c == hide)
			continue;
		strbuf_addstr(sb, num[c] ? "<th class=\"num\">" : "<th>");
		h_esc(sb, t->cols[c].name);
		if (t->cols[c].unit[0]) {
			strbuf_addstr(sb, " <span class=\"unit\">(");
			h_esc(sb, t->cols[c].unit);
			strbuf_addstr(sb, ")</span>");
		}
		strbuf_addstr(sb, "</th>");
	}
	strbuf_addstr(sb, "</tr></thead>\n<tbody>\n");
	for (size_t r = 0; r < t->nrows; r++) {
		strbuf_addstr(sb, "<tr>");
		for (size_t c = 0; c < t->ncols; c++) {
			const struct rcell *cell = rt_cell(t, r, c);
			if ((int)c == hide)
				continue;
			strbuf_reset(&tmp);
			render_cell_text(cell, &tmp);
			strbuf_addstr(sb, cell->kind == RC_NUM || num[c] ? "<td class=\"num\">" : "<td>");
			h_esc(sb, tmp.buf ? tmp.buf : "");
			strbuf_addstr(sb, "</td>");
		}
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table></div>\n");
	free(num);
	strbuf_release(&tmp);
}

static void finding_html(struct strbuf *sb, const struct finding *f)
{
	strbuf_addf(sb, "<li class=\"f sev-%s\"><span class=\"sev\">%s</span>", severity_name(f->sev),
		    severity_name(f->sev));
	strbuf_addstr(sb, "<span class=\"kind\">");
	h_esc(sb, f->kind);
	strbuf_addstr(sb, "</span> ");
	if (f->run) {
		strbuf_addstr(sb, "<b>");
		h_esc(sb, f->run);
		strbuf_addstr(sb, "</b>: ");
	}
	h_esc(sb, f->message);
	if (f->file && f->line) {
		strbuf_addstr(sb, " <span class=\"loc\">");
		h_esc(sb, f->file);
		strbuf_addf(sb, ":%llu</span>", (unsigned long long)f->line);
	}
	if (f->advice) {
		strbuf_addstr(sb, "<p class=\"advice\">");
		h_esc(sb, f->advice);
		strbuf_addstr(sb, "</p>");
	}
	strbuf_addstr(sb, "</li>\n");
}

/* The summary as sentences: each run at a glance, the findings with most at stake and their advice. */
static void summary_html(struct strbuf *sb, const struct rsection *s)
{
	struct strbuf l = STRBUF_INIT;
	for (size_t k = 0; k < s->ntables; k++) {
		const struct rtable *t = s->tables[k];
		if (t->kind == AT_SUMMARY_RUNS)
			for (size_t r = 0; r < t->nrows; r++) {
				strbuf_reset(&l);
				if (!render_run_sentence(t, r, t->nrows > 1, &l))
					continue;
				strbuf_addstr(sb, "<p class=\"run\">");
				h_esc(sb, l.buf);
				strbuf_addstr(sb, "</p>\n");
			}
		if (t->kind != AT_SUMMARY_TOP || !t->nrows)
			continue;
		strbuf_addstr(sb, "<h3>Top findings by time at stake</h3>\n<ol class=\"top\">\n");
		for (size_t r = 0; r < t->nrows; r++) {
			strbuf_reset(&l);
			const char *advice = render_top_sentence(t, r, 0, &l);
			strbuf_addstr(sb, "<li>");
			h_esc(sb, l.buf);
			if (advice) {
				strbuf_addstr(sb, "<p class=\"advice\">");
				h_esc(sb, advice);
				strbuf_addstr(sb, "</p>");
			}
			strbuf_addstr(sb, "</li>\n");
		}
		strbuf_addstr(sb, "</ol>\n");
	}
	strbuf_release(&l);
}

static size_t section_findings(const struct report *rep, const char *id)
{
	size_t n = 0;
	for (size_t k = 0; k < rep->nfindings; k++)
		n += !rep->findings[k].merged && !strcmp(rep->findings[k].section, id);
	return n;
}

static size_t people_tables(const struct rsection *s)
{
	size_t n = 0;
	for (size_t k = 0; k < s->ntables; k++)
		n += !s->tables[k]->data_only;
	return n;
}

static int section_shown(const struct report *rep, const struct rsection *s, struct charts *ch)
{
	return people_tables(s) || section_findings(rep, s->id) || section_charts(rep, s, ch, NULL) ||
	       (s->kind == AS_SUMMARY && rep->headline);
}

static void section_html(struct strbuf *sb, const struct report *rep, const struct rsection *s, struct charts *ch)
{
	strbuf_addstr(sb, "<section id=\"");
	h_anchor(sb, s->id);
	strbuf_addstr(sb, "\">\n<h2>");
	h_esc(sb, s->title);
	strbuf_addstr(sb, "</h2>\n");
	if (s->kind == AS_SUMMARY && rep->headline) {
		/* the answer first: one line per comparison */
		strbuf_addstr(sb, "<p class=\"headline\"><strong>");
		for (const char *p = rep->headline; *p; p++) {
			if (*p == '\n') {
				strbuf_addstr(sb, "<br>");
				continue;
			}
			size_t n = strcspn(p, "\n");
			struct strbuf line = STRBUF_INIT;
			strbuf_add(&line, p, n);
			h_esc(sb, line.buf);
			strbuf_release(&line);
			p += n - 1;
		}
		strbuf_addstr(sb, "</strong></p>\n");
	}
	section_charts(rep, s, ch, sb);
	if (s->kind == AS_SUMMARY)
		summary_html(sb, s);
	for (size_t k = 0; k < s->ntables && s->kind != AS_SUMMARY; k++)
		if (!s->tables[k]->data_only)
			table_html(sb, s->tables[k]);
	if (section_findings(rep, s->id)) {
		strbuf_addstr(sb, "<ul class=\"findings\">\n");
		for (size_t k = 0; k < rep->nfindings; k++)
			if (!rep->findings[k].merged && !strcmp(rep->findings[k].section, s->id))
				finding_html(sb, &rep->findings[k]);
		strbuf_addstr(sb, "</ul>\n");
	}
	strbuf_addstr(sb, "</section>\n");
}

/* ---- the page ---- */

static void head_html(struct strbuf *sb, const struct report *rep, const struct render_ctx *ctx)
{
	const char *title = ctx->title ? ctx->title : "tprof report";
	size_t sev[4] = { 0 }, shown = 0;
	for (size_t k = 0; k < rep->nfindings; k++)
		if (!rep->findings[k].merged)
			sev[rep->findings[k].sev]++, shown++;
	strbuf_addstr(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
			  "style-src 'unsafe-inline'; img-src data:\">\n<meta name=\"generator\" content=\"");
	h_esc(sb, ctx->tool ? ctx->tool : "tprof");
	strbuf_addstr(sb, " " TPROF_VERSION "\">\n<title>");
	h_esc(sb, title);
	strbuf_addf(sb, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header><h1>", css);
	h_esc(sb, title);
	strbuf_addstr(sb, "</h1>\n<p class=\"meta\">");
	/* which runs this is about, first */
	const struct rtable *runs = report_find(rep, AT_SUMMARY_RUNS, 0);
	int crun = runs ? rt_col(runs, AC_RUN) : -1;
	for (size_t r = 0; crun >= 0 && r < runs->nrows; r++) {
		const struct rcell *c = rt_cell(runs, r, (size_t)crun);
		strbuf_addstr(sb, r ? ", " : "Runs: ");
		h_esc(sb, c->kind == RC_TEXT ? c->s : "");
	}
	if (crun >= 0 && runs->nrows)
		strbuf_addstr(sb, ". ");
	strbuf_addf(sb, "%zu findings: %zu critical, %zu warnings, %zu notices, %zu info</p>\n", shown,
		    sev[SEV_CRITICAL], sev[SEV_WARNING], sev[SEV_NOTICE], sev[SEV_INFO]);
	strbuf_addstr(sb, "</header>\n");
}

static void nav_html(struct strbuf *sb, const struct report *rep, struct charts *ch, int orphans)
{
	strbuf_addstr(sb, "<nav><ul>\n");
	for (size_t i = 0; i < rep->nsections; i++) {
		const struct rsection *s = &rep->sections[i];
		if (!section_shown(rep, s, ch))
			continue;
		strbuf_addstr(sb, "<li><a href=\"#");
		h_anchor(sb, s->id);
		strbuf_addstr(sb, "\">");
		h_esc(sb, s->title);
		strbuf_addstr(sb, "</a></li>\n");
	}
	if (orphans)
		strbuf_addstr(sb, "<li><a href=\"#s-charts\">Charts</a></li>\n");
	strbuf_addstr(sb, "</ul></nav>\n");
}

/* Charts whose sections the report does not have. */
static int orphan_charts(const struct report *rep, struct charts *ch, struct strbuf *sb)
{
	int n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(placement); i++) {
		enum gp_chart c = placement[i].chart;
		int home = 0;
		for (int k = 0; k < 2; k++)
			home |= placement[i].sections[k] && has_section(rep, placement[i].sections[k]);
		if (home || !ch->svg[c].len || ch->placed[c])
			continue;
		if (sb && !n)
			strbuf_addstr(sb, "<section id=\"s-charts\">\n<h2>Charts</h2>\n");
		if (sb)
			chart_html(sb, ch, c);
		n++;
	}
	if (sb && n)
		strbuf_addstr(sb, "</section>\n");
	return n;
}

render_fn render_html;
int render_html(const struct report *rep, const struct render_ctx *ctx, struct outfile *of, struct strbuf *err)
{
	struct charts ch;
	struct strbuf sb = STRBUF_INIT;
	memset(&ch, 0, sizeof(ch));
	charts_draw(rep, ctx, &ch);
	head_html(&sb, rep, ctx);
	nav_html(&sb, rep, &ch, orphan_charts(rep, &ch, NULL));
	if (ch.note.len) {
		strbuf_addstr(&sb, "<p class=\"note\">");
		h_esc(&sb, ch.note.buf);
		strbuf_addstr(&sb, " The tables hold the same numbers.</p>\n");
	}
	strbuf_addstr(&sb, "<main>\n");
	int rc = render_flush(of, &sb, err);
	for (size_t i = 0; i < rep->nsections && rc == 0; i++) {
		if (section_shown(rep, &rep->sections[i], &ch))
			section_html(&sb, rep, &rep->sections[i], &ch);
		rc = render_flush(of, &sb, err);
	}
	if (rc == 0) {
		orphan_charts(rep, &ch, &sb);
		strbuf_addstr(&sb, "</main>\n<footer>Written by ");
		h_esc(&sb, ctx->tool ? ctx->tool : "tprof");
		strbuf_addstr(&sb, " " TPROF_VERSION ". No scripts; readable offline.</footer>\n</body>\n</html>\n");
		rc = render_flush(of, &sb, err);
	}
	for (int c = 0; c < GP_NCHARTS; c++)
		strbuf_release(&ch.svg[c]);
	strbuf_release(&ch.note);
	strbuf_release(&sb);
	return rc;
}
