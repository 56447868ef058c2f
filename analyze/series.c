/*
 * series.c - questions about series of repeated measurements (batches,
 * epochs, GPM windows, profiling metrics, [Performance] operations):
 * warmup, variance and outliers, drift and memory leaks, ranks and
 * stragglers, convergence, throughput.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyses_int.h"

struct named {
	char name[160];
	const char *unit;
	const struct tp_series *s;
	int is_batch; /* first-batch advice applies */
	int is_memory;
	struct rkey key;
};

#define MAX_SERIES 4096

/* Every timing series of a run, in a stable order. */
static size_t run_series(const struct an_run *run, struct named *v, size_t max, int memory, int step)
{
	size_t n = 0;
	int many_ranks = run->ranks.n > 1;
	for (size_t i = 0; i < run->ranks.n && n < max; i++) {
		const struct an_batches *b = tp_map_at(&run->ranks, i);
		const char *rk = tp_map_key(&run->ranks, i);
		char suffix[32] = "";
		if (many_ranks || strcmp(rk, "-"))
			snprintf(suffix, sizeof(suffix), " [rank %s]", rk);
		if (!memory && b->seconds.n) {
			snprintf(v[n].name, sizeof(v[n].name), "batch time%s", suffix);
			v[n].unit = "s", v[n].s = &b->seconds, v[n].is_batch = 1, v[n].is_memory = 0;
			v[n].key = an_key(AK_BATCH_TIME, rk, run->index, 0);
			n++;
		}
		if (!memory && b->epochs.n && n < max) {
			snprintf(v[n].name, sizeof(v[n].name), "epoch time%s", suffix);
			v[n].unit = "s", v[n].s = &b->epochs, v[n].is_batch = 0, v[n].is_memory = 0;
			v[n].key = an_key(AK_EPOCH_TIME, rk, run->index, 0);
			n++;
		}
		if (memory && b->cpu_mb.n && n < max) {
			snprintf(v[n].name, sizeof(v[n].name), "CPU memory%s", suffix);
			v[n].unit = "MB", v[n].s = &b->cpu_mb, v[n].is_batch = 0, v[n].is_memory = 1;
			v[n].key = an_key(AK_CPU_MEMORY, rk, run->index, 0);
			n++;
		}
		if (memory && b->gpu_mb.n && n < max) {
			snprintf(v[n].name, sizeof(v[n].name), "GPU memory%s", suffix);
			v[n].unit = "MB", v[n].s = &b->gpu_mb, v[n].is_batch = 0, v[n].is_memory = 1;
			v[n].key = an_key(AK_GPU_MEMORY, rk, run->index, 0);
			n++;
		}
	}
	if (memory)
		return n;
	/* the step where a timing prints it and no batch does ("step_time=
	 * 1511.7ms"): its warmup (a compile of 315 s) is the run's as much as
	 * a batch's (its variance is the steps' finding's to tell) */
	const char *what;
	double scale;
	const struct tp_series *st = step ? an_step_series(run, &what, &scale) : NULL;
	const struct an_part *p = st ? an_part_find(run, what) : NULL;
	if (p && &p->s == st && p->role == TP_ROLE_STEP && scale == 1 && n < max) {
		snprintf(v[n].name, sizeof(v[n].name), "%s", what);
		v[n].unit = "s", v[n].s = st, v[n].is_batch = 1, v[n].is_memory = 0;
		v[n].key = an_key(AK_STEP_TIME, NULL, run->index, 0);
		n++;
	}
	if (run->gpm_total_ms.n && n + 1 < max) {
		v[n++] = (struct named){ "GPM window total", "ms", &run->gpm_total_ms, 0, 0,
					 an_key(AK_GPM_TOTAL, NULL, run->index, 0) };
		v[n++] = (struct named){ "GPM window pattern gen", "ms", &run->gpm_pattern_ms, 0, 0,
					 an_key(AK_GPM_PATTERN, NULL, run->index, 0) };
	}
	for (size_t i = 0; i < run->metrics.n && n < max; i++) {
		const struct an_named_series *s = tp_map_at(&run->metrics, i);
		if (!s->s.n)
			continue;
		snprintf(v[n].name, sizeof(v[n].name), "%s per interval", tp_map_key(&run->metrics, i));
		v[n].unit = "s", v[n].s = &s->s, v[n].is_batch = 0, v[n].is_memory = 0;
		v[n].key = an_key(AK_METRIC, NULL, run->index, (int)i + 1);
		n++;
	}
	for (size_t i = 0; i < run->perfs.n && n < max; i++) {
		const struct an_named_series *s = tp_map_at(&run->perfs, i);
		snprintf(v[n].name, sizeof(v[n].name), "%s", tp_map_key(&run->perfs, i));
		v[n].unit = "s", v[n].s = &s->s, v[n].is_batch = 0, v[n].is_memory = 0;
		v[n].key = an_key(AK_OPERATION, NULL, run->index, (int)i + 1);
		n++;
	}
	return n;
}

