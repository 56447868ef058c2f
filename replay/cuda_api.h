/*
 * cuda_api.h - the CUDA backend as the C side sees it: plain functions
 * over types.h data, implemented by cuda.cu (nvcc) or, in a build without
 * CUDA, by cuda_stub.c, which reports "built without CUDA".
 *
 * Every function returns 0 on success and -1 with e filled on failure;
 * tpr_cuda_open returns 1 when no device answers (e says why: the error
 * of cudaGetDeviceCount, e.g. 35 without a driver, 100 without a device).
 */
#ifndef TPROF_REPLAY_CUDA_API_H
#define TPROF_REPLAY_CUDA_API_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tpr_cuda;

/* 1 if this build has a CUDA backend at all. */
int tpr_cuda_built(void);

/* What ran the last projections (cuBLAS and its version, or the own kernel and why); "" without CUDA. */
const char *tpr_cuda_gemm(const struct tpr_cuda *c);

int tpr_cuda_open(struct tpr_cuda **c, struct tpr_device_info *info, struct tpr_err *e);
void tpr_cuda_close(struct tpr_cuda *c);

/* Walks from every node of g; nodes and edges are host arrays ([P, n, L+1], [P, n, L]). */
int tpr_cuda_walks(struct tpr_cuda *c, const struct tpr_graph *g, const struct tpr_walk_cfg *cfg,
		   int32_t *nodes, int32_t *edges, struct tpr_err *e);

/* Attention of job (host pointers) into out [n, dim] (host). */
int tpr_cuda_attn(struct tpr_cuda *c, const struct tpr_attn_job *j, float *out, struct tpr_err *e);

/*
 * Timed replays (inputs uploaded once; see struct tpr_measure): kernel
 * samples are CUDA events around one batched launch on one stream; call
 * samples the host clock around launch + cudaStreamSynchronize, one
 * launch per graph with TPR_PER_GRAPH in mode (the GPM tower's view);
 * copies of the inputs and outputs with pinned and pageable host memory.
 */
int tpr_cuda_bench_walks(struct tpr_cuda *c, const struct tpr_graph *g,
			 const struct tpr_walk_cfg *cfg, const struct tpr_timing_opts *o,
			 int mode, struct tpr_measure *m, struct tpr_err *e);
int tpr_cuda_bench_attn(struct tpr_cuda *c, const struct tpr_attn_job *j,
			const struct tpr_timing_opts *o, struct tpr_measure *m, struct tpr_err *e);

#ifdef __cplusplus
}
#endif

#endif
