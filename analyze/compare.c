/*
 * compare.c - questions across alternatives: speedups against a baseline
 * (S1), scaling fits of time against size on log-log axes (S2
 * sweeps, GPM windows, runs tagged with --param), and run-against-run
 * comparison with a rank test where samples exist.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyses_int.h"

/* ---- speedups ---- */

struct alt {
	const char *name;
	double seconds, se; /* se: standard error of the mean, NAN if no samples */
	uint64_t line;
};

static void speedup_table(struct report *rep, const struct an_opts *o, const char *label,
			  const char *what, struct alt *a, size_t n, const char *file)
{
	if (n < 2)
		return;
	size_t base = 0;
	int found = 0;
	for (size_t i = 1; i < n; i++)
		if (a[i].seconds > a[base].seconds)
			base = i;
	if (o->baseline) {
		for (size_t i = 0; i < n; i++)
			if (!strcmp(a[i].name, o->baseline))
				base = i, found = 1;
		if (!found)
			report_finding(rep, SEV_NOTICE, "speedup", "baseline", label, file, 0, NULL,
				       "baseline '%s' is not among %s: the slowest, '%s', is used", o->baseline,
				       what, a[base].name);
	}
	char title[256];
	snprintf(title, sizeof(title), "Speedups of %s against %s (%s)", what, a[base].name, label);
	struct rtable *t = an_table(rep, AT_SPEEDUP, title);
	t->bar_col = 3;
	for (size_t i = 0; i < n; i++) {
		double f = a[i].seconds > 0 ? a[base].seconds / a[i].seconds : NAN;
		double u = NAN;
		if (!isnan(a[i].se) && !isnan(a[base].se) && i != base)
			u = f * sqrt(pow(a[i].se / a[i].seconds, 2) + pow(a[base].se / a[base].seconds, 2));
		rt_text(t, label);
		rt_text(t, a[i].name);
		rt_num(t, a[i].seconds, 3);
		rt_num(t, f, 2);
		rt_num(t, u, 2);
		rt_text(t, a[base].name);
		rt_num(t, a[i].line ? (double)a[i].line : NAN, 0);
	}
}

/* The time of an alternative: its "X complete:" line, else a section row. */
static double alt_seconds(const struct an_run *run, const char *name)
{
	for (size_t i = 0; i < run->completes.n; i++) {
		const struct an_nums *x = tp_map_at(&run->completes, i);
		if (tp_has_slot(x->has, S_SECONDS) && !strcmp(tp_map_key(&run->completes, i), name))
			return x->num[S_SECONDS];
	}
	for (size_t i = 0; i < run->tables.n; i++) {
		const struct an_table *tab = tp_map_at(&run->tables, i);
		for (size_t j = 0; j < tab->rows.n; j++) {
			const struct an_row *row = tp_map_at(&tab->rows, j);
			if (an_row_has(row, AN_ROW_SECONDS) && !strcmp(tp_map_key(&tab->rows, j), name))
				return row->seconds;
		}
	}
	return NAN;
}

/* Printed "SIREN : 1.67x faster" rows, as the log states them, and the
 * factor recomputed from the baseline's printed time and the name's own. */
static void printed_speedups(struct report *rep, const struct an_run *run)
{
	if (!run->speedups.n)
		return;
	struct rtable *t = report_table(rep, "speedup", "speedup-printed", "Speedups printed in the log",
					"run,name,printed:x,recomputed:x,baseline,baseline_s:s,line");
	for (size_t i = 0; i < run->speedups.n; i++) {
		const struct an_nums *x = tp_map_at(&run->speedups, i);
		const char *key = tp_map_key(&run->speedups, i);
		const char *name = strrchr(key, '\x1f');
		rt_text(t, run->label);
		rt_text(t, name ? name + 1 : key);
		rt_num(t, tp_has_slot(x->has, S_SPD_FACTOR) ? x->num[S_SPD_FACTOR] : NAN, 2);
		double own = alt_seconds(run, name ? name + 1 : key);
		rt_num(t, tp_has_slot(x->has, S_SPD_BASELINE_S) && own > 0 ? x->num[S_SPD_BASELINE_S] / own : NAN, 3);
		rt_text(t, x->text[0] ? x->text : NULL);
		rt_num(t, tp_has_slot(x->has, S_SPD_BASELINE_S) ? x->num[S_SPD_BASELINE_S] : NAN, 2);
		rt_num(t, (double)x->line, 0);
	}
}

