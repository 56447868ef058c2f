/*
 * test_stats.c - unit tests of base/stats.c: the quantile sketch
 * (relative error, zeros and negatives, collapse, merge equal to one
 * sketch), the series summary (moments, head, extremes, exact and sketch
 * quantiles, merge equal to the whole), trend, MSER warmup, fences,
 * outliers, OLS with intervals, the t and normal distributions against
 * reference values (scipy 1.10), and Mann-Whitney on sketches against a
 * brute-force U.
 *
 * Pseudo-random data come from a fixed LCG so that every expected value is
 * deterministic.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"

/* ---- helpers ---- */

/* Knuth's MMIX LCG; uniform in [0,1) from the top 53 bits. */
static double lcg(uint64_t *st)
{
	*st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(*st >> 11) * 0x1p-53;
}

static int close_rel(double a, double b, double rel)
{
	if (a == b)
		return 1;
	return fabs(a - b) <= rel * fmax(fabs(a), fabs(b));
}

#define expect_rel(a, b, rel)                                                                 \
	cr_expect(close_rel((a), (b), (rel)), "%s = %.17g, want %.17g (rel %g)", #a, (double)(a), \
		  (double)(b), (double)(rel))
#define expect_abs(a, b, tol)                                                                \
	cr_expect(fabs((a) - (b)) <= (tol), "%s = %.17g, want %.17g (abs %g)", #a, (double)(a), \
		  (double)(b), (double)(tol))

/* The sketch's bound is exactly alpha at a bucket's upper edge: allow rounding. */
#define ALPHA_TOL (TP_SKETCH_ALPHA * (1 + 1e-9))

static struct tp_series *series_new(void)
{
	struct tp_series *s = xmalloc(sizeof(*s));
	tp_series_init(s);
	return s;
}

static void series_delete(struct tp_series *s)
{
	tp_series_free(s);
	free(s);
}

/* A series of v[0..n-1], line numbers 100 + i. */
static struct tp_series *series_of(const double *v, size_t n)
{
	struct tp_series *s = series_new();
	for (size_t i = 0; i < n; i++)
		tp_series_add(s, v[i], 100 + i);
	return s;
}

static double *sorted_copy(const double *v, size_t n)
{
	double *c = xmalloc(n * sizeof(*c));
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), tp_cmp_double);
	return c;
}

static void expect_sketch_equal(const struct tp_sketch *a, const struct tp_sketch *b)
{
	cr_expect_eq(a->n, b->n);
	cr_expect_eq(a->zero_count, b->zero_count);
	cr_expect_eq(a->neg_count, b->neg_count);
	cr_expect_eq(a->collapsed, b->collapsed);
	cr_expect_eq(a->min_key, b->min_key, "min_key %d vs %d", a->min_key, b->min_key);
	cr_assert_eq(a->nbuckets, b->nbuckets, "nbuckets %u vs %u", a->nbuckets, b->nbuckets);
	if (a->nbuckets)
		cr_expect(memcmp(a->counts, b->counts, a->nbuckets * sizeof(*a->counts)) == 0,
			  "bucket counts differ");
}

static void expect_sample_eq(const struct tp_sample *a, const struct tp_sample *b)
{
	cr_expect(a->v == b->v && a->index == b->index && a->line == b->line,
		  "sample (%g, #%llu, line %llu) vs (%g, #%llu, line %llu)", a->v,
		  (unsigned long long)a->index, (unsigned long long)a->line, b->v,
		  (unsigned long long)b->index, (unsigned long long)b->line);
}

/* ================================================================== */
/* Sketch                                                              */
/* ================================================================== */

Test(sketch, empty)
{
	struct tp_sketch s;
	tp_sketch_init(&s);
	cr_expect(isnan(tp_sketch_quantile(&s, 0.5)));
	cr_expect_eq(tp_sketch_rank(&s, 1.0), 0.0);
	tp_sketch_add(&s, NAN);
	tp_sketch_add(&s, INFINITY);
	tp_sketch_add(&s, -INFINITY);
	cr_expect_eq(s.n, 0, "non-finite values are not counted");
	cr_expect(isnan(tp_sketch_quantile(&s, 0.5)));
	tp_sketch_free(&s);
	cr_expect_null(s.counts);
}

/* Every quantile is within alpha of the true sample of rank floor(q (n-1)). */
Test(sketch, relative_error_bound)
{
	enum { N = 5000 };
	double *v = xmalloc(N * sizeof(*v)), *sorted;
	uint64_t st = 1;
	struct tp_sketch s;

	tp_sketch_init(&s);
	for (int i = 0; i < N; i++) {
		v[i] = exp(lcg(&st) * 14 - 4); /* 0.018 .. 22000 */
		tp_sketch_add(&s, v[i]);
	}
	sorted = sorted_copy(v, N);
	for (int i = 0; i <= 1000; i++) {
		double q = i / 1000.0, want = sorted[(size_t)floor(q * (N - 1))];
		double got = tp_sketch_quantile(&s, q);
		cr_expect(fabs(got - want) <= TP_SKETCH_ALPHA * want * (1 + 1e-9),
			  "q=%g: %.17g vs %.17g", q, got, want);
	}
	cr_expect_eq(s.collapsed, 0);
	cr_expect_leq(s.nbuckets, TP_SKETCH_MAX_BUCKETS);
	tp_sketch_free(&s);
	free(v);
	free(sorted);
}

Test(sketch, lower_rank_convention)
{
	struct tp_sketch s;
	tp_sketch_init(&s);
	tp_sketch_add(&s, 1.0);
	tp_sketch_add(&s, 100.0);
	/* floor(0.5 * 1) = 0 and floor(0.99 * 1) = 0: the lower sample */
	expect_rel(tp_sketch_quantile(&s, 0.5), 1.0, ALPHA_TOL);
	expect_rel(tp_sketch_quantile(&s, 0.99), 1.0, ALPHA_TOL);
	expect_rel(tp_sketch_quantile(&s, 1.0), 100.0, ALPHA_TOL);
	/* out-of-range q clamps, NaN q is NaN */
	expect_rel(tp_sketch_quantile(&s, -3), 1.0, ALPHA_TOL);
	expect_rel(tp_sketch_quantile(&s, 7), 100.0, ALPHA_TOL);
	cr_expect(isnan(tp_sketch_quantile(&s, NAN)));
	tp_sketch_free(&s);
}