/* Median of the samples after the first (S1's steady state). */
static double steady_median(const struct tp_series *s)
{
	if (s->n < 2)
		return NAN;
	if (s->n > s->nhead)
		return tp_series_quantile(s, 0.5);
	size_t k = s->n - 1;
	double *v = xmalloc(k * sizeof(*v));
	for (size_t i = 0; i < k; i++)
		v[i] = s->head[i + 1].v;
	double med = tp_median(v, k);
	free(v);
	return med;
}

/* Median and MAD of head[from..to). */
static void head_median_mad(const struct tp_series *s, size_t from, size_t to, double *med, double *mad)
{
	size_t k = to - from;
	double *v = xmalloc((k ? k : 1) * sizeof(*v));
	for (size_t i = 0; i < k; i++)
		v[i] = s->head[from + i].v;
	*mad = tp_mad(v, k, med);
	free(v);
}

uint64_t an_warmup_end(const struct tp_series *s, double *after)
{
	*after = NAN;
	if (s->n < 5)
		return 0;
	uint64_t d = tp_series_warmup_end(s, after);
	size_t end = s->n < s->nhead ? (size_t)s->n : s->nhead;
	/* a cut past a quarter of many steps is a trend over the run (boosted
	 * trees get cheaper round by round: LightGBM's 0.46 s to 0.21 s over
	 * 500 rounds, cut at 173), no warmup: the whole series is its state */
	if (d > 10 && d * 4 > s->n) {
		*after = s->mean;
		return 0;
	}
	if (d >= end)
		return d;
	/* MSER alone cuts into a flat start when a slight trend makes a shorter
	 * tail less variable: the samples before its cut that already lie in the
	 * steady band (3 MADs, at least 5 %) are no warmup */
	double med, mad;
	head_median_mad(s, (size_t)d, end, &med, &mad);
	double tol = fmax(3 * 1.4826 * mad, 0.05 * fabs(med));
	uint64_t d0 = d;
	while (d > 0 && fabs(s->head[d - 1].v - med) <= tol)
		d--;
	if (d != d0) {
		double head_sum = 0;
		for (uint64_t i = 0; i < d; i++)
			head_sum += s->head[i].v;
		*after = (s->sum - head_sum) / (double)(s->n - d);
	}
	return d;
}

/* Seconds the warmup costs: its samples' excess over the steady median. */
static double warmup_cost(const struct tp_series *s, uint64_t d, double med)
{
	double c = 0;
	for (uint64_t i = 0; i < d && i < s->nhead; i++)
		c += s->head[i].v - med;
	return c > 0 ? c : 0;
}

/*
 * The samples after the warmup as a series of their own, so that variance
 * and outliers speak of the steady state: exact while the series fits in
 * its head; beyond, the whole series (the warmup is then a small part of
 * it). *offset is the index of its first sample in s.
 */
