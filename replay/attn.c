/*
 * attn.c - the double-precision reference and the FP32 CPU versions of
 * graph attention.
 *
 * Work is split into items (graph, head, up to TPR_ATTN_ROWS query rows)
 * handed out through an atomic counter, so thousands of small molecules
 * and one graph of 10^5 nodes both keep every thread busy. Each item first
 * transposes its head's keys and values into Kt, Vt [dh][n]: the scores
 * become unit-stride multiply-adds across keys, and each output element a
 * dot product along the keys, both of which vectorize.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"

/*
 * The hot loops are compiled twice, for AVX2 (x86-64-v3) and for the
 * baseline, and the loader picks one for the machine (GNU ifunc): the
 * binary stays portable and still uses 8-wide vectors where they exist.
 */
#if defined(__x86_64__) && defined(__GNUC__)
#define SIMD_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define SIMD_CLONES
#endif

/*
 * e^x for x <= 0, the only inputs a softmax has once the row maximum is
 * subtracted (Cephes expf: x = k ln2 + r, a degree-7 polynomial for e^r,
 * 2^k from the exponent bits; about 1 ulp). Unlike libm's expf it
 * vectorizes: no calls, no branches, truncating conversions only. Inputs
 * below -87.3 give 2^-126 ~ 1e-38, which no sum of a softmax can see.
 */
static inline float exp_le0(float x)
{
	x = x > -87.3f ? x : -87.3f; /* maxps semantics: vectorizes */
	int32_t k = -(int32_t)(0.5f - x * 1.44269504088896341f); /* round to nearest, x <= 0 */
	float fk = (float)k;
	float r = x - fk * 0.693359375f + fk * 2.12194440e-4f;
	float y = 1.9875691500e-4f;
	y = y * r + 1.3981999507e-3f;
	y = y * r + 8.3334519073e-3f;
	y = y * r + 4.1665795894e-2f;
	y = y * r + 1.6666665459e-1f;
	y = y * r + 5.0000001201e-1f;
	y = y * r * r + r + 1.0f;
	uint32_t bits = (uint32_t)(k + 127) << 23;
	float scale;
	memcpy(&scale, &bits, sizeof(scale));
	return y * scale;
}

/* s[i] = e^(s[i] - m) for all i; returns their sum. */
static inline float exp_shifted(float *restrict s, int32_t n, float m)
{
	float sum = 0;
	for (int32_t i = 0; i < n; i++)
		s[i] = exp_le0(s[i] - m);
	for (int32_t i = 0; i < n; i++)
		sum += s[i];
	return sum;
}

/*
 * a . b with eight partial sums: the fixed-width inner loop becomes one
 * vector register of partials without letting the compiler reassociate
 * (the summation order is ours, and the same at every optimization level).
 */
static inline float dot(const float *restrict a, const float *restrict b, int32_t n)
{
	float part[8] = { 0, 0, 0, 0, 0, 0, 0, 0 }, s = 0;
	int32_t i = 0;
	for (; i + 8 <= n; i += 8)
		for (int k = 0; k < 8; k++)
			part[k] += a[i + k] * b[i + k];
	for (; i < n; i++)
		s += a[i] * b[i];
	for (int k = 0; k < 8; k++)
		s += part[k];
	return s;
}

/* y += a x: unit stride and no aliasing, so it vectorizes. */
static inline void axpy(float *restrict y, const float *restrict x, float a, int32_t n)
{
	for (int32_t i = 0; i < n; i++)
		y[i] += a * x[i];
}

struct item {
	int32_t g, h, i0, i1;
};

struct tpr_attn_ws {
	int nthreads;
	int32_t maxn, dh;
	float *qkv;          /* projected Q, K, V when the job projects */
	float **kt, **vt;    /* per thread: [dh][maxn] */
	float **s;           /* per thread: [TPR_ATTN_ROWS][maxn] or [TPR_ATTN_KEYS] */
	float **acc;         /* per thread: [dh] */
	struct item *items;
	size_t nitems;
};

int tpr_attn_check(const struct tpr_attn_job *j, struct strbuf *err)
{
	if (j->ngraphs < 1 || j->n < 1 || j->dim < 1 || j->heads < 1 || j->dim % j->heads) {
		strbuf_addf(err, "attention: %d graphs, %d nodes, hidden %d, %d heads: the hidden size "
				 "must be a multiple of the heads",
			    (int)j->ngraphs, (int)j->n, (int)j->dim, (int)j->heads);
		return -1;
	}
	if (j->goff[0] != 0 || j->goff[j->ngraphs] != j->n) {
		strbuf_addstr(err, "attention: graph offsets do not cover the nodes");
		return -1;
	}
	for (int32_t g = 0; g < j->ngraphs; g++)
		if (j->goff[g + 1] < j->goff[g]) {
			strbuf_addstr(err, "attention: graph offsets go backwards");
			return -1;
		}
	return 0;
}

