/*
 * gpcharts.c - the charts of gnuplot.h, each a function from the report's
 * tables to data files and script lines. Conventions: every data file has
 * one header line (read by `title columnheader(N)`, or passed over with
 * `skip 1`); names from logs are written with gp_dat_text and reach the
 * chart through xticlabels/yticlabels, `with labels` and columnheader; the
 * only log text in a script is a panel title or axis label, through
 * gp_quote. Every axis says its unit.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpint.h"

#define NAME_MAX_CHARS 40 /* longer names are cut with an ellipsis */
#define MAX_PANELS 4

/* ---- lookups ---- */

const struct rtable *gp_table(const struct report *rep, enum an_table_kind kind, size_t nth)
{
	return report_find(rep, (int)kind, nth);
}

int gp_col(const struct rtable *t, enum an_col_key key)
{
	return rt_col(t, (int)key);
}

int gp_same_series(struct rkey a, struct rkey b)
{
	return a.series == b.series && a.rank == b.rank && a.run == b.run && a.group == b.group;
}

double gp_num(const struct rtable *t, size_t row, int col)
{
	if (col < 0)
		return NAN;
	const struct rcell *c = rt_cell(t, row, (size_t)col);
	return c->kind == RC_NUM ? c->v : NAN;
}

const char *gp_text(const struct rtable *t, size_t row, int col)
{
	if (col < 0)
		return "";
	const struct rcell *c = rt_cell(t, row, (size_t)col);
	return c->kind == RC_TEXT && c->s ? c->s : "";
}

static struct gp_series *series_for(struct gp_series **v, size_t *n, size_t *alloc, struct rkey key)
{
	for (size_t k = *n; k-- > 0;)
		if (gp_same_series((*v)[k].key, key))
			return &(*v)[k];
	ALLOC_GROW(*v, *n + 1, *alloc);
	struct gp_series *s = &(*v)[(*n)++];
	memset(s, 0, sizeof(*s));
	s->key = key;
	return s;
}

size_t gp_points(const struct report *rep, unsigned kinds, struct gp_series **out)
{
	const struct rtable *t = gp_table(rep, AT_POINTS, 0);
	struct gp_series *v = NULL, *last = NULL;
	size_t n = 0, alloc = 0;
	*out = NULL;
	if (!t)
		return 0;
	int crun = gp_col(t, AC_RUN), cname = gp_col(t, AC_SERIES), cunit = gp_col(t, AC_UNIT);
	int cx = gp_col(t, AC_INDEX), cy = gp_col(t, AC_VALUE);
	for (size_t r = 0; r < t->nrows; r++) {
		struct rkey key = rt_row_key(t, r);
		double x = gp_num(t, r, cx), y = gp_num(t, r, cy);
		if (key.series <= AK_NONE || key.series >= 32 || !(kinds & GP_KIND(key.series)) || isnan(x) || isnan(y))
			continue;
		if (!last || !gp_same_series(last->key, key)) {
			last = series_for(&v, &n, &alloc, key);
			last->run = gp_text(t, r, crun), last->name = gp_text(t, r, cname);
			last->unit = gp_text(t, r, cunit);
		}
		ALLOC_GROW(last->x, last->n + 1, last->alloc);
		last->y = xrealloc(last->y, last->alloc * sizeof(*last->y));
		last->x[last->n] = x;
		last->y[last->n++] = y;
	}
	*out = v;
	return n;
}

void gp_series_free(struct gp_series *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].x);
		free(s[i].y);
	}
	free(s);
}

size_t gp_series_runs(const struct gp_series *s, size_t n)
{
	size_t runs = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		while (k < i && s[k].key.run != s[i].key.run)
			k++;
		runs += k == i;
	}
	return runs;
}

void gp_series_title(struct strbuf *sb, const struct gp_series *s, size_t nruns)
{
	if (nruns > 1) {
		strbuf_addstr(sb, s->run);
		strbuf_addstr(sb, ": ");
	}
	strbuf_addstr(sb, s->name);
}

/* ---- shared pieces ---- */

