/*
 * stats.c - the streaming statistics behind tprof-analyze (contract in
 * stats.h): a DDSketch-style relative-error quantile sketch, the bounded
 * per-series summary (Welford moments, exact head, extremes, regression
 * sums), and the small numerical library the analyses use on top of them:
 * Student t through the regularized incomplete beta function, OLS with
 * intervals, MSER warmup detection, robust outliers and a Mann-Whitney test
 * that runs on two sketches.
 *
 * Pure code: no I/O, no mutable globals, allocation only via x*alloc.
 */
#include "stats.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ------------------------------------------------------------------ */
/* Quantile sketch                                                     */
/* ------------------------------------------------------------------ */

/* ln(gamma) with gamma = (1+a)/(1-a); constant arguments, so compilers fold it. */
static double sketch_lngamma(void)
{
	return log1p(2.0 * TP_SKETCH_ALPHA / (1.0 - TP_SKETCH_ALPHA));
}

/* Bucket k holds (gamma^(k-1), gamma^k]. */
static int32_t sketch_key(double x)
{
	return (int32_t)ceil(log(x) / sketch_lngamma());
}

/*
 * The value reported for bucket k: 2 gamma^k / (gamma+1), which is
 * (1-a) gamma^k, within relative error a of both ends of the bucket.
 */
static double sketch_value(int32_t k)
{
	return (1.0 - TP_SKETCH_ALPHA) * exp((double)k * sketch_lngamma());
}

static int32_t sketch_top(const struct tp_sketch *s)
{
	return s->min_key + (int32_t)s->nbuckets - 1;
}

/* Count of bucket k, 0 outside the dense range. */
static uint64_t sketch_count(const struct tp_sketch *s, int64_t k)
{
	if (s->nbuckets == 0 || k < s->min_key || k > sketch_top(s))
		return 0;
	return s->counts[k - s->min_key];
}

static void sketch_reserve(struct tp_sketch *s, uint32_t need)
{
	uint32_t a = s->alloc ? s->alloc : 16;

	if (need <= s->alloc)
		return;
	while (a < need)
		a *= 2;
	s->counts = xrealloc(s->counts, (size_t)a * sizeof(*s->counts));
	s->alloc = a;
}

/* Raises min_key to lo, adding the counts of the keys below into bucket lo. */
static void sketch_fold(struct tp_sketch *s, int32_t lo)
{
	uint32_t nfold = (uint32_t)(lo - s->min_key), keep, i;
	uint64_t acc = 0;

	if (nfold > s->nbuckets)
		nfold = s->nbuckets;
	for (i = 0; i < nfold; i++)
		acc += s->counts[i];
	keep = s->nbuckets - nfold;
	memmove(s->counts, s->counts + nfold, (size_t)keep * sizeof(*s->counts));
	if (keep == 0) { /* everything was below lo: bucket lo is new */
		s->counts[0] = 0;
		keep = 1;
	}
	s->counts[0] += acc;
	s->nbuckets = keep;
	s->min_key = lo;
	if (acc)
		s->collapsed = 1;
}

static void sketch_extend_down(struct tp_sketch *s, int32_t lo)
{
	uint32_t shift = (uint32_t)(s->min_key - lo);

	sketch_reserve(s, s->nbuckets + shift);
	memmove(s->counts + shift, s->counts, (size_t)s->nbuckets * sizeof(*s->counts));
	memset(s->counts, 0, (size_t)shift * sizeof(*s->counts));
	s->nbuckets += shift;
	s->min_key = lo;
}

static void sketch_extend_up(struct tp_sketch *s, int32_t hi)
{
	uint32_t n = (uint32_t)(hi - s->min_key) + 1;

	sketch_reserve(s, n);
	memset(s->counts + s->nbuckets, 0, (size_t)(n - s->nbuckets) * sizeof(*s->counts));
	s->nbuckets = n;
}

/*
 * Makes a non-empty sketch's counts cover the keys [lo, hi] (lo <= min_key,
 * hi >= top), at most TP_SKETCH_MAX_BUCKETS of them: keys below
 * hi - MAX + 1 fold into the lowest bucket. The layout thus depends only on
 * the largest and smallest keys ever seen, never on the order in which
 * samples or sketches arrived, which is what makes merging exact.
 */
static void sketch_cover(struct tp_sketch *s, int32_t lo, int32_t hi)
{
	int32_t floor_key = hi - (TP_SKETCH_MAX_BUCKETS - 1);

	if (lo < floor_key)
		lo = floor_key;
	if (lo > s->min_key)
		sketch_fold(s, lo);
	else if (lo < s->min_key)
		sketch_extend_down(s, lo);
	if (hi > sketch_top(s))
		sketch_extend_up(s, hi);
}

/* Adds c samples of key k (a collapsed key lands in the lowest bucket). */
static void sketch_add_key(struct tp_sketch *s, int32_t k, uint64_t c)
{
	if (s->nbuckets == 0) {
		sketch_reserve(s, 1);
		s->min_key = k;
		s->nbuckets = 1;
		s->counts[0] = 0;
	} else if (k < s->min_key || k > sketch_top(s)) {
		sketch_cover(s, k < s->min_key ? k : s->min_key,
			     k > sketch_top(s) ? k : sketch_top(s));
	}
	if (k < s->min_key) {
		k = s->min_key;
		if (c)
			s->collapsed = 1;
	}
	s->counts[k - s->min_key] += c;
}