void an_speedup(const struct an_model *m, const struct an_opts *o, struct report *rep)
{
	an_section(rep, AS_SPEEDUP);
	for (size_t r = 0; r < m->nruns; r++) {
		const struct an_run *run = m->runs[r];
		/* alternatives: the rows of each printed section (S1's timers),
		 * else the "X complete:" lines */
		size_t cap = run->completes.n + 1;
		for (size_t i = 0; i < run->tables.n; i++)
			cap += ((const struct an_table *)tp_map_at(&run->tables, i))->rows.n;
		struct alt *a = xcalloc(cap, sizeof(*a));
		size_t k = 0;
		for (size_t i = 0; i < run->tables.n; i++) {
			const struct an_table *tab = tp_map_at(&run->tables, i);
			const char *section = tp_map_key(&run->tables, i);
			if (strncmp(section, "Section", 7))
				continue; /* breakdowns of one run are not alternatives */
			k = 0;
			for (size_t j = 0; j < tab->rows.n; j++) {
				const struct an_row *row = tp_map_at(&tab->rows, j);
				if (an_row_has(row, AN_ROW_SECONDS) && strcmp(tp_map_key(&tab->rows, j), "TOTAL"))
					a[k++] = (struct alt){ tp_map_key(&tab->rows, j), row->seconds, NAN, row->line };
			}
			char what[200];
			snprintf(what, sizeof(what), "the rows of '%s'", section);
			speedup_table(rep, o, run->label, what, a, k, run->file);
		}
		if (k == 0) {
			for (size_t i = 0; i < run->completes.n; i++) {
				const struct an_nums *x = tp_map_at(&run->completes, i);
				if (tp_has_slot(x->has, S_SECONDS))
					a[k++] = (struct alt){ tp_map_key(&run->completes, i), x->num[S_SECONDS], NAN, x->line };
			}
			speedup_table(rep, o, run->label, "completed runs", a, k, run->file);
		}
		free(a);
		printed_speedups(rep, run);
	}
	if (m->nruns >= 2) {
		/* runs against each other on their batch (or epoch) times */
		struct alt *a = xcalloc(m->nruns, sizeof(*a));
		size_t k = 0;
		for (size_t r = 0; r < m->nruns; r++) {
			const struct an_run *run = m->runs[r];
			const struct tp_series *s = NULL;
			const struct an_batches *b0 = run->ranks.n ? tp_map_at(&run->ranks, 0) : NULL;
			if (b0)
				s = b0->seconds.n ? &b0->seconds : b0->epochs.n ? &b0->epochs : NULL;
			if (!s || !s->n)
				continue;
			double se = s->n > 1 ? tp_series_std(s) / sqrt((double)s->n) : NAN;
			a[k++] = (struct alt){ run->label, s->mean, se, 0 };
		}
		speedup_table(rep, o, "all runs", "mean batch time per run", a, k, NULL);
		free(a);
	}
}

/* ---- scaling ---- */

struct fit {
	double a, b, se_b, s, xbar, sxx, r2, b_lo, b_hi;
	size_t n;
};

/* OLS on (x, y) sums; 1 on success. Confidence 95 %. */
static int fit_sums(double n, double sx, double sy, double sxx, double sxy, double syy, struct fit *f)
{
	if (n < 2)
		return 0;
	double Sxx = sxx - sx * sx / n, Sxy = sxy - sx * sy / n, Syy = syy - sy * sy / n;
	if (Sxx <= 1e-12)
		return 0;
	f->n = (size_t)n;
	f->b = Sxy / Sxx;
	f->a = (sy - f->b * sx) / n;
	f->xbar = sx / n;
	f->sxx = Sxx;
	double sse = Syy - f->b * Sxy;
	if (sse < 0)
		sse = 0;
	f->r2 = Syy > 0 ? 1 - sse / Syy : 1;
	if (n > 2) {
		f->s = sqrt(sse / (n - 2));
		f->se_b = f->s / sqrt(Sxx);
		double tq = tp_t_quantile(0.975, n - 2);
		f->b_lo = f->b - tq * f->se_b;
		f->b_hi = f->b + tq * f->se_b;
	} else {
		f->s = f->se_b = NAN;
		f->b_lo = f->b_hi = NAN;
	}
	return 1;
}

static double expected_exponent(const char *param, const char *what, const char **why)
{
	if (strstr(what, "GPM")) {
		*why = "GPM pattern generation is O(patterns x length x N x degree): linear in N";
		return 1;
	}
	if (!strcasecmp(param, "N") || strcasestr(param, "node")) {
		*why = "full attention over N nodes is O(N^2)";
		return 2;
	}
	if (!strcasecmp(param, "L") || strcasestr(param, "layer")) {
		*why = "time grows linearly with the number of layers";
		return 1;
	}
	*why = NULL;
	return NAN;
}

struct fit_row {
	const char *label, *what, *param;
	struct rkey key; /* run index and fit group */
	double xlo, xhi; /* the sizes the fit spans */
};

/* The line of the fit, for charts: they draw it, they never refit it. */
static void fit_line_row(struct report *rep, struct rtable **t, const struct fit_row *fr, const struct fit *f,
			 double expect)
{
	if (!*t)
		*t = an_table(rep, AT_SCALING_FITS, NULL);
	rt_key(*t, fr->key);
	rt_text(*t, fr->label);
	rt_text(*t, fr->what);
	rt_text(*t, fr->param);
	rt_num(*t, f->a, -1);
	rt_num(*t, f->b, -1);
	rt_num(*t, f->b_lo, -1);
	rt_num(*t, f->b_hi, -1);
	rt_num(*t, expect, 0);
	rt_num(*t, f->xbar, -1);
	rt_num(*t, f->a + f->b * f->xbar, -1);
	/* the line's ends over the sizes it spans: a spreadsheet draws it from cells */
	rt_num(*t, fr->xlo, -1);
	rt_num(*t, fr->xhi, -1);
	rt_num(*t, exp(f->a + f->b * log(fr->xlo)), -1);
	rt_num(*t, exp(f->a + f->b * log(fr->xhi)), -1);
}