static int32_t max_nodes(const struct tpr_attn_job *j)
{
	int32_t mx = 1;
	for (int32_t g = 0; g < j->ngraphs; g++)
		if (j->goff[g + 1] - j->goff[g] > mx)
			mx = j->goff[g + 1] - j->goff[g];
	return mx;
}

/* ---- reference ------------------------------------------------------- */

static void project_ref(const struct tpr_attn_job *j, const float *w, double *y)
{
	for (int32_t i = 0; i < j->n; i++)
		for (int32_t c = 0; c < j->dim; c++) {
			double s = 0;
			for (int32_t k = 0; k < j->dim; k++)
				s += (double)j->x[(size_t)i * j->dim + k] * w[(size_t)k * j->dim + c];
			y[(size_t)i * j->dim + c] = s;
		}
}

static void widen(const float *a, double *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i] = a[i];
}

/* One query row of one head, in double. */
static void ref_row(const struct tpr_attn_job *j, const double *q, const double *k, const double *v,
		    int32_t g, int32_t h, int32_t i, double *s, double *out)
{
	int32_t dh = j->dim / j->heads, a = j->goff[g], b = j->goff[g + 1];
	double scale = 1 / sqrt((double)dh), mx = -INFINITY, sum = 0;
	const double *qi = q + (size_t)i * j->dim + h * dh;
	for (int32_t t = a; t < b; t++) {
		const double *kt = k + (size_t)t * j->dim + h * dh;
		double d = 0;
		for (int32_t c = 0; c < dh; c++)
			d += qi[c] * kt[c];
		s[t - a] = d * scale;
		mx = s[t - a] > mx ? s[t - a] : mx;
	}
	for (int32_t t = a; t < b; t++)
		sum += s[t - a] = exp(s[t - a] - mx);
	for (int32_t c = 0; c < dh; c++) {
		double acc = 0;
		for (int32_t t = a; t < b; t++)
			acc += s[t - a] * v[(size_t)t * j->dim + h * dh + c];
		out[(size_t)i * j->dim + h * dh + c] = acc / sum;
	}
}

void tpr_attn_ref(const struct tpr_attn_job *j, double *out)
{
	size_t nd = (size_t)j->n * j->dim;
	double *q = xmalloc(nd * sizeof(*q)), *k = xmalloc(nd * sizeof(*k)), *v = xmalloc(nd * sizeof(*v));
	double *s = xmalloc((size_t)max_nodes(j) * sizeof(*s));
	if (j->project) {
		project_ref(j, j->wq, q);
		project_ref(j, j->wk, k);
		project_ref(j, j->wv, v);
	} else {
		widen(j->q, q, nd);
		widen(j->k, k, nd);
		widen(j->v, v, nd);
	}
	for (int32_t g = 0; g < j->ngraphs; g++)
		for (int32_t h = 0; h < j->heads; h++)
			for (int32_t i = j->goff[g]; i < j->goff[g + 1]; i++)
				ref_row(j, q, k, v, g, h, i, s, out);
	free(q);
	free(k);
	free(v);
	free(s);
}

double tpr_rel_err(const float *a, const double *ref, size_t n)
{
	double mx = 0, diff = 0;
	for (size_t i = 0; i < n; i++) {
		double d = fabs((double)a[i] - ref[i]);
		if (!(d <= diff))
			diff = d; /* NaN propagates */
		mx = fabs(ref[i]) > mx ? fabs(ref[i]) : mx;
	}
	return mx > 0 ? diff / mx : diff;
}

/* ---- workspace -------------------------------------------------------- */

static void make_items(struct tpr_attn_ws *ws, const struct tpr_attn_job *j)
{
	size_t alloc = 0;
	for (int32_t g = 0; g < j->ngraphs; g++)
		for (int32_t h = 0; h < j->heads; h++)
			for (int32_t i = j->goff[g]; i < j->goff[g + 1]; i += TPR_ATTN_ROWS) {
				int32_t e = j->goff[g + 1] - i > TPR_ATTN_ROWS ? i + TPR_ATTN_ROWS : j->goff[g + 1];
				ALLOC_GROW(ws->items, ws->nitems + 1, alloc);
				ws->items[ws->nitems++] = (struct item){ g, h, i, e };
			}
}

