/*
 * stats.h - the streaming statistics tprof-analyze is built on. Every
 * structure here has bounded memory whatever the number of samples, can be
 * merged (two halves of a log give the summary of the whole), and states
 * its error.
 *
 *   tp_series   one series of samples (batch times, GPM windows, ...):
 *               count/mean/variance (Welford), min/max with their index and
 *               line, a quantile sketch, the first TP_HEAD_MAX samples kept
 *               exactly (warmup lives at the start), the TP_EXTREMES largest
 *               and smallest samples with index and line (outliers), and
 *               the sums of a least-squares line against the sample index
 *               (drift).
 *   tp_sketch   relative-error quantile sketch (DDSketch-style log buckets):
 *               any quantile is within TP_SKETCH_ALPHA relative error of a
 *               true sample value of that rank; mergeable; at most
 *               TP_SKETCH_MAX_BUCKETS buckets (lowest buckets collapse
 *               beyond that, which only affects the lowest quantiles).
 *
 * Pure functions: no I/O, no global state, no allocation failures (x*alloc).
 */
#ifndef TPROF_STATS_H
#define TPROF_STATS_H

#include <stddef.h>
#include <stdint.h>

#define TP_SKETCH_ALPHA 0.005      /* 0.5 % relative error */
#define TP_SKETCH_MAX_BUCKETS 4096
#define TP_SKETCH_MIN_POSITIVE 1e-12 /* smaller values count in zero_count */
#define TP_HEAD_MAX 512            /* samples kept exactly at the start of a series */
#define TP_EXTREMES 32             /* largest and smallest samples kept */

struct tp_sketch {
	int32_t min_key;        /* key of counts[0] */
	uint32_t nbuckets;      /* used length of counts */
	uint32_t alloc;
	uint64_t *counts;       /* positive values: bucket key = ceil(log_gamma(x)) */
	uint64_t zero_count;    /* values <= TP_SKETCH_MIN_POSITIVE (incl. zero and negatives) */
	uint64_t neg_count;     /* negatives among them (reported, not ranked) */
	uint64_t n;
	int collapsed;          /* lowest buckets were merged */
};

void tp_sketch_init(struct tp_sketch *s);
/* NaN and +-inf are ignored (not counted in n). */
void tp_sketch_add(struct tp_sketch *s, double x);
/*
 * dst += src (dst == src doubles it). The result is identical, bucket for
 * bucket, to adding every sample to one sketch, collapse included: the
 * range is always [max(lowest key, highest key - MAX + 1), highest key].
 */
void tp_sketch_merge(struct tp_sketch *dst, const struct tp_sketch *src);
/*
 * q in [0,1] (clamped); NAN if empty or q is NaN. Lower-rank convention: the
 * value of the sample of 0-based rank floor(q (n-1)), within relative error
 * TP_SKETCH_ALPHA; 0 when that rank falls among the zero_count values.
 */
double tp_sketch_quantile(const struct tp_sketch *s, double q);
/*
 * Approximate number of samples <= x: zero_count plus every bucket up to and
 * including x's (over-counts by the samples within relative error alpha
 * above x). x < 0 gives 0 (negatives are not ranked); NAN for NaN.
 */
double tp_sketch_rank(const struct tp_sketch *s, double x);
void tp_sketch_free(struct tp_sketch *s);

struct tp_sample {
	double v;
	uint64_t index; /* 0-based position in the series */
	uint64_t line;  /* input line of the record */
};

/*
 * Samples are the finite values added; NaN/inf only count in nonfinite and
 * take no index, so indices run 0..n-1 without gaps. While n == 0 every
 * field is 0 except min and max, which are NAN. About 14 KiB: allocate it
 * or embed it, rather than keep many on a small stack.
 */
struct tp_series {
	uint64_t n;
	double mean, m2;                 /* Welford */
	double min, max;
	struct tp_sample min_s, max_s;   /* earliest index on ties */
	double sum;
	/*
	 * Regression of v on index: s_i = sum i and s_ii = sum i^2 (closed form,
	 * exact); s_v, s_iv, s_vv are sums of w, i*w and w^2 with w = v - head[0].v
	 * (the first sample), shifted so that they keep their precision. Use
	 * tp_series_trend rather than these raw sums.
	 */
	double s_i, s_ii, s_v, s_iv, s_vv;
	struct tp_sketch sketch;
	/* exact prefix */
	uint32_t nhead;
	struct tp_sample head[TP_HEAD_MAX];
	/* extremes: top holds the TP_EXTREMES largest (largest first), bottom the
	 * smallest (smallest first); ties keep the earlier index */
	uint32_t ntop, nbottom;
	struct tp_sample top[TP_EXTREMES], bottom[TP_EXTREMES];
	uint64_t nonfinite;              /* NaN/inf samples ignored */
};

void tp_series_init(struct tp_series *s);
void tp_series_add(struct tp_series *s, double v, uint64_t line);
/* dst += src, src's indices shifted by dst->n (src came after dst). dst == src allowed. */
void tp_series_merge(struct tp_series *dst, const struct tp_series *src);
void tp_series_free(struct tp_series *s);

double tp_series_std(const struct tp_series *s);      /* sample std (n-1); 0 if n < 2 */
/*
 * q in [0,1]; NAN if empty. Exact when n <= TP_HEAD_MAX (linear interpolation
 * between closest ranks, numpy's default), else the sketch's lower-rank
 * value clamped to [min, max].
 */
double tp_series_quantile(const struct tp_series *s, double q);

/*
 * qsort comparator for doubles, ascending (NaN compares equal to
 * everything, so keep NaN out of what is sorted).
 */
