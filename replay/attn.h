/*
 * attn.h - graph attention on the CPU: multi-head self-attention over the
 * nodes of each graph of a batch (types.h, struct tpr_attn_job), FP32.
 *
 *   tpr_attn_ref  the reference: every sum in double (projections too)
 *   tpr_attn_cpu  FP32 on a thread pool, either the three-step version
 *                 (scores, softmax with the row maximum subtracted,
 *                 weighted sum) or the fused one (online softmax over
 *                 blocks of keys, never holding a row of scores)
 *
 * The CUDA kernels (attn.cu) compute the same two variants; all agree with
 * the reference within ~1e-5 of the output's magnitude.
 */
#ifndef TPROF_REPLAY_ATTN_H
#define TPROF_REPLAY_ATTN_H

#include "pool.h"
#include "types.h"
#include "base/base.h"

/* Rows of queries per work item: small enough to spread one large graph over the threads. */
#define TPR_ATTN_ROWS 64
/* Keys per block of the fused CPU version. */
#define TPR_ATTN_KEYS 256

/* -1 with a message if the shape is inconsistent (dim % heads, offsets). */
int tpr_attn_check(const struct tpr_attn_job *j, struct strbuf *err);

/* out: [n, dim], double. */
void tpr_attn_ref(const struct tpr_attn_job *j, double *out);

/* Scratch for tpr_attn_cpu, sized for one job and pool. */
struct tpr_attn_ws;
struct tpr_attn_ws *tpr_attn_ws_new(const struct tpr_attn_job *j, int nthreads);
void tpr_attn_ws_free(struct tpr_attn_ws *ws);

/* out: [n, dim], float. A pool of one thread is the straightforward single-threaded version. */
void tpr_attn_cpu(struct tpr_pool *pool, const struct tpr_attn_job *j, struct tpr_attn_ws *ws,
		  float *out);

/* Largest relative difference max|a - ref| / max|ref| over n values. */
double tpr_rel_err(const float *a, const double *ref, size_t n);

#endif
