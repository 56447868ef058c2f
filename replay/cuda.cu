/*
 * cuda.cu - the CUDA backend of tprof-replay: device discovery and peaks,
 * uploads, and timing done the way the logs should have been timed.
 *
 *   kernel  CUDA events recorded around each launch on one stream: device
 *           time only, after warm-up launches (module load, caches)
 *   call    the host clock around launch + cudaStreamSynchronize: what a
 *           Python timer with torch.cuda.synchronize() sees; in window
 *           mode one launch + synchronize per graph, like the GPM tower
 *   copies  inputs host to device and outputs back, from pinned
 *           (cudaMallocHost) and pageable (malloc) memory, CUDA events
 *
 * Every CUDA call is checked; device buffers of one request live in an
 * arena freed on every path, so an error never leaks device memory.
 *
 * Attention's projections go through cuBLAS (gemm.cu), loaded the first
 * time a job projects, or the own kernel where it does not load or
 * --gemm own asks; what ran is said in the device table.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>

#include "cuda_api.h"
#include "cuda_kernels.h"

struct tpr_cuda {
	int dev, sms;
	size_t smem_optin;        /* shared memory a block may opt in to */
	cudaStream_t s;
	cudaEvent_t e0, e1;
	struct tpr_cu_blas *blas; /* NULL until loaded, or where it does not load */
	int blas_tried;
	char blas_why[160];       /* why it did not load */
	char gemm[128];           /* what ran the last projections */
	int blas_status;          /* the last failed cuBLAS status, 0 if none */
};

static int ck(cudaError_t r, const char *what, struct tpr_err *e)
{
	if (r == cudaSuccess)
		return 0;
	e->code = (int)r;
	snprintf(e->msg, sizeof(e->msg), "%s: %s (CUDA error %d)", what, cudaGetErrorString(r), (int)r);
	return -1;
}
#define CK(call) ck((call), #call, e)

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void push(struct tpr_samples *s, double ms)
{
	if (s->n < s->cap)
		s->ms[s->n++] = ms;
}

/* ---- device buffers --------------------------------------------------- */

#define ARENA_MAX 32

struct arena {
	void *dev[ARENA_MAX];
	void *pinned[ARENA_MAX];
	void *host[ARENA_MAX];
	int nd, np, nh;
};

static void *dalloc(struct arena *a, size_t bytes, struct tpr_err *e)
{
	void *p = NULL;
	if (a->nd == ARENA_MAX || CK(cudaMalloc(&p, bytes ? bytes : 4)))
		return NULL;
	a->dev[a->nd++] = p;
	return p;
}

static void *palloc(struct arena *a, size_t bytes, struct tpr_err *e)
{
	void *p = NULL;
	if (a->np == ARENA_MAX || CK(cudaMallocHost(&p, bytes ? bytes : 4)))
		return NULL;
	a->pinned[a->np++] = p;
	return p;
}

static void *halloc(struct arena *a, size_t bytes, struct tpr_err *e)
{
	void *p = a->nh < ARENA_MAX ? malloc(bytes ? bytes : 4) : NULL;
	if (!p) {
		snprintf(e->msg, sizeof(e->msg), "out of host memory (%zu bytes)", bytes);
		return NULL;
	}
	a->host[a->nh++] = p;
	return p;
}

/* Frees everything; the first failure is reported only if nothing failed before. */
static int arena_free(struct arena *a, int rc, struct tpr_err *e)
{
	for (int i = 0; i < a->nd; i++)
		if (cudaFree(a->dev[i]) != cudaSuccess && rc == 0)
			rc = ck(cudaErrorUnknown, "cudaFree", e);
	for (int i = 0; i < a->np; i++)
		if (cudaFreeHost(a->pinned[i]) != cudaSuccess && rc == 0)
			rc = ck(cudaErrorUnknown, "cudaFreeHost", e);
	for (int i = 0; i < a->nh; i++)
		free(a->host[i]);
	memset(a, 0, sizeof(*a));
	return rc;
}