static void scaling_row(struct report *rep, struct rtable *t, struct rtable **lines, const struct an_opts *o,
			const struct fit_row *fr, const struct fit *f, const char *file)
{
	const char *why;
	double expect = expected_exponent(fr->param, fr->what, &why);
	fit_line_row(rep, lines, fr, f, expect);
	rt_key(t, fr->key);
	rt_text(t, fr->label);
	rt_text(t, fr->what);
	rt_text(t, fr->param);
	rt_num(t, (double)f->n, 0);
	rt_num(t, f->b, 3);
	rt_num(t, f->b_lo, 3);
	rt_num(t, f->b_hi, 3);
	rt_num(t, f->r2, 4);
	rt_num(t, expect, 0);
	double pred = NAN, lo = NAN, hi = NAN;
	if (o->predict.set && !strcasecmp(o->predict.name, fr->param) && o->predict.value > 0) {
		double x0 = log(o->predict.value);
		pred = exp(f->a + f->b * x0);
		if (f->n > 2) {
			double se = f->s * sqrt(1 + 1.0 / (double)f->n + pow(x0 - f->xbar, 2) / f->sxx);
			double tq = tp_t_quantile(0.975, (double)f->n - 2);
			lo = exp(f->a + f->b * x0 - tq * se);
			hi = exp(f->a + f->b * x0 + tq * se);
		}
	}
	rt_num(t, pred, 3);
	rt_num(t, lo, 3);
	rt_num(t, hi, 3);
	if (isnan(expect) || !why)
		return;
	const char *verdict, *advice = NULL;
	enum severity sev = SEV_INFO;
	if (isnan(f->b_lo)) {
		verdict = "too few points for an interval";
	} else if (expect >= f->b_lo && expect <= f->b_hi) {
		verdict = "consistent with the expected complexity";
	} else if (f->b_lo > expect) {
		verdict = "grows FASTER than expected", sev = SEV_WARNING;
		advice = "profile the largest size: some cost grows faster than the algorithm "
			 "(memory traffic, a quadratic step, swapping)";
	} else {
		verdict = "grows slower than expected (fixed overheads dominate at these sizes?)", sev = SEV_NOTICE;
		advice = "fixed costs (launches, copies, Python overhead) dominate at these sizes: "
			 "measure larger sizes before extrapolating, and batch small work";
	}
	char ci[96];
	if (isnan(f->b_lo))
		snprintf(ci, sizeof(ci), "no interval from %zu points", f->n);
	else
		snprintf(ci, sizeof(ci), "95%% CI %.2f..%.2f, R^2 %.3f", f->b_lo, f->b_hi, f->r2);
	report_finding(rep, sev, "scaling", "scaling", fr->label, file, 0, advice,
		       "%s vs %s: %s ~ %s^%.2f (%s); %s; %s", fr->what, fr->param,
		       strstr(fr->what, "memory") ? "memory" : "time", fr->param, f->b, ci, why, verdict);
	if (!isnan(pred) && !isnan(lo))
		report_finding(rep, SEV_INFO, "scaling", "prediction", fr->label, file, 0, NULL,
			       "%s at %s=%g: predicted %.4g ms (95%% prediction interval %.4g..%.4g)", fr->what,
			       fr->param, o->predict.value, pred, lo, hi);
	else if (!isnan(pred))
		report_finding(rep, SEV_INFO, "scaling", "prediction", fr->label, file, 0, NULL,
			       "%s at %s=%g: predicted %.4g ms (no interval from %zu points)", fr->what,
			       fr->param, o->predict.value, pred, f->n);
}

static struct rtable *scaling_table(struct report *rep, struct rtable **t)
{
	if (!*t)
		*t = an_table(rep, AT_SCALING, NULL);
	return *t;
}

/* Scaling records "N=100: 2.31 ms", grouped by parameter name. */
int an_sweep_group(const struct an_run *run, size_t first_key)
{
	return (run->index + 1) * 65536 + (int)(first_key % 65535) + 1;
}

int an_gpm_group(const struct an_run *run)
{
	return (run->index + 1) * 65536;
}

/* Sums of one parameter's points (x, slot), in log space or as they are. */
struct psums {
	double n, sx, sy, sxx, sxy, syy;
};

static void param_sums(const struct an_run *run, size_t from, const char *key, size_t plen, int slot, int logs,
		       struct psums *p)
{
	memset(p, 0, sizeof(*p));
	for (size_t j = from; j < run->scaling.n; j++) {
		const char *k2 = tp_map_key(&run->scaling, j);
		if (strncmp(k2, key, plen) || k2[plen] != '\x1f')
			continue;
		const struct an_nums *x = tp_map_at(&run->scaling, j);
		double xv = x->num[S_SC_VALUE], yv = x->num[slot];
		if (!tp_has_slot(x->has, slot) || xv <= 0 || yv <= 0)
			continue;
		if (logs)
			xv = log(xv), yv = log(yv);
		p->n++, p->sx += xv, p->sy += yv, p->sxx += xv * xv, p->sxy += xv * yv, p->syy += yv * yv;
	}
}

/*
 * Layers add the same work each: time = fixed + per_layer x L is the model
 * to read (the log-log exponent of a line with an intercept is below 1).
 */