void tp_sketch_init(struct tp_sketch *s)
{
	memset(s, 0, sizeof(*s));
}

void tp_sketch_free(struct tp_sketch *s)
{
	free(s->counts);
	tp_sketch_init(s);
}

/* Non-finite values are ignored (a tp_series counts them in nonfinite). */
void tp_sketch_add(struct tp_sketch *s, double x)
{
	if (!isfinite(x))
		return;
	s->n++;
	if (x <= TP_SKETCH_MIN_POSITIVE) {
		s->zero_count++;
		if (x < 0)
			s->neg_count++;
		return;
	}
	sketch_add_key(s, sketch_key(x), 1);
}

void tp_sketch_merge(struct tp_sketch *dst, const struct tp_sketch *src)
{
	/* Read src's shape first: dst == src must double every count. */
	uint32_t nb = src->nbuckets, i;
	int32_t lo = src->min_key;

	dst->n += src->n;
	dst->zero_count += src->zero_count;
	dst->neg_count += src->neg_count;
	dst->collapsed |= src->collapsed;
	if (nb == 0)
		return;
	/* Widen once so that the per-bucket adds below never move memory. */
	if (dst->nbuckets)
		sketch_cover(dst, lo < dst->min_key ? lo : dst->min_key,
			     lo + (int32_t)nb - 1 > sketch_top(dst) ? lo + (int32_t)nb - 1
								     : sketch_top(dst));
	for (i = 0; i < nb; i++)
		if (src->counts[i])
			sketch_add_key(dst, lo + (int32_t)i, src->counts[i]);
}

/* Lower-rank convention: the sample of 0-based rank floor(q (n-1)). */
double tp_sketch_quantile(const struct tp_sketch *s, double q)
{
	uint64_t rank, cum;
	uint32_t i;

	if (s->n == 0 || isnan(q))
		return NAN;
	q = q < 0 ? 0 : q > 1 ? 1 : q;
	rank = (uint64_t)floor(q * (double)(s->n - 1));
	if (rank >= s->n)
		rank = s->n - 1;
	if (rank < s->zero_count)
		return 0.0;
	cum = s->zero_count;
	for (i = 0; i < s->nbuckets; i++) {
		cum += s->counts[i];
		if (cum > rank)
			return sketch_value(s->min_key + (int32_t)i);
	}
	return sketch_value(sketch_top(s)); /* not reached while counts add up to n */
}

/*
 * Samples <= x, counting the whole bucket that holds x (so an over-count
 * by at most the samples within relative a of x). Negatives are not ranked:
 * x < 0 gives 0.
 */
double tp_sketch_rank(const struct tp_sketch *s, double x)
{
	uint64_t cum;
	int64_t k;
	uint32_t i;

	if (isnan(x))
		return NAN;
	if (x < 0)
		return 0.0;
	if (x <= TP_SKETCH_MIN_POSITIVE || s->nbuckets == 0)
		return (double)s->zero_count;
	if (isinf(x))
		return (double)s->n;
	k = sketch_key(x);
	cum = s->zero_count;
	for (i = 0; i < s->nbuckets && s->min_key + (int64_t)i <= k; i++)
		cum += s->counts[i];
	return (double)cum;
}

static void sketch_copy(struct tp_sketch *dst, const struct tp_sketch *src)
{
	*dst = *src;
	dst->counts = NULL;
	dst->alloc = 0;
	if (src->nbuckets) {
		sketch_reserve(dst, src->nbuckets);
		memcpy(dst->counts, src->counts, (size_t)src->nbuckets * sizeof(*src->counts));
	}
}

/* ------------------------------------------------------------------ */
/* Small helpers: moments, sorting                                     */
/* ------------------------------------------------------------------ */

/* Count, mean and sum of squared deviations of a set of samples. */
struct moments {
	double n, mean, m2;
};

static void moments_add(struct moments *m, double v)
{
	double d = v - m->mean;

	m->n += 1;
	m->mean += d / m->n;
	m->m2 += d * (v - m->mean);
}

/* The moments of the samples of `all` that are not in `part` (Chan, reversed). */
static struct moments moments_minus(struct moments all, struct moments part)
{
	struct moments r = { all.n - part.n, 0, 0 };
	double d;

	if (r.n <= 0)
		return (struct moments){ 0, 0, 0 };
	r.mean = all.mean + (all.mean - part.mean) * (part.n / r.n);
	d = r.mean - part.mean;
	r.m2 = all.m2 - part.m2 - d * d * part.n * (r.n / all.n);
	if (r.m2 < 0) /* rounding: a set's squared deviations are never negative */
		r.m2 = 0;
	return r;
}

