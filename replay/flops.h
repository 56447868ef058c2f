/*
 * flops.h - what a kernel moves and computes, for the roofline, and seed
 * 002's FLOP model of a graph transformer, for judging logged forward
 * times. S2's assumptions: a matrix product A(m x k) B(k x n) is
 * 2mkn FLOPs; an element-wise op 1 per element; softmax ~5 per element of
 * a row; GELU 4 per element. With them a layer of the sample's model
 * (500 nodes, hidden 128, 8 heads, FFN 256, 2500 edges, 6 layers) gives
 * exactly its logged 1.22 (attention), 0.40 (FFN), 0.20 (MPNN) and 1.82
 * (total) GFLOPs, which tests/test_replay.c checks.
 *
 * Bytes are compulsory DRAM traffic: every input read once, every output
 * written once (and, for the three-step attention of graphs larger than
 * TPR_ATTN_SMALL, the score matrix written, read and written by the
 * softmax, read again; smaller graphs keep theirs on chip). A kernel that
 * re-reads through the caches moves more; the achieved GB/s is therefore a
 * lower bound of the real traffic's. Elements are 4 bytes, 2 where BF16
 * is stored (X, the weights, Q, K, V; the output stays FP32).
 *
 * min_bytes is what any implementation of the same work must move (the
 * inputs once, the outputs once, in 4-byte elements; no intermediate such
 * as Q, K, V or the scores): the memory half of a roofline bound.
 */
#ifndef TPROF_REPLAY_FLOPS_H
#define TPROF_REPLAY_FLOPS_H

#include "types.h"

struct tpr_work {
	double flops;   /* FP32 operations */
	double bytes;   /* compulsory DRAM bytes of our kernels */
	double min_bytes; /* inputs and outputs alone, 4-byte elements */
	double units;   /* walk steps, or attention score entries */
};

/* Matrix product of rows x in by in x out. */
double tpr_flops_linear(double in, double out, double rows);

/* S2, per layer, for one graph of n nodes. */
double tpr_flops_ffn(double n, double dim, double ffn);
double tpr_flops_mpnn(double n, double edges, double dim);      /* GIN: sum over edges, 2-layer MLP */

/* A GraphTransformer/GPS model of S2 over a batch (sum of n and n^2 over graphs). */
struct tpr_gt_model {
	double graphs, nodes, nodes_sq, edges; /* batch totals: sum n, sum n^2, edges */
	double dim, heads, ffn, layers;
};
struct tpr_gt_flops {
	double attention, ffn, mpnn, total; /* all layers */
};
void tpr_gt_flops(const struct tpr_gt_model *m, struct tpr_gt_flops *f);

/* What our kernels do. */
void tpr_work_walks(const struct tpr_graph *g, const struct tpr_walk_cfg *c, struct tpr_work *w);
void tpr_work_attn(const struct tpr_attn_job *j, struct tpr_work *w);

#endif
