/*
 * attn.cu - graph attention on the GPU, the two variants of attn.c, with
 * Q, K and V stored in FP32 or BF16 (always computed in FP32 registers):
 *
 *   small graphs  (up to 64 nodes, either variant) one block per (graph,
 *                 head) holds the graph's Q, K and V of that head in shared
 *                 memory; each thread computes a 4 x 4 tile of the scores in
 *                 registers, the rows' softmax is reduced across the tile's
 *                 lanes with shuffles, and the probabilities go through
 *                 shared memory into the weighted sum. Graphs of up to 32
 *                 nodes take 64-thread blocks, of 33 to 64 nodes 256-thread
 *                 ones: a batch of molecules is thousands of such blocks.
 *   three steps   (larger graphs) scores_kernel writes every score of every
 *                 (graph, head) (no padding: graph g's n_g x n_g block
 *                 starts at heads * sum of the earlier large graphs' n^2),
 *                 softmax_kernel subtracts each row's maximum and
 *                 normalizes, weighted_kernel sums the values. Simple, and
 *                 its memory traffic is the point of comparison.
 *   fused         (larger graphs) online softmax (Milakov & Gimelshein
 *                 2018): one block per (graph, head) and 128 query rows,
 *                 one thread per query with q and the accumulator in
 *                 registers; keys and values stream through shared memory
 *                 in tiles.
 *
 * The Q, K, V projections are one matrix product over all nodes (gemm.cu:
 * cuBLAS, or project_kernel here when it is not loaded); Q, K and V are
 * then the columns [0, d), [d, 2d), [2d, 3d) of one [n, 3d] array, read
 * with a row stride (ld).
 */
#include <math.h>

#include <cuda_bf16.h>

#include "cuda_kernels.h"

#define ROWS 128          /* queries (threads) per fused block */
#define MM 16             /* projection tile */
#define SMEM_FLOATS 12288 /* 48 KiB: K and V tiles together, no opt-in needed */
#define SMEM_DEFAULT (48 << 10)
#define GRID_Y_MAX 65535

__device__ __forceinline__ float tof(float x)
{
	return x;
}

__device__ __forceinline__ float tof(__nv_bfloat16 x)
{
	return __bfloat162float(x);
}

template <typename T> __device__ __forceinline__ T fromf(float x);
template <> __device__ __forceinline__ float fromf<float>(float x)
{
	return x;
}
template <> __device__ __forceinline__ __nv_bfloat16 fromf<__nv_bfloat16>(float x)
{
	return __float2bfloat16(x);
}

/* ---- projections and conversions ----------------------------------------- */

/* y = x w (x [n, kd], w [kd, nc], y [n, nc], row-major), accumulated in FP32. */
template <typename T>
__global__ void project_kernel(const T *__restrict__ x, const T *__restrict__ w, T *__restrict__ y,
			       int n, int kd, int nc)
{
	__shared__ float xs[MM][MM + 1], ws[MM][MM + 1];
	int tx = threadIdx.x, ty = threadIdx.y;
	long long row = (long long)blockIdx.x * MM + ty;
	int c = blockIdx.y * MM + tx;
	float acc = 0.0f;
	for (int k0 = 0; k0 < kd; k0 += MM) {
		xs[ty][tx] = (row < n && k0 + tx < kd) ? tof(x[row * kd + k0 + tx]) : 0.0f;
		ws[ty][tx] = (k0 + ty < kd && c < nc) ? tof(w[(long long)(k0 + ty) * nc + c]) : 0.0f;
		__syncthreads();
#pragma unroll
		for (int k = 0; k < MM; k++)
			acc += xs[ty][k] * ws[k][tx];
		__syncthreads();
	}
	if (row < n && c < nc)
		y[row * nc + c] = fromf<T>(acc);
}

__global__ void to_bf16_kernel(const float *__restrict__ a, __nv_bfloat16 *__restrict__ b, long long n)
{
	for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (long long)gridDim.x * blockDim.x)
		b[i] = __float2bfloat16(a[i]);
}

cudaError_t tpr_cu_to_bf16(const float *a, void *b, long long n, cudaStream_t s)
{
	long long blocks = (n + 255) / 256;
	to_bf16_kernel<<<(unsigned)(blocks < 65535 ? (blocks > 0 ? blocks : 1) : 65535), 256, 0, s>>>(
		a, (__nv_bfloat16 *)b, n);
	return cudaGetLastError();
}