Test(sketch, zeros_and_negatives)
{
	const double v[] = { 3, -1, 0, 1e-13, 1, 2 };
	struct tp_sketch s;

	tp_sketch_init(&s);
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		tp_sketch_add(&s, v[i]);
	cr_expect_eq(s.n, 6);
	cr_expect_eq(s.zero_count, 3);
	cr_expect_eq(s.neg_count, 1);
	cr_expect_eq(tp_sketch_quantile(&s, 0), 0.0);
	cr_expect_eq(tp_sketch_quantile(&s, 0.4), 0.0); /* rank 2: still a zero */
	expect_rel(tp_sketch_quantile(&s, 0.6), 1.0, ALPHA_TOL); /* rank 3 */
	expect_rel(tp_sketch_quantile(&s, 1), 3.0, ALPHA_TOL);
	cr_expect_eq(tp_sketch_rank(&s, -5), 0.0);
	cr_expect_eq(tp_sketch_rank(&s, 0), 3.0);
	cr_expect_eq(tp_sketch_rank(&s, 0.5), 3.0);
	cr_expect_eq(tp_sketch_rank(&s, 1.0), 4.0);
	cr_expect_eq(tp_sketch_rank(&s, 2.5), 5.0);
	cr_expect_eq(tp_sketch_rank(&s, 1e9), 6.0);
	cr_expect_eq(tp_sketch_rank(&s, INFINITY), 6.0);
	cr_expect(isnan(tp_sketch_rank(&s, NAN)));
	tp_sketch_free(&s);
}

Test(sketch, rank_matches_quantile)
{
	struct tp_sketch s;
	uint64_t st = 7;

	tp_sketch_init(&s);
	for (int i = 0; i < 1000; i++)
		tp_sketch_add(&s, 1 + lcg(&st) * 9);
	for (int i = 0; i <= 100; i++) {
		double q = i / 100.0, x = tp_sketch_quantile(&s, q);
		/* the bucket holding rank floor(q(n-1)) is counted whole */
		cr_expect_geq(tp_sketch_rank(&s, x), floor(q * 999) + 1, "q=%g", q);
	}
	tp_sketch_free(&s);
}

/* Merging parts gives the same sketch, bucket for bucket, as adding everything. */
Test(sketch, merge_equals_single)
{
	enum { N = 4000, PARTS = 5 };
	struct tp_sketch whole, part[PARTS], merged;
	uint64_t st = 42;

	tp_sketch_init(&whole);
	tp_sketch_init(&merged);
	for (int p = 0; p < PARTS; p++)
		tp_sketch_init(&part[p]);
	for (int i = 0; i < N; i++) {
		double x = exp(lcg(&st) * 20 - 10);
		if (i % 97 == 0)
			x = 0;
		if (i % 211 == 0)
			x = -x;
		tp_sketch_add(&whole, x);
		tp_sketch_add(&part[(int)(lcg(&st) * PARTS)], x);
	}
	for (int p = PARTS; p-- > 0;) /* any order */
		tp_sketch_merge(&merged, &part[p]);
	expect_sketch_equal(&merged, &whole);
	for (int i = 0; i <= 20; i++)
		cr_expect_eq(tp_sketch_quantile(&merged, i / 20.0), tp_sketch_quantile(&whole, i / 20.0));
	for (int p = 0; p < PARTS; p++)
		tp_sketch_free(&part[p]);
	tp_sketch_free(&whole);
	tp_sketch_free(&merged);
}

Test(sketch, merge_empty_and_self)
{
	struct tp_sketch a, e;

	tp_sketch_init(&a);
	tp_sketch_init(&e);
	tp_sketch_add(&a, 2.0);
	tp_sketch_add(&a, 5.0);
	tp_sketch_add(&a, 0.0);
	tp_sketch_merge(&a, &e);
	cr_expect_eq(a.n, 3);
	tp_sketch_merge(&e, &a);
	expect_sketch_equal(&e, &a);
	tp_sketch_merge(&a, &a); /* doubles every count */
	cr_expect_eq(a.n, 6);
	cr_expect_eq(a.zero_count, 2);
	cr_expect_eq(tp_sketch_rank(&a, 2.0), 4.0);
	tp_sketch_free(&a);
	tp_sketch_free(&e);
}

/*
 * A range wider than gamma^MAX (e^41) collapses the lowest buckets; the
 * layout still does not depend on order, so reversed input and merged parts
 * give the same sketch, and the upper quantiles keep their accuracy.
 */
Test(sketch, collapse)
{
	enum { N = 20000 };
	double *v = xmalloc(N * sizeof(*v)), *sorted;
	struct tp_sketch fwd, rev, merged, part[3];
	uint64_t st = 3;

	tp_sketch_init(&fwd);
	tp_sketch_init(&rev);
	tp_sketch_init(&merged);
	for (int p = 0; p < 3; p++)
		tp_sketch_init(&part[p]);
	for (int i = 0; i < N; i++)
		v[i] = pow(10, -11 + 21 * lcg(&st)); /* 1e-11 .. 1e10 */
	for (int i = 0; i < N; i++) {
		tp_sketch_add(&fwd, v[i]);
		tp_sketch_add(&rev, v[N - 1 - i]);
		tp_sketch_add(&part[i % 3], v[i]);
	}
	cr_expect_eq(fwd.collapsed, 1);
	cr_expect_eq(fwd.nbuckets, TP_SKETCH_MAX_BUCKETS);
	expect_sketch_equal(&rev, &fwd);
	tp_sketch_merge(&merged, &part[2]);
	tp_sketch_merge(&merged, &part[0]);
	tp_sketch_merge(&merged, &part[1]);
	expect_sketch_equal(&merged, &fwd);
	/* the floor sits near 1.3e-8, below 15% of the samples: q >= 0.2 is exact */
	sorted = sorted_copy(v, N);
	for (int i = 20; i <= 100; i++) {
		double q = i / 100.0, want = sorted[(size_t)floor(q * (N - 1))];
		double got = tp_sketch_quantile(&fwd, q);
		cr_expect(fabs(got - want) <= TP_SKETCH_ALPHA * want * (1 + 1e-9), "q=%g", q);
	}
	/* the collapsed bucket answers for the lowest ranks: a value <= the true one's bucket */
	cr_expect_leq(tp_sketch_quantile(&fwd, 0.0), 2e-8);
	for (int p = 0; p < 3; p++)
		tp_sketch_free(&part[p]);
	tp_sketch_free(&fwd);
	tp_sketch_free(&rev);
	tp_sketch_free(&merged);
	free(v);
	free(sorted);
}

/* ================================================================== */
/* Series                                                              */
/* ================================================================== */

Test(series, empty)
{
	struct tp_series *s = series_new(), *e = series_new();
	struct tp_fit fit;
	struct tp_sample out[4];
	double lo, hi, m = 0;

	cr_expect_eq(s->n, 0);
	cr_expect(isnan(s->min) && isnan(s->max));
	cr_expect_eq(tp_series_std(s), 0.0);
	cr_expect(isnan(tp_series_quantile(s, 0.5)));
	cr_expect_eq(tp_series_trend(s, &fit), -1);
	cr_expect_eq(fit.n, 0);
	cr_expect_eq(tp_series_warmup_end(s, &m), 0);
	cr_expect(isnan(m));
	cr_expect_eq(tp_series_outliers(s, 3.5, out, 4), 0);
	tp_series_fences(s, 1.5, &lo, &hi);
	cr_expect(isnan(lo) && isnan(hi));
	tp_series_merge(s, e);
	cr_expect_eq(s->n, 0);
	series_delete(s);
	series_delete(e);
}