static const struct tp_series *post_warmup(const struct tp_series *s, uint64_t d, struct tp_series **tmp,
					   uint64_t *offset)
{
	*tmp = NULL;
	*offset = 0;
	if (d == 0 || s->n > s->nhead || s->n - d < 2)
		return s;
	*tmp = xmalloc(sizeof(**tmp));
	tp_series_init(*tmp);
	for (uint64_t i = d; i < s->n; i++)
		tp_series_add(*tmp, s->head[i].v, s->head[i].line);
	*offset = d;
	return *tmp;
}

static void post_warmup_free(struct tp_series *tmp)
{
	if (tmp) {
		tp_series_free(tmp);
		free(tmp);
	}
}

/*
 * A first step whose excess over the steady median is a tenth of the wall
 * or more (a JAX step 0 of 315 s against 1.5 s, 71 % of a 446 s run: the
 * XLA compilation) is the run's start-up, and said so: 1 if said.
 */
static int first_step_startup(const struct an_run *run, const struct named *v, double med, struct report *rep)
{
	double in, first = v->s->head[0].v, scale = strcmp(v->unit, "ms") ? 1 : 0.001;
	enum an_wall_from from;
	double wall = an_run_wall(run, &in, &from);
	double excess = scale * (first - med);
	if (!(wall > 0) || !(excess >= 0.1 * wall) || from != AW_STAMPS)
		return 0;
	report_finding(rep, SEV_NOTICE, "warmup", "startup", run->label, run->file, v->s->head[0].line,
		       an_advice("first-step"),
		       "start-up: the first step (%s) took %.4g %s, %.0fx the steady median (%.4g %s): %.0f s "
		       "over it, %.0f%% of the wall %.0f s (compilation, initialisation)",
		       v->name, first, v->unit, first / med, med, v->unit, excess, 100 * excess / wall, wall);
	return 1;
}

static void warmup(const struct an_run *run, const struct named *v, size_t n, struct report *rep,
		   struct rtable **tab)
{
	for (size_t i = 0; i < n; i++) {
		const struct tp_series *s = v[i].s;
		if (s->n < 2 || v[i].is_memory)
			continue;
		if (!*tab)
			*tab = an_table(rep, AT_WARMUP, NULL);
		double first = s->head[0].v;
		double steady = (s->sum - first) / (double)(s->n - 1);
		double med = steady_median(s);
		double over = first - steady;
		double pct = steady != 0 ? 100 * over / steady : NAN;
		double after = NAN;
		/* too few samples to tell where a warmup ends */
		uint64_t d = an_warmup_end(s, &after);
		struct rtable *t = *tab;
		rt_key(t, v[i].key);
		rt_text(t, run->label);
		rt_text(t, v[i].name);
		rt_text(t, v[i].unit);
		rt_num(t, (double)s->n, 0);
		rt_num(t, first, 3);
		rt_num(t, steady, 3);
		rt_num(t, med, 3);
		rt_num(t, over, 3);
		rt_num(t, pct, 1);
		rt_num(t, s->n >= 5 ? (double)d : NAN, 0);
		rt_num(t, after, 3);
		double scale = strcmp(v[i].unit, "ms") ? 1 : 0.001;
		if (v[i].is_batch && !isnan(med) && med > 0 && first > 2 * med && first_step_startup(run, &v[i], med, rep)) {
			report_stake(rep, scale * (first - med));
			report_fkey(rep, v[i].key);
		} else if (v[i].is_batch && !isnan(med) && med > 0 && first > 2 * med) {
			/* one finding for the warmup: the first sample and, when MSER sees more, its end */
			char more[96] = "";
			if (d > 1 && s->n >= 10)
				snprintf(more, sizeof(more), "; warmup lasts %llu samples (MSER)", (unsigned long long)d);
			report_finding(rep, SEV_NOTICE, "warmup", "first-batch", run->label, run->file,
				       s->head[0].line, an_advice("first-batch"),
				       "%s: the first sample (%.3f %s) is %.1fx the steady-state median (%.3f %s)%s",
				       v[i].name, first, v[i].unit, first / med, med, v[i].unit, more);
			report_stake(rep, scale * warmup_cost(s, d > 1 ? d : 1, med));
			report_fkey(rep, v[i].key);
		} else if (d > 1 && s->n >= 10) {
			report_finding(rep, SEV_INFO, "warmup", "warmup", run->label, run->file,
				       d < s->nhead ? s->head[d].line : 0, NULL,
				       "%s: warmup lasts %llu samples (MSER); after it the mean is %.4g %s",
				       v[i].name, (unsigned long long)d, after, v[i].unit);
			report_stake(rep, scale * warmup_cost(s, d, med));
			report_fkey(rep, v[i].key);
		}
	}
}

