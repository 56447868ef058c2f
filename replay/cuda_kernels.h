/*
 * cuda_kernels.h - the launchers of the CUDA kernels (walk.cu, attn.cu),
 * for the CUDA backend (cuda.cu). C++ only: nvcc compiles every user.
 *
 * Launchers only enqueue work on the given stream and return the launch
 * error (cudaGetLastError); execution errors surface at the caller's next
 * synchronization.
 */
#ifndef TPROF_REPLAY_CUDA_KERNELS_H
#define TPROF_REPLAY_CUDA_KERNELS_H

#include <cuda_runtime.h>

#include "types.h"

/* Walks from the nodes [n0, n1) of a graph of n nodes (device CSR; outputs as walk_core.h). */
cudaError_t tpr_cu_walks(const int32_t *rowptr, const int32_t *col, const struct tpr_walk_cfg &c,
			 int32_t n, int32_t n0, int32_t n1, int32_t *nodes, int32_t *edges, int sms,
			 cudaStream_t s);

/* An attention job on the device. */
struct tpr_cu_attn {
	int32_t ngraphs, n, dim, heads, maxn;
	int32_t project, fused;
	const int32_t *goff;            /* ngraphs + 1 */
	const long long *soff;          /* three-step only: score offsets, sum of n_g^2 before g */
	const float *x, *wq, *wk, *wv;  /* when project */
	float *q, *k, *v;               /* inputs, or the projections' outputs */
	float *out;
	float *scores;                  /* three-step only: heads * sum n_g^2 */
};

/* Largest head size (dim / heads) of the fused kernel. */
#define TPR_CU_MAX_DH 128

cudaError_t tpr_cu_attn(const struct tpr_cu_attn *a, cudaStream_t s);

#endif