Test(series, one_and_two_samples)
{
	struct tp_series *s = series_new();
	struct tp_fit fit;
	double m;

	tp_series_add(s, 4.5, 9);
	cr_expect_eq(s->mean, 4.5);
	cr_expect_eq(tp_series_std(s), 0.0);
	cr_expect_eq(tp_series_quantile(s, 0.3), 4.5);
	cr_expect_eq(tp_series_warmup_end(s, &m), 0);
	cr_expect_eq(m, 4.5);
	cr_expect_eq(s->min_s.line, 9);
	tp_series_add(s, 6.5, 10);
	cr_expect_eq(s->mean, 5.5);
	expect_rel(tp_series_std(s), sqrt(2.0), 1e-15);
	cr_expect_eq(tp_series_quantile(s, 0.5), 5.5);
	cr_expect_eq(tp_series_quantile(s, 0.25), 5.0);
	cr_expect_eq(tp_series_trend(s, &fit), -1);
	cr_expect_eq(fit.n, 2);
	/* d may reach n/2 = 1: the single sample after it has no spread */
	cr_expect_eq(tp_series_warmup_end(s, &m), 1);
	cr_expect_eq(m, 6.5);
	series_delete(s);
}

/* Welford keeps the variance of values that differ only far below their magnitude. */
Test(series, moments_with_large_offset)
{
	const double v[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };
	struct tp_series *s = series_of(v, 4), *big = series_new();
	double sum = 0, ss = 0, mean;
	uint64_t st = 11;
	enum { N = 200000 };
	double *w = xmalloc(N * sizeof(*w));

	cr_expect_eq(s->mean, 1e9 + 10);
	expect_rel(tp_series_std(s) * tp_series_std(s), 30.0, 1e-9);
	cr_expect_eq(s->sum, 4e9 + 40);
	for (int i = 0; i < N; i++) {
		w[i] = 1e8 + lcg(&st);
		tp_series_add(big, w[i], (uint64_t)i);
		sum += w[i] - 1e8;
	}
	mean = sum / N;
	for (int i = 0; i < N; i++)
		ss += (w[i] - 1e8 - mean) * (w[i] - 1e8 - mean);
	/* Welford's mean drifts by about sqrt(n) ulps of the mean: relative 1e-14 here */
	expect_rel(big->mean, 1e8 + mean, 1e-13);
	expect_rel(big->m2, ss, 1e-6);
	series_delete(s);
	series_delete(big);
	free(w);
}

Test(series, nonfinite_ignored)
{
	const double v[] = { 1, NAN, 2, INFINITY, -INFINITY, 3 };
	struct tp_series *s = series_of(v, ARRAY_SIZE(v));

	cr_expect_eq(s->n, 3);
	cr_expect_eq(s->nonfinite, 3);
	cr_expect_eq(s->mean, 2.0);
	cr_expect_eq(s->sum, 6.0);
	cr_expect_eq(s->sketch.n, 3);
	cr_expect_eq(s->nhead, 3);
	/* indices stay gap-free; lines name the records */
	cr_expect_eq(s->head[1].index, 1);
	cr_expect_eq(s->head[1].line, 102);
	cr_expect_eq(s->head[2].index, 2);
	cr_expect_eq(s->head[2].line, 105);
	cr_expect_eq(s->max_s.line, 105);
	series_delete(s);
}

Test(series, min_max_ties_keep_first)
{
	const double v[] = { 5, 1, 5, 1, 3 };
	struct tp_series *s = series_of(v, ARRAY_SIZE(v));

	cr_expect_eq(s->min, 1.0);
	cr_expect_eq(s->min_s.index, 1);
	cr_expect_eq(s->min_s.line, 101);
	cr_expect_eq(s->max, 5.0);
	cr_expect_eq(s->max_s.index, 0);
	series_delete(s);
}

Test(series, head_is_exact_prefix)
{
	struct tp_series *s = series_new();

	for (int i = 0; i < 1000; i++)
		tp_series_add(s, 0.5 * i + 1, (uint64_t)(7 * i));
	cr_expect_eq(s->nhead, TP_HEAD_MAX);
	for (uint32_t i = 0; i < s->nhead; i++)
		cr_expect(s->head[i].v == 0.5 * i + 1 && s->head[i].index == i &&
				  s->head[i].line == 7 * i,
			  "head[%u]", i);
	cr_expect_eq(s->s_i, 1000.0 * 999 / 2);
	cr_expect_eq(s->s_ii, 999.0 * 1000 * 1999 / 6);
	series_delete(s);
}

/* Brute force: indices ordered by (v desc, index asc) for top, (v asc, index asc) for bottom. */
static const double *g_order_v;
static int g_order_top;
static int cmp_rank(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	if (g_order_v[i] != g_order_v[j])
		return (g_order_top ? g_order_v[i] < g_order_v[j] : g_order_v[i] > g_order_v[j]) ? 1 : -1;
	return (i > j) - (i < j);
}

static void expect_extremes(const struct tp_series *s, const double *v, size_t n)
{
	size_t *idx = xmalloc(n * sizeof(*idx));

	g_order_v = v;
	for (int top = 0; top < 2; top++) {
		const struct tp_sample *e = top ? s->top : s->bottom;
		uint32_t ne = top ? s->ntop : s->nbottom;

		for (size_t i = 0; i < n; i++)
			idx[i] = i;
		g_order_top = top;
		qsort(idx, n, sizeof(*idx), cmp_rank);
		cr_assert_eq(ne, n < TP_EXTREMES ? n : TP_EXTREMES);
		for (uint32_t k = 0; k < ne; k++)
			cr_expect(e[k].index == idx[k] && e[k].v == v[idx[k]],
				  "%s[%u]: #%llu %g, want #%zu %g", top ? "top" : "bottom", k,
				  (unsigned long long)e[k].index, e[k].v, idx[k], v[idx[k]]);
	}
	free(idx);
}

Test(series, extremes_with_ties)
{
	enum { N = 3000 };
	double *v = xmalloc(N * sizeof(*v));
	uint64_t st = 5;
	struct tp_series *s;

	for (int i = 0; i < N; i++)
		v[i] = floor(lcg(&st) * 100); /* 100 levels: many ties at the ends */
	s = series_of(v, N);
	expect_extremes(s, v, N);
	series_delete(s);
	s = series_of(v, 10); /* fewer than TP_EXTREMES */
	expect_extremes(s, v, 10);
	series_delete(s);
	free(v);
}