cudaError_t tpr_cu_project_own(const void *x, const void *w, void *y, int n, int kd, int nc, int bf16,
			       cudaStream_t s)
{
	dim3 block(MM, MM), grid((unsigned)((n + MM - 1) / MM), (unsigned)((nc + MM - 1) / MM));
	if (grid.y > GRID_Y_MAX)
		return cudaErrorInvalidConfiguration;
	if (bf16)
		project_kernel<__nv_bfloat16><<<grid, block, 0, s>>>((const __nv_bfloat16 *)x,
								     (const __nv_bfloat16 *)w,
								     (__nv_bfloat16 *)y, n, kd, nc);
	else
		project_kernel<float><<<grid, block, 0, s>>>((const float *)x, (const float *)w, (float *)y, n,
							     kd, nc);
	return cudaGetLastError();
}

/* ---- small graphs: one block per (graph, head) ----------------------------- */

/* Floats of shared memory the small kernel needs: Q and K rows at an odd stride, V, P transposed. */
static size_t small_smem(int np, int dh)
{
	return ((size_t)2 * np * (dh | 1) + (size_t)np * dh + (size_t)np * np) * sizeof(float);
}

/*
 * NP: the padded graph size (32 or 64); DHM: the largest head size this
 * instantiation serves (32, 64, 128). Threads NP * NP / 16, each a 4 x 4
 * tile of the scores (rows 4 ti.., columns 4 tj..); the RG threads of one
 * row group are consecutive lanes of one warp, so a row's maximum and sum
 * are shuffles within the warp. Every thread reaches every barrier and
 * shuffle; only the arithmetic of rows past the graph is skipped.
 */
