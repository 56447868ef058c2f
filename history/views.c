/*
 * views.c - reports built from the run history (see views.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "views.h"

static void iso_time(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;
	if (!gmtime_r(&tt, &tm) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "%lld", (long long)t);
}

/* ---- trends ---- */

static void trend_point(void *ctx, const struct hs_run *r, const struct an_summary *s)
{
	struct hs_trend_pts *t = ctx;
	if (t->n == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 64;
		t->runs = xrealloc(t->runs, t->alloc * sizeof(*t->runs));
		t->s = xrealloc(t->s, t->alloc * sizeof(*t->s));
	}
	t->runs[t->n] = *r;
	t->s[t->n++] = *s;
}

int hs_trend_load(struct hdb *db, const char *series, struct hs_trend_pts *t, struct strbuf *err)
{
	memset(t, 0, sizeof(*t));
	return hs_trend(db, series, trend_point, t, err);
}

void hs_trend_free(struct hs_trend_pts *t)
{
	free(t->runs);
	free(t->s);
	memset(t, 0, sizeof(*t));
}

/* Runs whose value is not a number are left out of the detection; indices map back. */
size_t hs_trend_changes(const struct hs_trend_pts *t, const struct cp_opts *o, struct cp_point *out, size_t max)
{
	double *x = xcalloc(t->n + 1, sizeof(*x));
	size_t *at = xcalloc(t->n + 1, sizeof(*at)), m = 0;
	for (size_t i = 0; i < t->n; i++)
		if (isfinite(t->s[i].value)) {
			at[m] = i;
			x[m++] = t->s[i].value;
		}
	size_t k = cp_edivisive(x, m, o, out, max);
	for (size_t i = 0; i < k; i++)
		out[i].index = at[out[i].index];
	free(x);
	free(at);
	return k;
}

#define MAX_CHANGES 64

int hs_view_trend(struct hdb *db, const char *series, const struct cp_opts *o, struct report *rep, size_t *npoints,
		  struct strbuf *err)
{
	struct hs_trend_pts t;
	struct cp_point cp[MAX_CHANGES];
	int st = hs_trend_load(db, series, &t, err);
	*npoints = t.n;
	if (st != HDB_OK || !t.n) {
		hs_trend_free(&t);
		return st;
	}
	size_t k = hs_trend_changes(&t, o, cp, MAX_CHANGES), next = 0;
	char cols[512], title[400], name[300], when[40];
	const char *u = t.s[0].unit;
	snprintf(cols, sizeof(cols),
		 "run_id,run,added,n,value:%s,mean:%s,median:%s,p90:%s,min:%s,max:%s,change_point,change:%%,p_value",
		 u, u, u, u, u, u);
	snprintf(title, sizeof(title), "Trend of %s across %zu runs (E-Divisive, alpha %g)", series, t.n, o->alpha);
	report_section(rep, "trend", "Run history")->kind = AS_TREND;
	struct rtable *tab = report_table(rep, "trend", "trend", title, cols);
	/* the typed ids charts select by (analyses.h), in the order of cols */
	static const int keys[] = { AC_RUN_ID, AC_RUN, AC_NONE, AC_N, AC_VALUE, AC_MEAN, AC_MEDIAN, AC_NONE,
				    AC_NONE, AC_NONE, AC_CHANGE_POINT, AC_CHANGE, AC_P };
	tab->kind = AT_TREND;
	for (size_t c = 0; c < tab->ncols && c < ARRAY_SIZE(keys); c++)
		tab->cols[c].key = keys[c];
	for (size_t i = 0; i < t.n; i++) {
		const struct an_summary *s = &t.s[i];
		int starts = next < k && cp[next].index == i;
		hs_run_name(&t.runs[i], name, sizeof(name));
		iso_time(t.runs[i].added, when, sizeof(when));
		rt_num(tab, (double)t.runs[i].id, 0);
		rt_text(tab, name);
		rt_text(tab, when);
		rt_num(tab, (double)s->n, 0);
		rt_num(tab, s->value, 4);
		rt_num(tab, s->mean, 4);
		rt_num(tab, s->median, 4);
		rt_num(tab, s->p90, 4);
		rt_num(tab, s->min, 4);
		rt_num(tab, s->max, 4);
		rt_text(tab, starts ? "yes" : NULL);
		rt_num(tab, starts ? 100 * cp[next].change : NAN, 1);
		rt_num(tab, starts ? cp[next].p : NAN, -1);
		if (!starts)
			continue;
		report_finding(rep, cp[next].change > 0 ? SEV_WARNING : SEV_INFO, "trend", "change-point", name,
			       t.runs[i].path, 0, NULL, "%s: %+.1f%% from run %s (id %lld) on (mean %.4g -> %.4g %s, p = %.3g)",
			       series, 100 * cp[next].change, name, (long long)t.runs[i].id, cp[next].mean_before,
			       cp[next].mean_after, u, cp[next].p);
		next++;
	}
	if (!k)
		report_finding(rep, SEV_INFO, "trend", "no-change", NULL, NULL, 0, NULL,
			       "%s: no change point across %zu runs (E-Divisive, alpha %g)", series, t.n, o->alpha);
	hs_trend_free(&t);
	return HDB_OK;
}

