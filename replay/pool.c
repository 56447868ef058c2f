/*
 * pool.c - persistent worker threads woken by a generation counter.
 *
 * The caller publishes (fn, ctx), bumps the generation and runs its own
 * share as thread 0; each worker sees the new generation, runs its share
 * and counts down; the caller waits for the count to reach zero.
 *
 * Both waits spin briefly before sleeping on a condition variable: a
 * replay of one small graph lasts tens of microseconds, and a futex
 * wake-up on each side would be most of it. The sleeping path is the usual
 * check-under-the-mutex, so no wake-up is lost: the counters change before
 * the mutex is taken to signal.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "pool.h"
#include "base/base.h"

#define SPIN 20000 /* polls before sleeping: ~10-50 microseconds */

struct worker {
	struct tpr_pool *pool;
	int index;
};

struct tpr_pool {
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	atomic_ulong gen;
	atomic_int pending;
	atomic_int quit;
	tpr_pool_fn fn; /* written before gen is bumped, read after it is seen */
	void *ctx;
	int nthreads;
	pthread_t *tid;
	struct worker *workers;
};

/* Waits until gen differs from seen (or quit); returns the new generation. */
static unsigned long wait_gen(struct tpr_pool *p, unsigned long seen)
{
	for (int i = 0; i < SPIN; i++) {
		unsigned long g = atomic_load_explicit(&p->gen, memory_order_acquire);
		if (g != seen || atomic_load(&p->quit))
			return g;
	}
	pthread_mutex_lock(&p->mu);
	while (atomic_load(&p->gen) == seen && !atomic_load(&p->quit))
		pthread_cond_wait(&p->go, &p->mu);
	pthread_mutex_unlock(&p->mu);
	return atomic_load(&p->gen);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct tpr_pool *p = w->pool;
	unsigned long seen = 0;
	for (;;) {
		seen = wait_gen(p, seen);
		if (atomic_load(&p->quit))
			break;
		p->fn(p->ctx, w->index, p->nthreads);
		if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) == 1) {
			pthread_mutex_lock(&p->mu);
			pthread_cond_signal(&p->done);
			pthread_mutex_unlock(&p->mu);
		}
	}
	return NULL;
}

struct tpr_pool *tpr_pool_new(int threads)
{
	struct tpr_pool *p = xcalloc(1, sizeof(*p));
	if (threads <= 0)
		threads = tp_ncpus();
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->go, NULL);
	pthread_cond_init(&p->done, NULL);
	atomic_init(&p->gen, 0);
	atomic_init(&p->pending, 0);
	atomic_init(&p->quit, 0);
	p->tid = xcalloc((size_t)threads, sizeof(*p->tid));
	p->workers = xcalloc((size_t)threads, sizeof(*p->workers));
	/* nthreads only grows here, before any run: workers read it in runs only */
	p->nthreads = 1;
	for (int i = 1; i < threads; i++) {
		p->workers[i].pool = p;
		p->workers[i].index = i;
		if (pthread_create(&p->tid[i], NULL, worker_main, &p->workers[i]) != 0)
			break;
		p->nthreads++;
	}
	return p;
}

int tpr_pool_size(const struct tpr_pool *p)
{
	return p->nthreads;
}

void tpr_pool_run(struct tpr_pool *p, tpr_pool_fn fn, void *ctx)
{
	if (p->nthreads == 1) {
		fn(ctx, 0, 1);
		return;
	}
	p->fn = fn;
	p->ctx = ctx;
	atomic_store(&p->pending, p->nthreads - 1);
	atomic_fetch_add_explicit(&p->gen, 1, memory_order_acq_rel);
	pthread_mutex_lock(&p->mu);
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	fn(ctx, 0, p->nthreads);
	for (int i = 0; i < SPIN && atomic_load_explicit(&p->pending, memory_order_acquire); i++)
		;
	pthread_mutex_lock(&p->mu);
	while (atomic_load(&p->pending))
		pthread_cond_wait(&p->done, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

void tpr_pool_free(struct tpr_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	atomic_store(&p->quit, 1);
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	for (int i = 1; i < p->nthreads; i++)
		pthread_join(p->tid[i], NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->go);
	pthread_cond_destroy(&p->done);
	free(p->tid);
	free(p->workers);
	free(p);
}
