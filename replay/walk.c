/*
 * walk.c - the C reference and the pthreads CPU implementation of GPM
 * pattern generation. Both are thin loops over walk_core.h; the threads
 * split the walks into contiguous ranges, which cannot change a walk
 * (its random numbers depend on its identity only).
 */
#include <math.h>

#include "walk.h"
#include "walk_core.h"

/* 2^32 * w / wmax, as an integer threshold in [0, 2^32]. */
static uint64_t threshold(double w, double wmax)
{
	double t = floor(w / wmax * 4294967296.0 + 0.5);
	return t >= 4294967296.0 ? 4294967296ull : (uint64_t)t;
}

int tpr_walk_cfg_make(struct tpr_walk_cfg *c, const struct tpr_walk_params *w, struct strbuf *err)
{
	if (w->patterns < 1 || w->patterns > 1000000 || w->length < 0 || w->length > 1000000) {
		strbuf_addf(err, "%d patterns of length %d: out of range", (int)w->patterns,
			    (int)w->length);
		return -1;
	}
	if (!(w->p > 0) || !(w->q > 0) || !isfinite(w->p) || !isfinite(w->q)) {
		strbuf_addf(err, "node2vec p and q must be positive, not %g and %g", w->p, w->q);
		return -1;
	}
	c->key0 = (uint32_t)w->seed;
	c->key1 = (uint32_t)(w->seed >> 32);
	c->patterns = w->patterns;
	c->length = w->length;
	c->node2vec = !(w->p == 1 && w->q == 1);
	c->max_attempts = TPR_MAX_ATTEMPTS;
	double wr = 1 / w->p, wo = 1 / w->q, wmax = wr > 1 ? wr : 1;
	wmax = wo > wmax ? wo : wmax;
	c->thr_return = threshold(wr, wmax);
	c->thr_common = threshold(1, wmax);
	c->thr_other = threshold(wo, wmax);
	return 0;
}

uint64_t tpr_walk_count(const struct tpr_walk_cfg *c, int32_t n0, int32_t n1)
{
	return (uint64_t)c->patterns * (uint64_t)(n1 - n0);
}

size_t tpr_walk_nodes_len(const struct tpr_walk_cfg *c, int32_t n0, int32_t n1)
{
	return (size_t)tpr_walk_count(c, n0, n1) * (size_t)(c->length + 1);
}

size_t tpr_walk_edges_len(const struct tpr_walk_cfg *c, int32_t n0, int32_t n1)
{
	return (size_t)tpr_walk_count(c, n0, n1) * (size_t)c->length;
}

static void walk_range(const struct tpr_graph *g, const struct tpr_walk_cfg *c, int32_t n0,
		       int32_t n1, uint64_t i0, uint64_t i1, int32_t *nodes, int32_t *edges)
{
	for (uint64_t i = i0; i < i1; i++)
		tpr_walk_index(g->rowptr, g->col, c, g->n, n0, n1, i, nodes, edges);
}

void tpr_walk_ref(const struct tpr_graph *g, const struct tpr_walk_cfg *c, int32_t n0, int32_t n1,
		  int32_t *nodes, int32_t *edges)
{
	if (n1 > n0)
		walk_range(g, c, n0, n1, 0, tpr_walk_count(c, n0, n1), nodes, edges);
}

struct walk_job {
	const struct tpr_graph *g;
	const struct tpr_walk_cfg *c;
	int32_t n0, n1;
	int32_t *nodes, *edges;
};

static void walk_share(void *ctx, int tid, int nthreads)
{
	const struct walk_job *j = ctx;
	uint64_t total = tpr_walk_count(j->c, j->n0, j->n1);
	uint64_t i0 = total * (uint64_t)tid / (uint64_t)nthreads;
	uint64_t i1 = total * (uint64_t)(tid + 1) / (uint64_t)nthreads;
	walk_range(j->g, j->c, j->n0, j->n1, i0, i1, j->nodes, j->edges);
}

void tpr_walk_cpu(struct tpr_pool *pool, const struct tpr_graph *g, const struct tpr_walk_cfg *c,
		  int32_t n0, int32_t n1, int32_t *nodes, int32_t *edges)
{
	struct walk_job j = { g, c, n0, n1, nodes, edges };
	if (n1 > n0)
		tpr_pool_run(pool, walk_share, &j);
}