/* numpy.quantile(..., method="linear") of the seed series. */
Test(series, exact_quantiles)
{
	const double v[] = { 5.2, 3.1, 3.0, 3.1, 3.0, 2.9 };
	const double q[] = { 0, 0.1, 0.25, 0.5, 0.9, 1 };
	const double want[] = { 2.9, 2.95, 3.0, 3.05, 4.15, 5.2 };
	struct tp_series *s = series_of(v, ARRAY_SIZE(v));

	for (size_t i = 0; i < ARRAY_SIZE(q); i++)
		expect_rel(tp_series_quantile(s, q[i]), want[i], 1e-14);
	cr_expect(isnan(tp_series_quantile(s, NAN)));
	cr_expect_eq(tp_series_quantile(s, -1), 2.9);
	series_delete(s);
}

Test(series, sketch_quantiles_beyond_head)
{
	enum { N = 5000 };
	double *v = xmalloc(N * sizeof(*v)), *sorted;
	uint64_t st = 9;
	struct tp_series *s, *c = series_new();

	for (int i = 0; i < N; i++)
		v[i] = 1 + lcg(&st);
	s = series_of(v, N);
	sorted = sorted_copy(v, N);
	for (int i = 0; i <= 100; i++) {
		double q = i / 100.0, want = sorted[(size_t)floor(q * (N - 1))];
		double got = tp_series_quantile(s, q);
		cr_expect(fabs(got - want) <= TP_SKETCH_ALPHA * want * (1 + 1e-9), "q=%g", q);
	}
	/* ranks 0 and n-1 are min and max exactly */
	cr_expect_eq(tp_series_quantile(s, 0), sorted[0]);
	cr_expect_eq(tp_series_quantile(s, 1e-5), sorted[0]);
	cr_expect_eq(tp_series_quantile(s, 1), sorted[N - 1]);
	for (int i = 0; i < 1000; i++)
		tp_series_add(c, 3.0, 0);
	cr_expect_eq(tp_series_quantile(c, 0.5), 3.0, "a constant series is exact");
	series_delete(s);
	series_delete(c);
	free(v);
	free(sorted);
}

/* Drifting noisy data with negative and zero values and a spike or two. */
static double merge_value(uint64_t *st, int i)
{
	double x = 10 + 0.001 * i + lcg(st);
	if (i % 500 == 17)
		x *= 5;
	if (i == 1234)
		x = 0;
	return x;
}

static void expect_series_equal(const struct tp_series *a, const struct tp_series *b)
{
	struct tp_fit fa, fb;
	double ma, mb;

	cr_assert_eq(a->n, b->n);
	cr_expect_eq(a->nonfinite, b->nonfinite);
	expect_rel(a->mean, b->mean, 1e-13);
	expect_rel(a->m2, b->m2, 1e-10);
	expect_rel(a->sum, b->sum, 1e-13);
	cr_expect(a->min == b->min && a->max == b->max);
	expect_sample_eq(&a->min_s, &b->min_s);
	expect_sample_eq(&a->max_s, &b->max_s);
	cr_expect_eq(a->s_i, b->s_i);
	cr_expect_eq(a->s_ii, b->s_ii);
	cr_assert_eq(a->nhead, b->nhead);
	for (uint32_t i = 0; i < a->nhead; i++)
		expect_sample_eq(&a->head[i], &b->head[i]);
	cr_assert_eq(a->ntop, b->ntop);
	cr_assert_eq(a->nbottom, b->nbottom);
	for (uint32_t i = 0; i < a->ntop; i++)
		expect_sample_eq(&a->top[i], &b->top[i]);
	for (uint32_t i = 0; i < a->nbottom; i++)
		expect_sample_eq(&a->bottom[i], &b->bottom[i]);
	expect_sketch_equal(&a->sketch, &b->sketch);
	if (a->n >= 3) {
		cr_assert_eq(tp_series_trend(a, &fa), 0);
		cr_assert_eq(tp_series_trend(b, &fb), 0);
		expect_rel(fa.slope, fb.slope, 1e-8);
		expect_rel(fa.intercept, fb.intercept, 1e-10);
		expect_rel(fa.slope_se, fb.slope_se, 1e-8);
		expect_rel(fa.r2, fb.r2, 1e-8);
	}
	cr_expect_eq(tp_series_warmup_end(a, &ma), tp_series_warmup_end(b, &mb));
	expect_rel(ma, mb, 1e-10);
}

/* Splitting a series anywhere and merging the halves gives the whole. */
Test(series, merge_equals_whole)
{
	enum { N = 2000 };
	const int cuts[] = { 0, 1, 2, 100, 511, 512, 513, 1000, 1999, 2000 };
	double *v = xmalloc(N * sizeof(*v));
	uint64_t st = 77;
	struct tp_series *whole;

	for (int i = 0; i < N; i++)
		v[i] = merge_value(&st, i);
	whole = series_of(v, N);
	for (size_t c = 0; c < ARRAY_SIZE(cuts); c++) {
		struct tp_series *a = series_new(), *b = series_new();
		for (int i = 0; i < N; i++)
			tp_series_add(i < cuts[c] ? a : b, v[i], 100 + (uint64_t)i);
		tp_series_merge(a, b);
		expect_series_equal(a, whole);
		series_delete(a);
		series_delete(b);
	}
	series_delete(whole);
	free(v);
}

Test(series, merge_three_parts_and_nonfinite)
{
	enum { N = 1500 };
	struct tp_series *whole = series_new(), *p[3], *acc = series_new();
	uint64_t st = 8;

	for (int k = 0; k < 3; k++)
		p[k] = series_new();
	for (int i = 0; i < N; i++) {
		double x = i % 300 == 5 ? NAN : merge_value(&st, i);
		tp_series_add(whole, x, 100 + (uint64_t)i);
		tp_series_add(p[i < 400 ? 0 : i < 450 ? 1 : 2], x, 100 + (uint64_t)i);
	}
	/* ((empty + p0) + p1) + p2 */
	for (int k = 0; k < 3; k++)
		tp_series_merge(acc, p[k]);
	cr_expect_eq(acc->nonfinite, 5);
	expect_series_equal(acc, whole);
	for (int k = 0; k < 3; k++)
		series_delete(p[k]);
	series_delete(whole);
	series_delete(acc);
}

Test(series, merge_with_itself)
{
	struct tp_series *s = series_new(), *twice = series_new();
	uint64_t st = 4, st2;

	for (int i = 0; i < 100; i++)
		tp_series_add(s, merge_value(&st, i), (uint64_t)i);
	for (int r = 0; r < 2; r++) {
		st2 = 4;
		for (int i = 0; i < 100; i++)
			tp_series_add(twice, merge_value(&st2, i), (uint64_t)i);
	}
	tp_series_merge(s, s);
	expect_series_equal(s, twice);
	series_delete(s);
	series_delete(twice);
}

/* ================================================================== */
/* Trend                                                               */
/* ================================================================== */