static void *upload(struct tpr_cuda *c, struct arena *a, const void *src, size_t bytes,
		    struct tpr_err *e)
{
	void *d = dalloc(a, bytes, e);
	if (!d || CK(cudaMemcpyAsync(d, src, bytes, cudaMemcpyHostToDevice, c->s)) ||
	    CK(cudaStreamSynchronize(c->s)))
		return NULL;
	return d;
}

/* ---- device facts ----------------------------------------------------- */

/* FP32 lanes per SM by compute capability (CUDA C Programming Guide, arithmetic throughput). */
static int fp32_lanes(int major, int minor)
{
	if (major == 6 && minor == 0)
		return 64;
	if (major == 7 || (major == 8 && minor == 0))
		return 64;
	return 128;
}

/*
 * Dense tensor-core FLOPs per SM and clock, BF16 with FP32 accumulation
 * (TF32: half of it), from NVIDIA's architecture whitepapers: A100 2048,
 * the other Ampere and Ada parts 1024, Hopper 4096, Blackwell data-centre
 * parts 8192, other Blackwell parts 1024. An unknown newer part is taken as
 * Hopper (said so). At the clock the device reports (H100 SXM: 1.98 GHz)
 * this is above the datasheet's figure at its lower tensor clock (1070
 * against 989 TFLOP/s): a bound from it errs on the side of "consistent".
 */
static int tensor_bf16_per_clock(int major, int minor, int *known)
{
	*known = 1;
	if (major == 8)
		return minor == 0 ? 2048 : 1024;
	if (major == 9)
		return 4096;
	if (major == 10)
		return 8192;
	if (major == 12)
		return 1024;
	*known = major < 8 ? 1 : 0;
	return major < 8 ? 0 : 4096;
}

static int fill_info(struct tpr_cuda *c, struct tpr_device_info *info, struct tpr_err *e)
{
	cudaDeviceProp p;
	int clk = 0, mclk = 0, bus = 0;
	if (CK(cudaGetDeviceProperties(&p, c->dev)) ||
	    CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, c->dev)) ||
	    CK(cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, c->dev)) ||
	    CK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, c->dev)))
		return -1;
	memset(info, 0, sizeof(*info));
	snprintf(info->kind, sizeof(info->kind), "cuda");
	snprintf(info->name, sizeof(info->name), "%.100s (sm_%d%d)", p.name, p.major, p.minor);
	c->sms = info->units = p.multiProcessorCount;
	info->clock_ghz = clk / 1e6;
	int lanes = fp32_lanes(p.major, p.minor), known;
	int tensor = tensor_bf16_per_clock(p.major, p.minor, &known);
	info->peak_gflops = (double)info->units * lanes * 2 * info->clock_ghz;
	info->peak_bf16 = tensor ? (double)info->units * tensor * info->clock_ghz : info->peak_gflops;
	info->peak_tf32 = tensor ? info->peak_bf16 / 2 : info->peak_gflops;
	info->peak_gbs = 2.0 * mclk * 1e3 * (bus / 8.0) / 1e9; /* double data rate */
	snprintf(info->peak_note, sizeof(info->peak_note),
		 "cudaGetDeviceProperties: %d SMs x %d FP32 lanes x 2 x %.2f GHz; tensor cores %d BF16 "
		 "FLOP/clock/SM%s, TF32 half; %d-bit bus x 2 x %.0f MHz",
		 info->units, lanes, info->clock_ghz, tensor, known ? "" : " (assumed: as Hopper)", bus,
		 mclk / 1e3);
	snprintf(info->gemm, sizeof(info->gemm), "none yet (cuBLAS is loaded by the first projection)");
	return 0;
}

extern "C" int tpr_cuda_built(void)
{
	return 1;
}

extern "C" const char *tpr_cuda_gemm(const struct tpr_cuda *c)
{
	return c ? c->gemm : "";
}