/* ---- regressions ---- */

struct change {
	char series[192], unit[8], run[300];
	int64_t run_id;
	double before, after, change, p, score;
	size_t runs;
};

struct names {
	char **v;
	size_t n, alloc;
};

static void add_name(void *ctx, const char *name, int64_t runs)
{
	(void)runs;
	struct names *nm = ctx;
	ALLOC_GROW(nm->v, nm->n + 1, nm->alloc);
	nm->v[nm->n++] = xstrdup(name ? name : "");
}

static int by_score(const void *a, const void *b)
{
	const struct change *x = a, *y = b;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return strcmp(x->series, y->series);
}

/* One series as the change-point search needs it: run ids and values only. */
struct values {
	int64_t *id;
	double *x;
	size_t n, alloc;
	char unit[8];
};

static void add_value(void *ctx, int64_t run_id, double value, const char *unit)
{
	struct values *v = ctx;
	if (!v->n && unit)
		snprintf(v->unit, sizeof(v->unit), "%s", unit);
	if (!isfinite(value))
		return;
	if (v->n == v->alloc) {
		v->alloc = v->alloc ? 2 * v->alloc : 256;
		v->id = xrealloc(v->id, v->alloc * sizeof(*v->id));
		v->x = xrealloc(v->x, v->alloc * sizeof(*v->x));
	}
	v->id[v->n] = run_id;
	v->x[v->n++] = value;
}

/* The change points of one series appended to *ch; the runs are named only where one starts. */
static int series_changes(struct hdb *db, const char *name, const struct cp_opts *o, struct change **ch, size_t *n,
			  size_t *alloc, struct strbuf *err)
{
	struct values v = { 0 };
	struct cp_point cp[MAX_CHANGES];
	int st = hs_values(db, name, add_value, &v, err);
	size_t k = st == HDB_OK ? cp_edivisive(v.x, v.n, o, cp, MAX_CHANGES) : 0;
	for (size_t i = 0; i < k && st == HDB_OK; i++) {
		struct hs_run r;
		char id[32];
		snprintf(id, sizeof(id), "%lld", (long long)v.id[cp[i].index]);
		st = hs_find(db, id, &r, err);
		ALLOC_GROW(*ch, *n + 1, *alloc);
		struct change *c = &(*ch)[(*n)++];
		memset(c, 0, sizeof(*c));
		snprintf(c->series, sizeof(c->series), "%s", name);
		snprintf(c->unit, sizeof(c->unit), "%s", v.unit);
		hs_run_name(&r, c->run, sizeof(c->run));
		c->run_id = v.id[cp[i].index];
		c->before = cp[i].mean_before;
		c->after = cp[i].mean_after;
		c->change = cp[i].change;
		c->p = cp[i].p;
		c->score = isnan(c->change) ? 0 : fabs(c->change) * (1 - c->p);
		c->runs = v.n;
	}
	free(v.id);
	free(v.x);
	return st;
}

