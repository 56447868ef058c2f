/*
 * walk.h - GPM pattern generation on the CPU: P random walks of L steps
 * from every node, uniform or node2vec-biased, as the single-threaded
 * reference and as the multi-threaded CPU backend. The CUDA kernel
 * (walk.cu) runs the same walk_core.h and must match them bit for bit.
 *
 * Output layout: nodes [P, n1 - n0, L + 1] and edges [P, n1 - n0, L]
 * (edge ids index the sorted CSR col array; -1 where a node without
 * neighbours kept the walk in place).
 */
#ifndef TPROF_REPLAY_WALK_H
#define TPROF_REPLAY_WALK_H

#include <stdint.h>

#include "pool.h"
#include "types.h"
#include "base/base.h"

struct tpr_walk_params {
	int32_t patterns, length;
	double p, q;      /* node2vec return and in-out parameters; 1, 1: uniform */
	uint64_t seed;
};

/* node2vec proposals tried before the last one is taken (keeps a walk's cost bounded). */
#define TPR_MAX_ATTEMPTS 4096u

/* Fills the kernel configuration; -1 with a message for bad parameters. */
int tpr_walk_cfg_make(struct tpr_walk_cfg *c, const struct tpr_walk_params *w, struct strbuf *err);

/* Walks from the nodes [n0, n1) of g: the single-threaded reference. */
void tpr_walk_ref(const struct tpr_graph *g, const struct tpr_walk_cfg *c, int32_t n0, int32_t n1,
		  int32_t *nodes, int32_t *edges);

/* The same on every thread of the pool (static contiguous shares). */
void tpr_walk_cpu(struct tpr_pool *pool, const struct tpr_graph *g, const struct tpr_walk_cfg *c,
		  int32_t n0, int32_t n1, int32_t *nodes, int32_t *edges);

/* Walks, steps and output sizes of a call over [n0, n1). */
uint64_t tpr_walk_count(const struct tpr_walk_cfg *c, int32_t n0, int32_t n1);
size_t tpr_walk_nodes_len(const struct tpr_walk_cfg *c, int32_t n0, int32_t n1);
size_t tpr_walk_edges_len(const struct tpr_walk_cfg *c, int32_t n0, int32_t n1);

#endif