static void printed_warmups(const struct an_run *run, struct report *rep)
{
	if (!run->warmups.n)
		return;
	struct rtable *t = an_table(rep, AT_WARMUP_PRINTED, NULL);
	for (size_t i = 0; i < run->warmups.n; i++) {
		const struct an_nums *x = tp_map_at(&run->warmups, i);
		rt_text(t, run->label);
		rt_text(t, tp_map_key(&run->warmups, i));
		for (int k = 0; k < 4; k++)
			rt_num(t, tp_has_slot(x->has, k) ? x->num[k] : NAN, k == 3 ? 1 : 3);
		rt_num(t, (double)x->line, 0);
	}
}

static void variance_rows(const struct an_run *run, const struct named *v, const struct tp_series *s,
			  uint64_t off, const struct an_opts *o, struct report *rep, struct rtable **tab,
			  struct rtable **out);

static void variance(const struct an_run *run, const struct named *v, size_t n,
		     const struct an_opts *o, struct report *rep, struct rtable **tab, struct rtable **out)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i].s->n < 2 || v[i].is_memory)
			continue;
		double after;
		struct tp_series *tmp;
		uint64_t off;
		const struct tp_series *s = post_warmup(v[i].s, an_warmup_end(v[i].s, &after), &tmp, &off);
		variance_rows(run, &v[i], s, off, o, rep, tab, out);
		post_warmup_free(tmp);
	}
}

/* One series' variance row, outliers and their one finding; s holds its post-warmup samples,
 * the first at index off of the whole series. */
static void variance_rows(const struct an_run *run, const struct named *v, const struct tp_series *s,
			  uint64_t off, const struct an_opts *o, struct report *rep, struct rtable **tab,
			  struct rtable **out)
{
	double scale = strcmp(v->unit, "ms") ? 1 : 0.001;
	if (!*tab)
		*tab = an_table(rep, AT_VARIANCE, NULL);
	struct rtable *t = *tab;
	/* the steady state after warmup (s), as the findings below judge it; the
	 * whole series' max/min last (the figure the seeds print) */
	const struct tp_series *w = v->s;
	double sd = tp_series_std(s);
	rt_key(t, v->key);
	rt_text(t, run->label);
	rt_text(t, v->name);
	rt_text(t, v->unit);
	rt_num(t, (double)s->n, 0);
	rt_num(t, (double)off, 0);
	rt_num(t, s->mean, 4);
	rt_num(t, sd, 4);
	rt_num(t, s->min, 4);
	rt_num(t, s->max, 4);
	rt_num(t, tp_series_quantile(s, 0.5), 4);
	rt_num(t, tp_series_quantile(s, 0.9), 4);
	rt_num(t, tp_series_quantile(s, 0.99), 4);
	rt_num(t, s->min > 0 ? s->max / s->min : NAN, 2);
	rt_num(t, s->mean != 0 ? 100 * sd / s->mean : NAN, 1);
	rt_num(t, w->min > 0 ? w->max / w->min : NAN, 2);
	double med = tp_series_quantile(s, 0.5);
	double ratio = s->min > 0 ? s->max / s->min : NAN;

