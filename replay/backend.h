/*
 * backend.h - where tprof-replay runs its kernels: the CPU (a pthreads
 * pool; always there) or a CUDA device (cuda.cu; only in a build with
 * nvcc and where a device answers), behind one set of calls.
 *
 * Timing is the same on both (types.h, struct tpr_measure): warm-up runs,
 * then up to `trials` timed runs within a time budget; medians, minima and
 * maxima come from tpr_stat_of (measure.h). On the CPU the kernel and the call are
 * one thing (the monotonic clock around the call) and there are no copies.
 */
#ifndef TPROF_REPLAY_BACKEND_H
#define TPROF_REPLAY_BACKEND_H

#include "measure.h"
#include "pool.h"
#include "types.h"
#include "base/base.h"

enum tpr_backend_kind { TPR_BE_CPU, TPR_BE_CUDA };

struct tpr_backend {
	enum tpr_backend_kind kind;
	struct tpr_pool *pool;   /* CPU */
	struct tpr_cuda *cuda;   /* CUDA */
	struct tpr_device_info info;
};

/*
 * which is "auto", "cpu" or "cuda"; threads is the CPU pool size (0: one
 * per core). With "auto" and no usable device, the CPU is used and note
 * gets the one-line reason. Returns 0, or -1 with err set and *code the
 * exit status (TP_EXIT_INPUT for a bad name, TP_EXIT_INTERNAL when the
 * device asked for fails).
 */
int tpr_backend_open(struct tpr_backend *be, const char *which, int threads, struct strbuf *note,
		     struct strbuf *err, int *code);
void tpr_backend_close(struct tpr_backend *be);

/* Walks from every node of g into host arrays ([P, n, L+1], [P, n, L]). */
int tpr_run_walks(struct tpr_backend *be, const struct tpr_graph *g, const struct tpr_walk_cfg *c,
		  int32_t *nodes, int32_t *edges, struct strbuf *err);
/* Attention into host out [n, dim]. */
int tpr_run_attn(struct tpr_backend *be, const struct tpr_attn_job *j, float *out, struct strbuf *err);

/* Timed replays; mode: TPR_PER_GRAPH, TPR_NO_KERNEL (types.h). */
int tpr_bench_walks(struct tpr_backend *be, const struct tpr_graph *g, const struct tpr_walk_cfg *c,
		    const struct tpr_timing_opts *o, int mode, struct tpr_measure *m,
		    struct strbuf *err);
int tpr_bench_attn(struct tpr_backend *be, const struct tpr_attn_job *j,
		   const struct tpr_timing_opts *o, struct tpr_measure *m, struct strbuf *err);

#endif
