/*
 * attn.cu - graph attention on the GPU, FP32, the two variants of attn.c:
 *
 *   three steps  scores_kernel writes every score of every (graph, head)
 *                (no padding: graph g's n_g x n_g block starts at
 *                heads * sum of the earlier n^2), softmax_kernel subtracts
 *                each row's maximum and normalizes, weighted_kernel sums
 *                the values. Simple, and its memory traffic is the point
 *                of comparison.
 *   fused        online softmax (Milakov & Gimelshein 2018): one block per
 *                (graph, head) and 128 query rows, one thread per query
 *                with q and the accumulator in registers; keys and values
 *                stream through shared memory in tiles. Graphs of any size
 *                share one launch without padding.
 *
 * Q, K, V projections, when asked for, are a tiled matrix product.
 */
#include <math.h>

#include "cuda_kernels.h"

#define ROWS 128          /* queries (threads) per fused block */
#define MM 16             /* projection tile */
#define SMEM_FLOATS 12288 /* 48 KiB: K and V tiles together, no opt-in needed */
#define GRID_Y_MAX 65535

/* y = x w for one projection (x [n, d], w [d, d]). */
__global__ void project_kernel(const float *__restrict__ x, const float *__restrict__ w,
			       float *__restrict__ y, int n, int d)
{
	__shared__ float xs[MM][MM + 1], ws[MM][MM + 1];
	int tx = threadIdx.x, ty = threadIdx.y;
	long long row = (long long)blockIdx.x * MM + ty;
	int c = blockIdx.y * MM + tx;
	float acc = 0.0f;
	for (int k0 = 0; k0 < d; k0 += MM) {
		xs[ty][tx] = (row < n && k0 + tx < d) ? x[row * d + k0 + tx] : 0.0f;
		ws[ty][tx] = (k0 + ty < d && c < d) ? w[(long long)(k0 + ty) * d + c] : 0.0f;
		__syncthreads();
#pragma unroll
		for (int k = 0; k < MM; k++)
			acc += xs[ty][k] * ws[k][tx];
		__syncthreads();
	}
	if (row < n && c < d)
		y[row * d + c] = acc;
}

template <int DH>
__global__ void __launch_bounds__(ROWS) fused_kernel(const float *__restrict__ q,
						     const float *__restrict__ k,
						     const float *__restrict__ v,
						     float *__restrict__ out,
						     const int32_t *__restrict__ goff, int heads,
						     int dim, int dh, int tile, float scale)
{
	extern __shared__ float sm[];
	float *sk = sm, *sv = sm + tile * DH;
	int g = blockIdx.x / heads, h = blockIdx.x % heads;
	int a = goff[g], n = goff[g + 1] - a;
	int i = blockIdx.y * ROWS + threadIdx.x;
	if (blockIdx.y * ROWS >= n)
		return; /* the whole block: no barrier is skipped by part of it */
	bool active = i < n;
	float qr[DH], acc[DH];
	const float *qi = q + (long long)(a + (active ? i : 0)) * dim + h * dh;
#pragma unroll
	for (int e = 0; e < DH; e++) {
		qr[e] = (active && e < dh) ? qi[e] * scale : 0.0f;
		acc[e] = 0.0f;
	}
	float m = -INFINITY, l = 0.0f;
	for (int t0 = 0; t0 < n; t0 += tile) {
		int tn = min(tile, n - t0);
		__syncthreads(); /* the previous tile is consumed */
		for (int idx = threadIdx.x; idx < tile * DH; idx += blockDim.x) {
			int r = idx / DH, e = idx % DH;
			bool ok = r < tn && e < dh;
			long long src = (long long)(a + t0 + (ok ? r : 0)) * dim + h * dh + (ok ? e : 0);
			sk[idx] = ok ? k[src] : 0.0f; /* zero padding: no bound checks in the inner loops */
			sv[idx] = ok ? v[src] : 0.0f;
		}
		__syncthreads();
		if (!active)
			continue;
		for (int r = 0; r < tn; r++) {
			const float *kr = sk + r * DH, *vr = sv + r * DH;
			float s = 0.0f;
#pragma unroll
			for (int e = 0; e < DH; e++)
				s += qr[e] * kr[e];
			if (s > m) { /* new running maximum: rescale what was summed so far */
				float corr = expf(m - s);
				l *= corr;
#pragma unroll
				for (int e = 0; e < DH; e++)
					acc[e] *= corr;
				m = s;
			}
			float p = expf(s - m);
			l += p;
#pragma unroll
			for (int e = 0; e < DH; e++)
				acc[e] += p * vr[e];
		}
	}
	if (!active)
		return;
	float *o = out + (long long)(a + i) * dim + h * dh;
#pragma unroll
	for (int e = 0; e < DH; e++)
		if (e < dh)
			o[e] = acc[e] / l;
}

/* Step 1: S[i][j] = scale * q_i . k_j for one (graph, head) per blockIdx.x. */
__global__ void scores_kernel(const float *__restrict__ q, const float *__restrict__ k,
			      float *__restrict__ S, const int32_t *__restrict__ goff,
			      const long long *__restrict__ soff, int heads, int dim, int dh,
			      float scale)
{
	int g = blockIdx.x / heads, h = blockIdx.x % heads;
	int a = goff[g], n = goff[g + 1] - a;
	float *sg = S + soff[g] * heads + (long long)h * n * n;
	for (int i = blockIdx.y * 16 + threadIdx.y; i < n; i += gridDim.y * 16)
		for (int j = blockIdx.z * 16 + threadIdx.x; j < n; j += gridDim.z * 16) {
			const float *qi = q + (long long)(a + i) * dim + h * dh;
			const float *kj = k + (long long)(a + j) * dim + h * dh;
			float s = 0.0f;
			for (int e = 0; e < dh; e++)
				s += qi[e] * kj[e];
			sg[(long long)i * n + j] = s * scale;
		}
}