Test(trend, exact_line)
{
	struct tp_series *s = series_new();
	struct tp_fit f;

	for (int i = 0; i < 100; i++)
		tp_series_add(s, 2 + 0.5 * i, 0);
	cr_assert_eq(tp_series_trend(s, &f), 0);
	cr_expect_eq(f.n, 100);
	expect_rel(f.slope, 0.5, 1e-13);
	expect_rel(f.intercept, 2.0, 1e-12);
	expect_rel(f.r2, 1.0, 1e-12);
	cr_expect_lt(f.slope_se, 1e-6);
	cr_expect_lt(f.p, 1e-100);
	series_delete(s);
}

Test(trend, constant_and_short)
{
	struct tp_series *s = series_new();
	struct tp_fit f;

	tp_series_add(s, 3, 0);
	tp_series_add(s, 3, 0);
	cr_expect_eq(tp_series_trend(s, &f), -1);
	cr_expect(isnan(f.slope));
	for (int i = 0; i < 50; i++)
		tp_series_add(s, 3, 0);
	cr_assert_eq(tp_series_trend(s, &f), 0);
	cr_expect_eq(f.slope, 0.0);
	cr_expect_eq(f.slope_se, 0.0);
	cr_expect_eq(f.t, 0.0);
	cr_expect_eq(f.p, 1.0);
	cr_expect_eq(f.r2, 0.0);
	cr_expect_eq(f.intercept, 3.0);
	series_delete(s);
}

/* A tiny drift on a large offset, against a two-pass OLS in the test. */
Test(trend, matches_two_pass_ols)
{
	enum { N = 100000 };
	double *v = xmalloc(N * sizeof(*v));
	double mv = 0, sxy = 0, syy = 0, ibar = (N - 1) / 2.0, sxx = 0, b, a, se, ss;
	uint64_t st = 21;
	struct tp_series *s;
	struct tp_fit f;

	for (int i = 0; i < N; i++) {
		v[i] = 1000 + 1e-7 * i + 0.01 * (lcg(&st) - 0.5);
		if (i == 0)
			v[i] = 1500; /* a wild first sample: the shift must not hurt */
		mv += v[i];
	}
	mv /= N;
	for (int i = 0; i < N; i++) {
		sxx += (i - ibar) * (i - ibar);
		sxy += (i - ibar) * (v[i] - mv);
		syy += (v[i] - mv) * (v[i] - mv);
	}
	b = sxy / sxx;
	a = mv - b * ibar;
	ss = 0;
	for (int i = 0; i < N; i++)
		ss += (v[i] - a - b * i) * (v[i] - a - b * i);
	se = sqrt(ss / (N - 2) / sxx);
	s = series_of(v, N);
	cr_assert_eq(tp_series_trend(s, &f), 0);
	expect_rel(f.slope, b, 1e-7);
	expect_rel(f.intercept, a, 1e-12);
	expect_rel(f.slope_se, se, 1e-7);
	expect_rel(f.r2, 1 - ss / syy, 1e-6);
	expect_rel(f.t, b / se, 1e-6);
	expect_rel(f.p, tp_t_pvalue(b / se, N - 2), 1e-4);
	series_delete(s);
	free(v);
}

Test(trend, noise_is_not_a_trend)
{
	struct tp_series *s = series_new();
	struct tp_fit f;
	uint64_t st = 1234;

	for (int i = 0; i < 1000; i++)
		tp_series_add(s, 5 + lcg(&st), 0);
	cr_assert_eq(tp_series_trend(s, &f), 0);
	cr_expect_gt(f.p, 0.05, "p = %g", f.p);
	cr_expect_lt(f.r2, 0.01);
	series_delete(s);
}

/* ================================================================== */
/* Warmup                                                              */
/* ================================================================== */

Test(warmup, seed_series)
{
	const double v[] = { 5.2, 3.1, 3.0, 3.1, 3.0, 2.9 };
	struct tp_series *s = series_of(v, ARRAY_SIZE(v));
	double m = 0;

	/* MSER(0..3) = 0.473, 0.00112, 0.00125, 0.00222 */
	cr_expect_eq(tp_series_warmup_end(s, &m), 1);
	expect_rel(m, 3.02, 1e-13);
	cr_expect_eq(tp_series_warmup_end(s, NULL), 1);
	series_delete(s);
}

/* nslow samples near 2.0 then fast ones near 1.0, deterministic noise. */
static struct tp_series *slow_then_fast(int nslow, int nfast, double *fast_mean)
{
	struct tp_series *s = series_new();
	uint64_t st = 2024;
	double sum = 0;

	for (int i = 0; i < nslow; i++)
		tp_series_add(s, 2.0 + 0.2 * (lcg(&st) - 0.5), (uint64_t)i);
	for (int i = 0; i < nfast; i++) {
		double x = 1.0 + 0.1 * (lcg(&st) - 0.5); /* 1.0 +- 0.05 */
		sum += x;
		tp_series_add(s, x, (uint64_t)(nslow + i));
	}
	*fast_mean = sum / nfast;
	return s;
}

Test(warmup, slow_start)
{
	double fm, m;
	struct tp_series *s = slow_then_fast(10, 490, &fm);

	/* exactly the slow samples: the first fast one sits near the mean */
	cr_expect_eq(tp_series_warmup_end(s, &m), 10);
	expect_rel(m, fm, 1e-12);
	series_delete(s);
}

/* Beyond the head the suffix moments come from whole-minus-head. */
Test(warmup, slow_start_longer_than_head)
{
	double fm, m, m2;
	struct tp_series *s = slow_then_fast(10, 2000, &fm), *a = series_new(), *b = series_new();
	uint64_t st = 2024;

	cr_expect_eq(tp_series_warmup_end(s, &m), 10);
	expect_rel(m, fm, 1e-11);
	/* the same series in two halves, merged */
	for (int i = 0; i < 2010; i++) {
		double x = i < 10 ? 2.0 + 0.2 * (lcg(&st) - 0.5) : 1.0 + 0.1 * (lcg(&st) - 0.5);
		tp_series_add(i < 700 ? a : b, x, (uint64_t)i);
	}
	tp_series_merge(a, b);
	cr_expect_eq(tp_series_warmup_end(a, &m2), 10);
	expect_rel(m2, m, 1e-12);
	series_delete(s);
	series_delete(a);
	series_delete(b);
}

Test(warmup, none)
{
	struct tp_series *c = series_new(), *noise = series_new();
	uint64_t st = 99;
	double m;
	uint64_t d;

	for (int i = 0; i < 300; i++)
		tp_series_add(c, 3.0, 0);
	cr_expect_eq(tp_series_warmup_end(c, &m), 0, "constant: ties go to d = 0");
	cr_expect_eq(m, 3.0);
	for (int i = 0; i < 2000; i++)
		tp_series_add(noise, 1.0 + 0.1 * (lcg(&st) - 0.5), 0);
	d = tp_series_warmup_end(noise, &m);
	cr_expect_eq(d, 0, "noise: d = %llu", (unsigned long long)d);
	expect_rel(m, noise->mean, 1e-15);
	series_delete(noise);
	/* a warmup (a ramp down) longer than n/2 is cut at n/2 */
	noise = series_new();
	for (int i = 0; i < 700; i++)
		tp_series_add(noise, i < 400 ? 1 + (400 - i) / 200.0 : 1.0, 0);
	cr_expect_eq(tp_series_warmup_end(noise, &m), 350);
	series_delete(noise);
	/* and at nhead - 1: the suffix must start inside the kept head */
	noise = series_new();
	for (int i = 0; i < 3000; i++)
		tp_series_add(noise, i < 1200 ? 1 + (1200 - i) / 600.0 : 1.0, 0);
	cr_expect_eq(tp_series_warmup_end(noise, &m), TP_HEAD_MAX - 1);
	series_delete(c);
	series_delete(noise);
}