/* Characters (not bytes) of a UTF-8 string, roughly the width of a label. */
static size_t utf8_chars(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* A data file of one series: header "index <title>", then (x, y) rows. */
static void series_file(struct gp_job *j, const struct gp_series *s, size_t nruns, const char *suffix, char *name,
			size_t size)
{
	struct strbuf d = STRBUF_INIT, title = STRBUF_INIT;
	gp_series_title(&title, s, nruns);
	strbuf_addstr(&title, suffix);
	gp_dat_text(&d, "index", NAME_MAX_CHARS);
	gp_dat_text(&d, title.buf, 80);
	gp_dat_row(&d);
	for (size_t i = 0; i < s->n; i++) {
		gp_dat_num(&d, s->x[i]);
		gp_dat_num(&d, s->y[i]);
		gp_dat_row(&d);
	}
	gp_data_file(j, &d, name, size);
	strbuf_release(&d);
	strbuf_release(&title);
}

/* Starts or continues a plot command. */
static void plot_next(struct gp_job *j, int *first)
{
	strbuf_addstr(&j->gp, *first ? "plot " : ", \\\n     ");
	*first = 0;
}

static void plot_end(struct gp_job *j, int first)
{
	if (!first)
		strbuf_addch(&j->gp, '\n');
}

/* Several panels; the whole chart has a title of its own only when one was asked for. */
static void multiplot_begin(struct gp_job *j, size_t rows, size_t cols)
{
	strbuf_addf(&j->gp, "set multiplot layout %zu,%zu", rows, cols);
	if (j->o->title) {
		strbuf_addstr(&j->gp, " title ");
		gp_quote(&j->gp, j->o->title);
		strbuf_addstr(&j->gp, " noenhanced");
	}
	strbuf_addch(&j->gp, '\n');
}

/* The key of a line chart: below the plot, none for a single series ("height"
 * keeps its first row off the x label: gnuplot sizes a key of columnheader
 * titles before it reads them). */
static void line_key(struct gp_job *j, size_t nseries)
{
	if (nseries > 1)
		gp_cmd(j, "set key below height 1.5");
	else
		gp_cmd(j, "unset key");
	gp_cmd(j, "set autoscale xfix\nset offsets graph 0.02, graph 0.02, graph 0.06, graph 0.02");
}

/* A round tic step (1, 2 or 5 times a power of ten) giving about `ticks` tics over range. */
static double nice_step(double range, int ticks)
{
	if (!(range > 0))
		return 0;
	double raw = range / ticks, p = pow(10, floor(log10(raw))), f = raw / p;
	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

/* A duration for a label: "0.14 s", "47.9 s", "2404 s (40.1 min)", "9000 s (2.5 h)". */
static void fmt_seconds(struct strbuf *sb, double s)
{
	if (fabs(s) < 100)
		strbuf_addf(sb, "%.3g s", s);
	else if (fabs(s) < 7200)
		strbuf_addf(sb, "%.0f s (%.1f min)", s, s / 60);
	else
		strbuf_addf(sb, "%.0f s (%.1f h)", s, s / 3600);
}

/* Lines of several series against the batch or window index (points too when few). */
static void series_lines(struct gp_job *j, const struct gp_series *s, size_t n, size_t nruns, const char *axes,
			 int *first, int lt0, const char *extra)
{
	char name[64];
	for (size_t i = 0; i < n; i++) {
		series_file(j, &s[i], nruns, strcmp(axes, "x1y2") ? "" : " (right axis)", name, sizeof(name));
		plot_next(j, first);
		strbuf_addf(&j->gp, "'%s' using 1:2 axes %s with %s lt %d %s title columnheader(2)", name, axes,
			    s[i].n > 120 ? "lines" : "linespoints", lt0 + (int)i + 1, extra);
	}
}

/* ---- stages ---- */

/* Rows of a breakdown table that are stages (the TOTAL row, keyed so, is the last). */
static size_t stage_rows(const struct rtable *t, int *keep_last)
{
	int csec = gp_col(t, AC_SECONDS);
	size_t n = t->nrows;
	*keep_last = 1;
	if (n && rt_row_key(t, n - 1).series == AK_TOTAL)
		n--, *keep_last = 0;
	size_t k = 0;
	for (size_t r = 0; r < n; r++)
		k += !isnan(gp_num(t, r, csec));
	return k;
}

/* The smallest and largest seconds of a breakdown's stage rows (0 included). */
static void stage_range(const struct rtable *t, double *lo, double *hi)
{
	int keep_last, csec = gp_col(t, AC_SECONDS);
	size_t nrows = (stage_rows(t, &keep_last), keep_last ? t->nrows : t->nrows - 1);
	for (size_t r = 0; r < nrows; r++) {
		double sec = gp_num(t, r, csec);
		if (!isnan(sec))
			*lo = sec < *lo ? sec : *lo, *hi = sec > *hi ? sec : *hi;
	}
}

/* One run's stages; [lo, hi] is the range shared by every panel (before and after read alike). */
static void stage_panel(struct gp_job *j, const struct rtable *t, const char *title, size_t lmargin, double lo,
			double hi)
{
	int keep_last, crun = gp_col(t, AC_RUN), cstage = gp_col(t, AC_STAGE), csec = gp_col(t, AC_SECONDS),
		       cshare = gp_col(t, AC_SHARE);
	size_t n = stage_rows(t, &keep_last), nrows = keep_last ? t->nrows : t->nrows - 1, y = n;
	struct strbuf d = STRBUF_INIT, lab = STRBUF_INIT;
	(void)crun;
	gp_dat_text(&d, "y", 8);
	gp_dat_text(&d, "stage", 8);
	gp_dat_text(&d, "seconds", 8);
	gp_dat_text(&d, "label", 8);
	gp_dat_row(&d);
	for (size_t r = 0; r < nrows; r++) {
		double sec = gp_num(t, r, csec), share = gp_num(t, r, cshare);
		if (isnan(sec))
			continue;
		strbuf_reset(&lab);
		if (!isnan(share))
			strbuf_addf(&lab, "%.1f%%, ", share);
		fmt_seconds(&lab, sec);
		gp_dat_num(&d, (double)--y);
		gp_dat_text(&d, gp_text(t, r, cstage), NAME_MAX_CHARS);
		gp_dat_num(&d, sec);
		gp_dat_text(&d, lab.buf, 40);
		gp_dat_row(&d);
	}
	char name[64];
	gp_data_file(j, &d, name, sizeof(name));
	gp_label_cmd(j, "title", title);
	gp_cmd(j, "set lmargin %zu", lmargin);
	gp_cmd(j, "set xlabel 'time (s)'\nunset ylabel\nunset key\nset style fill solid 0.85 border -1");
	gp_cmd(j, "set yrange [-0.6:%zu.6]\nset xrange [%g:%g]", n - 1, lo < 0 ? lo * 1.35 : 0, hi > 0 ? hi * 1.35 : 1);
	gp_cmd(j, "set ytics nomirror scale 0\nset xtics nomirror\nset grid noytics xtics");
	gp_cmd(j, "plot '%s' skip 1 using ($3/2):1:($3/2):(0.38):yticlabels(2) with boxxyerror lt 1 notitle, \\\n"
		  "     '%s' skip 1 using 3:1:4 with labels left offset char 0.6,0 notitle",
	       name, name);
	strbuf_release(&d);
	strbuf_release(&lab);
}

int gp_chart_stages(struct gp_job *j)
{
	const struct rtable *t, *tabs[MAX_PANELS];
	size_t np = 0, runs_seen = 0;
	int first_run = -2, keep_last;
	for (size_t k = 0; (t = gp_table(j->rep, AT_BREAKDOWN, k)); k++) {
		if (!stage_rows(t, &keep_last) || np == MAX_PANELS)
			continue;
		int run = rt_row_key(t, 0).run;
		if (first_run == -2 || first_run != run)
			runs_seen++;
		first_run = first_run == -2 ? run : first_run;
		tabs[np++] = t;
	}
	if (!np)
		return GP_NODATA;
	size_t lmargin = 0;
	for (size_t i = 0; i < np; i++)
		for (size_t r = 0; r < tabs[i]->nrows; r++) {
			size_t len = utf8_chars(gp_text(tabs[i], r, gp_col(tabs[i], AC_STAGE)));
			lmargin = len > lmargin ? len : lmargin;
		}
	lmargin = (lmargin > NAME_MAX_CHARS ? NAME_MAX_CHARS : lmargin) + 3;
	double lo = 0, hi = 0;
	for (size_t i = 0; i < np; i++)
		stage_range(tabs[i], &lo, &hi);
	struct strbuf title = STRBUF_INIT;
	if (np > 1)
		multiplot_begin(j, np, 1);
	for (size_t i = 0; i < np; i++) {
		strbuf_reset(&title);
		if (np == 1 && j->o->title)
			strbuf_addstr(&title, j->o->title);
		else if (!strstr(tabs[i]->title, gp_text(tabs[i], 0, gp_col(tabs[i], AC_RUN))))
			strbuf_addf(&title, "%s (%s)", tabs[i]->title, gp_text(tabs[i], 0, gp_col(tabs[i], AC_RUN)));
		else
			strbuf_addstr(&title, tabs[i]->title);
		double plo = 0, phi = 0;
		if (runs_seen > 1) /* runs side by side: one scale */
			plo = lo, phi = hi;
		else
			stage_range(tabs[i], &plo, &phi);
		stage_panel(j, tabs[i], title.buf, lmargin, plo, phi);
	}
	if (np > 1)
		gp_cmd(j, "unset multiplot");
	strbuf_release(&title);
	return 0;
}

/* ---- batches ---- */

/* The outliers of the charted series: header, then (index, value) rows. */
static size_t outlier_file(struct gp_job *j, const struct gp_series *s, size_t n, char *name, size_t size)
{
	const struct rtable *t = gp_table(j->rep, AT_OUTLIERS, 0);
	struct strbuf d = STRBUF_INIT;
	size_t rows = 0;
	gp_dat_text(&d, "index", 8);
	gp_dat_text(&d, "outliers (modified z-score)", 40);
	gp_dat_row(&d);
	for (size_t r = 0; t && r < t->nrows; r++) {
		for (size_t i = 0; i < n; i++)
			if (gp_same_series(s[i].key, rt_row_key(t, r))) {
				gp_dat_num(&d, gp_num(t, r, gp_col(t, AC_INDEX)));
				gp_dat_num(&d, gp_num(t, r, gp_col(t, AC_VALUE)));
				gp_dat_row(&d);
				rows++;
			}
	}
	if (rows)
		gp_data_file(j, &d, name, size);
	strbuf_release(&d);
	return rows;
}

/* Vertical dashed lines where warmup ends; returns how many. */
static size_t warmup_arrows(struct gp_job *j, const struct gp_series *s, size_t n)
{
	const struct rtable *t = gp_table(j->rep, AT_WARMUP, 0);
	size_t k = 0;
	for (size_t r = 0; t && r < t->nrows; r++) {
		/* samples 1..d are warmup: the line falls between d and d + 1 */
		double at = gp_num(t, r, gp_col(t, AC_WARMUP_END)) + 0.5;
		for (size_t i = 0; i < n; i++)
			if (gp_same_series(s[i].key, rt_row_key(t, r)) && at > 1) {
				if (n > 1)
					gp_cmd(j, "set arrow from %g, graph 0 to %g, graph 1 nohead front lt %zu dt 2 lw 1.5",
					       at, at, i + 1);
				else
					gp_cmd(j, "set arrow from %g, graph 0 to %g, graph 1 nohead front dt 2 lw 1.5 lc rgb "
						  "'#555555'",
					       at, at);
				k++;
			}
	}
	return k;
}

/* The chart's title, with the run's name when all its series are of one run. */
static void run_title(struct gp_job *j, const char *base, const struct gp_series *s, size_t n)
{
	struct strbuf t = STRBUF_INIT;
	strbuf_addstr(&t, base);
	if (n && gp_series_runs(s, n) == 1) {
		strbuf_addstr(&t, ": ");
		strbuf_addstr(&t, s[0].run);
	}
	gp_title(j, t.buf);
	strbuf_release(&t);
}

/*
 * The top of a robust y-range: when a few samples (a first batch, a
 * spike) reach far above the rest, the range ends above the 98th
 * percentile so that the steady state stays readable; *clipped counts the
 * samples above it. 0: no need (autoscale).
 */
static double robust_top(const struct gp_series *s, size_t n, size_t *clipped)
{
	size_t total = 0, k = 0;
	double max = 0;
	for (size_t i = 0; i < n; i++)
		total += s[i].n;
	*clipped = 0;
	if (total < 10)
		return 0;
	double *v = xmalloc(total * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		for (size_t p = 0; p < s[i].n; p++)
			v[k++] = s[i].y[p], max = s[i].y[p] > max ? s[i].y[p] : max;
	qsort(v, total, sizeof(*v), tp_cmp_double);
	double top = v[(size_t)(0.98 * (double)(total - 1))] * 1.4;
	for (size_t i = 0; i < total; i++)
		*clipped += v[i] > top;
	free(v);
	return max > top ? top : 0;
}

/* Marks the samples above a clipped range with a triangle at its top. */
static void clipped_file(struct gp_job *j, const struct gp_series *s, size_t n, double top, char *name, size_t size)
{
	struct strbuf d = STRBUF_INIT;
	double max = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t p = 0; p < s[i].n; p++)
			max = s[i].y[p] > max ? s[i].y[p] : max;
	gp_dat_text(&d, "index", 8);
	struct strbuf t = STRBUF_INIT;
	strbuf_addf(&t, "above the range (up to %.3g)", max);
	gp_dat_text(&d, t.buf, 60);
	gp_dat_row(&d);
	for (size_t i = 0; i < n; i++)
		for (size_t p = 0; p < s[i].n; p++)
			if (s[i].y[p] > top) {
				gp_dat_num(&d, s[i].x[p]);
				gp_dat_num(&d, top * 0.97);
				gp_dat_row(&d);
			}
	gp_data_file(j, &d, name, size);
	strbuf_release(&d);
	strbuf_release(&t);
}

int gp_chart_batches(struct gp_job *j)
{
	struct gp_series *s;
	size_t n = gp_points(j->rep, GP_KIND(AK_BATCH_TIME), &s), clipped;
	int first = 1, metrics = 0;
	char name[64], clip[64];
	if (!n) { /* no batch lines: the per-step metrics (avg of each) instead */
		gp_series_free(s, n);
		n = gp_points(j->rep, GP_KIND(AK_METRIC), &s), metrics = 1;
	}
	size_t nruns = gp_series_runs(s, n);
	if (!n)
		return GP_NODATA;
	run_title(j, metrics ? "Step metrics per step" : "Batch time per batch", s, n);
	double top = robust_top(s, n, &clipped);
	gp_cmd(j, metrics ? "set xlabel 'step (index in the run)'\nset ylabel 'time (s)'"
			  : "set xlabel 'batch (index in the run)'\nset ylabel 'batch time (s)'");
	if (top > 0)
		gp_cmd(j, "set key below height 1.5\nset yrange [0:%g]", top);
	else
		gp_cmd(j, "set key below height 1.5\nset yrange [0:*]");
	gp_cmd(j, "set autoscale xfix\nset offsets graph 0.02, graph 0.02, graph 0.06, 0");
	size_t warm = warmup_arrows(j, s, n);
	series_lines(j, s, n, nruns, "x1y1", &first, 0, "ps 0.4");
	if (outlier_file(j, s, n, name, sizeof(name))) {
		plot_next(j, &first);
		strbuf_addf(&j->gp, "'%s' using 1:2 with points pt 6 ps 1.6 lw 2 lc rgb '#d62728' title columnheader(2)",
			    name);
	}
	if (warm) {
		plot_next(j, &first);
		strbuf_addf(&j->gp, "NaN with lines dt 2 lw 1.5 lc rgb '#555555' title 'warmup ends (MSER)%s'",
			    n > 1 ? ", in the colour of its series" : "");
	}
	if (top > 0 && clipped) {
		clipped_file(j, s, n, top, clip, sizeof(clip));
		plot_next(j, &first);
		strbuf_addf(&j->gp, "'%s' using 1:2 with points pt 9 ps 1.6 lc rgb '#d62728' title columnheader(2)", clip);
	}
	plot_end(j, first);
	gp_series_free(s, n);
	return 0;
}

/* ---- gpm ---- */

int gp_chart_gpm(struct gp_job *j)
{
	struct gp_series *t, *a;
	size_t nt = gp_points(j->rep, GP_KIND(AK_GPM_TOTAL) | GP_KIND(AK_GPM_PATTERN), &t);
	size_t na = gp_points(j->rep, GP_KIND(AK_GPM_AVG_NODES), &a);
	size_t nruns = gp_series_runs(t, nt);
	int first = 1;
	if (!nt) {
		gp_series_free(t, nt);
		gp_series_free(a, na);
		return GP_NODATA;
	}
	run_title(j, "GPM windows: pattern generation vs total time, average graph size", t, nt);
	/* gpm.py prints per-graph means over each window, and the run's running average size */
	gp_cmd(j, "set xlabel 'GPM window (index)'\nset ylabel 'time per graph, window mean (ms)'\nset yrange [0:*]");
	gp_cmd(j, "set key below height 1.5\nset ytics nomirror");
	gp_cmd(j, "set autoscale xfix\nset offsets graph 0.02, graph 0.02, graph 0.06, 0");
	double top = 0;
	for (size_t i = 0; i < na; i++)
		for (size_t k = 0; k < a[i].n; k++)
			top = a[i].y[k] > top ? a[i].y[k] : top;
	if (na)
		gp_cmd(j, "set y2label 'average nodes per graph so far (nodes)'\nset y2tics\nset y2range [0:%g]",
		       top > 0 ? top * 1.15 : 1);
	series_lines(j, t, nt, nruns, "x1y1", &first, 0, "ps 0.4");
	series_lines(j, a, na, nruns, "x1y2", &first, (int)nt, "dt 3 ps 0.4");
	plot_end(j, first);
	gp_series_free(t, nt);
	gp_series_free(a, na);
	return 0;
}

/* ---- memory ---- */

/* Whether every series is one constant value (each its own); *lo, *hi: the values. */
static int all_flat(const struct gp_series *s, size_t n, double *lo, double *hi)
{
	*lo = INFINITY, *hi = -INFINITY;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s[i].n; k++) {
			if (s[i].y[k] != s[i].y[0])
				return 0;
			*lo = s[i].y[k] < *lo ? s[i].y[k] : *lo;
			*hi = s[i].y[k] > *hi ? s[i].y[k] : *hi;
		}
	return n > 0 && *lo <= *hi;
}

/* Whether the series of one run are all one flat line at the same value (ranks with the
 * same memory); *longest: the one with most points. */
static int all_identical(const struct gp_series *s, size_t n, size_t *longest)
{
	double lo, hi;
	*longest = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i].key.run != s[0].key.run || !s[0].n)
			return 0;
		*longest = s[i].n > s[*longest].n ? i : *longest;
	}
	return n > 1 && all_flat(s, n, &lo, &hi) && lo == hi;
}