	struct tp_sample ol[16];
	size_t k = tp_series_outliers(s, o->outlier_z, ol, 16);
	double slow = 0; /* seconds the slow outliers took beyond the median */
	for (size_t j = 0; j < k; j++) {
		ol[j].index += off;
		slow += ol[j].v > med ? ol[j].v - med : 0;
	}
	if (k && !*out)
		*out = an_table(rep, AT_OUTLIERS, NULL);
	for (size_t j = 0; j < k; j++) {
		rt_key(*out, v->key);
		rt_text(*out, run->label);
		rt_text(*out, v->name);
		rt_text(*out, v->unit);
		rt_num(*out, (double)ol[j].index + 1, 0); /* 1-based, as lines are */
		rt_num(*out, ol[j].v, 4);
		rt_num(*out, med, 4);
		rt_num(*out, (double)ol[j].line, 0);
	}
	char outl[200] = "";
	if (k)
		snprintf(outl, sizeof(outl),
			 "%zu%s outlier%s (modified z-score > %.1f), the furthest from the median: sample %llu = %.4g %s",
			 k, k == 16 ? "+" : "", k == 1 ? "" : "s", o->outlier_z, (unsigned long long)ol[0].index + 1,
			 ol[0].v, v->unit);
	/* slow samples at a fixed period are work the loop does every Nth step
	 * (an evaluation: the bottlenecks' finding, which holds their time) */
	struct an_periodic pd;
	double periodic = 0;
	char why[128] = "";
	if (v->is_batch && an_periodic_slow(s, &pd)) {
		periodic = pd.count * (pd.mean - pd.median);
		snprintf(why, sizeof(why), "; every %llu%s sample is slow (%.0f of them): work done at an interval",
			 (unsigned long long)pd.period, an_ordinal(pd.period), pd.count);
	}
	/* one finding per series: the spread and the outliers that cause it are one fact */
	if (!isnan(ratio) && ratio > o->variance_ratio) {
		report_finding(rep, SEV_WARNING, "variance", "high-variance", run->label, run->file, s->max_s.line,
			       an_advice("high-variance"), "%s: high variance after warmup (%.1fx): max %.4g %s, min %.4g %s%s%s%s",
			       v->name, ratio, s->max, v->unit, s->min, v->unit, k ? "; " : "", outl, why);
		double excess = (double)s->n * (s->mean - med);
		excess = (excess > slow ? excess : slow) - periodic;
		report_stake(rep, scale * (excess > 0 ? excess : 0));
		report_fkey(rep, v->key);
	} else if (k) {
		report_finding(rep, SEV_NOTICE, "variance", "outlier", run->label, run->file, ol[0].line, NULL,
			       "%s: %s (median %.4g)%s", v->name, outl, med, why);
		report_stake(rep, scale * (slow > periodic ? slow - periodic : 0));
		report_fkey(rep, v->key);
	}
}

static void drift(const struct an_run *run, const struct named *v, size_t n, const struct an_opts *o,
		  struct report *rep, struct rtable **tab)
{
	for (size_t i = 0; i < n; i++) {
		const struct tp_series *s = v[i].s;
		struct tp_fit f;
		/* a constant series has no drift to show (slope 0, p 1) */
		if (s->n < 10 || tp_series_trend(s, &f) < 0 || f.slope == 0)
			continue;
		if (!*tab)
			*tab = an_table(rep, AT_DRIFT, NULL);
		/* the fitted line's change from the first to the last sample, relative to
		 * its start: a time falls by 100 % at most */
		double start = f.intercept, end = f.intercept + f.slope * (double)(s->n - 1);
		double change = start > 0 ? 100 * ((end > 0 ? end : 0) - start) / start : NAN;
		rt_key(*tab, v[i].key);
		rt_text(*tab, run->label);
		rt_text(*tab, v[i].name);
		rt_text(*tab, v[i].unit);
		rt_num(*tab, (double)s->n, 0);
		rt_num(*tab, f.slope, -1);
		rt_num(*tab, change, 1);
		rt_num(*tab, f.r2, 3);
		rt_num(*tab, f.p, -1);
		int significant = f.p < o->alpha / 10;
		if (v[i].is_memory && significant && f.slope > 0 && change > 1)
			report_finding(rep, SEV_WARNING, "variance", "leak", run->label, run->file,
				       s->max_s.line, NULL,
				       "%s grows %.3g MB per batch (%.1f%% over %llu batches, R^2 %.2f): a leak?",
				       v[i].name, f.slope, change, (unsigned long long)s->n, f.r2);
		else if (!v[i].is_memory && significant && change > 10) {
			report_finding(rep, SEV_WARNING, "variance", "drift", run->label, run->file, s->max_s.line,
				       NULL, "%s slows down over the run: +%.3g %s per step (%.1f%% over %llu samples)",
				       v[i].name, f.slope, v[i].unit, change, (unsigned long long)s->n);
			/* the time the slowdown added: the triangle under the fitted line */
			double added = f.slope * (double)s->n * (double)(s->n - 1) / 2;
			report_stake(rep, (strcmp(v[i].unit, "ms") ? 1 : 0.001) * added);
			report_fkey(rep, v[i].key);
		}
		if (v[i].is_memory && significant && f.slope > 0 && change > 1)
			report_fkey(rep, v[i].key);
	}
}