static void layer_cost(const struct an_run *run, const struct psums *p, const char *param, struct report *rep)
{
	struct fit f;
	if (!fit_sums(p->n, p->sx, p->sy, p->sxx, p->sxy, p->syy, &f) || !(f.b > 0))
		return;
	struct rtable *t = report_table(rep, "scaling", "layer-cost", "Layer scaling: time = fixed + per_layer x layers",
					"run,param,points,per_layer:ms,fixed:ms,r2");
	rt_text(t, run->label);
	rt_text(t, param);
	rt_num(t, (double)f.n, 0);
	rt_num(t, f.b, 3);
	rt_num(t, f.a, 3);
	rt_num(t, f.r2, 4);
	report_finding(rep, SEV_INFO, "scaling", "layer-cost", run->label, run->file, 0, NULL,
		       "%s: each layer adds %.3g ms, the fixed part is %.3g ms (R^2 %.3f)", param, f.b, f.a, f.r2);
}

/* Scaling records "N=100: 2.31 ms", grouped by parameter name: runtime, and peak memory when printed. */
static void scaling_records(const struct an_run *run, const struct an_opts *o, struct report *rep,
			    struct rtable **t, struct rtable **lines)
{
	for (size_t i = 0; i < run->scaling.n; i++) {
		const char *key = tp_map_key(&run->scaling, i);
		const char *sep = strchr(key, '\x1f');
		size_t plen = sep ? (size_t)(sep - key) : strlen(key);
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++) {
			const char *k2 = tp_map_key(&run->scaling, j);
			seen = !strncmp(k2, key, plen) && k2[plen] == '\x1f';
		}
		if (seen)
			continue;
		char param[64];
		snprintf(param, sizeof(param), "%.*s", (int)(plen < 63 ? plen : 63), key);
		static const struct {
			int slot;
			const char *what;
			int kind;
		} series[] = { { S_SC_MEAN_MS, "runtime", AK_RUNTIME }, { S_SC_PEAK_MB, "peak memory", AK_NONE } };
		double xlo = INFINITY, xhi = 0;
		for (size_t j = i; j < run->scaling.n; j++) {
			const char *k2 = tp_map_key(&run->scaling, j);
			const struct an_nums *x = tp_map_at(&run->scaling, j);
			if (!strncmp(k2, key, plen) && k2[plen] == '\x1f' && x->num[S_SC_VALUE] > 0)
				xlo = fmin(xlo, x->num[S_SC_VALUE]), xhi = fmax(xhi, x->num[S_SC_VALUE]);
		}
		for (size_t k = 0; k < ARRAY_SIZE(series); k++) {
			struct psums p;
			struct fit f;
			param_sums(run, i, key, plen, series[k].slot, 1, &p);
			if (!fit_sums(p.n, p.sx, p.sy, p.sxx, p.sxy, p.syy, &f))
				continue;
			/* the runtime fit is the one scaling-points charts (its group) */
			struct fit_row fr = { run->label, series[k].what, param,
					      an_key(series[k].kind, NULL, run->index,
						     series[k].kind == AK_RUNTIME ? an_sweep_group(run, i) : 0),
					      xlo, xhi };
			scaling_row(rep, scaling_table(rep, t), lines, o, &fr, &f, run->file);
		}
		if (!strcasecmp(param, "L") || strcasestr(param, "layer")) {
			struct psums p;
			param_sums(run, i, key, plen, S_SC_MEAN_MS, 0, &p);
			layer_cost(run, &p, param, rep);
		}
	}
}

size_t an_run_param_points(const struct an_model *m, const struct an_opts *o, double *x, double *y,
			   const char **what)
{
	size_t n = 0;
	int gpm = 1;
	*what = NULL;
	if (o->nrun_params < 2 || !o->run_params)
		return 0;
	for (size_t r = 0; r < m->nruns && r < o->nrun_params; r++)
		gpm &= m->runs[r]->gpm_pattern_ms.n > 0;
	*what = gpm ? "GPM pattern gen mean" : "batch time mean";
	for (size_t r = 0; r < m->nruns && r < o->nrun_params; r++) {
		const struct an_run *run = m->runs[r];
		double yv = NAN;
		if (gpm)
			yv = run->gpm_pattern_ms.mean;
		else if (run->ranks.n)
			yv = 1000 * ((const struct an_batches *)tp_map_at(&run->ranks, 0))->seconds.mean;
		double xv = o->run_params[r].value;
		if (!o->run_params[r].set || !(xv > 0) || !(yv > 0))
			continue;
		x[n] = xv, y[n++] = yv;
	}
	return n;
}