/* Step 2: each row minus its maximum, exponentiated, normalized. */
__global__ void softmax_kernel(float *__restrict__ S, const int32_t *__restrict__ goff,
			       const long long *__restrict__ soff, int heads)
{
	int g = blockIdx.x / heads, h = blockIdx.x % heads;
	int n = goff[g + 1] - goff[g];
	float *sg = S + soff[g] * heads + (long long)h * n * n;
	for (int i = blockIdx.y * blockDim.x + threadIdx.x; i < n; i += gridDim.y * blockDim.x) {
		float *row = sg + (long long)i * n, mx = -INFINITY, sum = 0.0f;
		for (int j = 0; j < n; j++)
			mx = fmaxf(mx, row[j]);
		for (int j = 0; j < n; j++) {
			row[j] = expf(row[j] - mx);
			sum += row[j];
		}
		for (int j = 0; j < n; j++)
			row[j] /= sum;
	}
}

/* Step 3: out_i = sum_j P[i][j] v_j, one thread per (row, column). */
__global__ void weighted_kernel(const float *__restrict__ S, const float *__restrict__ v,
				float *__restrict__ out, const int32_t *__restrict__ goff,
				const long long *__restrict__ soff, int heads, int dim, int dh)
{
	int g = blockIdx.x / heads, h = blockIdx.x % heads;
	int a = goff[g], n = goff[g + 1] - a;
	const float *sg = S + soff[g] * heads + (long long)h * n * n;
	long long cells = (long long)n * dh;
	for (long long idx = (long long)blockIdx.y * blockDim.x + threadIdx.x; idx < cells;
	     idx += (long long)gridDim.y * blockDim.x) {
		int i = (int)(idx / dh), e = (int)(idx % dh);
		const float *row = sg + (long long)i * n;
		float acc = 0.0f;
		for (int j = 0; j < n; j++)
			acc += row[j] * v[(long long)(a + j) * dim + h * dh + e];
		out[(long long)(a + i) * dim + h * dh + e] = acc;
	}
}

static unsigned cap_y(long long want)
{
	return (unsigned)(want < 1 ? 1 : want > GRID_Y_MAX ? GRID_Y_MAX : want);
}

static cudaError_t project(const struct tpr_cu_attn *a, cudaStream_t s)
{
	dim3 block(MM, MM), grid((unsigned)((a->n + MM - 1) / MM), (unsigned)((a->dim + MM - 1) / MM));
	project_kernel<<<grid, block, 0, s>>>(a->x, a->wq, a->q, a->n, a->dim);
	project_kernel<<<grid, block, 0, s>>>(a->x, a->wk, a->k, a->n, a->dim);
	project_kernel<<<grid, block, 0, s>>>(a->x, a->wv, a->v, a->n, a->dim);
	return cudaGetLastError();
}

template <int DH>
static cudaError_t launch_fused(const struct tpr_cu_attn *a, int dh, float scale, cudaStream_t s)
{
	int tile = SMEM_FLOATS / 2 / DH;
	dim3 grid((unsigned)(a->ngraphs * a->heads), (unsigned)((a->maxn + ROWS - 1) / ROWS));
	size_t smem = 2 * (size_t)tile * DH * sizeof(float);
	fused_kernel<DH><<<grid, ROWS, smem, s>>>(a->q, a->k, a->v, a->out, a->goff, a->heads, a->dim,
						   dh, tile, scale);
	return cudaGetLastError();
}

static cudaError_t fused(const struct tpr_cu_attn *a, int dh, float scale, cudaStream_t s)
{
	if ((a->maxn + ROWS - 1) / ROWS > GRID_Y_MAX)
		return cudaErrorInvalidConfiguration;
	if (dh <= 16)
		return launch_fused<16>(a, dh, scale, s);
	if (dh <= 32)
		return launch_fused<32>(a, dh, scale, s);
	if (dh <= 64)
		return launch_fused<64>(a, dh, scale, s);
	if (dh <= TPR_CU_MAX_DH)
		return launch_fused<TPR_CU_MAX_DH>(a, dh, scale, s);
	return cudaErrorInvalidValue;
}

static cudaError_t three_steps(const struct tpr_cu_attn *a, int dh, float scale, cudaStream_t s)
{
	unsigned gh = (unsigned)(a->ngraphs * a->heads);
	unsigned t16 = cap_y((a->maxn + 15) / 16);
	scores_kernel<<<dim3(gh, t16, t16), dim3(16, 16), 0, s>>>(a->q, a->k, a->scores, a->goff,
								   a->soff, a->heads, a->dim, dh, scale);
	softmax_kernel<<<dim3(gh, cap_y((a->maxn + 127) / 128)), 128, 0, s>>>(a->scores, a->goff,
									     a->soff, a->heads);
	weighted_kernel<<<dim3(gh, cap_y(((long long)a->maxn * dh + 127) / 128)), 128, 0, s>>>(
		a->scores, a->v, a->out, a->goff, a->soff, a->heads, a->dim, dh);
	return cudaGetLastError();
}

cudaError_t tpr_cu_attn(const struct tpr_cu_attn *a, cudaStream_t s)
{
	int dh = a->dim / a->heads;
	float scale = 1.0f / sqrtf((float)dh);
	if (a->project) {
		cudaError_t r = project(a, s);
		if (r != cudaSuccess)
			return r;
	}
	return a->fused ? fused(a, dh, scale, s) : three_steps(a, dh, scale, s);
}