int tp_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double tp_median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), tp_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double tp_mad(double *v, size_t n, double *median)
{
	double med = tp_median(v, n);

	if (median)
		*median = med;
	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		v[i] = fabs(v[i] - med);
	return tp_median(v, n);
}

/* Linear interpolation between closest ranks (numpy's default method). */
static double sorted_quantile(const double *v, size_t n, double q)
{
	double h = q * (double)(n - 1), lo = floor(h);
	size_t i = (size_t)lo;

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - lo) * (v[i + 1] - v[i]);
}

/* Copies the head values into buf (TP_HEAD_MAX long) sorted; returns their count. */
static size_t head_sorted(const struct tp_series *s, double *buf)
{
	size_t i;

	for (i = 0; i < s->nhead; i++)
		buf[i] = s->head[i].v;
	qsort(buf, s->nhead, sizeof(*buf), tp_cmp_double);
	return s->nhead;
}

/* ------------------------------------------------------------------ */
/* Series                                                              */
/* ------------------------------------------------------------------ */

void tp_series_init(struct tp_series *s)
{
	memset(s, 0, sizeof(*s));
	s->min = s->max = NAN;
	tp_sketch_init(&s->sketch);
}

void tp_series_free(struct tp_series *s)
{
	tp_sketch_free(&s->sketch);
	tp_series_init(s);
}

/* The shift of the v-sums: the first sample (keeps s_vv from cancelling). */
static double series_shift(const struct tp_series *s)
{
	return s->nhead ? s->head[0].v : 0.0;
}

/* s_i and s_ii in closed form: exact, whatever the merge history. */
static void series_index_sums(struct tp_series *s)
{
	double n = (double)s->n;

	s->s_i = n * (n - 1) / 2;
	s->s_ii = (n - 1) * n * (2 * n - 1) / 6;
}

/* Is a ranked before b among the largest (top) or the smallest? Ties: earlier index. */
static int ranks_before(const struct tp_sample *a, const struct tp_sample *b, int top)
{
	if (a->v != b->v)
		return top ? a->v > b->v : a->v < b->v;
	return a->index < b->index;
}

/* Insertion into a sorted array of at most TP_EXTREMES; cheap reject first. */
static void extremes_insert(struct tp_sample *e, uint32_t *n, const struct tp_sample *x, int top)
{
	uint32_t i = *n;

	if (i == TP_EXTREMES) {
		if (!ranks_before(x, &e[i - 1], top))
			return;
		i--; /* the last one drops out */
	} else {
		(*n)++;
	}
	for (; i > 0 && ranks_before(x, &e[i - 1], top); i--)
		e[i] = e[i - 1];
	e[i] = *x;
}

static void series_minmax(struct tp_series *s, const struct tp_sample *x)
{
	if (s->n == 0 || x->v < s->min) {
		s->min = x->v;
		s->min_s = *x;
	}
	if (s->n == 0 || x->v > s->max) {
		s->max = x->v;
		s->max_s = *x;
	}
}

/*
 * Non-finite samples only count in nonfinite: they take no index, so the
 * indices stay 0..n-1 and the regression and warmup see a gap-free series.
 */
void tp_series_add(struct tp_series *s, double v, uint64_t line)
{
	struct tp_sample x = { v, s->n, line };
	struct moments m = { (double)s->n, s->mean, s->m2 };
	double w;

	if (!isfinite(v)) {
		s->nonfinite++;
		return;
	}
	series_minmax(s, &x);
	if (s->nhead < TP_HEAD_MAX)
		s->head[s->nhead++] = x;
	moments_add(&m, v);
	s->mean = m.mean;
	s->m2 = m.m2;
	s->sum += v;
	w = v - series_shift(s);
	s->s_v += w;
	s->s_vv += w * w;
	s->s_iv += (double)x.index * w;
	tp_sketch_add(&s->sketch, v);
	extremes_insert(s->top, &s->ntop, &x, 1);
	extremes_insert(s->bottom, &s->nbottom, &x, 0);
	s->n++;
	series_index_sums(s);
}

static void series_copy(struct tp_series *dst, const struct tp_series *src)
{
	memcpy(dst, src, sizeof(*dst));
	sketch_copy(&dst->sketch, &src->sketch);
}

/*
 * Adds src's shifted v-sums to dst's: src's w' = v - c_src becomes
 * w = w' + delta (delta = c_src - c_dst) and its index j becomes j + m.
 */
static void regression_merge(struct tp_series *dst, const struct tp_series *src, uint64_t m)
{
	double delta = series_shift(src) - series_shift(dst);
	double nb = (double)src->n, sj = nb * (nb - 1) / 2;
	double s1 = src->s_v, s2 = src->s_vv, sjw = src->s_iv;

	dst->s_v += s1 + nb * delta;
	dst->s_vv += s2 + 2 * delta * s1 + nb * delta * delta;
	dst->s_iv += sjw + delta * sj + (double)m * (s1 + nb * delta);
}

/* Chan et al.'s pairwise update of the mean and squared deviations. */
static void moments_merge(struct tp_series *dst, const struct tp_series *src)
{
	double na = (double)dst->n, nb = (double)src->n, n = na + nb;
	double d = src->mean - dst->mean;

	dst->mean += d * (nb / n);
	dst->m2 += src->m2 + d * d * na * (nb / n);
}