void an_scaling(const struct an_model *m, const struct an_opts *o, struct report *rep)
{
	struct rtable *t = NULL, *lines = NULL;
	an_section(rep, AS_SCALING);
	for (size_t r = 0; r < m->nruns; r++) {
		const struct an_run *run = m->runs[r];
		scaling_records(run, o, rep, &t, &lines);
		/* GPM windows: pattern generation against each window's own mean graph
		 * size (recovered from the cumulative averages the tower prints) */
		const struct tp_series *wn = &run->gpm_window_nodes;
		struct fit f;
		if (run->gl_n >= 3 && wn->n && wn->max > 1.2 * wn->min &&
		    fit_sums(run->gl_n, run->gl_x, run->gl_y, run->gl_xx, run->gl_xy, run->gl_yy, &f)) {
			struct fit_row fr = { run->label, "GPM pattern gen per window", "window_nodes",
					      an_key(AK_GPM_PATTERN, NULL, run->index, an_gpm_group(run)), wn->min, wn->max };
			scaling_row(rep, scaling_table(rep, &t), &lines, o, &fr, &f, run->file);
			if (run->gpm_pooled || run->gpm_blk_windows)
				report_finding(rep, SEV_INFO, "scaling", "gpm-windows", run->label, run->file, 0, NULL,
					       "GPM scaling fit: %.0f points from %llu windows; %llu windows pooled, %llu "
					       "at the end left out: a window's own mean size, recovered from two "
					       "cumulative averages printed to 0.1, is known to 10%% only over enough "
					       "graphs",
					       run->gl_n, (unsigned long long)run->gpm_avg_nodes.n,
					       (unsigned long long)run->gpm_pooled, (unsigned long long)run->gpm_blk_windows);
		}
	}
	/* several runs tagged with --param NAME=VALUE */
	double *xs = xcalloc(m->nruns + 1, sizeof(*xs)), *ys = xcalloc(m->nruns + 1, sizeof(*ys));
	const char *what;
	size_t k = an_run_param_points(m, o, xs, ys, &what);
	double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
	for (size_t i = 0; i < k; i++) {
		double x = log(xs[i]), y = log(ys[i]);
		n++, sx += x, sy += y, sxx += x * x, sxy += x * y, syy += y * y;
	}
	struct fit f;
	double xlo = INFINITY, xhi = 0;
	for (size_t i = 0; i < k; i++)
		xlo = xs[i] < xlo ? xs[i] : xlo, xhi = xs[i] > xhi ? xs[i] : xhi;
	if (k && fit_sums(n, sx, sy, sxx, sxy, syy, &f)) {
		struct fit_row fr = { "all runs", what, o->run_params[0].name,
				      an_key(AK_NONE, NULL, -1, AN_GROUP_ALL_RUNS), xlo, xhi };
		scaling_row(rep, scaling_table(rep, &t), &lines, o, &fr, &f, NULL);
	}
	free(xs);
	free(ys);
}

/* ---- run comparison ---- */

struct item {
	char name[192];
	const char *unit;
	double value;                 /* seconds / ms summary, or a rate */
	const struct tp_series *s;    /* samples, or NULL */
	struct rkey key;
	int higher_better;            /* a rate: a lower value is the slower run */
};

#define MAX_ITEMS 2048

/*
 * The rank of a series as a comparison sees it: a run with at most one
 * launcher rank is a single process, whose "[rank0]:" series is the same
 * as a run's without a prefix; NULL then.
 */
static const char *cmp_rank(const struct an_run *run, const char *rk)
{
	size_t numbered = 0;
	for (size_t i = 0; i < run->ranks.n; i++)
		numbered += strcmp(tp_map_key(&run->ranks, i), "-") != 0;
	return numbered <= 1 || !strcmp(rk, "-") ? NULL : rk;
}