/* note: said after the panel's title (NULL: nothing) */
static void memory_panel(struct gp_job *j, const struct gp_series *s, size_t n, size_t nruns, const char *what,
			 int own_title, const char *note)
{
	int first = 1;
	struct gp_series one;
	char name[96];
	size_t longest;
	if (all_identical(s, n, &longest)) {
		/* four identical lines are one line: say so in its title */
		one = s[longest];
		snprintf(name, sizeof(name), "%s memory, all %zu ranks alike", what, n);
		one.name = name;
		s = &one, n = 1;
	}
	if (own_title)
		gp_cmd(j, "set title '%s memory per batch%s'", what, note ? note : "");
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s[i].n; k++)
			lo = s[i].y[k] < lo ? s[i].y[k] : lo, hi = s[i].y[k] > hi ? s[i].y[k] : hi;
	gp_cmd(j, "set ylabel '%s memory (MB)'\nset lmargin 12", what);
	int flat = hi > 0 && hi - lo < 0.02 * hi; /* flat: show it against zero */
	if (flat)
		gp_cmd(j, "set yrange [0:%g]", hi * 1.25);
	else
		gp_cmd(j, "set yrange [*:*]");
	double step = nice_step(flat ? hi * 1.25 : hi - lo, j->o->height < 900 ? 4 : 8);
	if (step > 0)
		gp_cmd(j, "set ytics %g", step);
	else
		gp_cmd(j, "set ytics autofreq");
	gp_cmd(j, "set xlabel 'batch (index in the run)'");
	line_key(j, n);
	series_lines(j, s, n, nruns, "x1y1", &first, 0, "ps 0.3");
	plot_end(j, first);
}

