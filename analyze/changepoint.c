/*
 * changepoint.c - E-Divisive means with a permutation test (see
 * changepoint.h). The statistic for a split of z[0..m) into a = tau left
 * and b = m - tau right values, with W_L, W_R the sums of |zi - zj| over
 * pairs within each side and B over pairs across:
 *
 *   Q = a b / (a + b) * (2 B / (a b) - W_L / C(a,2) - W_R / C(b,2))
 *
 * W_L(tau) for every tau comes from one left-to-right pass that adds each
 * value's distance to all earlier ones; a Fenwick tree over the values'
 * ranks gives that distance in O(log m). W_R is the same pass from the
 * right, and B = W_L(m) - W_L(tau) - W_R(tau).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "changepoint.h"

void cp_opts_default(struct cp_opts *o)
{
	o->alpha = 0.01;
	o->permutations = 199;
	o->seed = 1;
	o->min_size = 3;
}

struct vp {
	double v;
	uint32_t pos;
};

/* Scratch for one call: sized for the whole series once. */
struct cp_work {
	size_t n;
	double *wl, *wr;      /* n + 1 each */
	double *fsum;         /* Fenwick tree: sums (n + 1) */
	uint32_t *fcnt;       /* Fenwick tree: counts (n + 1) */
	uint32_t *rank;       /* rank of each position of the segment */
	struct vp *order;     /* the segment's values with their positions, sorted */
	double *shuffled;     /* a permuted copy of the series */
	uint64_t rng;
};

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* By value, ties by position: every rank is distinct. */
static int vp_cmp(const void *a, const void *b)
{
	const struct vp *x = a, *y = b;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static void fenwick_add(struct cp_work *w, size_t m, uint32_t r, double v)
{
	for (size_t i = (size_t)r + 1; i <= m; i += i & (~i + 1)) {
		w->fsum[i] += v;
		w->fcnt[i]++;
	}
}

/* Sum and count of the values of rank < r. */
static void fenwick_below(const struct cp_work *w, uint32_t r, double *sum, uint32_t *cnt)
{
	*sum = 0;
	*cnt = 0;
	for (size_t i = r; i > 0; i -= i & (~i + 1)) {
		*sum += w->fsum[i];
		*cnt += w->fcnt[i];
	}
}

/*
 * One pass over z[0..m) in the direction dir (+1 from the left, -1 from
 * the right): out[k] = sum of |zi - zj| over pairs among the first k
 * values met.
 */
static void within_sums(struct cp_work *w, const double *z, size_t m, int dir, double *out)
{
	double total = 0, acc = 0;
	memset(w->fsum, 0, (m + 1) * sizeof(*w->fsum));
	memset(w->fcnt, 0, (m + 1) * sizeof(*w->fcnt));
	out[0] = 0;
	for (size_t k = 0; k < m; k++) {
		size_t pos = dir > 0 ? k : m - 1 - k;
		double x = z[pos], sl;
		uint32_t r = w->rank[pos], cl;
		fenwick_below(w, r, &sl, &cl);
		/* values below x: x*cl - sl; above: (total - sl) - x*(k - cl) */
		acc += x * cl - sl + (total - sl) - x * (double)(k - cl);
		fenwick_add(w, m, r, x);
		total += x;
		out[k + 1] = acc;
	}
}

static double q_of(double a, double b, double wl, double wr, double cross)
{
	return a * b / (a + b) * (2 * cross / (a * b) - wl / (a * (a - 1) / 2) - wr / (b * (b - 1) / 2));
}

/* The best split of z[0..m): Q, and its tau in *tau; -inf when m < 2*min. */
static double best_split(struct cp_work *w, const double *z, size_t m, size_t min_size, size_t *tau)
{
	*tau = 0;
	if (m < 2 * min_size)
		return -INFINITY;
	for (size_t i = 0; i < m; i++)
		w->order[i] = (struct vp){ z[i], (uint32_t)i };
	qsort(w->order, m, sizeof(*w->order), vp_cmp);
	for (size_t i = 0; i < m; i++)
		w->rank[w->order[i].pos] = (uint32_t)i;
	within_sums(w, z, m, +1, w->wl);
	within_sums(w, z, m, -1, w->wr);
	double best = -INFINITY, all = w->wl[m];
	for (size_t t = min_size; t + min_size <= m; t++) {
		double wl = w->wl[t], wr = w->wr[m - t];
		double q = q_of((double)t, (double)(m - t), wl, wr, all - wl - wr);
		if (q > best) {
			best = q;
			*tau = t;
		}
	}
	return best;
}

static void work_init(struct cp_work *w, size_t n, uint64_t seed)
{
	w->n = n;
	w->wl = xcalloc(n + 1, sizeof(*w->wl));
	w->wr = xcalloc(n + 1, sizeof(*w->wr));
	w->fsum = xcalloc(n + 1, sizeof(*w->fsum));
	w->fcnt = xcalloc(n + 1, sizeof(*w->fcnt));
	w->rank = xcalloc(n + 1, sizeof(*w->rank));
	w->order = xcalloc(n + 1, sizeof(*w->order));
	w->shuffled = xcalloc(n + 1, sizeof(*w->shuffled));
	w->rng = seed;
}

static void work_free(struct cp_work *w)
{
	free(w->wl);
	free(w->wr);
	free(w->fsum);
	free(w->fcnt);
	free(w->rank);
	free(w->order);
	free(w->shuffled);
}

double cp_q(const double *x, size_t n, size_t tau)
{
	if (tau < 2 || tau + 2 > n)
		return NAN;
	struct cp_work w;
	work_init(&w, n, 0);
	size_t t;
	best_split(&w, x, n, 2, &t); /* fills wl and wr */
	double wl = w.wl[tau], wr = w.wr[n - tau];
	double q = q_of((double)tau, (double)(n - tau), wl, wr, w.wl[n] - wl - wr);
	work_free(&w);
	return q;
}

/* The largest best-split Q over the segments bounded by cuts[0..ncuts). */
static double max_over_segments(struct cp_work *w, const double *x, const size_t *cuts, size_t ncuts,
				size_t min_size, size_t *at)
{
	double best = -INFINITY;
	*at = 0;
	for (size_t s = 0; s + 1 < ncuts; s++) {
		size_t tau;
		double q = best_split(w, x + cuts[s], cuts[s + 1] - cuts[s], min_size, &tau);
		if (q > best) {
			best = q;
			*at = cuts[s] + tau;
		}
	}
	return best;
}

/* p-value of q_obs: shuffles within every segment (Fisher-Yates). */
static double permutation_p(struct cp_work *w, const double *x, const size_t *cuts, size_t ncuts,
			    const struct cp_opts *o, double q_obs)
{
	unsigned ge = 0;
	for (unsigned p = 0; p < o->permutations; p++) {
		memcpy(w->shuffled, x, w->n * sizeof(*x));
		for (size_t s = 0; s + 1 < ncuts; s++) {
			double *z = w->shuffled + cuts[s];
			for (size_t i = cuts[s + 1] - cuts[s]; i > 1; i--) {
				size_t j = (size_t)(splitmix64(&w->rng) % i);
				double t = z[i - 1];
				z[i - 1] = z[j];
				z[j] = t;
			}
		}
		size_t at;
		if (max_over_segments(w, w->shuffled, cuts, ncuts, o->min_size, &at) >= q_obs)
			ge++;
		/* already not significant: the rest cannot change the verdict */
		if ((double)(ge + 1) / (o->permutations + 1.0) > o->alpha)
			return (double)(ge + 1) / (p + 2.0);
	}
	return (double)(ge + 1) / (o->permutations + 1.0);
}

static double mean_of(const double *x, size_t a, size_t b)
{
	double s = 0;
	for (size_t i = a; i < b; i++)
		s += x[i];
	return b > a ? s / (double)(b - a) : NAN;
}

static void insert_cut(size_t *cuts, size_t *ncuts, size_t at)
{
	size_t i = *ncuts;
	while (i > 0 && cuts[i - 1] > at) {
		cuts[i] = cuts[i - 1];
		i--;
	}
	cuts[i] = at;
	(*ncuts)++;
}

size_t cp_edivisive(const double *x, size_t n, const struct cp_opts *o, struct cp_point *out, size_t max)
{
	size_t min_size = o->min_size < 2 ? 2 : o->min_size;
	struct cp_opts oo = *o;
	oo.min_size = min_size;
	if (n < 2 * min_size || max == 0 || n > UINT32_MAX)
		return 0;
	struct cp_work w;
	work_init(&w, n, o->seed);
	size_t *cuts = xcalloc(n + 2, sizeof(*cuts)), ncuts = 2, nfound = 0;
	double *qs = xcalloc(n + 1, sizeof(*qs)), *ps = xcalloc(n + 1, sizeof(*ps));
	cuts[0] = 0;
	cuts[1] = n;
	while (nfound < max) {
		size_t at;
		double q = max_over_segments(&w, x, cuts, ncuts, min_size, &at);
		if (!isfinite(q) || at == 0)
			break;
		double p = permutation_p(&w, x, cuts, ncuts, &oo, q);
		if (p > o->alpha)
			break;
		insert_cut(cuts, &ncuts, at);
		qs[at] = q;
		ps[at] = p;
		nfound++;
	}
	for (size_t c = 1; c + 1 < ncuts; c++) {
		struct cp_point *pt = &out[c - 1];
		pt->index = cuts[c];
		pt->q = qs[cuts[c]];
		pt->p = ps[cuts[c]];
		pt->mean_before = mean_of(x, cuts[c - 1], cuts[c]);
		pt->mean_after = mean_of(x, cuts[c], cuts[c + 1]);
		pt->change = pt->mean_before != 0 ? pt->mean_after / pt->mean_before - 1 : NAN;
	}
	free(cuts);
	free(qs);
	free(ps);
	work_free(&w);
	return nfound;
}
