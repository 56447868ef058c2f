/*
 * flops.c - S2's FLOP model and the traffic model of the replay
 * kernels (see flops.h for the assumptions).
 */
#include "flops.h"

double tpr_flops_linear(double in, double out, double rows)
{
	return 2 * rows * in * out;
}

/* Scores 2 n^2 d, softmax 5 n^2 per head, weighted sum 2 n^2 d: the n^2 terms of a layer. */
static double attention_core(double nodes_sq, double dim, double heads)
{
	return 2 * nodes_sq * dim + 5 * nodes_sq * heads + 2 * nodes_sq * dim;
}

double tpr_flops_ffn(double n, double dim, double ffn)
{
	return tpr_flops_linear(dim, ffn, n) + tpr_flops_linear(ffn, dim, n) + 4 * n * ffn;
}

double tpr_flops_mpnn(double n, double edges, double dim)
{
	return edges * dim + 2 * tpr_flops_linear(dim, dim, n);
}

void tpr_gt_flops(const struct tpr_gt_model *m, struct tpr_gt_flops *f)
{
	f->attention = m->layers * (4 * tpr_flops_linear(m->dim, m->dim, m->nodes) +
				    attention_core(m->nodes_sq, m->dim, m->heads));
	f->ffn = m->layers * tpr_flops_ffn(m->nodes, m->dim, m->ffn);
	f->mpnn = m->layers * tpr_flops_mpnn(m->nodes, m->edges, m->dim);
	f->total = f->attention + f->ffn + f->mpnn;
}

/*
 * Per step: rowptr[cur], rowptr[cur+1] and col[e] read (12 bytes), the
 * node and edge ids written (8 bytes); plus the start node of each walk.
 * node2vec's membership tests read more (binary searches); not counted.
 */
void tpr_work_walks(const struct tpr_graph *g, const struct tpr_walk_cfg *c, struct tpr_work *w)
{
	double walks = (double)c->patterns * g->n, steps = walks * c->length;
	w->units = steps;
	w->flops = 0; /* integer work only: Philox and index arithmetic */
	w->bytes = steps * 20 + walks * 4;
	w->min_bytes = w->bytes; /* the CSR reads and the walks' ids: nothing in between */
}

void tpr_work_attn(const struct tpr_attn_job *j, struct tpr_work *w)
{
	double sq = 0, sq_big = 0, nd = (double)j->n * j->dim, dd = 3.0 * j->dim * j->dim;
	double elt = j->precision == TPR_BF16 ? 2 : 4;
	for (int32_t g = 0; g < j->ngraphs; g++) {
		double n = j->goff[g + 1] - j->goff[g];
		sq += n * n;
		sq_big += n > TPR_ATTN_SMALL ? n * n : 0;
	}
	w->units = sq * j->heads;
	w->flops = attention_core(sq, j->dim, j->heads);
	w->bytes = elt * 3 * nd + 4 * nd; /* Q, K, V read; out written */
	w->min_bytes = 4 * (3 * nd + nd);
	if (j->project) {
		w->flops += 3 * tpr_flops_linear(j->dim, j->dim, j->n);
		w->bytes += elt * (nd + dd + 3 * nd); /* X, W read; Q, K, V written */
		w->min_bytes = 4 * (nd + dd + nd);    /* X, W read; out written */
	}
	if (!j->fused)
		w->bytes += 4 * 4 * sq_big * j->heads; /* scores: written, read + written by softmax, read */
}