int gp_chart_memory(struct gp_job *j)
{
	struct gp_series *c, *g;
	size_t nc = gp_points(j->rep, GP_KIND(AK_CPU_MEMORY), &c), ng = gp_points(j->rep, GP_KIND(AK_GPU_MEMORY), &g);
	size_t nruns = gp_series_runs(c, nc) > gp_series_runs(g, ng) ? gp_series_runs(c, nc) : gp_series_runs(g, ng);
	int rc = nc || ng ? 0 : GP_NODATA;
	/* a GPU memory that never changes is a fact for the title, not a panel of flat lines */
	double lo, hi;
	char note[96] = "";
	if (nc && ng && all_flat(g, ng, &lo, &hi)) {
		if (lo == hi)
			snprintf(note, sizeof(note), " (GPU memory constant: %.6g MB)", lo);
		else
			snprintf(note, sizeof(note), " (GPU memory constant: %.6g to %.6g MB)", lo, hi);
		gp_series_free(g, ng);
		g = NULL, ng = 0;
	}
	int own = (nc && ng) || !j->o->title;
	if (nc && ng)
		multiplot_begin(j, 2, 1);
	else if (rc == 0 && !own)
		gp_title(j, NULL);
	if (nc)
		memory_panel(j, c, nc, nruns, "CPU", own, note);
	if (ng)
		memory_panel(j, g, ng, nruns, "GPU", own, NULL);
	if (nc && ng)
		gp_cmd(j, "unset multiplot");
	gp_series_free(c, nc);
	gp_series_free(g, ng);
	return rc;
}

