/*
 * cuda_kernels.h - the launchers of the CUDA kernels (walk.cu, attn.cu) and
 * the projections' matrix product (gemm.cu: cuBLAS loaded at run time),
 * for the CUDA backend (cuda.cu). C++ only: nvcc compiles every user.
 *
 * Launchers only enqueue work on the given stream and return the launch
 * error (cudaGetLastError); execution errors surface at the caller's next
 * synchronization.
 */
#ifndef TPROF_REPLAY_CUDA_KERNELS_H
#define TPROF_REPLAY_CUDA_KERNELS_H

#include <stddef.h>

#include <cuda_runtime.h>

#include "types.h"

/* Walks from the nodes [n0, n1) of a graph of n nodes (device CSR; outputs as walk_core.h). */
cudaError_t tpr_cu_walks(const int32_t *rowptr, const int32_t *col, const struct tpr_walk_cfg &c,
			 int32_t n, int32_t n0, int32_t n1, int32_t *nodes, int32_t *edges, int sms,
			 cudaStream_t s);

/*
 * An attention job on the device, after the projections: Q, K and V are
 * read as rows of stride ld (3 dim when they are the columns of one
 * projection's output, dim otherwise), in FP32 or, with bf16, BF16; the
 * output is FP32 [n, dim]. Graphs are served by size class: small32 (1 to
 * 32 nodes) and small64 (33 to 64) by one block per (graph, head), large
 * by the variant's own kernels; graphs of no nodes are in no list.
 */
struct tpr_cu_attn {
	int32_t ngraphs, n, dim, heads, maxn;
	int32_t fused, bf16;
	const int32_t *goff;            /* ngraphs + 1 */
	const int32_t *small32, *small64, *large; /* graph ids of each class */
	int32_t nsmall32, nsmall64, nlarge;
	const long long *soff;          /* three-step, large graphs: score offsets (sum of the earlier large n_g^2) */
	const void *q, *k, *v;
	int32_t ld;
	float *out;
	float *scores;                  /* three-step only: heads * sum of the large n_g^2 */
};

/* Largest head size (dim / heads) of the fused kernel and of the small-graph one. */
#define TPR_CU_MAX_DH 128
#define TPR_CU_SMALL_MAX_DH 128

/* 1 if graphs of up to np (32 or 64) nodes fit the small-graph kernel at head size dh. */
int tpr_cu_small_fits(int np, int dh, size_t smem_optin);

cudaError_t tpr_cu_attend(const struct tpr_cu_attn *a, cudaStream_t s);

/* y [n, nc] = x [n, kd] w [kd, nc], row-major, FP32 or BF16 elements (FP32 sums): the own kernel. */
cudaError_t tpr_cu_project_own(const void *x, const void *w, void *y, int n, int kd, int nc, int bf16,
			       cudaStream_t s);

/* b[i] = a[i] in BF16, i < n. */
cudaError_t tpr_cu_to_bf16(const float *a, void *b, long long n, cudaStream_t s);

/*
 * cuBLAS, loaded with dlopen on first use (the binary does not link it, so
 * it runs where the toolkit's libcublas is absent). tpr_cu_blas_open
 * returns 0, or -1 with why (one sentence). tpr_cu_blas_gemm is the same
 * product as tpr_cu_project_own through cublasGemmEx at the precision's
 * compute type: FP32 (CUBLAS_COMPUTE_32F, no TF32), TF32
 * (CUBLAS_COMPUTE_32F_FAST_TF32) or BF16 (BF16 in and out, FP32 sums); it
 * returns the cuBLAS status (0: success).
 */
struct tpr_cu_blas;
int tpr_cu_blas_open(struct tpr_cu_blas **b, cudaStream_t s, char *why, size_t n);
void tpr_cu_blas_close(struct tpr_cu_blas *b);
const char *tpr_cu_blas_name(const struct tpr_cu_blas *b);
int tpr_cu_blas_gemm(struct tpr_cu_blas *b, int precision, const void *x, const void *w, void *y, int n,
		     int kd, int nc);

#endif