int tp_cmp_double(const void *a, const void *b);
/*
 * Exact median of v[0..n), which it sorts in place: the middle value, or
 * the mean of the two middle ones for an even n; NAN when n is 0.
 */
double tp_median(double *v, size_t n);
/*
 * Exact median absolute deviation of v[0..n): v is sorted, then
 * overwritten by the absolute deviations from its median (sorted too).
 * *median (if not NULL) gets the median; both are NAN when n is 0.
 */
double tp_mad(double *v, size_t n, double *median);

/* Least-squares line v = a + b*i over the whole series. */
struct tp_fit {
	double intercept, slope;
	double slope_se;   /* standard error of the slope */
	double r2;
	double t;          /* slope / slope_se */
	double p;          /* two-sided p-value of slope != 0 */
	uint64_t n;
};
/*
 * -1 if n < 3 (fit->n set, the rest NAN). A constant series gives slope 0,
 * slope_se 0, t 0, p 1 and r2 0; an exact line slope_se 0, t +-inf, p 0.
 */
int tp_series_trend(const struct tp_series *s, struct tp_fit *fit);

/*
 * Warmup: the truncation point d (0 <= d <= n/2, d < nhead) that minimises
 * the marginal standard error of the mean of the samples after it (MSER,
 * White 1997): MSER(d) = SS(d) / (n-d)^2, SS(d) the squared deviations of
 * samples d..n-1 from their mean; the smallest d wins ties. Computed
 * exactly from the kept head and the whole-series moments. Returns d
 * (0 = no warmup) and, if steady_mean is not NULL, the mean after it
 * (NAN and 0 for an empty series).
 */
uint64_t tp_series_warmup_end(const struct tp_series *s, double *steady_mean);

/* Tukey fences from tp_series_quantile's quartiles: lo = Q1 - k*IQR, hi = Q3 + k*IQR. */
void tp_series_fences(const struct tp_series *s, double k, double *lo, double *hi);

/*
 * Outliers by the modified z-score |M| = |0.6745 (x - median) / MAD| >
 * threshold (Iglewicz-Hoaglin; 3.5). When n <= TP_HEAD_MAX every sample is
 * a candidate and median and MAD are exact (from the head); else the
 * candidates are the kept extremes (top and bottom), the median comes from
 * the sketch and MAD is estimated as (Q3-Q1)/1.349*0.6745 = (Q3-Q1)/2
 * (exact for symmetric data). If MAD is 0, M = (x - median) /
 * (1.253314 MeanAD) with the mean absolute deviation from the median (exact
 * from the head, else from the sketch's bucket values); if that is 0 too
 * there are no outliers. Writes up to max samples, largest |M| first
 * (earlier index on ties); returns the count.
 */
size_t tp_series_outliers(const struct tp_series *s, double threshold, struct tp_sample *out,
			  size_t max);

/*
 * Ordinary least squares y = a + b x with a confidence interval for b
 * (Student t, n-2 degrees of freedom; confidence in (0,1), e.g. 0.95).
 * Pairs with a non-finite member are skipped; n in the result counts those
 * used. Returns -1 (fields NAN) with fewer than 2 pairs, all x equal, or a
 * confidence outside (0,1). With exactly 2 pairs the line is exact and the
 * interval unbounded: se_b NAN, b_lo -inf, b_hi +inf. r2 is 0 when all y
 * are equal.
 */
struct tp_linfit {
	double a, b, b_lo, b_hi; /* b's interval at the given confidence */
	double r2;
	double se_b;
	size_t n;
};
int tp_linfit(const double *x, const double *y, size_t n, double confidence, struct tp_linfit *f);

/*
 * Student t quantile: the t with P(T <= t) = p (two-sided interval: use
 * p = 1 - (1-c)/2); df > 0, not necessarily whole. -inf/+inf for p <= 0 /
 * p >= 1, NAN for NaN or df <= 0.
 */
double tp_t_quantile(double p, double df);
/*
 * Standard normal CDF and the two-sided p-value P(|T| >= |t|) of a t
 * statistic (regularized incomplete beta; NAN for NaN or df <= 0).
 */
double tp_normal_cdf(double z);
double tp_t_pvalue(double t, double df);

/*
 * Mann-Whitney U test from two sketches (samples in the same bucket count
 * as ties: resolution TP_SKETCH_ALPHA; the zero buckets rank lowest).
 * Normal approximation with tie correction and continuity correction 0.5.
 * Returns the two-sided p-value: NAN if either sketch is empty, 1 if every
 * sample ties. *effect (if not NULL) is P(b > a) + P(b == a)/2, the
 * common-language effect size (NAN when either is empty).
 */
double tp_mann_whitney(const struct tp_sketch *a, const struct tp_sketch *b, double *effect);

/*
 * A bounded trace of a series for charts: at most TP_TRACE_MAX points.
 * When full, neighbouring points are merged two by two, keeping the larger
 * value (so spikes and outliers stay visible), and later samples are
 * gathered in buckets of the doubled stride. Each point keeps the index
 * and line of the sample it shows.
 */
#define TP_TRACE_MAX 2048

struct tp_trace {
	uint32_t n;
	uint64_t stride;       /* samples per point */
	uint64_t in_bucket;    /* samples gathered into `bucket` so far */
	struct tp_sample bucket;
	struct tp_sample pts[TP_TRACE_MAX];
};

void tp_trace_init(struct tp_trace *t);
void tp_trace_add(struct tp_trace *t, double v, uint64_t index, uint64_t line);
/* Points so far, the unfinished bucket included; returns the count. */
size_t tp_trace_points(const struct tp_trace *t, const struct tp_sample **pts, struct tp_sample *last);

#endif
