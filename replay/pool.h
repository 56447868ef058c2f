/*
 * pool.h - a small fixed pool of worker threads for the CPU backend.
 *
 * tpr_pool_run calls fn(ctx, tid, nthreads) once on each of the pool's
 * threads (the caller is thread 0) and returns when all have returned.
 * Workers persist between calls, so a call costs a wake-up, not a thread
 * creation: the per-call latency of small workloads (one molecule's walks
 * take tens of microseconds) stays meaningful.
 */
#ifndef TPROF_REPLAY_POOL_H
#define TPROF_REPLAY_POOL_H

struct tpr_pool;

typedef void (*tpr_pool_fn)(void *ctx, int tid, int nthreads);

/* threads <= 0: one per online CPU. Threads that cannot be created are
 * left out (the pool may be smaller than asked; at least the caller). */
struct tpr_pool *tpr_pool_new(int threads);
int tpr_pool_size(const struct tpr_pool *p);
void tpr_pool_run(struct tpr_pool *p, tpr_pool_fn fn, void *ctx);
void tpr_pool_free(struct tpr_pool *p);

#endif