static void ranks(const struct an_run *run, const struct an_opts *o, struct report *rep)
{
	/* ranks with batch times: a rank known only from its other lines
	 * (a rate, a step logged as a timing) has no row to show */
	size_t nr = 0;
	for (size_t i = 0; i < run->ranks.n; i++)
		nr += strcmp(tp_map_key(&run->ranks, i), "-") != 0 &&
		      ((const struct an_batches *)tp_map_at(&run->ranks, i))->seconds.n > 0;
	if (nr < 2)
		return;
	double *med = xcalloc(run->ranks.n, sizeof(*med));
	double *sorted = xcalloc(run->ranks.n, sizeof(*sorted));
	size_t k = 0;
	for (size_t i = 0; i < run->ranks.n; i++) {
		const struct an_batches *b = tp_map_at(&run->ranks, i);
		med[i] = b->seconds.n ? tp_series_quantile(&b->seconds, 0.5) : NAN;
		if (!isnan(med[i]))
			sorted[k++] = med[i];
	}
	double mm = tp_median(sorted, k);
	struct rtable *t = an_table(rep, AT_RANKS, NULL);
	t->bar_col = 6;
	for (size_t i = 0; i < run->ranks.n; i++) {
		const struct an_batches *b = tp_map_at(&run->ranks, i);
		const char *rk = tp_map_key(&run->ranks, i);
		double rel = mm > 0 ? 100 * (med[i] - mm) / mm : NAN;
		rt_key(t, an_key(AK_BATCH_TIME, rk, run->index, 0));
		rt_text(t, run->label);
		rt_text(t, rk);
		rt_num(t, (double)b->seconds.n, 0);
		rt_num(t, med[i], 4);
		rt_num(t, b->seconds.n ? b->seconds.mean : NAN, 4);
		rt_num(t, b->seconds.n ? tp_series_quantile(&b->seconds, 0.9) : NAN, 4);
		rt_num(t, rel, 1);
		if (!isnan(rel) && rel > o->straggler_pct) {
			report_finding(rep, SEV_WARNING, "ranks", "straggler", run->label, run->file,
				       b->first_line, an_advice("straggler"),
				       "rank %s is a straggler: median batch %.4g s, %.1f%% slower than the median rank (%.4g s)",
				       rk, med[i], rel, mm);
			/* in lockstep training every rank waits for it at each step */
			report_stake(rep, (med[i] - mm) * (double)b->seconds.n);
		}
	}
	free(med);
	free(sorted);
}