static size_t run_items(const struct an_run *run, struct item *v, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < run->stages.n && n < max; i++) {
		const struct an_stage *s = tp_map_at(&run->stages, i);
		snprintf(v[n].name, sizeof(v[n].name), "stage %s", tp_map_key(&run->stages, i));
		v[n].unit = "s", v[n].value = s->seconds, v[n].s = NULL;
		v[n].key = an_key(AK_STAGE, NULL, run->index, 0);
		n++;
	}
	if (!run->stages.n)
		for (size_t i = 0; i < run->tables.n; i++) {
			const struct an_table *t = tp_map_at(&run->tables, i);
			for (size_t k = 0; k < t->rows.n && n < max; k++) {
				const struct an_row *row = tp_map_at(&t->rows, k);
				if (!an_row_has(row, AN_ROW_SECONDS))
					continue;
				snprintf(v[n].name, sizeof(v[n].name), "%s: %s", tp_map_key(&run->tables, i),
					 tp_map_key(&t->rows, k));
				v[n].unit = "s", v[n].value = row->seconds, v[n].s = NULL;
				v[n].key = an_key(AK_STAGE, NULL, run->index, 0);
				n++;
			}
		}
	for (size_t i = 0; i < run->ranks.n && n < max; i++) {
		const struct an_batches *b = tp_map_at(&run->ranks, i);
		if (!b->seconds.n)
			continue;
		const char *rk = cmp_rank(run, tp_map_key(&run->ranks, i));
		if (rk)
			snprintf(v[n].name, sizeof(v[n].name), "batch time [rank %s]", rk);
		else
			snprintf(v[n].name, sizeof(v[n].name), "batch time");
		v[n].unit = "s", v[n].value = tp_series_quantile(&b->seconds, 0.5), v[n].s = &b->seconds;
		v[n].key = an_key(AK_BATCH_TIME, rk, run->index, 0);
		n++;
	}
	for (size_t i = 0; i < run->ranks.n && n < max; i++) {
		const struct an_batches *b = tp_map_at(&run->ranks, i);
		const char *rk = cmp_rank(run, tp_map_key(&run->ranks, i));
		if (!b->epochs.n)
			continue;
		if (rk)
			snprintf(v[n].name, sizeof(v[n].name), "epoch time [rank %s]", rk);
		else
			snprintf(v[n].name, sizeof(v[n].name), "epoch time");
		v[n].unit = "s", v[n].value = tp_series_quantile(&b->epochs, 0.5), v[n].s = &b->epochs;
		v[n].key = an_key(AK_EPOCH_TIME, rk, run->index, 0);
		n++;
	}
	if (run->gpm_total_ms.n && n + 1 < max) {
		snprintf(v[n].name, sizeof(v[n].name), "GPM window total");
		v[n].unit = "ms", v[n].value = tp_series_quantile(&run->gpm_total_ms, 0.5), v[n].s = &run->gpm_total_ms;
		v[n].key = an_key(AK_GPM_TOTAL, NULL, run->index, 0);
		n++;
		snprintf(v[n].name, sizeof(v[n].name), "GPM window pattern gen");
		v[n].unit = "ms", v[n].value = tp_series_quantile(&run->gpm_pattern_ms, 0.5), v[n].s = &run->gpm_pattern_ms;
		v[n].key = an_key(AK_GPM_PATTERN, NULL, run->index, 0);
		n++;
	}
	for (size_t i = 0; i < run->metrics.n && n < max; i++) {
		const struct an_named_series *s = tp_map_at(&run->metrics, i);
		if (!s->s.n)
			continue;
		snprintf(v[n].name, sizeof(v[n].name), "metric %s per interval", tp_map_key(&run->metrics, i));
		v[n].unit = "s", v[n].value = tp_series_quantile(&s->s, 0.5), v[n].s = &s->s;
		v[n].key = an_key(AK_METRIC, NULL, run->index, 0);
		n++;
	}
	for (size_t i = 0; i < run->perfs.n && n < max; i++) {
		const struct an_named_series *s = tp_map_at(&run->perfs, i);
		snprintf(v[n].name, sizeof(v[n].name), "operation %s", tp_map_key(&run->perfs, i));
		v[n].unit = "s", v[n].value = tp_series_quantile(&s->s, 0.5), v[n].s = &s->s;
		v[n].key = an_key(AK_OPERATION, NULL, run->index, 0);
		n++;
	}
	for (size_t i = 0; i < run->runtimes.n && n < max; i++) {
		const struct an_nums *x = tp_map_at(&run->runtimes, i);
		if (!tp_has_slot(x->has, S_RT_MEAN_MS))
			continue;
		snprintf(v[n].name, sizeof(v[n].name), "runtime %s", tp_map_key(&run->runtimes, i));
		v[n].unit = "ms", v[n].value = x->num[S_RT_MEAN_MS], v[n].s = NULL;
		v[n].key = an_key(AK_RUNTIME, NULL, run->index, 0);
		n++;
	}
	/* printed rates (key "name unit"): a run is slower when its rate is lower */
	for (size_t i = 0; i < run->rates.n && n < max; i++) {
		const struct an_named_series *r = tp_map_at(&run->rates, i);
		const char *key = tp_map_key(&run->rates, i), *sp = strrchr(key, ' ');
		if (!r->s.n)
			continue;
		snprintf(v[n].name, sizeof(v[n].name), "rate %.*s", (int)(sp ? sp - key : 160), key);
		v[n].unit = sp ? sp + 1 : "/s", v[n].value = tp_series_quantile(&r->s, 0.5);
		v[n].s = &r->s, v[n].higher_better = 1;
		v[n].key = an_key(AK_RATE, NULL, run->index, 0);
		n++;
	}
	return n;
}

size_t an_run_items(const struct an_run *run, struct an_item *v, size_t max)
{
	struct item *tmp = xcalloc(max ? max : 1, sizeof(*tmp));
	size_t n = run_items(run, tmp, max);
	for (size_t i = 0; i < n; i++) {
		memcpy(v[i].name, tmp[i].name, sizeof(v[i].name));
		v[i].unit = tmp[i].unit, v[i].value = tmp[i].value, v[i].s = tmp[i].s;
		v[i].higher_better = tmp[i].higher_better;
	}
	free(tmp);
	return n;
}

/* The name item b has in the other runs: --match OLD=NEW maps it by hand. */
static const char *matched_name(const struct an_opts *o, const char *name)
{
	for (size_t i = 0; i < o->nmatch; i++)
		if (!strcmp(o->match[i].old_name, name))
			return o->match[i].new_name;
	return name;
}

/* The other run's item for baseline item b: same kind and rank (a single
 * process has none), and the same name where the name is the identity. */
static struct item *find_item(const struct an_opts *o, const struct item *b, struct item *v, size_t n)
{
	const char *want = matched_name(o, b->name);
	for (size_t k = 0; k < n; k++)
		if (!strcmp(v[k].name, want))
			return &v[k];
	return NULL;
}

static void item_row(struct rtable *t, const struct item *b, const struct item *x, const char *base_label,
		     const struct an_run *run, int base_index, int group)
{
	const struct item *it = b ? b : x;
	rt_key(t, (struct rkey){ it->key.series, it->key.rank, run->index, group, base_index });
	rt_text(t, it->name);
	rt_text(t, it->unit);
	rt_text(t, base_label);
	rt_num(t, b ? b->value : NAN, 4);
	rt_text(t, run->label);
	rt_num(t, x ? x->value : NAN, 4);
}

struct cmp_state {
	struct rtable *t;
	size_t group; /* item counter: the row key group of the chart */
	int gate;
	struct strbuf regressions;
};

static double robust_sd(const struct tp_series *s)
{
	return (tp_series_quantile(s, 0.75) - tp_series_quantile(s, 0.25)) / 1.349;
}