extern "C" int tpr_cuda_open(struct tpr_cuda **out, struct tpr_device_info *info, struct tpr_err *e)
{
	int count = 0;
	*out = NULL;
	cudaError_t r = cudaGetDeviceCount(&count);
	if (r != cudaSuccess || count == 0) {
		e->code = (int)r;
		snprintf(e->msg, sizeof(e->msg), "no CUDA device (cudaGetDeviceCount: %s, error %d)",
			 r != cudaSuccess ? cudaGetErrorString(r) : "0 devices", (int)r);
		return 1;
	}
	struct tpr_cuda *c = (struct tpr_cuda *)calloc(1, sizeof(*c));
	if (!c) {
		snprintf(e->msg, sizeof(e->msg), "out of host memory");
		return -1;
	}
	int optin = 0;
	if (CK(cudaSetDevice(0)) || CK(cudaStreamCreateWithFlags(&c->s, cudaStreamNonBlocking)) ||
	    CK(cudaEventCreate(&c->e0)) || CK(cudaEventCreate(&c->e1)) ||
	    CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, c->dev)) ||
	    fill_info(c, info, e)) {
		tpr_cuda_close(c);
		return -1;
	}
	c->smem_optin = (size_t)optin;
	snprintf(c->gemm, sizeof(c->gemm), "%s", info->gemm);
	*out = c;
	return 0;
}

extern "C" void tpr_cuda_close(struct tpr_cuda *c)
{
	if (!c)
		return;
	tpr_cu_blas_close(c->blas);
	/* teardown errors cannot be acted on: the process is about to stop using the device */
	if (c->e0)
		(void)cudaEventDestroy(c->e0);
	if (c->e1)
		(void)cudaEventDestroy(c->e1);
	if (c->s)
		(void)cudaStreamDestroy(c->s);
	free(c);
}

/* ---- timing ----------------------------------------------------------- */

typedef cudaError_t (*launch_fn)(struct tpr_cuda *c, const void *ctx);

/* Untimed runs first: module loading, caches, clocks ramping up. */
static int warm_up(struct tpr_cuda *c, launch_fn fn, const void *ctx, int n, struct tpr_err *e)
{
	for (int i = 0; i < n; i++)
		if (CK(fn(c, ctx)) || CK(cudaStreamSynchronize(c->s)))
			return -1;
	return 0;
}

/* Warm-up, then events around each launch until trials or the budget run out. */
static int time_kernel(struct tpr_cuda *c, launch_fn fn, const void *ctx,
		       const struct tpr_timing_opts *o, struct tpr_samples *out, struct tpr_err *e)
{
	if (warm_up(c, fn, ctx, o->warmup, e))
		return -1;
	double start = now_ms();
	for (int i = 0; i < o->trials && (i == 0 || now_ms() - start < o->budget_s * 1e3); i++) {
		float ms = 0;
		if (CK(cudaEventRecord(c->e0, c->s)) || CK(fn(c, ctx)) || CK(cudaEventRecord(c->e1, c->s)) ||
		    CK(cudaEventSynchronize(c->e1)) || CK(cudaEventElapsedTime(&ms, c->e0, c->e1)))
			return -1;
		push(out, ms);
	}
	return 0;
}

/* Host clock around launch + synchronize: the latency a caller sees. */
static int time_call(struct tpr_cuda *c, launch_fn fn, const void *ctx,
		     const struct tpr_timing_opts *o, struct tpr_samples *out, struct tpr_err *e)
{
	double start = now_ms();
	for (int i = 0; i < o->trials && (i == 0 || now_ms() - start < o->budget_s * 1e3); i++) {
		double t0 = now_ms();
		if (CK(fn(c, ctx)) || CK(cudaStreamSynchronize(c->s)))
			return -1;
		push(out, now_ms() - t0);
	}
	return 0;
}