struct tpr_attn_ws *tpr_attn_ws_new(const struct tpr_attn_job *j, int nthreads)
{
	struct tpr_attn_ws *ws = xcalloc(1, sizeof(*ws));
	ws->nthreads = nthreads;
	ws->maxn = max_nodes(j);
	ws->dh = j->dim / j->heads;
	if (j->project)
		ws->qkv = xmalloc(3 * (size_t)j->n * j->dim * sizeof(float));
	ws->kt = xcalloc((size_t)nthreads, sizeof(*ws->kt));
	ws->vt = xcalloc((size_t)nthreads, sizeof(*ws->vt));
	ws->s = xcalloc((size_t)nthreads, sizeof(*ws->s));
	ws->acc = xcalloc((size_t)nthreads, sizeof(*ws->acc));
	size_t srow = j->fused ? TPR_ATTN_KEYS : (size_t)TPR_ATTN_ROWS * ws->maxn;
	for (int t = 0; t < nthreads; t++) {
		ws->kt[t] = xmalloc((size_t)ws->dh * ws->maxn * sizeof(float));
		ws->vt[t] = xmalloc((size_t)ws->dh * ws->maxn * sizeof(float));
		ws->s[t] = xmalloc(srow * sizeof(float));
		ws->acc[t] = xmalloc((size_t)ws->dh * sizeof(float));
	}
	make_items(ws, j);
	return ws;
}

void tpr_attn_ws_free(struct tpr_attn_ws *ws)
{
	if (!ws)
		return;
	for (int t = 0; t < ws->nthreads; t++) {
		free(ws->kt[t]);
		free(ws->vt[t]);
		free(ws->s[t]);
		free(ws->acc[t]);
	}
	free(ws->kt);
	free(ws->vt);
	free(ws->s);
	free(ws->acc);
	free(ws->qkv);
	free(ws->items);
	free(ws);
}

/* ---- FP32 kernels ----------------------------------------------------- */

struct ctx {
	const struct tpr_attn_job *j;
	struct tpr_attn_ws *ws;
	const float *q, *k, *v;
	float *out;
	atomic_size_t next;
};

/* Y rows [r0, r1) = X W, accumulated across W's rows so the inner loop is unit-stride. */
SIMD_CLONES static void project_rows(const struct tpr_attn_job *j, const float *w, float *y,
				     int32_t r0, int32_t r1)
{
	int32_t d = j->dim;
	for (int32_t i = r0; i < r1; i++) {
		float *yi = y + (size_t)i * d;
		const float *xi = j->x + (size_t)i * d;
		memset(yi, 0, (size_t)d * sizeof(*yi));
		for (int32_t k = 0; k < d; k++)
			axpy(yi, w + (size_t)k * d, xi[k], d);
	}
}

static void project_share(void *arg, int tid, int nthreads)
{
	struct ctx *c = arg;
	const struct tpr_attn_job *j = c->j;
	int32_t r0 = (int32_t)((int64_t)j->n * tid / nthreads);
	int32_t r1 = (int32_t)((int64_t)j->n * (tid + 1) / nthreads);
	size_t nd = (size_t)j->n * j->dim;
	project_rows(j, j->wq, c->ws->qkv, r0, r1);
	project_rows(j, j->wk, c->ws->qkv + nd, r0, r1);
	project_rows(j, j->wv, c->ws->qkv + 2 * nd, r0, r1);
}

/* Kt[e][t] = K[a + t][h*dh + e], and the same for V: one head, transposed. */
static void transpose_kv(const struct ctx *c, int32_t g, int32_t h, float *kt, float *vt)
{
	const struct tpr_attn_job *j = c->j;
	int32_t a = j->goff[g], n = j->goff[g + 1] - a, dh = c->ws->dh;
	for (int32_t t = 0; t < n; t++) {
		const float *kr = c->k + (size_t)(a + t) * j->dim + h * dh;
		const float *vr = c->v + (size_t)(a + t) * j->dim + h * dh;
		for (int32_t e = 0; e < dh; e++) {
			kt[(size_t)e * n + t] = kr[e];
			vt[(size_t)e * n + t] = vr[e];
		}
	}
}

/* y += a0 x0 + a1 x1 + a2 x2 + a3 x3: a quarter of axpy's loads and stores of y. */
static inline void axpy4(float *restrict y, const float *restrict x0, const float *restrict x1,
			 const float *restrict x2, const float *restrict x3, const float *a, int32_t n)
{
	for (int32_t i = 0; i < n; i++)
		y[i] += a[0] * x0[i] + a[1] * x1[i] + a[2] * x2[i] + a[3] * x3[i];
}

/* s[t] = scale * q . k_t for keys [t0, t1) of the item's graph. */
static inline void scores(const float *q, const float *kt, int32_t n, int32_t dh, int32_t t0,
			  int32_t t1, float scale, float *s)
{
	int32_t e = 0, len = t1 - t0;
	const float *k0 = kt + t0;
	memset(s, 0, (size_t)len * sizeof(*s));
	for (; e + 4 <= dh; e += 4)
		axpy4(s, k0 + (size_t)e * n, k0 + (size_t)(e + 1) * n, k0 + (size_t)(e + 2) * n,
		      k0 + (size_t)(e + 3) * n, q + e, len);
	for (; e < dh; e++)
		axpy(s, k0 + (size_t)e * n, q[e], len);
	for (int32_t t = t0; t < t1; t++)
		s[t - t0] *= scale;
}