/* One matched item: ratio, rank test, verdict; adds to the geometric mean when it has a test. */
static void compare_item(struct report *rep, const struct an_opts *o, struct cmp_state *st,
			 const struct an_run *r0, const struct an_run *run, const struct item *b,
			 const struct item *x, double *logsum, size_t *nlog)
{
	double ratio = b->value > 0 ? x->value / b->value : NAN;
	double change = 100 * (ratio - 1);
	/* the slowdown: the ratio of times; for a rate, the inverse ratio */
	double slow = !b->higher_better ? ratio : x->value > 0 ? b->value / x->value : NAN;
	double slow_pct = 100 * (slow - 1);
	double p = NAN;
	const char *verdict;
	if (b->s && x->s && b->s->n >= 2 && x->s->n >= 2) {
		double eff;
		p = tp_mann_whitney(&b->s->sketch, &x->s->sketch, &eff);
		if (isnan(p))
			verdict = "cannot tell";
		else if (p < o->alpha)
			verdict = slow > 1 ? "slower (significant)" : "faster (significant)";
		else
			verdict = "no significant change";
	} else {
		verdict = "no samples: cannot tell";
	}
	/* the overall verdict speaks only of series that have samples and a
	 * test; a rate's slowdown counts, not its raw ratio */
	if (!isnan(p) && !isnan(slow) && slow > 0) {
		*logsum += log(slow);
		(*nlog)++;
	}
	item_row(st->t, b, x, r0->label, run, r0->index, (int)++st->group);
	rt_num(st->t, ratio, 3);
	rt_num(st->t, change, 1);
	rt_num(st->t, p, -1);
	rt_text(st->t, verdict);
	/* 95 % interval of the ratio of medians: each median's standard error
	 * 1.2533 sd / sqrt(n) with the robust sd IQR / 1.349 (outliers do not
	 * widen it), combined on the log scale */
	double lo = NAN, hi = NAN;
	if (!isnan(p) && b->value > 0 && x->value > 0) {
		double ea = 1.2533 * robust_sd(b->s) / sqrt((double)b->s->n) / b->value;
		double eb = 1.2533 * robust_sd(x->s) / sqrt((double)x->s->n) / x->value;
		double half = 1.96 * sqrt(ea * ea + eb * eb);
		lo = ratio * exp(-half), hi = ratio * exp(half);
	}
	rt_num(st->t, lo, 3);
	rt_num(st->t, hi, 3);
	if (!isnan(o->fail_regression_pct) && !isnan(p) && p < o->alpha && slow_pct > o->fail_regression_pct) {
		st->gate = 1;
		report_finding(rep, SEV_CRITICAL, "compare", "regression", run->label, run->file, 0, NULL,
			       "REGRESSION: %s is %.1f%% slower in %s than in %s (p = %.2g, Mann-Whitney U)",
			       b->name, slow_pct, run->label, r0->label, p);
		strbuf_addf(&st->regressions, "%s%s (+%.1f%%)", st->regressions.len ? ", " : "", b->name, slow_pct);
		if (x->s && !b->higher_better) /* a time at stake is in seconds: not a rate's */
			report_stake(rep, (x->value - b->value) * (double)x->s->n * (strcmp(b->unit, "ms") ? 1 : 0.001));
	} else if (!isnan(p) && p < o->alpha && fabs(slow_pct) >= 1) {
		report_finding(rep, slow > 1 ? SEV_WARNING : SEV_INFO, "compare", slow > 1 ? "slower" : "faster",
			       run->label, run->file, 0, NULL, "%s: %s is %.1f%% %s than %s (p = %.2g, Mann-Whitney U)",
			       b->name, run->label, fabs(slow_pct), slow > 1 ? "slower" : "faster", r0->label, p);
		if (slow > 1 && x->s && !b->higher_better)
			report_stake(rep, (x->value - b->value) * (double)x->s->n * (strcmp(b->unit, "ms") ? 1 : 0.001));
	}
}

/* An item of one run only: listed, never dropped. */
static void lone_item(struct cmp_state *st, const struct an_run *r0, const struct an_run *run,
		      const struct item *b, const struct item *x)
{
	char verdict[160];
	snprintf(verdict, sizeof(verdict), "only in %s", b ? r0->label : run->label);
	item_row(st->t, b, x, r0->label, run, r0->index, (int)++st->group);
	rt_empty(st->t);
	rt_empty(st->t);
	rt_empty(st->t);
	rt_text(st->t, verdict);
	rt_empty(st->t);
	rt_empty(st->t);
}

/* Emits one row of the comparison table (created on first use) and its finding; 1 if the gate tripped.
 * (The run history's comparison, from stored summaries: no interval, no row keys.) */
