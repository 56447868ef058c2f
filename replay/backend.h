/*
 * backend.h - where tprof-replay runs its kernels: the CPU (a pthreads
 * pool; always there) or a CUDA device (cuda.cu; only in a build with
 * nvcc and where a device answers), behind one set of calls.
 *
 * Timing is the same on both (types.h, struct tpr_measure): warm-up runs,
 * then up to `trials` timed runs within a time budget; medians, minima and
 * maxima come from tpr_stat_of. On the CPU the kernel and the call are
 * one thing (the monotonic clock around the call) and there are no copies.
 */
#ifndef TPROF_REPLAY_BACKEND_H
#define TPROF_REPLAY_BACKEND_H

#include "pool.h"
#include "types.h"
#include "util.h"

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

void tpr_measure_init(struct tpr_measure *m, int cap);
void tpr_measure_free(struct tpr_measure *m);

struct tpr_stat {
	double median, min, max; /* ms; NAN when n == 0 */
	int n;
};
/* Through analyze/stats.h's tp_series (exact quantiles for these sizes). */
void tpr_stat_of(const struct tpr_samples *s, struct tpr_stat *st);

/* Monotonic clock in milliseconds. */
double tpr_now_ms(void);

/* CPU peaks: measured memcpy bandwidth and a documented FP32 estimate. */
void tpr_cpu_info(struct tpr_device_info *info, int threads);

#endif