/* ---- timeline ---- */

int gp_chart_timeline(struct gp_job *j)
{
	const struct rtable *t = gp_table(j->rep, AT_TIMELINE, 0);
	if (!t || !t->nrows)
		return GP_NODATA;
	int crun = gp_col(t, AC_RUN), cstage = gp_col(t, AC_STAGE), cs = gp_col(t, AC_START), ce = gp_col(t, AC_END);
	double lo = 0, hi = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		double a = gp_num(t, r, cs), b = gp_num(t, r, ce);
		lo = a < lo ? a : lo, hi = b > hi ? b : hi;
	}
	double minw = (hi - lo) * 0.003; /* a short stage stays visible */
	size_t y = t->nrows, runs = 0, nruns = 0;
	for (size_t r = 0; r < t->nrows; r++)
		nruns += r == 0 || rt_row_key(t, r).run != rt_row_key(t, r - 1).run;
	int first = 1;
	char name[64];
	gp_title(j, "Stage timeline");
	gp_cmd(j, "set xlabel 'time since the first timestamp (s)'\nunset ylabel\nset style fill solid 0.85 border -1");
	gp_cmd(j, "set yrange [-0.6:%zu.6]\nset xrange [%g:%g]", t->nrows - 1, lo, hi + (hi - lo) * 0.2);
	gp_cmd(j, "set ytics nomirror scale 0\nset grid noytics xtics");
	gp_cmd(j, nruns > 1 ? "set key below height 1.5" : "unset key");
	for (size_t r0 = 0; r0 < t->nrows; runs++) {
		const char *run = gp_text(t, r0, crun);
		int run_id = rt_row_key(t, r0).run;
		struct strbuf d = STRBUF_INIT, lab = STRBUF_INIT;
		gp_dat_text(&d, "y", 8);
		gp_dat_text(&d, run, 80);
		gp_dat_row(&d);
		size_t r = r0;
		for (; r < t->nrows && rt_row_key(t, r).run == run_id; r++) {
			double a = gp_num(t, r, cs), b = gp_num(t, r, ce), vis = b - a > minw ? b : a + minw;
			double mid = (a + vis) / 2, half = (vis - a) / 2;
			strbuf_reset(&lab);
			fmt_seconds(&lab, b - a);
			gp_dat_num(&d, (double)--y);
			gp_dat_text(&d, gp_text(t, r, cstage), NAME_MAX_CHARS);
			gp_dat_num(&d, mid);
			gp_dat_num(&d, half);
			gp_dat_num(&d, mid + half);
			gp_dat_text(&d, lab.buf, 24);
			gp_dat_num(&d, vis - a > 0.6 * (hi - lo)); /* label inside the bar */
			gp_dat_row(&d);
		}
		gp_data_file(j, &d, name, sizeof(name));
		plot_next(j, &first);
		strbuf_addf(&j->gp, "'%s' %s using 3:1:4:(0.38):yticlabels(2) with boxxyerror lt %zu %s, \\\n",
			    name, nruns > 1 ? "" : "skip 1", runs + 1, nruns > 1 ? "title columnheader(2)" : "notitle");
		strbuf_addf(&j->gp, "     '%s' skip 1 using ($7 > 0 ? NaN : $5):1:6 with labels left offset char 0.6,0 notitle, \\\n",
			    name);
		strbuf_addf(&j->gp, "     '%s' skip 1 using ($7 > 0 ? $5 : NaN):1:6 with labels right offset char -0.6,0 "
				    "tc rgb 'white' notitle",
			    name);
		r0 = r;
		strbuf_release(&d);
		strbuf_release(&lab);
	}
	plot_end(j, first);
	return 0;
}

/* ---- scaling ---- */

/*
 * One fit of the analysis (AT_SCALING_FITS) and its points (AT_SCALING_POINTS,
 * the same row key group). The line is the analysis' own: this file draws
 * it and never refits.
 */
struct sc_group {
	const char *run, *param, *series;
	struct rkey key;
	double a, b, lo, hi, expect, xbar, ybar; /* log(time) = a + b log(x); centroid (xbar, ybar) */
	char title[160];
	size_t n, alloc;
	double *x, *y, *sd;
};

static void sc_add(struct sc_group *g, double x, double y, double sd)
{
	if (!(x > 0) || !(y > 0))
		return;
	if (g->n == g->alloc) {
		g->alloc = g->alloc ? 2 * g->alloc : 16;
		g->x = xrealloc(g->x, g->alloc * sizeof(double));
		g->y = xrealloc(g->y, g->alloc * sizeof(double));
		g->sd = xrealloc(g->sd, g->alloc * sizeof(double));
	}
	g->x[g->n] = x, g->y[g->n] = y, g->sd[g->n++] = sd;
}