static void convergence(const struct an_model *m, const struct an_run *run, struct report *rep,
			struct rtable **tab)
{
	for (size_t i = 0; i < run->ranks.n; i++) {
		const struct an_batches *b = tp_map_at(&run->ranks, i);
		if (!b->loss.n)
			continue;
		if (!*tab) {
			char title[128];
			snprintf(title, sizeof(title), "Convergence: first batch with loss <= %g", m->loss_threshold);
			*tab = an_table(rep, AT_CONVERGENCE, title);
		}
		struct rtable *t = *tab;
		rt_text(t, run->label);
		rt_text(t, tp_map_key(&run->ranks, i));
		rt_text(t, b->converged ? "yes" : "no");
		rt_num(t, b->converged ? (double)b->conv_batch + 1 : NAN, 0);
		rt_num(t, b->converged ? (double)b->conv_epochs + 1 : NAN, 0); /* 1-based epoch it happened in */
		rt_num(t, b->converged ? b->conv_seconds : NAN, 3);
		rt_num(t, b->loss.min, -1);
		rt_num(t, b->converged ? (double)b->conv_line : NAN, 0);
		if (!b->converged) {
			const char *rk = tp_map_key(&run->ranks, i);
			report_finding(rep, SEV_NOTICE, "convergence", "not-converged", run->label, run->file,
				       b->loss.min_s.line, NULL, "%s%s%sthe loss never reached %g (lowest %g)",
				       strcmp(rk, "-") ? "rank " : "", strcmp(rk, "-") ? rk : "",
				       strcmp(rk, "-") ? ": " : "", m->loss_threshold, b->loss.min);
		}
	}
}

static double meta_value(const struct an_run *run, const char *key)
{
	for (size_t i = 0; i < run->meta.n; i++)
		if (!strcasecmp(tp_map_key(&run->meta, i), key)) {
			const struct an_nums *x = tp_map_at(&run->meta, i);
			return tp_has_slot(x->has, S_META_VALUE) ? x->num[S_META_VALUE] : NAN;
		}
	return NAN;
}

/* Rates the log printed (rate records): mean, min and max per name. */
static void rate_rows(const struct an_run *run, struct report *rep, struct rtable **tab)
{
	for (size_t i = 0; i < run->rates.n; i++) {
		const struct an_named_series *s = tp_map_at(&run->rates, i);
		const char *key = tp_map_key(&run->rates, i);
		const char *sp = strrchr(key, ' ');
		if (!s->s.n)
			continue;
		if (!*tab)
			*tab = report_table(rep, "throughput", "throughput", "Throughput",
					    "run,measure,value,unit");
		char what[200];
		snprintf(what, sizeof(what), "%.*s (mean of %llu printed, min %.4g, max %.4g)",
			 (int)(sp ? sp - key : (ptrdiff_t)strlen(key)), key,
			 (unsigned long long)s->s.n, s->s.min, s->s.max);
		rt_text(*tab, run->label);
		rt_text(*tab, what);
		rt_num(*tab, s->s.mean, 2);
		rt_text(*tab, sp ? sp + 1 : "/s");
	}
}