template <int NP, int DHM, typename T>
__global__ void __launch_bounds__(NP * NP / 16) small_kernel(
	const T *__restrict__ q, const T *__restrict__ k, const T *__restrict__ v, int ld,
	float *__restrict__ out, const int32_t *__restrict__ goff, const int32_t *__restrict__ list,
	int heads, int dim, int dh, float scale)
{
	constexpr int NT = NP * NP / 16; /* threads */
	constexpr int RG = NP / 4;       /* lanes sharing a row group of the scores */
	constexpr int CG = NT / RG;      /* column groups of the weighted sum */
	constexpr int EPT = (DHM + CG - 1) / CG;
	extern __shared__ float sm[];
	const int ds = dh | 1; /* odd: the lanes of a tile read different banks */
	float *qs = sm, *ks = qs + NP * ds, *vs = ks + NP * ds, *pt = vs + NP * dh;
	const int g = list[blockIdx.x / heads], h = blockIdx.x % heads;
	const int a = goff[g], n = goff[g + 1] - a, t = threadIdx.x;

#pragma unroll 4 /* several rows' loads in flight per thread */
	for (int idx = t; idx < NP * dh; idx += NT) {
		int i = idx / dh, e = idx - i * dh;
		float qv = 0.0f, kv = 0.0f, vv = 0.0f;
		if (i < n) {
			long long src = (long long)(a + i) * ld + (long long)h * dh + e;
			qv = tof(q[src]) * scale;
			kv = tof(k[src]);
			vv = tof(v[src]);
		}
		qs[i * ds + e] = qv;
		ks[i * ds + e] = kv;
		vs[i * dh + e] = vv;
	}
	__syncthreads();

	/* scores of rows 4 ti + r, columns 4 tj + c */
	const int ti = t / RG, tj = t % RG;
	float s[4][4];
#pragma unroll
	for (int r = 0; r < 4; r++)
#pragma unroll
		for (int c = 0; c < 4; c++)
			s[r][c] = 0.0f;
	if (4 * ti < n) {
		const float *q0 = qs + 4 * ti * ds, *k0 = ks + 4 * tj * ds;
		for (int e = 0; e < dh; e++) {
			float qr[4], kr[4];
#pragma unroll
			for (int r = 0; r < 4; r++)
				qr[r] = q0[r * ds + e];
#pragma unroll
			for (int c = 0; c < 4; c++)
				kr[c] = k0[c * ds + e];
#pragma unroll
			for (int r = 0; r < 4; r++)
#pragma unroll
				for (int c = 0; c < 4; c++)
					s[r][c] = fmaf(qr[r], kr[c], s[r][c]);
		}
	}

	/* softmax of each row: maximum subtracted, across the RG lanes of the row group */
#pragma unroll
	for (int r = 0; r < 4; r++) {
		float m = -INFINITY, sum = 0.0f;
#pragma unroll
		for (int c = 0; c < 4; c++)
			if (4 * tj + c < n)
				m = fmaxf(m, s[r][c]);
#pragma unroll
		for (int o = RG / 2; o > 0; o >>= 1)
			m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
#pragma unroll
		for (int c = 0; c < 4; c++) {
			float p = 4 * tj + c < n ? expf(s[r][c] - m) : 0.0f;
			s[r][c] = p;
			sum += p;
		}
#pragma unroll
		for (int o = RG / 2; o > 0; o >>= 1)
			sum += __shfl_xor_sync(0xffffffffu, sum, o);
		float inv = 1.0f / sum;
#pragma unroll
		for (int c = 0; c < 4; c++)
			s[r][c] *= inv;
	}
	/* P transposed, pt[j][i]: the weighted sum reads four rows' weights of key j at once */
#pragma unroll
	for (int c = 0; c < 4; c++)
		*(float4 *)&pt[(4 * tj + c) * NP + 4 * ti] = make_float4(s[0][c], s[1][c], s[2][c], s[3][c]);
	__syncthreads();

	/* out rows 4 rg + r, columns cg, cg + CG, ...: consecutive lanes, consecutive columns */
	const int cg = t % CG, rg = t / CG;
	float acc[4][EPT];
#pragma unroll
	for (int r = 0; r < 4; r++)
#pragma unroll
		for (int u = 0; u < EPT; u++)
			acc[r][u] = 0.0f;
	if (4 * rg >= n)
		return; /* no barrier follows */
	for (int j = 0; j < n; j++) {
		float4 p = *(const float4 *)&pt[j * NP + 4 * rg];
		const float *vr = vs + j * dh;
#pragma unroll
		for (int u = 0; u < EPT; u++) {
			int e = cg + u * CG;
			float x = e < dh ? vr[e] : 0.0f;
			acc[0][u] = fmaf(p.x, x, acc[0][u]);
			acc[1][u] = fmaf(p.y, x, acc[1][u]);
			acc[2][u] = fmaf(p.z, x, acc[2][u]);
			acc[3][u] = fmaf(p.w, x, acc[3][u]);
		}
	}
#pragma unroll
	for (int r = 0; r < 4; r++) {
		int i = 4 * rg + r;
		if (i >= n)
			break;
		float *o = out + (long long)(a + i) * dim + (long long)h * dh;
#pragma unroll
		for (int u = 0; u < EPT; u++)
			if (cg + u * CG < dh)
				o[cg + u * CG] = acc[r][u];
	}
}