static void sc_free(struct sc_group *g)
{
	free(g->x), free(g->y), free(g->sd);
}

/* A two-point line y = exp(a) x^b over the group's x range, as a data file. */
static void sc_line(struct gp_job *j, const struct sc_group *g, double a, double b, const char *title, char *name,
		    size_t size)
{
	double lo = g->x[0], hi = g->x[0];
	struct strbuf d = STRBUF_INIT;
	for (size_t i = 1; i < g->n; i++)
		lo = g->x[i] < lo ? g->x[i] : lo, hi = g->x[i] > hi ? g->x[i] : hi;
	gp_dat_text(&d, "x", 8);
	gp_dat_text(&d, title, 120);
	gp_dat_row(&d);
	for (int k = 0; k < 2; k++) {
		double x = k ? hi : lo;
		gp_dat_num(&d, x);
		gp_dat_num(&d, exp(a + b * log(x)));
		gp_dat_row(&d);
	}
	gp_data_file(j, &d, name, size);
	strbuf_release(&d);
}

static int sc_points_file(struct gp_job *j, const struct sc_group *g, char *name, size_t size)
{
	struct strbuf d = STRBUF_INIT;
	int any_sd = 0;
	gp_dat_text(&d, "x", 8);
	gp_dat_text(&d, "measured", 20);
	gp_dat_row(&d);
	for (size_t i = 0; i < g->n; i++) {
		double sd = g->sd[i], lo = g->y[i] - sd;
		any_sd |= !isnan(sd);
		gp_dat_num(&d, g->x[i]);
		gp_dat_num(&d, g->y[i]);
		gp_dat_num(&d, isnan(sd) ? NAN : lo > 0 ? lo : g->y[i] / 100);
		gp_dat_num(&d, g->y[i] + sd);
		gp_dat_row(&d);
	}
	gp_data_file(j, &d, name, size);
	strbuf_release(&d);
	return any_sd;
}

/* Tics of a log axis spanning less than two decades: factors of 2, not decades only. */
static void log_tics(struct gp_job *j, char axis, double lo, double hi)
{
	if (lo > 0 && hi / lo < 100)
		gp_cmd(j, "set %ctics %g, 2\nset format %c '%%g'", axis, pow(10, floor(log10(lo))), axis);
	else
		gp_cmd(j, "set %ctics autofreq\nset format %c '%%g'", axis, axis);
}

/* Tics for the points and the lines y = exp(a[k]) x^b[k] drawn over their x range. */
static void sc_log_tics(struct gp_job *j, const struct sc_group *g, const double *a, const double *b, int nlines)
{
	double xl = INFINITY, xh = 0, yl = INFINITY, yh = 0;
	for (size_t i = 0; i < g->n; i++) {
		xl = g->x[i] < xl ? g->x[i] : xl, xh = g->x[i] > xh ? g->x[i] : xh;
		yl = g->y[i] < yl ? g->y[i] : yl, yh = g->y[i] > yh ? g->y[i] : yh;
	}
	for (int k = 0; k < nlines; k++)
		for (int e = 0; e < 2; e++) {
			double y = exp(a[k] + b[k] * log(e ? xh : xl));
			yl = y < yl ? y : yl, yh = y > yh ? y : yh;
		}
	log_tics(j, 'x', xl, xh);
	log_tics(j, 'y', yl, yh);
}

static void sc_panel(struct gp_job *j, const struct sc_group *g, int own_title)
{
	char pts[64], fit[64], exp_name[64];
	struct strbuf s = STRBUF_INIT;
	int any_sd = sc_points_file(j, g, pts, sizeof(pts));
	if (isnan(g->lo) || isinf(g->lo))
		strbuf_addf(&s, "fit: time ~ %s^%.2f", g->param, g->b);
	else
		strbuf_addf(&s, "fit: time ~ %s^%.2f (95%% CI %.2f to %.2f)", g->param, g->b, g->lo, g->hi);
	/* the expected exponent through the centroid of the points */
	double la[2] = { g->a, g->ybar - g->expect * g->xbar }, lb[2] = { g->b, g->expect };
	sc_line(j, g, la[0], lb[0], s.buf, fit, sizeof(fit));
	if (!isnan(g->expect)) {
		strbuf_reset(&s);
		strbuf_addf(&s, "expected: time ~ %s^%g", g->param, g->expect);
		sc_line(j, g, la[1], lb[1], s.buf, exp_name, sizeof(exp_name));
	}
	if (own_title)
		gp_label_cmd(j, "title", g->title);
	strbuf_reset(&s);
	strbuf_addf(&s, "%s (log scale)", g->param);
	gp_label_cmd(j, "xlabel", s.buf);
	gp_cmd(j, "set ylabel 'time (ms, log scale)'\nset logscale xy\nset key bottom right opaque box");
	gp_cmd(j, "set autoscale fix\nset offsets graph 0.06, graph 0.06, graph 0.08, graph 0.35");
	sc_log_tics(j, g, la, lb, isnan(g->expect) ? 1 : 2);
	gp_cmd(j, "plot '%s' using 1:2 with points pt 7 ps 1.3 lt 1 title columnheader(2), \\", pts);
	if (any_sd)
		gp_cmd(j, "     '%s' skip 1 using 1:2:3:4 with yerrorbars lt 1 ps 0 notitle, \\", pts);
	if (!isnan(g->expect))
		gp_cmd(j, "     '%s' using 1:2 with lines dt 2 lw 1.5 lc rgb '#555555' title columnheader(2), \\",
		       exp_name);
	gp_cmd(j, "     '%s' using 1:2 with lines lw 2 lt 2 title columnheader(2)", fit);
	gp_cmd(j, "unset logscale\nset xtics autofreq\nset ytics autofreq");
	strbuf_release(&s);
}