/* One direction of copies of bytes between dev and host, with events. */
static int time_copy(struct tpr_cuda *c, void *dst, const void *src, size_t bytes,
		     cudaMemcpyKind kind, const struct tpr_timing_opts *o, struct tpr_samples *out,
		     struct tpr_err *e)
{
	double start = now_ms();
	for (int i = 0; i < o->trials + 1 && (i <= 1 || now_ms() - start < o->budget_s * 1e3); i++) {
		float ms = 0;
		if (CK(cudaEventRecord(c->e0, c->s)) || CK(cudaMemcpyAsync(dst, src, bytes, kind, c->s)) ||
		    CK(cudaEventRecord(c->e1, c->s)) || CK(cudaEventSynchronize(c->e1)) ||
		    CK(cudaEventElapsedTime(&ms, c->e0, c->e1)))
			return -1;
		if (i) /* the first copy warms up the path */
			push(out, ms);
	}
	return 0;
}

/* Copies of the inputs (dev_in, in_bytes) and the outputs (dev_out, out_bytes). */
static int time_copies(struct tpr_cuda *c, struct arena *a, void *dev_in, size_t in_bytes,
		       void *dev_out, size_t out_bytes, const struct tpr_timing_opts *o,
		       struct tpr_measure *m, struct tpr_err *e)
{
	size_t big = in_bytes > out_bytes ? in_bytes : out_bytes;
	void *pin = palloc(a, big, e), *page = pin ? halloc(a, big, e) : NULL;
	if (!page)
		return -1;
	memset(page, 0, big); /* touch the pages: first-touch faults are not a copy cost */
	m->h2d_bytes = (double)in_bytes;
	m->d2h_bytes = (double)out_bytes;
	if (time_copy(c, dev_in, pin, in_bytes, cudaMemcpyHostToDevice, o, &m->h2d_pinned, e) ||
	    time_copy(c, dev_in, page, in_bytes, cudaMemcpyHostToDevice, o, &m->h2d_pageable, e) ||
	    time_copy(c, pin, dev_out, out_bytes, cudaMemcpyDeviceToHost, o, &m->d2h_pinned, e) ||
	    time_copy(c, page, dev_out, out_bytes, cudaMemcpyDeviceToHost, o, &m->d2h_pageable, e))
		return -1;
	return 0;
}

/* ---- walks -------------------------------------------------------------- */

struct walk_dev {
	const struct tpr_graph *g;
	struct tpr_walk_cfg cfg;
	int32_t *rowptr, *col, *nodes, *edges;
};

static cudaError_t launch_walks(struct tpr_cuda *c, const void *ctx)
{
	const struct walk_dev *w = (const struct walk_dev *)ctx;
	return tpr_cu_walks(w->rowptr, w->col, w->cfg, w->g->n, 0, w->g->n, w->nodes, w->edges, c->sms,
			    c->s);
}

/* The GPM tower's pattern: one launch and one synchronize per graph. */
static cudaError_t launch_per_graph(struct tpr_cuda *c, const void *ctx)
{
	const struct walk_dev *w = (const struct walk_dev *)ctx;
	for (int32_t g = 0; g < w->g->ngraphs; g++) {
		cudaError_t r = tpr_cu_walks(w->rowptr, w->col, w->cfg, w->g->n, w->g->goff[g],
					     w->g->goff[g + 1], w->nodes, w->edges, c->sms, c->s);
		if (r == cudaSuccess)
			r = cudaStreamSynchronize(c->s);
		if (r != cudaSuccess)
			return r;
	}
	return cudaSuccess;
}

static int walk_setup(struct tpr_cuda *c, struct arena *a, const struct tpr_graph *g,
		      const struct tpr_walk_cfg *cfg, struct walk_dev *w, struct tpr_err *e)
{
	size_t walks = (size_t)cfg->patterns * (size_t)g->n;
	w->g = g;
	w->cfg = *cfg;
	w->rowptr = (int32_t *)upload(c, a, g->rowptr, ((size_t)g->n + 1) * sizeof(int32_t), e);
	w->col = w->rowptr ? (int32_t *)upload(c, a, g->col, ((size_t)g->m + 1) * sizeof(int32_t), e) : NULL;
	w->nodes = w->col ? (int32_t *)dalloc(a, walks * (cfg->length + 1) * sizeof(int32_t), e) : NULL;
	w->edges = w->nodes ? (int32_t *)dalloc(a, walks * cfg->length * sizeof(int32_t), e) : NULL;
	return w->edges ? 0 : -1;
}