static struct tp_sample shifted(struct tp_sample x, uint64_t m)
{
	x.index += m;
	return x;
}

static void series_merge_samples(struct tp_series *dst, const struct tp_series *src, uint64_t m)
{
	uint32_t i;

	if (src->min < dst->min) {
		dst->min = src->min;
		dst->min_s = shifted(src->min_s, m);
	}
	if (src->max > dst->max) {
		dst->max = src->max;
		dst->max_s = shifted(src->max_s, m);
	}
	/* dst's head is short only when it holds all of dst: src's head follows on. */
	for (i = 0; i < src->nhead && dst->nhead < TP_HEAD_MAX; i++)
		dst->head[dst->nhead++] = shifted(src->head[i], m);
	for (i = 0; i < src->ntop; i++) {
		struct tp_sample x = shifted(src->top[i], m);
		extremes_insert(dst->top, &dst->ntop, &x, 1);
	}
	for (i = 0; i < src->nbottom; i++) {
		struct tp_sample x = shifted(src->bottom[i], m);
		extremes_insert(dst->bottom, &dst->nbottom, &x, 0);
	}
}

void tp_series_merge(struct tp_series *dst, const struct tp_series *src)
{
	uint64_t m = dst->n, nonfinite = dst->nonfinite + src->nonfinite;

	if (dst == src) { /* the series followed by itself: merge a copy */
		struct tp_series *copy = xmalloc(sizeof(*copy));
		series_copy(copy, src);
		tp_series_merge(dst, copy);
		tp_series_free(copy);
		free(copy);
		return;
	}
	if (src->n == 0) {
		dst->nonfinite = nonfinite;
		return;
	}
	if (dst->n == 0) {
		tp_sketch_free(&dst->sketch);
		series_copy(dst, src);
		dst->nonfinite = nonfinite;
		return;
	}
	regression_merge(dst, src, m); /* before the head grows: uses both shifts */
	moments_merge(dst, src);
	dst->sum += src->sum;
	tp_sketch_merge(&dst->sketch, &src->sketch);
	series_merge_samples(dst, src, m);
	dst->n = m + src->n;
	dst->nonfinite = nonfinite;
	series_index_sums(dst);
}

double tp_series_std(const struct tp_series *s)
{
	if (s->n < 2)
		return 0.0;
	return sqrt(s->m2 / (double)(s->n - 1));
}

/*
 * Exact (numpy "linear") from the head while it holds every sample, else
 * the sketch's lower-rank value clamped to [min, max]. Ranks 0 and n-1 are
 * min and max themselves, and the clamp makes constant series exact.
 */
double tp_series_quantile(const struct tp_series *s, double q)
{
	double buf[TP_HEAD_MAX], v, rank;

	if (s->n == 0 || isnan(q))
		return NAN;
	q = q < 0 ? 0 : q > 1 ? 1 : q;
	if (s->n <= TP_HEAD_MAX)
		return sorted_quantile(buf, head_sorted(s, buf), q);
	rank = floor(q * (double)(s->n - 1));
	if (rank <= 0)
		return s->min;
	if (rank >= (double)(s->n - 1))
		return s->max;
	v = tp_sketch_quantile(&s->sketch, q);
	return v < s->min ? s->min : v > s->max ? s->max : v;
}

/* ------------------------------------------------------------------ */
/* Regression                                                          */
/* ------------------------------------------------------------------ */

/* t statistic and p-value of a slope, with the 0/0 and x/0 cases settled. */
static void slope_test(double b, double se, double df, double *t, double *p)
{
	if (se > 0)
		*t = b / se;
	else
		*t = b == 0 ? 0.0 : copysign(INFINITY, b);
	*p = tp_t_pvalue(*t, df);
}