/* Row r of AT_SCALING_FITS as a group, with the points of its group; 0 if fewer than two points. */
static int sc_group_load(const struct report *rep, const struct rtable *f, size_t r, struct sc_group *g)
{
	const struct rtable *p = gp_table(rep, AT_SCALING_POINTS, 0);
	memset(g, 0, sizeof(*g));
	g->key = rt_row_key(f, r);
	g->run = gp_text(f, r, gp_col(f, AC_RUN)), g->param = gp_text(f, r, gp_col(f, AC_PARAM));
	g->series = gp_text(f, r, gp_col(f, AC_SERIES));
	g->a = gp_num(f, r, gp_col(f, AC_INTERCEPT)), g->b = gp_num(f, r, gp_col(f, AC_EXPONENT));
	g->lo = gp_num(f, r, gp_col(f, AC_CI_LOW)), g->hi = gp_num(f, r, gp_col(f, AC_CI_HIGH));
	g->expect = gp_num(f, r, gp_col(f, AC_EXPECTED));
	g->xbar = gp_num(f, r, gp_col(f, AC_LOG_X_MEAN)), g->ybar = gp_num(f, r, gp_col(f, AC_LOG_Y_MEAN));
	for (size_t k = 0; p && k < p->nrows; k++)
		if (rt_row_key(p, k).group == g->key.group)
			sc_add(g, gp_num(p, k, gp_col(p, AC_VALUE)), gp_num(p, k, gp_col(p, AC_MEAN)),
			       gp_num(p, k, gp_col(p, AC_STD)));
	if (g->n >= 2 && !isnan(g->a) && !isnan(g->b))
		return 1;
	sc_free(g);
	return 0;
}

/* Distinct runs among the sweep fits (the fit across runs has none). */
static size_t sc_runs(const struct rtable *f)
{
	size_t n = 0;
	for (size_t r = 0; f && r < f->nrows; r++) {
		int run = rt_row_key(f, r).run, seen = run < 0;
		for (size_t k = 0; k < r && !seen; k++)
			seen = rt_row_key(f, k).run == run;
		n += !seen;
	}
	return n;
}

int gp_chart_scaling(struct gp_job *j)
{
	const struct rtable *f = gp_table(j->rep, AT_SCALING_FITS, 0);
	struct sc_group v[MAX_PANELS];
	size_t np = 0, nruns = sc_runs(f);
	for (size_t r = 0; f && r < f->nrows && np < MAX_PANELS; r++) {
		struct sc_group *g = &v[np];
		if (!sc_group_load(j->rep, f, r, g))
			continue;
		if (g->key.group == AN_GROUP_ALL_RUNS)
			snprintf(g->title, sizeof(g->title), "All runs: %s against %s", g->series, g->param);
		else if (nruns > 1)
			snprintf(g->title, sizeof(g->title), "%s: time against %s", g->run, g->param);
		else
			snprintf(g->title, sizeof(g->title), "Time against %s", g->param);
		np++;
	}
	if (!np)
		return GP_NODATA;
	if (np > 1)
		multiplot_begin(j, np > 2 ? 2 : 1, 2);
	else
		gp_title(j, v[0].title);
	for (size_t i = 0; i < np; i++) {
		sc_panel(j, &v[i], np > 1);
		sc_free(&v[i]);
	}
	if (np > 1)
		gp_cmd(j, "unset multiplot");
	return 0;
}

/* ---- compare ---- */

/*
 * Each compared item as its ratio to the baseline run, with the analysis'
 * 95 % interval, on one logarithmic scale shared by every item whatever
 * its unit (a 4 s stage and a 0.16 s batch read alike); 1 is marked. Items
 * without samples have a ratio and no interval; items of one run only and
 * the geometric mean are left out.
 */
#define MAX_ITEMS 40

int gp_chart_compare(struct gp_job *j)
{
	const struct rtable *t = gp_table(j->rep, AT_COMPARE, 0);
	if (!t)
		return GP_NODATA;
	int citem = gp_col(t, AC_ITEM), crun = gp_col(t, AC_RUN), cbrun = gp_col(t, AC_BASELINE_RUN);
	int cratio = gp_col(t, AC_RATIO), clo = gp_col(t, AC_CI_LOW), chi = gp_col(t, AC_CI_HIGH), cp = gp_col(t, AC_P);
	size_t rows[MAX_ITEMS], n = 0;
	int runs_seen = -2, several = 0;
	for (size_t r = 0; r < t->nrows && n < MAX_ITEMS; r++) {
		struct rkey k = rt_row_key(t, r);
		if (k.series == AK_OVERALL || !(gp_num(t, r, cratio) > 0))
			continue;
		several |= runs_seen != -2 && runs_seen != k.run;
		runs_seen = k.run;
		rows[n++] = r;
	}
	if (!n)
		return GP_NODATA;
	struct strbuf d = STRBUF_INIT, lab = STRBUF_INIT;
	double lo = 1, hi = 1;
	gp_dat_text(&d, "y", 8);
	gp_dat_text(&d, "item", 8);
	gp_dat_text(&d, "ratio", 8);
	gp_dat_text(&d, "low", 8);
	gp_dat_text(&d, "high", 8);
	gp_dat_text(&d, "label", 8);
	gp_dat_row(&d);
	for (size_t i = 0; i < n; i++) {
		size_t r = rows[i];
		double v = gp_num(t, r, cratio), l = gp_num(t, r, clo), h = gp_num(t, r, chi), p = gp_num(t, r, cp);
		if (isnan(l) || isnan(h))
			l = h = v;
		lo = l < lo ? l : lo, hi = h > hi ? h : hi;
		strbuf_reset(&lab);
		strbuf_addstr(&lab, gp_text(t, r, citem));
		if (several) {
			strbuf_addstr(&lab, " (");
			strbuf_addstr(&lab, gp_text(t, r, crun));
			strbuf_addch(&lab, ')');
		}
		gp_dat_num(&d, (double)(n - 1 - i));
		gp_dat_text(&d, lab.buf, NAME_MAX_CHARS);
		gp_dat_num(&d, v);
		gp_dat_num(&d, l);
		gp_dat_num(&d, h);
		strbuf_reset(&lab);
		strbuf_addf(&lab, "%.3gx", v);
		if (!isnan(p))
			strbuf_addf(&lab, ", p = %.2g", p);
		gp_dat_text(&d, lab.buf, 40);
		gp_dat_row(&d);
	}
	char name[64];
	gp_data_file(j, &d, name, sizeof(name));
	struct strbuf title = STRBUF_INIT;
	strbuf_addf(&title, "Each item against %s (ratio, 95%% interval)", gp_text(t, rows[0], cbrun));
	if (!several) {
		strbuf_addstr(&title, ": ");
		strbuf_addstr(&title, gp_text(t, rows[0], crun));
	}
	gp_title(j, title.buf);
	gp_cmd(j, "set xlabel 'ratio to the baseline run (log scale): < 1 faster, > 1 slower'\nunset ylabel\nunset key");
	gp_cmd(j, "set logscale x\nset xrange [%g:%g]\nset yrange [-0.7:%zu.7]", lo / 1.25, hi * 1.25, n - 1);
	gp_cmd(j, "set ytics nomirror scale 0\nset format x '%%g'\nset grid xtics noytics");
	gp_cmd(j, "set xtics nomirror (0.1, 0.2, 0.5, 0.67, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 2, 3, 5, 10, 20, 50, 100)");
	gp_cmd(j, "set arrow from 1, graph 0 to 1, graph 1 nohead dt 2 lw 1.5 lc rgb '#555555' back");
	gp_cmd(j, "plot '%s' skip 1 using 3:1:4:5:yticlabels(2) with xerrorbars pt 7 ps 1.3 lw 2 lc rgb '#1f5fa8' notitle, \\\n"
		  "     '%s' skip 1 using 3:1:6 with labels offset char 0,0.9 font ',9' notitle",
	       name, name);
	gp_cmd(j, "unset logscale x\nunset arrow\nset xtics autofreq");
	strbuf_release(&d);
	strbuf_release(&lab);
	strbuf_release(&title);
	return 0;
}