static int walks_body(struct tpr_cuda *c, struct arena *a, const struct tpr_graph *g,
		      const struct tpr_walk_cfg *cfg, int32_t *nodes, int32_t *edges, struct tpr_err *e)
{
	struct walk_dev w;
	size_t walks = (size_t)cfg->patterns * (size_t)g->n;
	if (walk_setup(c, a, g, cfg, &w, e) || CK(launch_walks(c, &w)) || CK(cudaStreamSynchronize(c->s)) ||
	    CK(cudaMemcpy(nodes, w.nodes, walks * (cfg->length + 1) * sizeof(int32_t), cudaMemcpyDeviceToHost)) ||
	    CK(cudaMemcpy(edges, w.edges, walks * cfg->length * sizeof(int32_t), cudaMemcpyDeviceToHost)))
		return -1;
	return 0;
}

extern "C" int tpr_cuda_walks(struct tpr_cuda *c, const struct tpr_graph *g,
			      const struct tpr_walk_cfg *cfg, int32_t *nodes, int32_t *edges,
			      struct tpr_err *e)
{
	struct arena a;
	memset(&a, 0, sizeof(a));
	return arena_free(&a, walks_body(c, &a, g, cfg, nodes, edges, e), e);
}

static int bench_walks_body(struct tpr_cuda *c, struct arena *a, const struct tpr_graph *g,
			    const struct tpr_walk_cfg *cfg, const struct tpr_timing_opts *o,
			    int mode, struct tpr_measure *m, struct tpr_err *e)
{
	struct walk_dev w;
	size_t walks = (size_t)cfg->patterns * (size_t)g->n;
	int per_graph = mode & TPR_PER_GRAPH;
	if (walk_setup(c, a, g, cfg, &w, e) ||
	    (!(mode & TPR_NO_KERNEL) && time_kernel(c, launch_walks, &w, o, &m->kernel, e)))
		return -1;
	m->calls = per_graph ? g->ngraphs : 1;
	if ((mode & TPR_NO_KERNEL) && warm_up(c, launch_walks, &w, o->warmup, e))
		return -1;
	if (time_call(c, per_graph ? launch_per_graph : launch_walks, &w, o, &m->call, e))
		return -1;
	size_t in = ((size_t)g->n + 1 + (size_t)g->m) * sizeof(int32_t);
	size_t outb = walks * (2 * (size_t)cfg->length + 1) * sizeof(int32_t);
	void *din = dalloc(a, in, e), *dout = din ? dalloc(a, outb, e) : NULL;
	return dout ? time_copies(c, a, din, in, dout, outb, o, m, e) : -1;
}

extern "C" int tpr_cuda_bench_walks(struct tpr_cuda *c, const struct tpr_graph *g,
				    const struct tpr_walk_cfg *cfg, const struct tpr_timing_opts *o,
				    int mode, struct tpr_measure *m, struct tpr_err *e)
{
	struct arena a;
	memset(&a, 0, sizeof(a));
	return arena_free(&a, bench_walks_body(c, &a, g, cfg, o, mode, m, e), e);
}

/* ---- attention ---------------------------------------------------------- */

struct attn_dev {
	struct tpr_cu_attn a;
	int project, precision, use_blas;
	const void *x, *w; /* project: X [n, dim], W [dim, 3 dim], in the storage type */
	void *qkv;         /* project: [n, 3 dim] */
};

/* The projections (one product over all nodes), then the attention. */
static cudaError_t launch_attn(struct tpr_cuda *c, const void *ctx)
{
	const struct attn_dev *d = (const struct attn_dev *)ctx;
	int n = d->a.n, dim = d->a.dim;
	if (d->project && d->use_blas) {
		int st = tpr_cu_blas_gemm(c->blas, d->precision, d->x, d->w, d->qkv, n, dim, 3 * dim);
		if (st != 0) {
			c->blas_status = st;
			return cudaErrorUnknown;
		}
	} else if (d->project) {
		cudaError_t r = tpr_cu_project_own(d->x, d->w, d->qkv, n, dim, 3 * dim, d->a.bf16, c->s);
		if (r != cudaSuccess)
			return r;
	}
	return tpr_cu_attend(&d->a, c->s);
}