int tp_series_trend(const struct tp_series *s, struct tp_fit *fit)
{
	double n = (double)s->n, ibar, sxx, sxy, syy, ssres;

	fit->intercept = fit->slope = fit->slope_se = fit->r2 = fit->t = fit->p = NAN;
	fit->n = s->n;
	if (s->n < 3)
		return -1;
	/* Centered sums: index ones in closed form, syy from Welford. */
	ibar = (n - 1) / 2;
	sxx = n * (n * n - 1) / 12;
	sxy = s->s_iv - ibar * s->s_v; /* shift-invariant: the v-shift drops out */
	syy = s->m2;
	fit->slope = sxy / sxx;
	fit->intercept = s->mean - fit->slope * ibar;
	ssres = syy - fit->slope * sxy;
	if (ssres < 0)
		ssres = 0;
	fit->r2 = syy > 0 ? 1 - ssres / syy : 0.0;
	fit->slope_se = sqrt(ssres / (n - 2) / sxx);
	slope_test(fit->slope, fit->slope_se, n - 2, &fit->t, &fit->p);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Warmup (MSER)                                                       */
/* ------------------------------------------------------------------ */

/*
 * The moments of every suffix starting in the head are built backwards:
 * start from the samples past the head (whole series minus head), then add
 * head samples last to first. This is the "whole sums minus prefix sums" of
 * MSER done with Welford updates, so no difference of large sums is taken
 * for a suffix that lies inside the head.
 */
uint64_t tp_series_warmup_end(const struct tp_series *s, double *steady_mean)
{
	double mser[TP_HEAD_MAX], mean_after[TP_HEAD_MAX];
	struct moments all = { (double)s->n, s->mean, s->m2 }, head = { 0, 0, 0 }, r;
	uint64_t dmax, d, best = 0;
	uint32_t j;

	if (steady_mean)
		*steady_mean = NAN;
	if (s->n == 0)
		return 0;
	dmax = s->n / 2 < s->nhead - 1u ? s->n / 2 : s->nhead - 1u;
	for (j = 0; j < s->nhead; j++)
		moments_add(&head, s->head[j].v);
	r = moments_minus(all, head);
	for (j = s->nhead; j-- > 0;) {
		moments_add(&r, s->head[j].v);
		if (j <= dmax) {
			/* biased variance of the rest / its count */
			mser[j] = r.m2 / (r.n * r.n);
			mean_after[j] = r.mean;
		}
	}
	for (d = 1; d <= dmax; d++)
		if (mser[d] < mser[best]) /* strict: the smallest d wins ties */
			best = d;
	if (steady_mean)
		*steady_mean = mean_after[best];
	return best;
}

/* ------------------------------------------------------------------ */
/* Fences and outliers                                                 */
/* ------------------------------------------------------------------ */

void tp_series_fences(const struct tp_series *s, double k, double *lo, double *hi)
{
	double q1 = tp_series_quantile(s, 0.25), q3 = tp_series_quantile(s, 0.75);

	*lo = q1 - k * (q3 - q1);
	*hi = q3 + k * (q3 - q1);
}

/* Iglewicz-Hoaglin constants: M = 0.6745 (x - med) / MAD, or with MeanAD. */
#define MAD_TO_SCALE (1.0 / 0.6745)
#define MEANAD_TO_SCALE 1.253314

/* Relative differences below this are float noise (0.041 vs 0.041000000000000106). */
#define NOISE 1e-9

/* Exact scale from the head (all samples): MAD, or MeanAD when MAD is 0. */
static double head_scale(const struct tp_series *s, double med)
{
	double dev[TP_HEAD_MAX], sum = 0, mad;
	size_t i, n = s->nhead;

	for (i = 0; i < n; i++) {
		dev[i] = fabs(s->head[i].v - med);
		sum += dev[i];
	}
	qsort(dev, n, sizeof(*dev), tp_cmp_double);
	mad = sorted_quantile(dev, n, 0.5);
	if (mad > NOISE * fabs(med)) /* a MAD in the last bits is no spread: use the MeanAD */
		return mad * MAD_TO_SCALE;
	return MEANAD_TO_SCALE * sum / (double)n;
}

/*
 * Scale from the sketch: MAD ~ (Q3 - Q1) / 2 (exact for symmetric data,
 * and the header's (Q3-Q1)/1.349*0.6745), else the MeanAD of the bucket
 * values around the median bucket's value.
 */
static double sketch_scale(const struct tp_series *s)
{
	const struct tp_sketch *k = &s->sketch;
	double mad = (tp_series_quantile(s, 0.75) - tp_series_quantile(s, 0.25)) / 2;
	double med = tp_sketch_quantile(k, 0.5), sum;
	uint32_t i;

	if (mad > NOISE * fabs(med))
		return mad * MAD_TO_SCALE;
	sum = (double)k->zero_count * fabs(med);
	for (i = 0; i < k->nbuckets; i++)
		if (k->counts[i])
			sum += (double)k->counts[i] * fabs(sketch_value(k->min_key + (int32_t)i) - med);
	return MEANAD_TO_SCALE * sum / (double)k->n;
}

struct scored {
	struct tp_sample s;
	double z; /* |M| */
};

static int cmp_scored(const void *a, const void *b)
{
	const struct scored *x = a, *y = b;

	if (x->z != y->z)
		return x->z < y->z ? 1 : -1;
	return (x->s.index > y->s.index) - (x->s.index < y->s.index);
}

static int has_index(const struct scored *c, size_t n, uint64_t index)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (c[i].s.index == index)
			return 1;
	return 0;
}

/* Adds x if its |M| passes (and it is not there yet: top and bottom may overlap). */
static size_t consider(struct scored *c, size_t n, const struct tp_sample *x, double med,
		       double scale, double threshold)
{
	double z = fabs(x->v - med) / scale;

	if (!(z > threshold) || has_index(c, n, x->index))
		return n;
	c[n].s = *x;
	c[n].z = z;
	return n + 1;
}