int hs_view_regressions(struct hdb *db, const struct cp_opts *o, struct report *rep, size_t *nfound,
			struct strbuf *err)
{
	struct names nm = { 0 };
	struct change *ch = NULL;
	size_t n = 0, alloc = 0;
	int st = hs_series_names(db, add_name, &nm, err);
	for (size_t i = 0; i < nm.n && st == HDB_OK; i++)
		st = series_changes(db, nm.v[i], o, &ch, &n, &alloc, err);
	*nfound = n;
	if (st == HDB_OK) {
		qsort(ch, n, sizeof(*ch), by_score);
		report_section(rep, "regressions", "Change points across runs");
		struct rtable *t = report_table(rep, "regressions", "regressions",
						"Series with a change point, by |change| x confidence",
						"series,unit,direction,from_run,run_id,before,after,change:%,p_value,score,runs");
		for (size_t i = 0; i < n; i++) {
			const struct change *c = &ch[i];
			rt_text(t, c->series);
			rt_text(t, c->unit);
			rt_text(t, c->change > 0 ? "slower" : "faster");
			rt_text(t, c->run);
			rt_num(t, (double)c->run_id, 0);
			rt_num(t, c->before, 4);
			rt_num(t, c->after, 4);
			rt_num(t, 100 * c->change, 1);
			rt_num(t, c->p, -1);
			rt_num(t, c->score, 4);
			rt_num(t, (double)c->runs, 0);
			if (c->change > 0)
				report_finding(rep, SEV_WARNING, "regressions", "regression", c->run, NULL, 0, NULL,
					       "%s got %.1f%% slower from run %s (id %lld) on (%.4g -> %.4g %s, p = %.3g)",
					       c->series, 100 * c->change, c->run, (long long)c->run_id, c->before, c->after,
					       c->unit, c->p);
		}
		if (!n)
			report_finding(rep, SEV_INFO, "regressions", "no-change", NULL, NULL, 0, NULL,
				       "no change point in any of %zu series stored in %s (E-Divisive, alpha %g)", nm.n,
				       db->where, o->alpha);
	}
	for (size_t i = 0; i < nm.n; i++)
		free(nm.v[i]);
	free(nm.v);
	free(ch);
	return st;
}

/* ---- list and show ---- */

static int list_row(void *ctx, const struct hs_run *r)
{
	struct rtable *t = ctx;
	char when[40], hash[13];
	iso_time(r->added, when, sizeof(when));
	snprintf(hash, sizeof(hash), "%.12s", r->hash);
	rt_num(t, (double)r->id, 0);
	rt_text(t, when);
	rt_text(t, r->label[0] ? r->label : NULL);
	rt_text(t, r->path);
	rt_num(t, (double)r->size, 0);
	rt_num(t, (double)r->records, 0);
	rt_text(t, hash);
	return 0;
}

int hs_view_list(struct hdb *db, const char *label, struct report *rep, struct strbuf *err)
{
	report_section(rep, "runs", "Run history");
	struct rtable *t = report_table(rep, "runs", "runs", "Runs stored", "id,added,label,file,size:B,records,hash");
	int st = hs_runs(db, label, list_row, t, err);
	if (st == HDB_OK && !t->nrows && label)
		report_finding(rep, SEV_INFO, "runs", "history-empty", label, NULL, 0, NULL, "no run labelled '%s' in %s",
			       label, db->where);
	else if (st == HDB_OK && !t->nrows)
		report_finding(rep, SEV_INFO, "runs", "history-empty", NULL, NULL, 0, NULL,
			       "no run stored in %s (add one with 'tprof history add LOG')", db->where);
	return st;
}