/* Three steps over the item's rows: all scores, then softmax, then the weighted sums. */
SIMD_CLONES static void naive_item(const struct ctx *c, const struct item *it, float *kt, float *vt,
				   float *s)
{
	const struct tpr_attn_job *j = c->j;
	int32_t n = j->goff[it->g + 1] - j->goff[it->g], dh = c->ws->dh, off = it->h * dh;
	float scale = 1.0f / sqrtf((float)dh);
	transpose_kv(c, it->g, it->h, kt, vt);
	for (int32_t i = it->i0; i < it->i1; i++)
		scores(c->q + (size_t)i * j->dim + off, kt, n, dh, 0, n, scale, s + (size_t)(i - it->i0) * n);
	for (int32_t i = it->i0; i < it->i1; i++) {
		float *row = s + (size_t)(i - it->i0) * n, mx = -INFINITY;
		for (int32_t t = 0; t < n; t++)
			mx = row[t] > mx ? row[t] : mx;
		float sum = exp_shifted(row, n, mx);
		for (int32_t t = 0; t < n; t++)
			row[t] /= sum;
	}
	for (int32_t i = it->i0; i < it->i1; i++) {
		const float *row = s + (size_t)(i - it->i0) * n;
		float *o = c->out + (size_t)i * j->dim + off;
		for (int32_t e = 0; e < dh; e++)
			o[e] = dot(row, vt + (size_t)e * n, n);
	}
}

/* One query row with the online softmax: running maximum m, running sum l, rescaled accumulator. */
SIMD_CLONES static void fused_row(const struct ctx *c, const struct item *it, int32_t i, const float *kt,
		      const float *vt, float *s, float *acc)
{
	const struct tpr_attn_job *j = c->j;
	int32_t n = j->goff[it->g + 1] - j->goff[it->g], dh = c->ws->dh, off = it->h * dh;
	float scale = 1.0f / sqrtf((float)dh), m = -INFINITY, l = 0;
	memset(acc, 0, (size_t)dh * sizeof(*acc));
	for (int32_t t0 = 0; t0 < n; t0 += TPR_ATTN_KEYS) {
		int32_t t1 = n - t0 > TPR_ATTN_KEYS ? t0 + TPR_ATTN_KEYS : n;
		float bm = -INFINITY;
		scores(c->q + (size_t)i * j->dim + off, kt, n, dh, t0, t1, scale, s);
		for (int32_t t = 0; t < t1 - t0; t++)
			bm = s[t] > bm ? s[t] : bm;
		if (bm > m) {
			float corr = m == -INFINITY ? 0.0f : exp_le0(m - bm);
			l *= corr;
			for (int32_t e = 0; e < dh; e++)
				acc[e] *= corr;
			m = bm;
		}
		l += exp_shifted(s, t1 - t0, m);
		for (int32_t e = 0; e < dh; e++)
			acc[e] += dot(s, vt + (size_t)e * n + t0, t1 - t0);
	}
	float *o = c->out + (size_t)i * j->dim + off;
	for (int32_t e = 0; e < dh; e++)
		o[e] = acc[e] / l;
}

static void attn_share(void *arg, int tid, int nthreads)
{
	struct ctx *c = arg;
	struct tpr_attn_ws *ws = c->ws;
	(void)nthreads;
	for (;;) {
		size_t k = atomic_fetch_add(&c->next, 1);
		if (k >= ws->nitems)
			break;
		const struct item *it = &ws->items[k];
		if (!c->j->fused) {
			naive_item(c, it, ws->kt[tid], ws->vt[tid], ws->s[tid]);
			continue;
		}
		transpose_kv(c, it->g, it->h, ws->kt[tid], ws->vt[tid]);
		for (int32_t i = it->i0; i < it->i1; i++)
			fused_row(c, it, i, ws->kt[tid], ws->vt[tid], ws->s[tid], ws->acc[tid]);
	}
}

void tpr_attn_cpu(struct tpr_pool *pool, const struct tpr_attn_job *j, struct tpr_attn_ws *ws,
		  float *out)
{
	struct ctx c = { .j = j, .ws = ws, .q = j->q, .k = j->k, .v = j->v, .out = out };
	atomic_init(&c.next, 0);
	if (j->project) {
		size_t nd = (size_t)j->n * j->dim;
		tpr_pool_run(pool, project_share, &c);
		c.q = ws->qkv;
		c.k = ws->qkv + nd;
		c.v = ws->qkv + 2 * nd;
	}
	tpr_pool_run(pool, attn_share, &c);
}