/* A failure of the product says so rather than "unknown error". */
static int attn_failed(struct tpr_cuda *c, struct tpr_err *e)
{
	if (c->blas_status) {
		e->code = c->blas_status;
		snprintf(e->msg, sizeof(e->msg), "cublasGemmEx: cuBLAS status %d (%s)", c->blas_status,
			 tpr_cu_blas_name(c->blas));
		c->blas_status = 0;
	}
	return -1;
}

/* cuBLAS (loaded on the first job that may use it) or the own kernel; 1 for cuBLAS. */
static int choose_gemm(struct tpr_cuda *c, const struct tpr_attn_job *j, struct tpr_err *e)
{
	if (j->gemm == TPR_GEMM_OWN) {
		snprintf(c->gemm, sizeof(c->gemm), "own tiled kernel, FP32 sums (--gemm own)");
		return 0;
	}
	if (!c->blas_tried) {
		c->blas_tried = 1;
		if (tpr_cu_blas_open(&c->blas, c->s, c->blas_why, sizeof(c->blas_why)) < 0)
			c->blas = NULL;
	}
	if (c->blas) {
		snprintf(c->gemm, sizeof(c->gemm), "%s", tpr_cu_blas_name(c->blas));
		return 1;
	}
	if (j->gemm == TPR_GEMM_CUBLAS) {
		snprintf(e->msg, sizeof(e->msg), "--gemm cublas: %s", c->blas_why);
		return -1;
	}
	snprintf(c->gemm, sizeof(c->gemm), "own tiled kernel, FP32 sums: %.96s", c->blas_why);
	return 0;
}

/* Host X into device storage: FP32, or converted to BF16 on the device. */
static void *to_storage(struct tpr_cuda *c, struct arena *a, const float *host, size_t count, int bf16,
			struct tpr_err *e)
{
	float *d = (float *)upload(c, a, host, count * sizeof(float), e);
	if (!d || !bf16)
		return d;
	void *b = dalloc(a, count * 2, e);
	if (!b || CK(tpr_cu_to_bf16(d, b, (long long)count, c->s)) || CK(cudaStreamSynchronize(c->s)))
		return NULL;
	return b;
}

/* -1: no nodes; 0: up to 32 nodes, 1: up to 64 (the small-graph kernel, where it fits); 2: larger. */
static int size_class(int32_t n, int fit32, int fit64)
{
	return n <= 0 ? -1 : n <= 32 && fit32 ? 0 : n <= 64 && fit64 ? 1 : 2;
}

/*
 * The graphs by size class, uploaded as one array (small32, small64, large),
 * and the three-step scores' offsets over the large graphs.
 */