int an_compare_row(struct report *rep, struct rtable **t, const struct an_opts *o, const struct an_cmp_row *c)
{
	if (!*t)
		*t = an_table(rep, AT_COMPARE, NULL);
	double ratio = c->base > 0 ? c->value / c->base : NAN;
	double change = 100 * (ratio - 1), p = c->p;
	/* the slowdown: the ratio of times; for a rate, the inverse ratio */
	double slow = !c->higher_better ? ratio : c->value > 0 ? c->base / c->value : NAN;
	double slow_pct = 100 * (slow - 1);
	const char *verdict;
	if (!c->samples)
		verdict = "no samples: cannot tell";
	else if (isnan(p))
		verdict = "cannot tell";
	else if (p < o->alpha)
		verdict = slow > 1 ? "slower (significant)" : "faster (significant)";
	else
		verdict = "no significant change";
	rt_text(*t, c->name);
	rt_text(*t, c->unit);
	rt_text(*t, c->base_label);
	rt_num(*t, c->base, 4);
	rt_text(*t, c->label);
	rt_num(*t, c->value, 4);
	rt_num(*t, ratio, 3);
	rt_num(*t, change, 1);
	rt_num(*t, p, -1);
	rt_text(*t, verdict);
	rt_empty(*t);
	rt_empty(*t);
	if (!c->samples || isnan(p) || p >= o->alpha)
		return 0;
	if (!isnan(o->fail_regression_pct) && slow_pct > o->fail_regression_pct) {
		report_finding(rep, SEV_CRITICAL, "compare", "regression", c->label, c->file, 0, NULL,
			       "REGRESSION: %s is %.1f%% slower in %s than in %s (p = %.2g, %s)", c->name, slow_pct,
			       c->label, c->base_label, p, c->test);
		return 1;
	}
	if (fabs(slow_pct) >= 1)
		report_finding(rep, slow > 1 ? SEV_WARNING : SEV_INFO, "compare", slow > 1 ? "slower" : "faster",
			       c->label, c->file, 0, NULL, "%s: %s is %.1f%% %s than %s (p = %.2g, %s)", c->name,
			       c->label, fabs(slow_pct), slow > 1 ? "slower" : "faster", c->base_label, p, c->test);
	return 0;
}

/* The closing row: geometric mean of the ratios of one run against the first. */
void an_compare_geomean(struct rtable *t, const char *base_label, const char *label, double logsum, size_t nlog)
{
	if (!t || !nlog)
		return;
	double g = exp(logsum / (double)nlog);
	rt_text(t, "(geometric mean of ratios)");
	rt_text(t, "");
	rt_text(t, base_label);
	rt_empty(t);
	rt_text(t, label);
	rt_empty(t);
	rt_num(t, g, 3);
	rt_num(t, 100 * (g - 1), 1);
	rt_empty(t);
	rt_text(t, g > 1 ? "slower overall" : g < 1 ? "faster overall" : "unchanged");
	rt_empty(t);
	rt_empty(t);
}

/* Returns AN_GATE_* bits. */

int an_compare(const struct an_model *m, const struct an_opts *o, struct report *rep)
{
	if (m->nruns < 2)
		return 0;
	an_section(rep, AS_COMPARE);
	struct item *base = xcalloc(MAX_ITEMS, sizeof(*base)), *other = xcalloc(MAX_ITEMS, sizeof(*other));
	char *used = xcalloc(MAX_ITEMS, 1);
	const struct an_run *r0 = m->runs[0];
	size_t nb = run_items(r0, base, MAX_ITEMS);
	struct cmp_state st = { an_table(rep, AT_COMPARE, NULL), 0, 0, STRBUF_INIT };
	int empty = 0;
	for (size_t r = 1; r < m->nruns; r++) {
		const struct an_run *run = m->runs[r];
		size_t no = run_items(run, other, MAX_ITEMS), matched = 0, lone = 0;
		double logsum = 0;
		size_t nlog = 0;
		memset(used, 0, MAX_ITEMS);
		for (size_t i = 0; i < nb; i++) {
			struct item *x = find_item(o, &base[i], other, no);
			if (x) {
				used[x - other] = 1;
				matched++;
				compare_item(rep, o, &st, r0, run, &base[i], x, &logsum, &nlog);
			} else {
				lone++;
				lone_item(&st, r0, run, &base[i], NULL);
			}
		}
		for (size_t k = 0; k < no; k++)
			if (!used[k]) {
				lone++;
				lone_item(&st, r0, run, NULL, &other[k]);
			}
		if (lone)
			report_finding(rep, matched ? SEV_NOTICE : SEV_WARNING, "compare", "unmatched", run->label,
				       run->file, 0,
				       "name the same series in both runs with --match OLD=NEW (e.g. after a renamed stage)",
				       "%zu series are in only one of %s and %s (listed as 'only in'); %zu matched",
				       lone, r0->label, run->label, matched);
		if (!matched) {
			empty = 1;
			report_finding(rep, SEV_WARNING, "compare", "nothing-to-compare", run->label, run->file, 0,
				       "compare runs of the same program, or map names with --match OLD=NEW",
				       "%s and %s share no series: nothing to compare", r0->label, run->label);
		}
		rt_key(st.t, (struct rkey){ AK_OVERALL, -1, run->index, 0, r0->index });
		rt_text(st.t, "(geometric mean of ratios)");
		rt_text(st.t, "");
		rt_text(st.t, r0->label);
		rt_empty(st.t);
		rt_text(st.t, run->label);
		rt_empty(st.t);
		double g = nlog ? exp(logsum / (double)nlog) : NAN;
		rt_num(st.t, g, 3);
		rt_num(st.t, 100 * (g - 1), 1);
		rt_empty(st.t);
		rt_text(st.t, !nlog ? "no series with samples to test" : g > 1 ? "slower overall" : g < 1 ? "faster overall" : "unchanged");
		rt_empty(st.t);
		rt_empty(st.t);
	}
	if (st.regressions.len)
		report_finding(rep, SEV_CRITICAL, "compare", "gate", NULL, NULL, 0, NULL,
			       "--fail-on-regression %.4g%% tripped by: %s", o->fail_regression_pct, st.regressions.buf);
	strbuf_release(&st.regressions);
	free(base);
	free(other);
	free(used);
	return (st.gate ? AN_GATE_REGRESSION : 0) | (empty ? AN_GATE_EMPTY : 0);
}