struct show_ctx {
	struct report *rep;
	struct rtable *meta, *series, *stages, *findings;
};

static void show_meta(void *ctx, const char *key, const char *value)
{
	struct show_ctx *c = ctx;
	if (!c->meta)
		c->meta = report_table(c->rep, "run", "meta", "Metadata", "key,value");
	rt_text(c->meta, key);
	rt_text(c->meta, value);
}

static void show_series(void *ctx, const struct an_summary *s)
{
	struct show_ctx *c = ctx;
	if (!c->series)
		c->series = report_table(c->rep, "run", "series", "Series summaries",
					 "series,unit,n,value,mean,std,median,mad,p90,min,max");
	rt_text(c->series, s->name);
	rt_text(c->series, s->unit);
	rt_num(c->series, (double)s->n, 0);
	double v[] = { s->value, s->mean, s->std, s->median, s->mad, s->p90, s->min, s->max };
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		rt_num(c->series, v[i], 4);
}

static void show_stage(void *ctx, const char *name, double seconds, int64_t count)
{
	struct show_ctx *c = ctx;
	if (!c->stages)
		c->stages = report_table(c->rep, "run", "stages", "Stage breakdown", "stage,seconds:s,count");
	rt_text(c->stages, name);
	rt_num(c->stages, seconds, 3);
	rt_num(c->stages, (double)count, 0);
}

static void show_finding(void *ctx, const char *severity, const char *kind, const char *message)
{
	struct show_ctx *c = ctx;
	if (!c->findings)
		c->findings = report_table(c->rep, "run", "findings", "Findings when it was added",
					   "severity,kind,message");
	rt_text(c->findings, severity);
	rt_text(c->findings, kind);
	rt_text(c->findings, message);
}

int hs_view_show(struct hdb *db, const struct hs_run *r, struct report *rep, struct strbuf *err)
{
	char title[320], name[300];
	hs_run_name(r, name, sizeof(name));
	snprintf(title, sizeof(title), "Run %s", name);
	report_section(rep, "run", title);
	struct rtable *t = report_table(rep, "run", "runs", "Run", "id,added,label,file,size:B,records,hash");
	list_row(t, r);
	struct show_ctx c = { rep, NULL, NULL, NULL, NULL };
	struct hs_detail_fns f = { show_series, show_meta, show_stage, show_finding, &c };
	return hs_detail(db, r->id, &f, err);
}

/* ---- comparisons ---- */

struct sum_list {
	struct an_summary *v;
	size_t n, alloc;
};

static void collect_series(void *ctx, const struct an_summary *s)
{
	struct sum_list *l = ctx;
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = *s;
}

static int load_summaries(struct hdb *db, int64_t id, struct sum_list *l, struct strbuf *err)
{
	struct hs_detail_fns f = { collect_series, NULL, NULL, NULL, l };
	memset(l, 0, sizeof(*l));
	return hs_detail(db, id, &f, err);
}

int hs_view_compare(struct hdb *db, const struct hs_run *a, const struct hs_run *b, const struct an_opts *o,
		    struct report *rep, int *gate, struct strbuf *err)
{
	struct sum_list la, lb;
	char na[300], nb[300];
	int st = load_summaries(db, a->id, &la, err);
	if (st == HDB_OK)
		st = load_summaries(db, b->id, &lb, err);
	else
		memset(&lb, 0, sizeof(lb));
	*gate = 0;
	if (st == HDB_OK) {
		hs_run_name(a, na, sizeof(na));
		hs_run_name(b, nb, sizeof(nb));
		if (!strcmp(na, nb)) { /* the same label: tell them apart by id */
			snprintf(na, sizeof(na), "#%lld %s", (long long)a->id, a->label);
			snprintf(nb, sizeof(nb), "#%lld %s", (long long)b->id, b->label);
		}
		struct an_summary_run runs[2] = { { na, a->path, la.v, la.n }, { nb, b->path, lb.v, lb.n } };
		*gate = an_compare_summaries(runs, 2, o, rep);
	}
	free(la.v);
	free(lb.v);
	return st;
}