static int classify(struct tpr_cuda *c, struct arena *a, const struct tpr_attn_job *j,
		    struct tpr_cu_attn *d, long long **soff, struct tpr_err *e)
{
	int dh = j->dim / j->heads;
	int fit32 = tpr_cu_small_fits(32, dh, c->smem_optin), fit64 = tpr_cu_small_fits(64, dh, c->smem_optin);
	int32_t *ids = (int32_t *)halloc(a, ((size_t)j->ngraphs + 1) * sizeof(int32_t), e);
	long long *off = (long long *)halloc(a, ((size_t)j->ngraphs + 1) * sizeof(long long), e);
	if (!ids || !off)
		return -1;
	d->nsmall32 = d->nsmall64 = d->nlarge = 0;
	d->maxn = 1;
	for (int pass = 0; pass < 3; pass++) /* ids in class order */
		for (int32_t g = 0; g < j->ngraphs; g++) {
			int32_t n = j->goff[g + 1] - j->goff[g];
			if (size_class(n, fit32, fit64) != pass)
				continue;
			ids[d->nsmall32 + d->nsmall64 + d->nlarge] = g;
			*(pass == 0 ? &d->nsmall32 : pass == 1 ? &d->nsmall64 : &d->nlarge) += 1;
			d->maxn = n > d->maxn ? n : d->maxn;
		}
	off[0] = 0;
	for (int32_t g = 0; g < j->ngraphs; g++) {
		long long n = j->goff[g + 1] - j->goff[g];
		off[g + 1] = off[g] + (size_class((int32_t)n, fit32, fit64) == 2 ? n * n : 0);
	}
	long long most = d->nsmall32 > d->nsmall64 ? d->nsmall32 : d->nsmall64;
	most = most > d->nlarge ? most : d->nlarge;
	if (most * j->heads > 2147483647LL) {
		snprintf(e->msg, sizeof(e->msg), "%lld (graph, head) pairs: more than one launch takes",
			 most * j->heads);
		return -1;
	}
	if (j->fused && d->nlarge && dh > TPR_CU_MAX_DH) {
		snprintf(e->msg, sizeof(e->msg),
			 "fused CUDA attention supports head sizes up to %d on graphs of more than 64 nodes, "
			 "not %d (use the three-step version)", TPR_CU_MAX_DH, dh);
		return -1;
	}
	int32_t *dev = (int32_t *)upload(c, a, ids, ((size_t)j->ngraphs + 1) * sizeof(int32_t), e);
	if (!dev)
		return -1;
	d->small32 = dev;
	d->small64 = dev + d->nsmall32;
	d->large = dev + d->nsmall32 + d->nsmall64;
	*soff = off;
	return 0;
}

/* The three-step scores of the large graphs, where the device has room for them. */
static int score_space(struct tpr_cuda *c, struct arena *a, const struct tpr_attn_job *j,
		       struct tpr_cu_attn *d, const long long *off, struct tpr_err *e)
{
	long long cells = off[j->ngraphs] * j->heads;
	size_t free_b = 0, total_b = 0;
	if (CK(cudaMemGetInfo(&free_b, &total_b)))
		return -1;
	if ((double)cells * sizeof(float) > 0.9 * (double)free_b) {
		snprintf(e->msg, sizeof(e->msg),
			 "three-step attention needs %.1f GB for its scores, the device has %.1f GB free",
			 cells * 4e-9, free_b * 1e-9);
		return -1;
	}
	d->soff = (long long *)upload(c, a, off, ((size_t)j->ngraphs + 1) * sizeof(long long), e);
	d->scores = d->soff ? (float *)dalloc(a, (size_t)cells * sizeof(float), e) : NULL;
	return d->scores ? 0 : -1;
}

/* W_qkv [dim, 3 dim]: row k is Wq's, Wk's and Wv's row k side by side. */
static float *weights_side_by_side(struct arena *a, const struct tpr_attn_job *j, struct tpr_err *e)
{
	size_t dim = (size_t)j->dim;
	float *w = (float *)halloc(a, 3 * dim * dim * sizeof(float), e);
	if (!w)
		return NULL;
	for (size_t k = 0; k < dim; k++) {
		memcpy(w + k * 3 * dim, j->wq + k * dim, dim * sizeof(float));
		memcpy(w + k * 3 * dim + dim, j->wk + k * dim, dim * sizeof(float));
		memcpy(w + k * 3 * dim + 2 * dim, j->wv + k * dim, dim * sizeof(float));
	}
	return w;
}