/* ================================================================== */
/* Fences and outliers                                                 */
/* ================================================================== */

Test(fences, tukey)
{
	const double v[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct tp_series *s = series_of(v, ARRAY_SIZE(v));
	double lo, hi;

	tp_series_fences(s, 1.5, &lo, &hi); /* Q1 2.75, Q3 6.25 */
	expect_rel(lo, -2.5, 1e-14);
	expect_rel(hi, 11.5, 1e-14);
	tp_series_fences(s, 0, &lo, &hi);
	expect_rel(lo, 2.75, 1e-14);
	expect_rel(hi, 6.25, 1e-14);
	series_delete(s);
}

/* 10 +- 0.1 jitter with spikes at the given indices. */
static struct tp_series *jittered(int n, const int *at, const double *spike, int nspike)
{
	struct tp_series *s = series_new();
	uint64_t st = 6;

	for (int i = 0; i < n; i++) {
		double x = 10 + 0.2 * (lcg(&st) - 0.5);
		for (int k = 0; k < nspike; k++)
			if (at[k] == i)
				x = spike[k];
		tp_series_add(s, x, 1000 + (uint64_t)i);
	}
	return s;
}

Test(outliers, small_series_exact)
{
	const int at[] = { 3, 12, 15 };
	const double spike[] = { 30, 20, 2 };
	struct tp_series *s = jittered(20, at, spike, 3);
	struct tp_sample out[8];
	size_t n = tp_series_outliers(s, 3.5, out, 8);

	cr_assert_eq(n, 3);
	/* largest |x - median| first */
	cr_expect(out[0].index == 3 && out[0].v == 30 && out[0].line == 1003);
	cr_expect(out[1].index == 12 && out[1].v == 20);
	cr_expect(out[2].index == 15 && out[2].v == 2);
	cr_expect_eq(tp_series_outliers(s, 3.5, out, 2), 2, "at most max");
	cr_expect_eq(out[1].index, 12);
	cr_expect_eq(tp_series_outliers(s, 1e6, out, 8), 0);
	cr_expect_eq(tp_series_outliers(s, 3.5, NULL, 0), 0);
	series_delete(s);
}

/* More than half the samples equal: MAD = 0, MeanAD takes over. */
Test(outliers, mad_zero_uses_mean_abs_dev)
{
	double v[20];
	struct tp_series *s;
	struct tp_sample out[4];

	for (int i = 0; i < 20; i++)
		v[i] = 5.0;
	v[2] = 5.1, v[5] = 4.9, v[8] = 5.2, v[11] = 4.8, v[17] = 50;
	s = series_of(v, 20);
	/* MeanAD = 45.6 / 20 = 2.28: M(50) = 45 / (1.253314 * 2.28) = 15.7 */
	cr_assert_eq(tp_series_outliers(s, 3.5, out, 4), 1);
	cr_expect_eq(out[0].index, 17);
	cr_expect_eq(tp_series_outliers(s, 16, out, 4), 0);
	series_delete(s);
}

Test(outliers, constant_has_none)
{
	struct tp_series *s = series_new();
	struct tp_sample out[4];

	for (int i = 0; i < 600; i++)
		tp_series_add(s, 2.5, 0);
	cr_expect_eq(tp_series_outliers(s, 3.5, out, 4), 0);
	series_delete(s);
}

Test(outliers, large_series_from_extremes)
{
	const int at[] = { 100, 2500, 2999, 40 };
	const double spike[] = { 25, 14, 11, 0.5 };
	struct tp_series *s = jittered(3000, at, spike, 4);
	struct tp_sample out[8];
	size_t n = tp_series_outliers(s, 3.5, out, 8);

	/* scale ~ (0.1/2)/0.6745 = 0.074: the jitter tops out near |M| = 1.35 */
	cr_assert_eq(n, 4);
	cr_expect_eq(out[0].index, 100);
	cr_expect_eq(out[0].line, 1100);
	cr_expect_eq(out[1].index, 40);
	cr_expect_eq(out[2].index, 2500);
	cr_expect_eq(out[3].index, 2999);
	series_delete(s);
}

Test(outliers, large_series_mad_zero)
{
	struct tp_series *s = series_new();
	struct tp_sample out[8];

	for (int i = 0; i < 3000; i++)
		tp_series_add(s, i == 10 || i == 2000 ? 10.0 : 3.0, (uint64_t)i);
	cr_assert_eq(tp_series_outliers(s, 3.5, out, 8), 2);
	cr_expect_eq(out[0].index, 10, "ties in |M|: earlier index first");
	cr_expect_eq(out[1].index, 2000);
	series_delete(s);
}

/* ================================================================== */
/* Linear fit                                                          */
/* ================================================================== */

/* Reference: scipy.stats.linregress and t.ppf(0.975, 8). */
Test(linfit, against_scipy)
{
	const double x[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	const double y[] = { 2.1, 3.9, 6.2, 7.8, 10.1, 12.2, 13.8, 16.1, 18.0, 20.2 };
	struct tp_linfit f;

	cr_assert_eq(tp_linfit(x, y, 10, 0.95, &f), 0);
	cr_expect_eq(f.n, 10);
	expect_rel(f.b, 2.0072727272727273, 1e-13);
	expect_abs(f.a, 0.0, 1e-12);
	expect_rel(f.r2, 0.9993396857603887, 1e-12);
	expect_rel(f.se_b, 0.018242323567631905, 1e-10);
	expect_rel(f.b_lo, 1.9652058536931514, 1e-10);
	expect_rel(f.b_hi, 2.0493396008523033, 1e-10);
}

Test(linfit, edge_cases)
{
	const double x[] = { 1, 2, NAN, 4, 5 };
	const double y[] = { 3, 5, 1, INFINITY, 11 };
	const double cx[] = { 2, 2, 2 }, cy[] = { 1, 2, 3 };
	const double lx[] = { 0, 1, 2, 3 }, ly[] = { 1, 3, 5, 7 };
	struct tp_linfit f;

	/* pairs with a non-finite member are skipped: (1,3) (2,5) (5,11) */
	cr_assert_eq(tp_linfit(x, y, 5, 0.9, &f), 0);
	cr_expect_eq(f.n, 3);
	expect_rel(f.b, 2.0, 1e-14);
	expect_rel(f.a, 1.0, 1e-14);
	cr_expect_eq(f.se_b, 0.0);
	cr_expect_eq(f.b_lo, f.b);
	cr_expect_eq(f.r2, 1.0);
	/* two points: exact line, unbounded interval */
	cr_assert_eq(tp_linfit(x, y, 2, 0.95, &f), 0);
	cr_expect_eq(f.n, 2);
	expect_rel(f.b, 2.0, 1e-14);
	cr_expect(isnan(f.se_b));
	cr_expect(isinf(f.b_lo) && f.b_lo < 0 && isinf(f.b_hi) && f.b_hi > 0);
	/* failures */
	cr_expect_eq(tp_linfit(x, y, 1, 0.95, &f), -1);
	cr_expect(isnan(f.b));
	cr_expect_eq(tp_linfit(cx, cy, 3, 0.95, &f), -1, "all x equal");
	cr_expect_eq(tp_linfit(lx, ly, 4, 1.0, &f), -1, "confidence must be < 1");
	cr_expect_eq(tp_linfit(lx, ly, 4, 0.0, &f), -1);
	cr_expect_eq(tp_linfit(lx, ly, 4, NAN, &f), -1);
	/* constant y: slope 0, r2 0 */
	cr_assert_eq(tp_linfit(lx, cx, 3, 0.95, &f), 0);
	cr_expect_eq(f.b, 0.0);
	cr_expect_eq(f.r2, 0.0);
}

/* ================================================================== */
/* Distributions                                                       */
/* ================================================================== */

/* scipy.stats.t.ppf(0.975, df) */
Test(dist, t_quantile_known)
{
	const double df[] = { 1, 2, 10, 30, 1e6, 3, 0.5, 100, 1e9 };
	const double want[] = { 12.706204736432095, 4.302652729911275, 2.2281388519649385,
				2.0422724563012373, 1.9599663568141066, 3.182446305284263,
				164.55767352096103, 1.9839715184496334, 1.959963986912325 };

	for (size_t i = 0; i < ARRAY_SIZE(df); i++)
		expect_rel(tp_t_quantile(0.975, df[i]), want[i], 1e-9);
	expect_rel(tp_t_quantile(0.025, 10), -2.2281388519649385, 1e-9);
	expect_rel(tp_t_quantile(1e-10, 4), -416.1751403292461, 1e-9);
	expect_rel(tp_t_quantile(0.6, 7), 0.2631668613520166, 1e-9);
	expect_rel(tp_t_quantile(1 - 1e-15, 1), 318309886183790.6, 1e-3); /* 1 - p rounds */
}

Test(dist, t_quantile_edges)
{
	cr_expect_eq(tp_t_quantile(0.5, 3), 0.0);
	cr_expect(isinf(tp_t_quantile(0, 3)) && tp_t_quantile(0, 3) < 0);
	cr_expect(isinf(tp_t_quantile(1, 3)) && tp_t_quantile(1, 3) > 0);
	cr_expect(isnan(tp_t_quantile(NAN, 3)));
	cr_expect(isnan(tp_t_quantile(0.9, 0)));
	cr_expect(isnan(tp_t_quantile(0.9, -1)));
	cr_expect(isnan(tp_t_pvalue(1, 0)));
	cr_expect(isnan(tp_t_pvalue(NAN, 3)));
	cr_expect_eq(tp_t_pvalue(INFINITY, 3), 0.0);
	cr_expect_eq(tp_t_pvalue(0, 3), 1.0);
}

/* 2 * scipy.stats.t.sf(t, df) */
Test(dist, t_pvalue_known)
{
	const double t[] = { 2.228, 1.0, 0.5, 5.0, 40.0, 3.0, 0.1, 1e-3, 100.0 };
	const double df[] = { 10, 1, 3, 2, 5, 1e6, 50, 7, 3 };
	const double want[] = { 0.05001177181711133, 0.49999999999999956, 0.651447964848151,
				0.037749551350623724, 1.8411962171772952e-07, 0.0026998625414217953,
				0.9207442136529701, 0.9992300172449988, 2.204521923184911e-06 };

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		expect_rel(tp_t_pvalue(t[i], df[i]), want[i], 1e-9);
		expect_rel(tp_t_pvalue(-t[i], df[i]), want[i], 1e-9);
	}
}

/* Closed forms: df = 1 (Cauchy) and df = 2. */
Test(dist, t_pvalue_closed_forms)
{
	for (double t = 0.01; t < 1e8; t *= 1.7) {
		double r = sqrt(2 + t * t);
		expect_rel(tp_t_pvalue(t, 1), 2 / M_PI * atan(1 / t), 1e-12);
		expect_rel(tp_t_pvalue(t, 2), 2 / (r * (r + t)), 1e-12); /* 1 - t/r */
	}
	/* far tails keep relative precision: 2/(pi t) for Cauchy */
	expect_rel(tp_t_pvalue(1e200, 1), 2 / (M_PI * 1e200), 1e-9);
}

Test(dist, t_quantile_round_trip)
{
	const double dfs[] = { 1, 2.5, 4, 17, 250, 1e5 };
	const double ps[] = { 1e-12, 1e-6, 0.001, 0.02, 0.3, 0.49, 0.51, 0.8, 0.95, 0.999 };

	for (size_t i = 0; i < ARRAY_SIZE(dfs); i++)
		for (size_t j = 0; j < ARRAY_SIZE(ps); j++) {
			double t = tp_t_quantile(ps[j], dfs[i]);
			double tail = ps[j] < 0.5 ? ps[j] : 1 - ps[j];
			cr_expect(close_rel(tp_t_pvalue(t, dfs[i]) / 2, tail, 1e-10),
				  "df %g p %g: t %.17g", dfs[i], ps[j], t);
			if (1 - (1 - ps[j]) == ps[j]) /* else 1 - p itself rounded */
				expect_rel(tp_t_quantile(1 - ps[j], dfs[i]), -t, 1e-9);
		}
}

Test(dist, normal_cdf)
{
	expect_rel(tp_normal_cdf(1.96), 0.9750021048517795, 1e-14);
	expect_rel(tp_normal_cdf(-3), 0.0013498980316300933, 1e-13);
	expect_rel(tp_normal_cdf(-10), 7.61985302416047e-24, 1e-12);
	cr_expect_eq(tp_normal_cdf(0), 0.5);
	cr_expect_eq(tp_normal_cdf(INFINITY), 1.0);
	cr_expect_eq(tp_normal_cdf(-INFINITY), 0.0);
}

/* ================================================================== */
/* Mann-Whitney                                                        */
/* ================================================================== */

static void sketch_of(struct tp_sketch *s, const double *v, size_t n)
{
	tp_sketch_init(s);
	for (size_t i = 0; i < n; i++)
		tp_sketch_add(s, v[i]);
}

/* Brute force U (b over a, ties half) and its normal-approximation p. */
static double brute_u(const double *a, size_t na, const double *b, size_t nb, double *p)
{
	double u = 0, n = (double)(na + nb), ties = 0, var, z;
	double *all = xmalloc((na + nb) * sizeof(*all));

	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			u += b[j] > a[i] ? 1 : b[j] == a[i] ? 0.5 : 0;
	memcpy(all, a, na * sizeof(*a));
	memcpy(all + na, b, nb * sizeof(*b));
	qsort(all, na + nb, sizeof(*all), tp_cmp_double);
	for (size_t i = 0, j; i < na + nb; i = j) {
		double t;
		for (j = i; j < na + nb && all[j] == all[i]; j++)
			;
		t = (double)(j - i);
		ties += t * t * t - t;
	}
	var = (double)na * (double)nb / 12 * ((n + 1) - ties / (n * (n - 1)));
	z = fmax(fabs(u - (double)na * (double)nb / 2) - 0.5, 0) / sqrt(var);
	*p = erfc(z / M_SQRT2);
	free(all);
	return u;
}

/* Values at least 5% apart fall in distinct buckets; equal values tie exactly. */
Test(mwu, matches_brute_force_and_scipy)
{
	const double a[] = { 1.0, 2.0, 3.0, 3.0, 5.0, 8.0, 13.0, 21.0 };
	const double b[] = { 2.0, 3.0, 4.5, 8.0, 9.0, 30.0, 40.0 };
	struct tp_sketch sa, sb;
	double effect, p, pb, u;

	sketch_of(&sa, a, ARRAY_SIZE(a));
	sketch_of(&sb, b, ARRAY_SIZE(b));
	p = tp_mann_whitney(&sa, &sb, &effect);
	u = brute_u(a, ARRAY_SIZE(a), b, ARRAY_SIZE(b), &pb);
	cr_expect_eq(u, 36.0);
	cr_expect_eq(effect, u / 56, "effect = U / (na nb) exactly");
	expect_rel(p, pb, 1e-14);
	/* scipy.stats.mannwhitneyu(b, a, method="asymptotic"): U 36 */
	expect_rel(p, 0.38285725317526365, 1e-12);
	/* swapping the samples mirrors the effect and keeps p */
	expect_rel(tp_mann_whitney(&sb, &sa, &effect), p, 1e-14);
	cr_expect_eq(effect, (56 - u) / 56);
	tp_sketch_free(&sa);
	tp_sketch_free(&sb);
}

/* Larger brute-force check: values on a 2% grid (distinct buckets), many ties, zeros. */
Test(mwu, matches_brute_force_random)
{
	enum { NA = 150, NB = 120 };
	double a[NA], b[NB], effect, p, pb, u;
	uint64_t st = 55;
	struct tp_sketch sa, sb;

	for (int i = 0; i < NA; i++)
		a[i] = i % 40 == 0 ? 0 : pow(1.02, floor(lcg(&st) * 60));
	for (int i = 0; i < NB; i++)
		b[i] = i % 50 == 0 ? 0 : pow(1.02, floor(lcg(&st) * 60 + 5));
	sketch_of(&sa, a, NA);
	sketch_of(&sb, b, NB);
	p = tp_mann_whitney(&sa, &sb, &effect);
	u = brute_u(a, NA, b, NB, &pb);
	cr_expect_eq(effect, u / (NA * NB));
	expect_rel(p, pb, 1e-12);
	tp_sketch_free(&sa);
	tp_sketch_free(&sb);
}

Test(mwu, same_distribution)
{
	enum { N = 500 };
	struct tp_sketch a, b;
	uint64_t st = 31, st2 = 32;
	double effect, p;

	tp_sketch_init(&a);
	tp_sketch_init(&b);
	for (int i = 0; i < N; i++) {
		tp_sketch_add(&a, 1 + lcg(&st));
		tp_sketch_add(&b, 1 + lcg(&st2));
	}
	p = tp_mann_whitney(&a, &b, &effect);
	cr_expect_gt(p, 0.05, "p = %g", p);
	expect_abs(effect, 0.5, 0.05);
	tp_sketch_free(&a);
	tp_sketch_free(&b);
}

Test(mwu, shifted_20_percent)
{
	enum { N = 200 };
	struct tp_sketch a, b;
	uint64_t st = 17;
	double effect, p;

	tp_sketch_init(&a);
	tp_sketch_init(&b);
	for (int i = 0; i < N; i++) {
		tp_sketch_add(&a, 1 + 0.5 * lcg(&st));
		tp_sketch_add(&b, 1.2 * (1 + 0.5 * lcg(&st)));
	}
	p = tp_mann_whitney(&a, &b, &effect);
	cr_expect_lt(p, 1e-6, "p = %g", p);
	cr_expect_gt(effect, 0.7);
	tp_sketch_free(&a);
	tp_sketch_free(&b);
}

Test(mwu, separated_tied_and_empty)
{
	struct tp_sketch a, b, e;
	double effect;

	tp_sketch_init(&a);
	tp_sketch_init(&b);
	tp_sketch_init(&e);
	for (int i = 0; i < 50; i++) {
		tp_sketch_add(&a, 1 + i * 0.01);
		tp_sketch_add(&b, 5 + i * 0.01);
	}
	cr_expect_lt(tp_mann_whitney(&a, &b, &effect), 1e-15);
	cr_expect_eq(effect, 1.0);
	tp_mann_whitney(&b, &a, &effect);
	cr_expect_eq(effect, 0.0);
	cr_expect(isnan(tp_mann_whitney(&a, &e, &effect)));
	cr_expect(isnan(effect));
	cr_expect(isnan(tp_mann_whitney(&e, &b, NULL)));
	tp_sketch_free(&a);
	tp_sketch_free(&b);
	tp_sketch_init(&a);
	tp_sketch_init(&b);
	for (int i = 0; i < 30; i++) {
		tp_sketch_add(&a, 2.0);
		tp_sketch_add(&b, 2.0);
	}
	cr_expect_eq(tp_mann_whitney(&a, &b, &effect), 1.0, "all tied");
	cr_expect_eq(effect, 0.5);
	tp_sketch_free(&a);
	tp_sketch_free(&b);
}

Test(stats, median_and_mad_exact)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, mad[] = { 1, 2, 3, 4, 100 };
	double med;

	cr_expect_eq(tp_median(odd, 3), 3);
	cr_expect_eq(odd[0], 1); /* sorted in place */
	cr_expect_eq(tp_median(even, 4), 2.5);
	cr_expect(isnan(tp_median(even, 0)));
	/* deviations from 3: 2 1 0 1 97 -> 1 */
	cr_expect_eq(tp_mad(mad, 5, &med), 1);
	cr_expect_eq(med, 3);
	cr_expect(isnan(tp_mad(mad, 0, &med)));
	cr_expect(isnan(med));
}