/* A stages chart needs room for every bar: 34 px a bar, 110 a panel. */
int gp_suggested_height(const struct report *rep, enum gp_chart c, int dflt)
{
	if (c != GP_STAGES)
		return dflt;
	const struct rtable *t;
	int keep_last, h = 0;
	size_t np = 0;
	for (size_t k = 0; (t = gp_table(rep, AT_BREAKDOWN, k)) && np < MAX_PANELS; k++) {
		size_t n = stage_rows(t, &keep_last);
		if (!n)
			continue;
		h += 110 + 34 * (int)n;
		np++;
	}
	if (h > 4000)
		h = 4000;
	return h > dflt ? h : dflt;
}

/* ---- trend (the run history) ---- */

/*
 * One series across stored runs (the AT_TREND table of tprof-history):
 * the value of each run, the level of each segment between change points
 * as steps, and each change point marked by a dashed line, a point and its
 * change in percent.
 */
int gp_chart_trend(struct gp_job *j)
{
	const struct rtable *t = gp_table(j->rep, AT_TREND, 0);
	if (!t || !t->nrows)
		return GP_NODATA;
	int cid = gp_col(t, AC_RUN_ID), cv = gp_col(t, AC_VALUE), ccp = gp_col(t, AC_CHANGE_POINT),
	    cch = gp_col(t, AC_CHANGE);
	struct strbuf d = STRBUF_INIT, p = STRBUF_INIT, lab = STRBUF_INIT;
	double *level = xcalloc(t->nrows, sizeof(*level));
	/* segment means: from each change point to the next */
	for (size_t a = 0, b; a < t->nrows; a = b) {
		double sum = 0;
		size_t n = 0;
		for (b = a; b < t->nrows && (b == a || !*gp_text(t, b, ccp)); b++)
			if (!isnan(gp_num(t, b, cv)))
				sum += gp_num(t, b, cv), n++;
		for (size_t k = a; k < b; k++)
			level[k] = n ? sum / (double)n : NAN;
	}
	gp_dat_text(&d, "run", 8);
	gp_dat_text(&d, "value per run", 20);
	gp_dat_text(&d, "level between change points", 40);
	gp_dat_row(&d);
	gp_dat_text(&p, "run", 8);
	gp_dat_text(&p, "change point", 20);
	gp_dat_text(&p, "change", 8);
	gp_dat_row(&p);
	for (size_t r = 0; r < t->nrows; r++) {
		double x = gp_num(t, r, cid), y = gp_num(t, r, cv);
		gp_dat_num(&d, x);
		gp_dat_num(&d, y);
		gp_dat_num(&d, level[r]);
		gp_dat_row(&d);
		if (!*gp_text(t, r, ccp))
			continue;
		gp_cmd(j, "set arrow from %g, graph 0 to %g, graph 1 nohead back dt 2 lw 1.2 lc rgb '#c0392b'", x, x);
		strbuf_reset(&lab);
		strbuf_addf(&lab, "%+.1f%%", gp_num(t, r, cch));
		gp_dat_num(&p, x);
		gp_dat_num(&p, y);
		gp_dat_text(&p, lab.buf, 12);
		gp_dat_row(&p);
	}
	char dn[64], pn[64];
	gp_data_file(j, &d, dn, sizeof(dn));
	gp_data_file(j, &p, pn, sizeof(pn));
	gp_title(j, t->title);
	strbuf_reset(&lab);
	strbuf_addf(&lab, "value (%s)", cv >= 0 && t->cols[cv].unit[0] ? t->cols[cv].unit : "-");
	gp_label_cmd(j, "ylabel", lab.buf);
	gp_cmd(j, "set xlabel 'run (id, in the order added)'\nset key above\nset grid ytics");
	gp_cmd(j, "set autoscale xfix\nset offsets graph 0.02, graph 0.02, graph 0.1, graph 0.05");
	gp_cmd(j, "plot '%s' using 1:2 with %s lt 1 ps 0.5 title columnheader(2), \\\n"
		  "     '%s' using 1:3 with steps lt 2 lw 2 title columnheader(3), \\\n"
		  "     '%s' using 1:2 with points pt 7 ps 1.4 lc rgb '#c0392b' title columnheader(2), \\\n"
		  "     '%s' skip 1 using 1:2:3 with labels left offset char 0.8,1.4 tc rgb '#c0392b' notitle",
	       dn, t->nrows > 150 ? "lines" : "linespoints", dn, pn, pn);
	free(level);
	strbuf_release(&d);
	strbuf_release(&p);
	strbuf_release(&lab);
	return 0;
}