size_t tp_series_outliers(const struct tp_series *s, double threshold, struct tp_sample *out,
			  size_t max)
{
	struct scored cand[TP_HEAD_MAX + 2 * TP_EXTREMES];
	double med, scale;
	size_t n = 0, i;

	if (s->n == 0 || max == 0)
		return 0;
	med = tp_series_quantile(s, 0.5);
	scale = s->n <= TP_HEAD_MAX ? head_scale(s, med) : sketch_scale(s);
	/* differences in the last bits (0.041 vs 0.041000000000000106) are float noise, not spread */
	if (scale < NOISE * fabs(med))
		scale = NOISE * fabs(med);
	if (!(scale > 0))
		return 0; /* no spread at all: nothing stands out */
	if (s->n <= TP_HEAD_MAX) { /* the head is every sample: exact */
		for (i = 0; i < s->nhead; i++)
			n = consider(cand, n, &s->head[i], med, scale, threshold);
	} else {
		for (i = 0; i < s->ntop; i++)
			n = consider(cand, n, &s->top[i], med, scale, threshold);
		for (i = 0; i < s->nbottom; i++)
			n = consider(cand, n, &s->bottom[i], med, scale, threshold);
	}
	qsort(cand, n, sizeof(*cand), cmp_scored);
	for (i = 0; i < n && i < max; i++)
		out[i] = cand[i].s;
	return i;
}

/* ------------------------------------------------------------------ */
/* Ordinary least squares on arrays                                    */
/* ------------------------------------------------------------------ */

static int finite_pair(const double *x, const double *y, size_t i)
{
	return isfinite(x[i]) && isfinite(y[i]);
}

/* Two passes: means, then centered sums (no cancellation of raw sums). */
static size_t centered_sums(const double *x, const double *y, size_t n, double *mx, double *my,
			    double *sxx, double *sxy, double *syy)
{
	double sx = 0, sy = 0;
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if (finite_pair(x, y, i)) {
			sx += x[i];
			sy += y[i];
			m++;
		}
	*mx = m ? sx / (double)m : 0;
	*my = m ? sy / (double)m : 0;
	*sxx = *sxy = *syy = 0;
	for (i = 0; i < n; i++)
		if (finite_pair(x, y, i)) {
			double dx = x[i] - *mx, dy = y[i] - *my;
			*sxx += dx * dx;
			*sxy += dx * dy;
			*syy += dy * dy;
		}
	return m;
}

/*
 * Pairs with a non-finite member are skipped (f->n counts those used).
 * Returns -1 with fewer than 2 pairs, all x equal, or confidence outside
 * (0,1). With 2 pairs the line is exact and the interval unbounded
 * (se_b NAN, b_lo -inf, b_hi +inf). r2 is 0 when all y are equal.
 */
int tp_linfit(const double *x, const double *y, size_t n, double confidence, struct tp_linfit *f)
{
	double mx, my, sxx, sxy, syy, ssres = 0, tq;
	size_t i, m;

	f->a = f->b = f->b_lo = f->b_hi = f->r2 = f->se_b = NAN;
	f->n = m = centered_sums(x, y, n, &mx, &my, &sxx, &sxy, &syy);
	if (m < 2 || !(sxx > 0) || !(confidence > 0 && confidence < 1))
		return -1;
	f->b = sxy / sxx;
	f->a = my - f->b * mx;
	for (i = 0; i < n; i++) /* residuals directly: exact fits give 0, not rounding */
		if (finite_pair(x, y, i)) {
			double r = (y[i] - my) - f->b * (x[i] - mx);
			ssres += r * r;
		}
	f->r2 = syy > 0 ? fmax(0.0, 1 - ssres / syy) : 0.0;
	if (m == 2) {
		f->b_lo = -INFINITY;
		f->b_hi = INFINITY;
		return 0;
	}
	f->se_b = sqrt(ssres / (double)(m - 2) / sxx);
	tq = tp_t_quantile(1 - (1 - confidence) / 2, (double)(m - 2));
	f->b_lo = f->b - tq * f->se_b;
	f->b_hi = f->b + tq * f->se_b;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Distributions                                                       */
/* ------------------------------------------------------------------ */

/*
 * Beyond this many degrees of freedom the continued fraction, ill-conditioned
 * for x = df/(df+t^2) near 1 and a = df/2 huge (relative error about
 * 2e-17 df), gives way to the normal tail with its first 1/df correction,
 * whose relative error is below 2e-10 for |t| <= 5 and 4e-8 for |t| <= 10
 * there (and falls as 1/df^2): both sides of the switch agree to 3e-10 on
 * the t that matter.
 */
#define T_ASYMPTOTIC_DF 1e7

static double ln_gamma(double x)
{
	int sign; /* lgamma_r: lgamma's signgam would be shared state */

	return lgamma_r(x, &sign);
}

/* ln sqrt(2 pi) */
#define LN_SQRT_2PI 0.918938533204672741780329736406

/*
 * Remainder of Stirling's series, lgamma(x) - ((x-1/2) ln x - x + ln sqrt(2 pi)),
 * for x >= 10: eight terms reach double precision there.
 */
static double stirling_rem(double x)
{
	static const double c[] = { 1.0 / 12,	    -1.0 / 360,		  1.0 / 1260,
				    -1.0 / 1680,    1.0 / 1188,		  -691.0 / 360360,
				    1.0 / 156,	    -3617.0 / 122400 };
	double r = 1 / (x * x), sum = 0;
	int k;

	for (k = (int)ARRAY_SIZE(c); k-- > 0;)
		sum = sum * r + c[k];
	return sum / x;
}

/*
 * ln B(a,b) = lgamma(a) + lgamma(b) - lgamma(a+b), arranged as in R's lbeta
 * so that a large argument does not cancel: lgamma(5e8) is 1e10, and the
 * difference of two such numbers would keep only six digits.
 */
static double ln_beta(double a, double b)
{
	double p = a < b ? a : b, q = a < b ? b : a, corr;

	if (p >= 10) {
		corr = stirling_rem(p) + stirling_rem(q) - stirling_rem(p + q);
		return LN_SQRT_2PI - 0.5 * log(q) + corr + (p - 0.5) * log(p / (p + q)) +
		       q * log1p(-p / (p + q));
	}
	if (q >= 10) {
		corr = stirling_rem(q) - stirling_rem(p + q);
		return ln_gamma(p) + corr + p - p * log(p + q) + (q - 0.5) * log1p(-p / (p + q));
	}
	return ln_gamma(p) + ln_gamma(q) - ln_gamma(p + q);
}

/*
 * Continued fraction of I_x(a,b) by the modified Lentz method (as Numerical
 * Recipes' betacf). It converges in O(sqrt(max(a,b))) terms when
 * x < (a+1)/(a+b+2), hence the iteration cap.
 */
static double betacf(double a, double b, double x)
{
	const double tiny = DBL_MIN / DBL_EPSILON;
	double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d, h;
	double maxit = 100 + 10 * sqrt(a > b ? a : b);
	int m;

	d = 1 - qab * x / qap;
	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (m = 1; m <= maxit; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < DBL_EPSILON)
			break;
	}
	return h;
}