static int attn_setup(struct tpr_cuda *c, struct arena *a, const struct tpr_attn_job *j,
		      struct attn_dev *d, struct tpr_err *e)
{
	size_t nd = (size_t)j->n * j->dim;
	long long *off = NULL;
	memset(d, 0, sizeof(*d));
	d->a.ngraphs = j->ngraphs, d->a.n = j->n, d->a.dim = j->dim, d->a.heads = j->heads;
	d->a.fused = j->fused;
	d->a.bf16 = j->precision == TPR_BF16;
	d->project = j->project;
	d->precision = j->precision;
	size_t elt = d->a.bf16 ? 2 : 4;
	if (!(d->a.goff = (int32_t *)upload(c, a, j->goff, ((size_t)j->ngraphs + 1) * sizeof(int32_t), e)) ||
	    classify(c, a, j, &d->a, &off, e) || (!j->fused && score_space(c, a, j, &d->a, off, e)))
		return -1;
	if (j->project) {
		float *w = weights_side_by_side(a, j, e);
		if (!w || (d->use_blas = choose_gemm(c, j, e)) < 0 ||
		    !(d->x = to_storage(c, a, j->x, nd, d->a.bf16, e)) ||
		    !(d->w = to_storage(c, a, w, 3 * (size_t)j->dim * j->dim, d->a.bf16, e)) ||
		    !(d->qkv = dalloc(a, 3 * nd * elt, e)))
			return -1;
		d->a.q = d->qkv;
		d->a.k = (const char *)d->qkv + (size_t)j->dim * elt;
		d->a.v = (const char *)d->qkv + 2 * (size_t)j->dim * elt;
		d->a.ld = 3 * j->dim;
	} else {
		if (!(d->a.q = to_storage(c, a, j->q, nd, d->a.bf16, e)) ||
		    !(d->a.k = to_storage(c, a, j->k, nd, d->a.bf16, e)) ||
		    !(d->a.v = to_storage(c, a, j->v, nd, d->a.bf16, e)))
			return -1;
		d->a.ld = j->dim;
	}
	return (d->a.out = (float *)dalloc(a, nd * sizeof(float), e)) ? 0 : -1;
}

/* The precision the job ran at: TF32 only where cuBLAS ran the projections. */
static int32_t ran_precision(const struct attn_dev *d)
{
	if (d->precision == TPR_TF32 && !(d->project && d->use_blas))
		return TPR_FP32;
	return d->precision;
}

static int attn_body(struct tpr_cuda *c, struct arena *a, const struct tpr_attn_job *j, float *out,
		     struct tpr_err *e)
{
	struct attn_dev d;
	if (attn_setup(c, a, j, &d, e))
		return -1;
	if (CK(launch_attn(c, &d)) || CK(cudaStreamSynchronize(c->s)))
		return attn_failed(c, e);
	return CK(cudaMemcpy(out, d.a.out, (size_t)j->n * j->dim * sizeof(float), cudaMemcpyDeviceToHost));
}

extern "C" int tpr_cuda_attn(struct tpr_cuda *c, const struct tpr_attn_job *j, float *out,
			     struct tpr_err *e)
{
	struct arena a;
	memset(&a, 0, sizeof(a));
	return arena_free(&a, attn_body(c, &a, j, out, e), e);
}

static int bench_attn_body(struct tpr_cuda *c, struct arena *a, const struct tpr_attn_job *j,
			   const struct tpr_timing_opts *o, struct tpr_measure *m, struct tpr_err *e)
{
	struct attn_dev d;
	if (attn_setup(c, a, j, &d, e))
		return -1;
	if (time_kernel(c, launch_attn, &d, o, &m->kernel, e) || time_call(c, launch_attn, &d, o, &m->call, e))
		return attn_failed(c, e);
	m->calls = 1;
	m->precision = ran_precision(&d);
	size_t nd = (size_t)j->n * j->dim * sizeof(float);
	size_t in = j->project ? nd + 3 * (size_t)j->dim * j->dim * sizeof(float) : 3 * nd;
	void *din = dalloc(a, in, e);
	return din ? time_copies(c, a, din, in, d.a.out, nd, o, m, e) : -1;
}

extern "C" int tpr_cuda_bench_attn(struct tpr_cuda *c, const struct tpr_attn_job *j,
				   const struct tpr_timing_opts *o, struct tpr_measure *m,
				   struct tpr_err *e)
{
	struct arena a;
	memset(&a, 0, sizeof(a));
	return arena_free(&a, bench_attn_body(c, &a, j, o, m, e), e);
}