template <int NP, int DHM, typename T>
static cudaError_t launch_small_dh(const struct tpr_cu_attn *a, const int32_t *list, int count, int dh,
				   float scale, cudaStream_t s)
{
	size_t smem = small_smem(NP, dh);
	if (smem > SMEM_DEFAULT) {
		cudaError_t r = cudaFuncSetAttribute(small_kernel<NP, DHM, T>,
						     cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
		if (r != cudaSuccess)
			return r;
	}
	small_kernel<NP, DHM, T><<<(unsigned)count * (unsigned)a->heads, NP * NP / 16, smem, s>>>(
		(const T *)a->q, (const T *)a->k, (const T *)a->v, a->ld, a->out, a->goff, list, a->heads,
		a->dim, dh, scale);
	return cudaGetLastError();
}

template <int NP, typename T>
static cudaError_t launch_small(const struct tpr_cu_attn *a, const int32_t *list, int count, int dh,
				float scale, cudaStream_t s)
{
	if (count == 0)
		return cudaSuccess;
	if (dh <= 32)
		return launch_small_dh<NP, 32, T>(a, list, count, dh, scale, s);
	if (dh <= 64)
		return launch_small_dh<NP, 64, T>(a, list, count, dh, scale, s);
	if (dh <= TPR_CU_SMALL_MAX_DH)
		return launch_small_dh<NP, TPR_CU_SMALL_MAX_DH, T>(a, list, count, dh, scale, s);
	return cudaErrorInvalidValue;
}

int tpr_cu_small_fits(int np, int dh, size_t smem_optin)
{
	return dh <= TPR_CU_SMALL_MAX_DH && small_smem(np, dh) <= smem_optin;
}

/* ---- larger graphs ------------------------------------------------------- */

template <int DH, typename T>
__global__ void __launch_bounds__(ROWS) fused_kernel(const T *__restrict__ q, const T *__restrict__ k,
						     const T *__restrict__ v, int ld,
						     float *__restrict__ out,
						     const int32_t *__restrict__ goff,
						     const int32_t *__restrict__ list, int heads,
						     int dim, int dh, int tile, float scale)
{
	extern __shared__ float sm[];
	float *sk = sm, *sv = sm + tile * DH;
	int g = list[blockIdx.x / heads], h = blockIdx.x % heads;
	int a = goff[g], n = goff[g + 1] - a;
	int i = blockIdx.y * ROWS + threadIdx.x;
	if (blockIdx.y * ROWS >= n)
		return; /* the whole block: no barrier is skipped by part of it */
	bool active = i < n;
	float qr[DH], acc[DH];
	const T *qi = q + (long long)(a + (active ? i : 0)) * ld + (long long)h * dh;
#pragma unroll
	for (int e = 0; e < DH; e++) {
		qr[e] = (active && e < dh) ? tof(qi[e]) * scale : 0.0f;
		acc[e] = 0.0f;
	}
	float m = -INFINITY, l = 0.0f;
	for (int t0 = 0; t0 < n; t0 += tile) {
		int tn = min(tile, n - t0);
		__syncthreads(); /* the previous tile is consumed */
		for (int idx = threadIdx.x; idx < tile * DH; idx += blockDim.x) {
			int r = idx / DH, e = idx % DH;
			bool ok = r < tn && e < dh;
			long long src = (long long)(a + t0 + (ok ? r : 0)) * ld + (long long)h * dh + (ok ? e : 0);
			sk[idx] = ok ? tof(k[src]) : 0.0f; /* zero padding: no bound checks in the inner loops */
			sv[idx] = ok ? tof(v[src]) : 0.0f;
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
	float *o = out + (long long)(a + i) * dim + (long long)h * dh;
#pragma unroll
	for (int e = 0; e < DH; e++)
		if (e < dh)
			o[e] = acc[e] / l;
}

/* Step 1: S[i][j] = scale * q_i . k_j for one (graph, head) per blockIdx.x. */
template <typename T>
__global__ void scores_kernel(const T *__restrict__ q, const T *__restrict__ k, int ld,
			      float *__restrict__ S, const int32_t *__restrict__ goff,
			      const int32_t *__restrict__ list, const long long *__restrict__ soff,
			      int heads, int dh, float scale)
{
	int g = list[blockIdx.x / heads], h = blockIdx.x % heads;
	int a = goff[g], n = goff[g + 1] - a;
	float *sg = S + soff[g] * heads + (long long)h * n * n;
	for (int i = blockIdx.y * 16 + threadIdx.y; i < n; i += gridDim.y * 16)
		for (int j = blockIdx.z * 16 + threadIdx.x; j < n; j += gridDim.z * 16) {
			const T *qi = q + (long long)(a + i) * ld + (long long)h * dh;
			const T *kj = k + (long long)(a + j) * ld + (long long)h * dh;
			float s = 0.0f;
			for (int e = 0; e < dh; e++)
				s += tof(qi[e]) * tof(kj[e]);
			sg[(long long)i * n + j] = s * scale;
		}
}

/* Step 2: each row minus its maximum, exponentiated, normalized. */
__global__ void softmax_kernel(float *__restrict__ S, const int32_t *__restrict__ goff,
			       const int32_t *__restrict__ list, const long long *__restrict__ soff,
			       int heads)
{
	int g = list[blockIdx.x / heads], h = blockIdx.x % heads;
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
template <typename T>
__global__ void weighted_kernel(const float *__restrict__ S, const T *__restrict__ v, int ld,
				float *__restrict__ out, const int32_t *__restrict__ goff,
				const int32_t *__restrict__ list, const long long *__restrict__ soff,
				int heads, int dim, int dh)
{
	int g = list[blockIdx.x / heads], h = blockIdx.x % heads;
	int a = goff[g], n = goff[g + 1] - a;
	const float *sg = S + soff[g] * heads + (long long)h * n * n;
	long long cells = (long long)n * dh;
	for (long long idx = (long long)blockIdx.y * blockDim.x + threadIdx.x; idx < cells;
	     idx += (long long)gridDim.y * blockDim.x) {
		int i = (int)(idx / dh), e = (int)(idx % dh);
		const float *row = sg + (long long)i * n;
		float acc = 0.0f;
		for (int j = 0; j < n; j++)
			acc += row[j] * tof(v[(long long)(a + j) * ld + (long long)h * dh + e]);
		out[(long long)(a + i) * dim + (long long)h * dh + e] = acc;
	}
}

static unsigned cap_y(long long want)
{
	return (unsigned)(want < 1 ? 1 : want > GRID_Y_MAX ? GRID_Y_MAX : want);
}

template <int DH, typename T>
static cudaError_t launch_fused(const struct tpr_cu_attn *a, int dh, float scale, cudaStream_t s)
{
	int tile = SMEM_FLOATS / 2 / DH;
	dim3 grid((unsigned)a->nlarge * (unsigned)a->heads, (unsigned)((a->maxn + ROWS - 1) / ROWS));
	size_t smem = 2 * (size_t)tile * DH * sizeof(float);
	fused_kernel<DH, T><<<grid, ROWS, smem, s>>>((const T *)a->q, (const T *)a->k, (const T *)a->v, a->ld,
						      a->out, a->goff, a->large, a->heads, a->dim, dh, tile,
						      scale);
	return cudaGetLastError();
}

template <typename T>
static cudaError_t fused(const struct tpr_cu_attn *a, int dh, float scale, cudaStream_t s)
{
	if ((a->maxn + ROWS - 1) / ROWS > GRID_Y_MAX)
		return cudaErrorInvalidConfiguration;
	if (dh <= 16)
		return launch_fused<16, T>(a, dh, scale, s);
	if (dh <= 32)
		return launch_fused<32, T>(a, dh, scale, s);
	if (dh <= 64)
		return launch_fused<64, T>(a, dh, scale, s);
	if (dh <= TPR_CU_MAX_DH)
		return launch_fused<TPR_CU_MAX_DH, T>(a, dh, scale, s);
	return cudaErrorInvalidValue;
}

template <typename T>
static cudaError_t three_steps(const struct tpr_cu_attn *a, int dh, float scale, cudaStream_t s)
{
	unsigned gh = (unsigned)a->nlarge * (unsigned)a->heads;
	unsigned t16 = cap_y((a->maxn + 15) / 16);
	scores_kernel<T><<<dim3(gh, t16, t16), dim3(16, 16), 0, s>>>(
		(const T *)a->q, (const T *)a->k, a->ld, a->scores, a->goff, a->large, a->soff, a->heads, dh, scale);
	softmax_kernel<<<dim3(gh, cap_y((a->maxn + 127) / 128)), 128, 0, s>>>(a->scores, a->goff, a->large,
									     a->soff, a->heads);
	weighted_kernel<T><<<dim3(gh, cap_y(((long long)a->maxn * dh + 127) / 128)), 128, 0, s>>>(
		a->scores, (const T *)a->v, a->ld, a->out, a->goff, a->large, a->soff, a->heads, a->dim, dh);
	return cudaGetLastError();
}

template <typename T>
static cudaError_t attend(const struct tpr_cu_attn *a, cudaStream_t s)
{
	int dh = a->dim / a->heads;
	float scale = 1.0f / sqrtf((float)dh);
	cudaError_t r = launch_small<32, T>(a, a->small32, a->nsmall32, dh, scale, s);
	if (r == cudaSuccess)
		r = launch_small<64, T>(a, a->small64, a->nsmall64, dh, scale, s);
	if (r != cudaSuccess || a->nlarge == 0)
		return r;
	return a->fused ? fused<T>(a, dh, scale, s) : three_steps<T>(a, dh, scale, s);
}

cudaError_t tpr_cu_attend(const struct tpr_cu_attn *a, cudaStream_t s)
{
	return a->bf16 ? attend<__nv_bfloat16>(a, s) : attend<float>(a, s);
}