/*
 * The argument of I_x(a,b) with y = 1 - x and both logarithms, all formed
 * by the caller without cancellation or underflow (x may underflow to 0
 * while ln x is still a fine number, far in a t tail).
 */
struct beta_arg {
	double x, y, lnx, lny;
};

/* Regularized incomplete beta I_x(a,b) (Numerical Recipes' betai). */
static double betai(double a, double b, const struct beta_arg *z)
{
	double bt;

	if (z->lnx == -INFINITY)
		return 0.0;
	if (z->lny == -INFINITY)
		return 1.0;
	bt = exp(a * z->lnx + b * z->lny - ln_beta(a, b));
	if (z->x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, z->x) / a;
	return 1 - bt * betacf(b, a, z->y) / b;
}

/*
 * P(|T| > |t|) = I_x(df/2, 1/2) with x = df/(df+t^2) = 1/(1+r^2), r = |t|/sqrt(df),
 * written in 1/r when r > 1 so that nothing overflows.
 */
static double t_two_sided(double t, double df)
{
	double r = fabs(t) / sqrt(df);
	struct beta_arg z;

	if (r > 1) {
		double s = 1 / r, l = log1p(s * s);
		z.x = s * s / (1 + s * s);
		z.y = 1 / (1 + s * s);
		z.lnx = 2 * log(s) - l;
		z.lny = -l;
	} else {
		double l = log1p(r * r);
		z.x = 1 / (1 + r * r);
		z.y = r * r / (1 + r * r);
		z.lnx = -l;
		z.lny = r > 0 ? 2 * log(r) - l : -INFINITY;
	}
	return betai(df / 2, 0.5, &z);
}

double tp_normal_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

static double normal_density(double z)
{
	return exp(-0.5 * z * z) / sqrt(2 * M_PI);
}

/* P(|T| > |t|) ~ 2 (Q(t) + phi(t) (t^3 + t) / (4 df)) (Fisher's expansion, first term). */
static double t_two_sided_large(double t, double df)
{
	t = fabs(t);
	return erfc(t / M_SQRT2) + 2 * normal_density(t) * (t * t * t + t) / (4 * df);
}

double tp_t_pvalue(double t, double df)
{
	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (isinf(t))
		return 0.0;
	if (df > T_ASYMPTOTIC_DF)
		return fmin(1.0, t_two_sided_large(t, df));
	return t_two_sided(t, df);
}

/* P(T > t) for t >= 0. */
static double t_upper(double t, double df)
{
	return 0.5 * tp_t_pvalue(t, df);
}

static double t_density(double t, double df)
{
	if (df > T_ASYMPTOTIC_DF) /* close enough to steer Newton */
		return normal_density(t);
	/* Gamma((df+1)/2) / (sqrt(df pi) Gamma(df/2)) = 1 / (sqrt(df) B(df/2, 1/2)) */
	return exp(-ln_beta(df / 2, 0.5) - 0.5 * log(df) - (df + 1) / 2 * log1p(t * t / df));
}

/*
 * The t >= 0 with P(T > t) = tail (0 < tail < 0.5): bracket by doubling,
 * then Newton on log P(T > t) (well scaled even far in the tail), falling
 * back to bisection whenever a step leaves the bracket.
 */