/* ---- this run against the last runs with its label ---- */

struct recent_ctx {
	const char *skip;
	size_t last;
	int64_t *ids;
	size_t n, alloc;
};

static int recent_run(void *ctx, const struct hs_run *r)
{
	struct recent_ctx *c = ctx;
	if (c->skip && !strcmp(r->hash, c->skip))
		return 0;
	ALLOC_GROW(c->ids, c->n + 1, c->alloc);
	c->ids[c->n++] = r->id;
	return 0;
}

static void recent_row(struct report *rep, struct rtable *t, const char *run_label, const struct an_summary *s,
		       double *vals, size_t k)
{
	double med = tp_median(vals, k); /* sorts vals: [0] and [k-1] are the extremes */
	double change = med > 0 ? 100 * (s->value / med - 1) : NAN;
	const char *verdict = s->value > vals[k - 1]   ? "slower than all of them"
			      : s->value < vals[0]     ? "faster than all of them"
						       : "within their range";
	rt_text(t, s->name);
	rt_text(t, s->unit);
	rt_num(t, s->value, 4);
	rt_num(t, (double)k, 0);
	rt_num(t, med, 4);
	rt_num(t, vals[0], 4);
	rt_num(t, vals[k - 1], 4);
	rt_num(t, change, 1);
	rt_text(t, verdict);
	if (s->value > vals[k - 1] && k >= 3)
		report_finding(rep, SEV_WARNING, "history", "history-slower", run_label, NULL, 0, NULL,
			       "%s: %.4g %s is slower than each of the last %zu runs (median %.4g, %+.1f%%)", s->name,
			       s->value, s->unit, k, med, change);
}

int hs_view_recent(struct hdb *db, const char *label, size_t last, const char *skip_hash,
		   const struct an_summary *v, size_t n, const char *run_label, struct report *rep,
		   struct strbuf *err)
{
	struct recent_ctx rc = { skip_hash, last, NULL, 0, 0 };
	int st = hs_runs(db, label, recent_run, &rc, err);
	size_t from = rc.n > last ? rc.n - last : 0, nr = rc.n - from;
	struct sum_list *hist = xcalloc(nr + 1, sizeof(*hist));
	for (size_t i = 0; i < nr && st == HDB_OK; i++)
		st = load_summaries(db, rc.ids[from + i], &hist[i], err);
	if (st == HDB_OK) {
		char title[400];
		snprintf(title, sizeof(title), "This run against the last %zu runs labelled '%s'", nr, label);
		report_section(rep, "history", "Run history");
		struct rtable *t = report_table(rep, "history", "history", title,
						"series,unit,this_run,runs,median,min,max,change:%,verdict");
		double *vals = xcalloc(nr + 1, sizeof(*vals));
		for (size_t i = 0; i < n; i++) {
			size_t k = 0;
			for (size_t r = 0; r < nr; r++)
				for (size_t j = 0; j < hist[r].n; j++)
					if (!strcmp(hist[r].v[j].name, v[i].name) && isfinite(hist[r].v[j].value)) {
						vals[k++] = hist[r].v[j].value;
						break;
					}
			if (k)
				recent_row(rep, t, run_label, &v[i], vals, k);
		}
		free(vals);
		if (!nr)
			report_finding(rep, SEV_INFO, "history", "history-empty", run_label, NULL, 0, NULL,
				       "no earlier run labelled '%s' in the history to compare with", label);
	}
	for (size_t i = 0; i < nr; i++)
		free(hist[i].v);
	free(hist);
	free(rc.ids);
	return st;
}