static void throughput(const struct an_run *run, struct report *rep, struct rtable **tab)
{
	double loop = NAN;
	for (size_t i = 0; i < run->stages.n; i++) {
		const char *name = tp_map_key(&run->stages, i);
		if (strcasestr(name, "training loop") || (isnan(loop) && strcasestr(name, "train") &&
							  !strcasestr(name, "init")))
			loop = ((const struct an_stage *)tp_map_at(&run->stages, i))->seconds;
	}
	double examples = meta_value(run, "Num examples"), epochs = meta_value(run, "Num Epochs");
	double steps = meta_value(run, "Total optimization steps");
	struct row {
		const char *what;
		double v;
		const char *unit;
	} rows[8];
	rate_rows(run, rep, tab);
	size_t n = 0;
	if (loop > 0 && !isnan(examples))
		rows[n++] = (struct row){ "samples per second (examples x epochs / training loop)",
					  examples * (isnan(epochs) ? 1 : epochs) / loop, "samples/s" };
	if (loop > 0 && !isnan(steps))
		rows[n++] = (struct row){ "optimization steps per second", steps / loop, "steps/s" };
	for (size_t i = 0; i < run->ranks.n && n < 4; i++) {
		const struct an_batches *b = tp_map_at(&run->ranks, i);
		if (b->elapsed > 0 && run->ranks.n == 1)
			rows[n++] = (struct row){ "batches per second (sum of batch times)",
						  (double)b->seconds.n / b->elapsed, "batches/s" };
	}
	if (run->gpm_total_sum > 0 && run->gpm_graphs > 0) {
		rows[n++] = (struct row){ "GPM graphs per second", run->gpm_graphs / (run->gpm_total_sum / 1000), "graphs/s" };
		if (run->gpm_nodes > 0)
			rows[n++] = (struct row){ "GPM nodes per second", run->gpm_nodes / (run->gpm_total_sum / 1000),
						  "nodes/s" };
	}
	for (size_t i = 0; i < run->metrics.n && n < 8; i++) {
		const struct an_named_series *s = tp_map_at(&run->metrics, i);
		/* the run's count over the run's time: the intervals' means may weigh unequal counts */
		if (strstr(tp_map_key(&run->metrics, i), "step") && s->last_total > 0 && s->last_count > 0) {
			rows[n++] = (struct row){ "steps per second (count / total of the step metric)",
						  s->last_count / s->last_total, "steps/s" };
			break;
		}
	}
	if (!n)
		return;
	if (!*tab)
		*tab = an_table(rep, AT_THROUGHPUT, NULL);
	for (size_t i = 0; i < n; i++) {
		rt_text(*tab, run->label);
		rt_text(*tab, rows[i].what);
		rt_num(*tab, rows[i].v, 2);
		rt_text(*tab, rows[i].unit);
	}
}

void an_series(const struct an_model *m, const struct an_opts *o, struct report *rep)
{
	struct named *v = xcalloc(MAX_SERIES, sizeof(*v));
	struct rtable *wu = NULL, *var = NULL, *out = NULL, *dr = NULL, *conv = NULL, *thr = NULL;
	if (o->which & AN_WARMUP)
		an_section(rep, AS_WARMUP);
	if (o->which & AN_VARIANCE)
		an_section(rep, AS_VARIANCE);
	for (size_t r = 0; r < m->nruns; r++) {
		const struct an_run *run = m->runs[r];
		size_t n = run_series(run, v, MAX_SERIES, 0, 1);
		if (o->which & AN_WARMUP) {
			warmup(run, v, n, rep, &wu);
			printed_warmups(run, rep);
		}
		if (o->which & AN_VARIANCE) {
			n = run_series(run, v, MAX_SERIES, 0, 0);
			variance(run, v, n, o, rep, &var, &out);
			drift(run, v, n, o, rep, &dr);
			size_t nm = run_series(run, v, MAX_SERIES, 1, 0);
			drift(run, v, nm, o, rep, &dr);
		}
		if (o->which & AN_RANKS)
			ranks(run, o, rep);
		if ((o->which & AN_CONVERGENCE) && !isnan(m->loss_threshold))
			convergence(m, run, rep, &conv);
		if (o->which & AN_THROUGHPUT)
			throughput(run, rep, &thr);
	}
	free(v);
}

void an_steady_state(const struct tp_series *s, struct an_steady *st)
{
	double after;
	struct tp_series *tmp;
	uint64_t off;
	memset(st, 0, sizeof(*st));
	st->median = st->spread = st->mean = st->sd = NAN;
	if (!s->n)
		return;
	st->warmup = an_warmup_end(s, &after);
	const struct tp_series *p = post_warmup(s, st->warmup, &tmp, &off);
	st->n = p->n;
	st->median = tp_series_quantile(p, 0.5);
	st->spread = (tp_series_quantile(p, 0.75) - tp_series_quantile(p, 0.25)) / 2;
	st->mean = p->mean;
	st->sd = tp_series_std(p);
	/* the first sample alone counts as warmup when it is more than twice the steady median */
	uint64_t d = st->warmup ? st->warmup : s->head[0].v > 2 * st->median ? 1 : 0;
	st->warmup_cost = warmup_cost(s, d, st->median);
	post_warmup_free(tmp);
}