static double t_upper_inverse(double tail, double df)
{
	double lo = 0, hi = 1, t;
	int it;

	while (t_upper(hi, df) > tail) {
		lo = hi;
		hi *= 2;
		if (isinf(hi))
			return hi;
	}
	t = 0.5 * (lo + hi);
	for (it = 0; it < 200; it++) {
		double q = t_upper(t, df), f = t_density(t, df), next;

		if (q == tail)
			return t;
		if (q > tail)
			lo = t;
		else
			hi = t;
		next = (q > 0 && f > 0) ? t + (log(q) - log(tail)) * q / f : NAN;
		if (!(next > lo && next < hi))
			next = 0.5 * (lo + hi);
		if (fabs(next - t) <= 2 * DBL_EPSILON * next)
			return next;
		t = next;
	}
	return t;
}

/* The t with P(T <= t) = p. */
double tp_t_quantile(double p, double df)
{
	double t;

	if (isnan(p) || isnan(df) || df <= 0)
		return NAN;
	if (p <= 0)
		return -INFINITY;
	if (p >= 1)
		return INFINITY;
	if (p == 0.5)
		return 0.0;
	/* Solve in the smaller tail: 1 - p is exact for p >= 0.5 (Sterbenz). */
	t = t_upper_inverse(p < 0.5 ? p : 1 - p, df);
	return p < 0.5 ? -t : t;
}

/* ------------------------------------------------------------------ */
/* Mann-Whitney U on sketches                                          */
/* ------------------------------------------------------------------ */

/* Running state of the walk over the buckets of both sketches, lowest first. */
struct mw_walk {
	double u;       /* pairs with b > a, ties counting half */
	double below_a; /* samples of a in the buckets walked so far */
	double ties;    /* sum of t^3 - t over tie groups (buckets) */
	uint64_t groups;
};

static void mw_bucket(struct mw_walk *w, uint64_t a, uint64_t b)
{
	double ca = (double)a, cb = (double)b, t = ca + cb;

	if (t == 0)
		return;
	w->u += cb * (w->below_a + 0.5 * ca);
	w->below_a += ca;
	w->ties += t * (t - 1) * (t + 1);
	w->groups++;
}

static void mw_walk_buckets(struct mw_walk *w, const struct tp_sketch *a, const struct tp_sketch *b)
{
	int64_t lo, hi, k;

	mw_bucket(w, a->zero_count, b->zero_count); /* zeros rank below every positive */
	if (a->nbuckets == 0 && b->nbuckets == 0)
		return;
	if (a->nbuckets == 0 || (b->nbuckets && b->min_key < a->min_key))
		lo = b->min_key;
	else
		lo = a->min_key;
	hi = a->nbuckets ? sketch_top(a) : sketch_top(b);
	if (b->nbuckets && sketch_top(b) > hi)
		hi = sketch_top(b);
	for (k = lo; k <= hi; k++)
		mw_bucket(w, sketch_count(a, k), sketch_count(b, k));
}

double tp_mann_whitney(const struct tp_sketch *a, const struct tp_sketch *b, double *effect)
{
	struct mw_walk w = { 0, 0, 0, 0 };
	double na = (double)a->n, nb = (double)b->n, n = na + nb, var, z;

	if (effect)
		*effect = NAN;
	if (a->n == 0 || b->n == 0)
		return NAN;
	mw_walk_buckets(&w, a, b);
	if (effect)
		*effect = w.u / (na * nb);
	/* With one group every sample ties: the tie correction cancels the variance. */
	var = na * nb / 12 * ((n + 1) - w.ties / (n * (n - 1)));
	if (w.groups < 2 || !(var > 0))
		return 1.0;
	z = fabs(w.u - na * nb / 2) - 0.5; /* continuity correction */
	if (z < 0)
		z = 0;
	return fmin(1.0, erfc(z / sqrt(var) / M_SQRT2));
}

/* ---- trace for charts ---- */

void tp_trace_init(struct tp_trace *t)
{
	t->n = 0;
	t->stride = 1;
	t->in_bucket = 0;
}

static void trace_compact(struct tp_trace *t)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i + 1 < t->n; i += 2)
		t->pts[k++] = t->pts[i + 1].v > t->pts[i].v ? t->pts[i + 1] : t->pts[i];
	if (t->n % 2)
		t->pts[k++] = t->pts[t->n - 1];
	t->n = k;
	t->stride *= 2;
}

void tp_trace_add(struct tp_trace *t, double v, uint64_t index, uint64_t line)
{
	if (!isfinite(v))
		return;
	if (t->in_bucket == 0 || v > t->bucket.v)
		t->bucket = (struct tp_sample){ v, index, line };
	if (++t->in_bucket < t->stride)
		return;
	if (t->n == TP_TRACE_MAX)
		trace_compact(t);
	t->pts[t->n++] = t->bucket;
	t->in_bucket = 0;
}

size_t tp_trace_points(const struct tp_trace *t, const struct tp_sample **pts, struct tp_sample *last)
{
	*pts = t->pts;
	if (t->in_bucket) {
		*last = t->bucket;
		return t->n + 1;
	}
	return t->n;
}
