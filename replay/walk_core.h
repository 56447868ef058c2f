/*
 * walk_core.h - one random walk, written once for the C reference, the
 * CPU threads and the CUDA kernel, so that all three run the same integer
 * arithmetic and produce bit-identical walks.
 *
 * Walk w = p * N + s (pattern p, start node s, N nodes in the batch) draws
 * its step t's random words from Philox4x32-10 with counter (w lo, w hi, t,
 * attempt) and the seed as key. Uniform walks use word 0 to pick the
 * neighbour; node2vec walks propose a neighbour with word 0 and accept it
 * with word 1 (rejection sampling, Grover & Leskovec 2016 weights 1/p to
 * return, 1 to a common neighbour of the previous node, 1/q otherwise).
 */
#ifndef TPROF_WALK_CORE_H
#define TPROF_WALK_CORE_H

#include "philox.h"
#include "types.h"

/* Whether x is a neighbour of u: binary search of u's sorted list. */
TPR_HD int tpr_adjacent(const int32_t *rowptr, const int32_t *col, int32_t u, int32_t x)
{
	int32_t lo = rowptr[u], hi = rowptr[u + 1];
	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;
		if (col[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < rowptr[u + 1] && col[lo] == x;
}

/* The edge (index into col) that step t of walk w takes from cur, which has deg >= 1 neighbours. */
TPR_HD int32_t tpr_walk_pick(const int32_t *rowptr, const int32_t *col, const struct tpr_walk_cfg *c,
			     uint64_t w, uint32_t t, int32_t cur, int32_t prev)
{
	int32_t base = rowptr[cur];
	uint32_t deg = (uint32_t)(rowptr[cur + 1] - base);
	uint32_t wlo = (uint32_t)w, whi = (uint32_t)(w >> 32);
	if (!c->node2vec || prev < 0) {
		struct tpr_u32x4 r = tpr_philox(wlo, whi, t, 0, c->key0, c->key1);
		return base + (int32_t)tpr_below(r.v[0], deg);
	}
	int32_t e = base;
	for (uint32_t a = 0; a < c->max_attempts; a++) {
		struct tpr_u32x4 r = tpr_philox(wlo, whi, t, a, c->key0, c->key1);
		e = base + (int32_t)tpr_below(r.v[0], deg);
		int32_t x = col[e];
		uint64_t thr = x == prev ? c->thr_return
			       : tpr_adjacent(rowptr, col, prev, x) ? c->thr_common : c->thr_other;
		if ((uint64_t)r.v[1] < thr)
			break;
	}
	return e;
}

/*
 * Walk w from start: nodes[0..L] and edges[0..L-1]. A node without
 * neighbours keeps the walk where it is, with edge id -1.
 */
TPR_HD void tpr_walk_one(const int32_t *rowptr, const int32_t *col, const struct tpr_walk_cfg *c,
			 uint64_t w, int32_t start, int32_t *nodes, int32_t *edges)
{
	int32_t cur = start, prev = -1;
	nodes[0] = cur;
	for (int32_t t = 0; t < c->length; t++) {
		if (rowptr[cur + 1] == rowptr[cur]) {
			nodes[t + 1] = cur;
			edges[t] = -1;
			continue;
		}
		int32_t e = tpr_walk_pick(rowptr, col, c, w, (uint32_t)t, cur, prev);
		prev = cur;
		cur = col[e];
		nodes[t + 1] = cur;
		edges[t] = e;
	}
}

/*
 * Walk number i of a call that starts P walks from each of the nodes
 * [n0, n1) of a graph of n nodes; the outputs of that call are laid out
 * [P, n1 - n0, L + 1] and [P, n1 - n0, L]. The walk's identity (and so its
 * random numbers) depends on the global start node only, so a batched call
 * and one call per graph give the same walks.
 */
TPR_HD void tpr_walk_index(const int32_t *rowptr, const int32_t *col, const struct tpr_walk_cfg *c,
			   int32_t n, int32_t n0, int32_t n1, uint64_t i, int32_t *nodes, int32_t *edges)
{
	uint64_t nr = (uint64_t)(n1 - n0);
	uint64_t p = i / nr;
	int32_t s = n0 + (int32_t)(i % nr);
	uint64_t w = p * (uint64_t)n + (uint64_t)s;
	tpr_walk_one(rowptr, col, c, w, s, nodes + i * (uint64_t)(c->length + 1),
		     edges + i * (uint64_t)c->length);
}

#endif
