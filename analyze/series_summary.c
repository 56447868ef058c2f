/*
 * series_summary.c - the fixed summary of each compared series of a run, and the
 * run comparison rebuilt from such summaries (see series_summary.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "series_summary.h"
#include "analyses_int.h"

double an_series_mad(const struct tp_series *s)
{
	if (!s->n)
		return NAN;
	if (s->n > s->nhead)
		return (tp_series_quantile(s, 0.75) - tp_series_quantile(s, 0.25)) / 2;
	double *d = xcalloc(s->nhead, sizeof(*d));
	for (size_t i = 0; i < s->nhead; i++)
		d[i] = s->head[i].v;
	double mad = tp_mad(d, s->nhead, NULL);
	free(d);
	return mad;
}

static void from_series(struct an_summary *o, const struct tp_series *s)
{
	o->n = s->n;
	o->mean = s->mean;
	o->std = tp_series_std(s);
	o->median = tp_series_quantile(s, 0.5);
	o->mad = an_series_mad(s);
	o->p90 = tp_series_quantile(s, 0.9);
	o->min = s->min;
	o->max = s->max;
}

static void from_value(struct an_summary *o, double v)
{
	o->n = 1;
	o->mean = o->median = o->p90 = o->min = o->max = v;
	o->std = o->mad = 0;
}

size_t an_run_summaries(const struct an_run *run, struct an_summary *out, size_t max)
{
	struct an_item *items = xcalloc(max ? max : 1, sizeof(*items));
	size_t n = an_run_items(run, items, max);
	for (size_t i = 0; i < n; i++) {
		struct an_summary *o = &out[i];
		memset(o, 0, sizeof(*o));
		snprintf(o->name, sizeof(o->name), "%s", items[i].name);
		snprintf(o->unit, sizeof(o->unit), "%s", items[i].unit);
		if (items[i].s && items[i].s->n)
			from_series(o, items[i].s);
		else
			from_value(o, items[i].value);
		o->value = items[i].value;
	}
	free(items);
	return n;
}

/* Welch's t-test from two summaries; NAN when either has fewer than 2 samples or no spread. */
static double welch_p(const struct an_summary *a, const struct an_summary *b)
{
	if (a->n < 2 || b->n < 2)
		return NAN;
	double va = a->std * a->std / (double)a->n, vb = b->std * b->std / (double)b->n;
	if (!(va + vb > 0))
		return a->mean == b->mean ? 1 : 0;
	double t = (b->mean - a->mean) / sqrt(va + vb);
	double df = (va + vb) * (va + vb) /
		    (va * va / ((double)a->n - 1) + vb * vb / ((double)b->n - 1));
	return tp_t_pvalue(t, df);
}

int an_compare_summaries(const struct an_summary_run *runs, size_t n, const struct an_opts *o,
			 struct report *rep)
{
	if (n < 2)
		return 0;
	report_section(rep, "compare", "Run comparison");
	const struct an_summary_run *r0 = &runs[0];
	struct rtable *t = NULL;
	int gate = 0;
	for (size_t r = 1; r < n; r++) {
		double logsum = 0;
		size_t nlog = 0;
		for (size_t i = 0; i < r0->n; i++) {
			const struct an_summary *b = &r0->v[i], *x = NULL;
			for (size_t k = 0; k < runs[r].n && !x; k++)
				if (!strcmp(runs[r].v[k].name, b->name))
					x = &runs[r].v[k];
			if (!x)
				continue;
			struct an_cmp_row c = { b->name, b->unit, r0->label, runs[r].label, runs[r].file, b->value,
						x->value, welch_p(b, x), b->n >= 2 && x->n >= 2, "Welch t-test", 0 };
			gate |= an_compare_row(rep, &t, o, &c);
			if (b->value > 0 && x->value > 0) {
				logsum += log(x->value / b->value);
				nlog++;
			}
		}
		an_compare_geomean(t, r0->label, runs[r].label, logsum, nlog);
	}
	if (!t)
		report_finding(rep, SEV_NOTICE, "compare", "nothing-in-common", NULL, NULL, 0, NULL,
			       "%s and the other runs have no series in common: nothing to compare", r0->label);
	return gate;
}
